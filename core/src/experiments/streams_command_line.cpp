// `warpscope-probe streams` (and `warpscope-probe experiment streams`): the usage, the options read
// into a measure_streams request and the answer as a table beside the model's prediction
// (StreamsExperiment::commandLine, streams.h). docs/protocol.md ("streams").
#include "warpscope/experiments/streams.h"

#include "warpscope/format.h"

#include <nlohmann/json.hpp>

#include <exception>
#include <sstream>
#include <string>
#include <string_view>

namespace warpscope::experiments {

namespace {

constexpr std::string_view kStreamsUsage =
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

std::string readStreamsOption(const std::string& arg, const std::string& value, json& options) {
    if (arg == "--bytes") {
        const long long bytes = parseOptionByteSize(value);
        if (bytes < 0) {
            return "--bytes: '" + value + "' is not a size (65536, 64K, 256M, 1G)";
        }
        options["bytes"] = bytes;
    } else if (arg == "--streams") {
        json counts = json::array();
        std::stringstream list(value);
        std::string item;
        while (std::getline(list, item, ',')) {
            if (!wholeNumber(item)) {
                return "--streams: '" + item + "' is not a whole number";
            }
            counts.push_back(std::stoll(item));
        }
        options["streams"] = counts;
    } else if (arg == "--repetitions" || arg == "--work") {
        if (!wholeNumber(value)) {
            return arg + ": '" + value + "' is not a whole number";
        }
        options[arg.substr(2)] = std::stoll(value);
    } else if (arg == "--order") {
        options["order"] = value;
    } else {
        return "streams takes no option '" + arg + "'";
    }
    return {};
}

std::string reportStreams(const json& answer) {
    std::ostringstream out;
    const json& stages = answer["stages"];
    out << "device   " << answer.value("device", "") << "\n"
        << "engines  asyncEngineCount " << answer.value("asyncEngineCount", 0)
        << (answer.value("concurrentKernels", false) ? ", concurrent kernels" : "") << "\n"
        << "array    " << formatBytes(answer.value("bytes", std::int64_t{0})) << ", kernel "
        << answer.value("work", 0) << " multiply-adds per element, issued "
        << answer.value("order", "") << "\n"
        << "stages   H2D " << fixedDecimals(stages.value("h2dMs", 0.0), 3) << " ms, kernel "
        << fixedDecimals(stages.value("kernelMs", 0.0), 3) << " ms, D2H "
        << fixedDecimals(stages.value("d2hMs", 0.0), 3) << " ms (one stream)\n"
        << "model    " << answer.value("model", "") << " Limit "
        << fixedDecimals(answer.value("speedupLimit", 0.0), 2) << "x.\n"
        << "timeline " << answer.value("timelineNote", "") << "\n"
        << "medians of " << answer.value("repetitions", 0)
        << " timed runs after one warm-up; spread = (max - min) / median\n\n";
    out << padColumns("streams", 8, true) << padColumns("median ms", 12, true)
        << padColumns("spread", 9, true) << padColumns("speed-up", 10, true)
        << padColumns("predicted", 11, true) << padColumns("model ms", 10, true) << "\n";
    for (const json& run : answer["runs"]) {
        const double median = run.value("totalMs", 0.0);
        const double spread =
            median > 0.0 ? 100.0 * (run.value("maxMs", 0.0) - run.value("minMs", 0.0)) / median
                         : 0.0;
        out << padColumns(std::to_string(run.value("streams", 0)), 8, true)
            << padColumns(fixedDecimals(median, 3), 12, true)
            << padColumns(fixedDecimals(spread, 1) + " %", 9, true)
            << padColumns(fixedDecimals(run.value("speedup", 0.0), 2) + "x", 10, true)
            << padColumns(fixedDecimals(run.value("predictedSpeedup", 0.0), 2) + "x", 11, true)
            << padColumns(fixedDecimals(run.value("predictedMs", 0.0), 3), 10, true) << "\n";
    }
    return out.str();
}

} // namespace

ExperimentCommandLine StreamsExperiment::commandLine() {
    return ExperimentCommandLine{"copies and a kernel over 1 to 8 streams: overlap",
                                 kStreamsUsage,
                                 readStreamsOption,
                                 nullptr,
                                 reportStreams,
                                 {"stream counts", true}};
}

} // namespace warpscope::experiments
