// measure_streams: options, chunks and the JSON forms (streams_request.h, streams_types.h). No
// CUDA here.
#include "streams_request.h"

#include <algorithm>

namespace warpscope::probe {

namespace {

using json = nlohmann::json;

} // namespace

std::vector<int> streamsCounts(const StreamsOptions& options) {
    std::vector<int> counts = options.streams;
    if (counts.empty()) {
        counts = {1, 2, 3, 4, 5, 6, 7, 8};
    }
    counts.push_back(1);
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return counts;
}

StreamsChunk streamsChunk(std::int64_t elements, int streams, int i) {
    const std::int64_t first = elements * i / streams;
    const std::int64_t next = elements * (i + 1) / streams;
    return StreamsChunk{first, next - first};
}

RequestResult<StreamsOptions> parseStreamsOptions(const json& request) {
    StreamsOptions options;
    const auto found = request.find("options");
    if (found == request.end()) {
        return options;
    }
    if (!found->is_object()) {
        return badRequestAt("\"options\" must be an object", "/options");
    }
    for (const auto& item : found->items()) {
        const std::string& key = item.key();
        if (key != "bytes" && key != "streams" && key != "repetitions" && key != "work" &&
            key != "order") {
            return badRequestAt(
                "measure_streams takes no option \"" + key +
                    "\"; the options are bytes, streams, repetitions, work and order",
                "/options/" + key);
        }
    }
    const auto integer = [&](const char* key, std::int64_t low, std::int64_t high,
                             std::int64_t& out) -> std::optional<RequestError> {
        const auto value = found->find(key);
        if (value == found->end()) {
            return std::nullopt;
        }
        if (!value->is_number_integer() || value->get<std::int64_t>() < low ||
            value->get<std::int64_t>() > high) {
            return badRequestAt(std::string("\"") + key + "\" must be an integer from " +
                                    std::to_string(low) + " to " + std::to_string(high) +
                                    "; found " + value->dump(),
                                std::string("/options/") + key);
        }
        out = value->get<std::int64_t>();
        return std::nullopt;
    };
    std::int64_t repetitions = options.repetitions;
    std::int64_t work = options.work;
    for (auto error : {integer("bytes", kStreamsMinBytes, kStreamsMaxBytes, options.bytes),
                       integer("repetitions", 1, kStreamsMaxRepetitions, repetitions),
                       integer("work", 0, kStreamsMaxWork, work)}) {
        if (error) {
            return *error;
        }
    }
    if (options.bytes % 4 != 0) {
        return badRequestAt("\"bytes\" must be a multiple of 4 (the array holds floats); found " +
                                std::to_string(options.bytes),
                            "/options/bytes");
    }
    options.repetitions = static_cast<int>(repetitions);
    options.work = static_cast<int>(work);
    if (const auto streams = found->find("streams"); streams != found->end()) {
        if (!streams->is_array() || streams->empty() ||
            streams->size() > static_cast<std::size_t>(kStreamsMaxStreams)) {
            return badRequestAt("\"streams\" must be an array of 1 to " +
                                    std::to_string(kStreamsMaxStreams) + " stream counts",
                                "/options/streams");
        }
        for (std::size_t i = 0; i < streams->size(); ++i) {
            const json& count = (*streams)[i];
            if (!count.is_number_integer() || count.get<std::int64_t>() < 1 ||
                count.get<std::int64_t>() > kStreamsMaxStreams) {
                return badRequestAt("a stream count must be an integer from 1 to " +
                                        std::to_string(kStreamsMaxStreams) + "; found " +
                                        count.dump(),
                                    "/options/streams/" + std::to_string(i));
            }
            options.streams.push_back(static_cast<int>(count.get<std::int64_t>()));
        }
    }
    if (const auto order = found->find("order"); order != found->end()) {
        const auto parsed =
            order->is_string() ? streamIssueOrderFromName(order->get<std::string>()) : std::nullopt;
        if (!parsed) {
            return badRequestAt(
                "\"order\" must be \"per_stream\" (each stream's copy in, kernel and "
                "copy out in turn) or \"by_stage\" (every copy in, then every "
                "kernel, then every copy out); found " +
                    order->dump(),
                "/options/order");
        }
        options.order = *parsed;
    }
    return options;
}

json toJson(const StreamsMeasurement& measurement) {
    json runs = json::array();
    const double sequential = measurement.runs.empty() ? 0.0 : measurement.runs.front().totalMs;
    for (const StreamsRun& run : measurement.runs) {
        json timeline = json::array();
        for (const StreamsOpRecord& op : run.timeline) {
            json item{{"stream", op.stream},
                      {"op", streamOpName(op.op)},
                      {"startMs", op.startMs},
                      {"endMs", op.endMs},
                      {"bytes", op.bytes}};
            if (op.channel >= 0) {
                item["channel"] = op.channel;
            }
            timeline.push_back(std::move(item));
        }
        const StreamPrediction predicted = predictStreams(
            measurement.stages, run.streams, measurement.asyncEngineCount, measurement.order);
        runs.push_back(json{{"streams", run.streams},
                            {"totalMs", run.totalMs},
                            {"minMs", run.minMs},
                            {"maxMs", run.maxMs},
                            {"samples", run.samples},
                            {"speedup", run.totalMs > 0.0 ? sequential / run.totalMs : 0.0},
                            {"predictedMs", predicted.totalMs},
                            {"predictedSpeedup", predicted.speedup},
                            {"timeline", std::move(timeline)}});
    }
    return json{
        {"device", measurement.deviceName},
        {"asyncEngineCount", measurement.asyncEngineCount},
        {"concurrentKernels", measurement.concurrentKernels},
        {"bytes", measurement.bytes},
        {"work", measurement.work},
        {"repetitions", measurement.repetitions},
        {"order", streamIssueOrderName(measurement.order)},
        {"timelineSource", measurement.timelineSource},
        {"timelineNote", measurement.timelineNote},
        {"stages", json{{"h2dMs", measurement.stages.h2dMs},
                        {"kernelMs", measurement.stages.kernelMs},
                        {"d2hMs", measurement.stages.d2hMs}}},
        {"speedupLimit", streamSpeedupLimit(measurement.stages, measurement.asyncEngineCount)},
        {"model", streamsModelStatement(measurement.asyncEngineCount)},
        {"runs", std::move(runs)}};
}

} // namespace warpscope::probe
