// measure_streams: the stream counts, the chunks, and the result's JSON written and read
// (experiments/streams.h). No CUDA here.
#include "warpscope/experiments/streams.h"

#include "../json_fields.h"
#include "../json_guard.h"
#include "result_fields.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace warpscope::experiments {

namespace {

using json = nlohmann::json;

} // namespace

const StreamsRun* StreamsMeasurement::run(int streams) const {
    const auto found = std::ranges::find(runs, streams, &StreamsRun::streams);
    return found != runs.end() ? &*found : nullptr;
}

double StreamsMeasurement::speedup(const StreamsRun& measured) const {
    const StreamsRun* sequential = run(1);
    return sequential != nullptr && measured.totalMs > 0.0 ? sequential->totalMs / measured.totalMs
                                                           : 0.0;
}

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

namespace {

using detail::AnswerReader;
using detail::arrayMember;
using detail::requiredInt;
using detail::requiredNumber;
using warpscope::detail::child;
using warpscope::detail::describe;

bool readOp(AnswerReader& reader, const json& value, const std::string& where, int streams,
            StreamsOpRecord& op) {
    if (!reader.requireObject(value, where, "an operation")) {
        return false;
    }
    std::string name;
    if (!reader.stringMember(value, "op", where, true, name)) {
        return false;
    }
    const auto kind = streamOpFromName(name);
    if (!kind) {
        return reader.fail("\"op\" must be \"h2d\", \"kernel\" or \"d2h\"; found \"" + name + "\"",
                           child(where, "op"));
    }
    op.op = *kind;
    std::int64_t stream = 0;
    if (!requiredInt(reader, value, "stream", where, 0, streams - 1, stream) ||
        !requiredNumber(reader, value, "startMs", where, std::numeric_limits<double>::lowest(),
                        op.startMs) ||
        !requiredNumber(reader, value, "endMs", where, op.startMs, op.endMs) ||
        !reader.optionalInt64(value, "bytes", where, op.bytes) ||
        !reader.optionalInt(value, "channel", where, op.channel)) {
        return false;
    }
    op.stream = static_cast<int>(stream);
    return true;
}

bool readRun(AnswerReader& reader, const json& value, const std::string& where, StreamsRun& run) {
    if (!reader.requireObject(value, where, "a run")) {
        return false;
    }
    std::int64_t streams = 0;
    if (!requiredInt(reader, value, "streams", where, 1, kStreamsMaxAnswerStreams, streams) ||
        !requiredNumber(reader, value, "totalMs", where, 0.0, run.totalMs) ||
        !reader.optionalNumber(value, "minMs", where, run.minMs) ||
        !reader.optionalNumber(value, "maxMs", where, run.maxMs) ||
        !reader.optionalInt(value, "samples", where, run.samples)) {
        return false;
    }
    run.streams = static_cast<int>(streams);
    if (!(run.totalMs > 0.0)) {
        return reader.fail("\"totalMs\" must be positive; found " +
                               describe(*AnswerReader::find(value, "totalMs")),
                           child(where, "totalMs"));
    }
    const json* timeline = arrayMember(reader, value, "timeline", where, false);
    if (timeline == nullptr) {
        return !reader.error();
    }
    const std::string at = child(where, "timeline");
    for (std::size_t i = 0; i < timeline->size(); ++i) {
        StreamsOpRecord op;
        if (!readOp(reader, (*timeline)[i], child(at, i), run.streams, op)) {
            return false;
        }
        run.timeline.push_back(op);
    }
    return true;
}

bool readStages(AnswerReader& reader, const json& value, const std::string& where,
                StreamStageTimes& stages) {
    const json* object = reader.member(value, "stages", where, true);
    if (object == nullptr || !reader.requireObject(*object, child(where, "stages"), "\"stages\"")) {
        return false;
    }
    const std::string at = child(where, "stages");
    return requiredNumber(reader, *object, "h2dMs", at, 0.0, stages.h2dMs) &&
           requiredNumber(reader, *object, "kernelMs", at, 0.0, stages.kernelMs) &&
           requiredNumber(reader, *object, "d2hMs", at, 0.0, stages.d2hMs);
}

} // namespace

Result<StreamsMeasurement> streamsMeasurementFromJson(const json& value,
                                                      const std::string& pointer) {
    AnswerReader reader;
    StreamsMeasurement m;
    std::int64_t engines = 0;
    std::string order = streamIssueOrderName(m.order);
    if (!reader.requireObject(value, pointer, "measure_streams' result") ||
        !requiredInt(reader, value, "asyncEngineCount", pointer, 0, kStreamsMaxAnswerStreams,
                     engines) ||
        !reader.optionalString(value, "device", pointer, m.deviceName) ||
        !reader.optionalBool(value, "concurrentKernels", pointer, m.concurrentKernels) ||
        !reader.optionalInt64(value, "bytes", pointer, m.bytes) ||
        !reader.optionalInt(value, "work", pointer, m.work) ||
        !reader.optionalInt(value, "repetitions", pointer, m.repetitions) ||
        !reader.optionalString(value, "order", pointer, order) ||
        !reader.optionalString(value, "timelineSource", pointer, m.timelineSource) ||
        !reader.optionalString(value, "timelineNote", pointer, m.timelineNote) ||
        !readStages(reader, value, pointer, m.stages)) {
        return *reader.error();
    }
    m.asyncEngineCount = static_cast<int>(engines);
    const auto issueOrder = streamIssueOrderFromName(order);
    if (!issueOrder) {
        reader.fail("\"order\" must be \"per_stream\" or \"by_stage\"; found \"" + order + "\"",
                    child(pointer, "order"));
        return *reader.error();
    }
    m.order = *issueOrder;
    const json* runs = arrayMember(reader, value, "runs", pointer, true);
    if (runs == nullptr) {
        return *reader.error();
    }
    const std::string at = child(pointer, "runs");
    for (std::size_t i = 0; i < runs->size(); ++i) {
        StreamsRun run;
        if (!readRun(reader, (*runs)[i], child(at, i), run)) {
            return *reader.error();
        }
        m.runs.push_back(std::move(run));
    }
    std::ranges::stable_sort(m.runs, {}, &StreamsRun::streams);
    if (m.runs.empty() || m.runs.front().streams != 1) {
        reader.fail("the one-stream run, the baseline of every speed-up, is missing", at);
        return *reader.error();
    }
    return m;
}

Result<StreamsMeasurement> streamsMeasurementFromJsonText(std::string_view text) {
    return warpscope::detail::readGuardedJsonText(text, &streamsMeasurementFromJson);
}

} // namespace warpscope::experiments
