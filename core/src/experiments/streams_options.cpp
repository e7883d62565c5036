// measure_streams' request options (StreamsExperiment::optionsFromJson, streams.h): every field
// optional, each refusal naming the field's JSON pointer. No CUDA here.
#include "warpscope/experiments/streams.h"

#include "request_options.h"

#include <cstdint>
#include <optional>
#include <string>

namespace warpscope::experiments {

namespace {

using json = nlohmann::json;

} // namespace

Result<StreamsExperiment::Options> StreamsExperiment::optionsFromJson(const json& request) {
    const auto object = detail::optionsObject(request, "measure_streams",
                                              {"bytes", "streams", "repetitions", "work", "order"});
    if (!object) {
        return object.error();
    }
    StreamsOptions options;
    const json* found = *object;
    std::int64_t repetitions = options.repetitions;
    std::int64_t work = options.work;
    for (auto error :
         {detail::readIntegerOption(*found, "bytes", kStreamsMinBytes, kStreamsMaxBytes,
                                    options.bytes),
          detail::readIntegerOption(*found, "repetitions", 1, kStreamsMaxRepetitions, repetitions),
          detail::readIntegerOption(*found, "work", 0, kStreamsMaxWork, work)}) {
        if (error) {
            return *error;
        }
    }
    if (options.bytes % 4 != 0) {
        return detail::optionError(
            "\"bytes\" must be a multiple of 4 (the array holds floats); found " +
                std::to_string(options.bytes),
            "/options/bytes");
    }
    options.repetitions = static_cast<int>(repetitions);
    options.work = static_cast<int>(work);
    if (const auto streams = found->find("streams"); streams != found->end()) {
        if (!streams->is_array() || streams->empty() ||
            streams->size() > static_cast<std::size_t>(kStreamsMaxStreams)) {
            return detail::optionError("\"streams\" must be an array of 1 to " +
                                           std::to_string(kStreamsMaxStreams) + " stream counts",
                                       "/options/streams");
        }
        for (std::size_t i = 0; i < streams->size(); ++i) {
            const json& count = (*streams)[i];
            if (!count.is_number_integer() || count.get<std::int64_t>() < 1 ||
                count.get<std::int64_t>() > kStreamsMaxStreams) {
                return detail::optionError("a stream count must be an integer from 1 to " +
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
            return detail::optionError(
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

} // namespace warpscope::experiments
