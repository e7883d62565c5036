// `warpscope-probe experiment streams` (and `warpscope-probe streams`): the staged
// copy-and-kernel experiment over 1 to 8 streams, printed as a table beside the model's prediction
// (or the measure_streams answer as JSON), the command line's row of the experiment
// (experiment_commands.h). docs/protocol.md ("streams").
#include "experiment_commands.h"
#include "probe_text.h"
#include "streams_request.h"
#include <warpscope/format.h>

#include <nlohmann/json.hpp>

#include <iostream>
#include <sstream>

namespace warpscope::probe {

namespace {

const char* const kStreamsUsage =
    R"(streams    The course notes' staged copy-and-kernel experiment: an array copied in from
           pinned host memory (cudaMemcpyAsync), a kernel over it and the copy out, on one
           stream (sequential) and split into chunks over 2 to 8 streams (overlapped). Prints
           the device's copy engines (asyncEngineCount), each stage's time, and per stream count
           the median total, the measured speed-up over one stream and the one the model
           predicts for this engine count. The timeline of every copy and kernel is in --json.
  --bytes SIZE           the array (default 64M; 64K to 16G)
  --streams N1,N2,...    stream counts (default 1,2,...,8; 1 is always measured)
  --repetitions N        timed runs per count after one warm-up (default 7)
  --work N               multiply-adds per element in the kernel (default: as long as the copy)
  --order per_stream|by_stage
                         issue each stream's three operations in turn (default), or every
                         copy in, then every kernel, then every copy out
  --json                 the measure_streams answer as one JSON line
  Ctrl-C cancels between stream counts.
)";

using json = nlohmann::json;

bool wholeNumber(const std::string& text) {
    return !text.empty() && text.size() < 10 &&
           text.find_first_not_of("0123456789") == std::string::npos;
}

std::optional<int> readStreamsOption(const std::string& arg, const std::string& value,
                                     json& options) {
    if (arg == "--bytes") {
        const long long bytes = parseByteSize(value);
        if (bytes < 0) {
            return commandFail("--bytes: '" + value + "' is not a size (65536, 64K, 256M, 1G)",
                               kExitBadInput);
        }
        options["bytes"] = bytes;
    } else if (arg == "--streams") {
        json counts = json::array();
        std::stringstream list(value);
        std::string item;
        while (std::getline(list, item, ',')) {
            if (!wholeNumber(item)) {
                return commandFail("--streams: '" + item + "' is not a whole number",
                                   kExitBadInput);
            }
            counts.push_back(std::stoll(item));
        }
        options["streams"] = counts;
    } else if (arg == "--repetitions" || arg == "--work") {
        if (!wholeNumber(value)) {
            return commandFail(arg + ": '" + value + "' is not a whole number", kExitBadInput);
        }
        options[arg.substr(2)] = std::stoll(value);
    } else if (arg == "--order") {
        options["order"] = value;
    } else {
        return commandFail("streams takes no option '" + arg + "'", kExitBadInput);
    }
    return std::nullopt;
}

void printStreams(const json& answer) {
    const json& stages = answer["stages"];
    std::cout << "device   " << answer.value("device", "") << "\n"
              << "engines  asyncEngineCount " << answer.value("asyncEngineCount", 0)
              << (answer.value("concurrentKernels", false) ? ", concurrent kernels" : "") << "\n"
              << "array    " << formatBytes(answer.value("bytes", std::int64_t{0})) << ", kernel "
              << answer.value("work", 0) << " multiply-adds per element, issued "
              << answer.value("order", "") << "\n"
              << "stages   H2D " << fixed(stages.value("h2dMs", 0.0), 3) << " ms, kernel "
              << fixed(stages.value("kernelMs", 0.0), 3) << " ms, D2H "
              << fixed(stages.value("d2hMs", 0.0), 3) << " ms (one stream)\n"
              << "model    " << answer.value("model", "") << " Limit "
              << fixed(answer.value("speedupLimit", 0.0), 2) << "x.\n"
              << "timeline " << answer.value("timelineNote", "") << "\n"
              << "medians of " << answer.value("repetitions", 0)
              << " timed runs after one warm-up; spread = (max - min) / median\n\n";
    std::cout << pad("streams", 8, true) << pad("median ms", 12, true) << pad("spread", 9, true)
              << pad("speed-up", 10, true) << pad("predicted", 11, true)
              << pad("model ms", 10, true) << "\n";
    for (const json& run : answer["runs"]) {
        const double median = run.value("totalMs", 0.0);
        const double spread =
            median > 0.0 ? 100.0 * (run.value("maxMs", 0.0) - run.value("minMs", 0.0)) / median
                         : 0.0;
        std::cout << pad(std::to_string(run.value("streams", 0)), 8, true)
                  << pad(fixed(median, 3), 12, true) << pad(fixed(spread, 1) + " %", 9, true)
                  << pad(fixed(run.value("speedup", 0.0), 2) + "x", 10, true)
                  << pad(fixed(run.value("predictedSpeedup", 0.0), 2) + "x", 11, true)
                  << pad(fixed(run.value("predictedMs", 0.0), 3), 10, true) << "\n";
    }
}

} // namespace

ExperimentCommand streamsCommandLine() {
    return ExperimentCommand{kStreamsExperiment.op,
                             "copies and a kernel over 1 to 8 streams: overlap",
                             kStreamsUsage,
                             readStreamsOption,
                             {},
                             printStreams,
                             [] {
                                 return ProgressCallback([](int done, int total) {
                                     std::cerr << "measured " << done << " of " << total
                                               << " stream counts\n";
                                 });
                             }};
}

} // namespace warpscope::probe
