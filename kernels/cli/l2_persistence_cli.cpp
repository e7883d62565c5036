// `warpscope-probe experiment l2-persistence` (and `warpscope-probe l2-persistence`): the L2
// persistence window measured and printed as a table (or the measure_l2_persistence answer as
// JSON), the command line's row of the experiment (experiment_commands.h). docs/protocol.md
// ("l2-persistence").
#include "experiment_commands.h"
#include "l2_persistence.h"
#include "probe_text.h"
#include <warpscope/format.h>

#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <string>

namespace warpscope::probe {

namespace {

const char* const kL2PersistenceUsage =
    R"(l2-persistence
           The notes' L2 persistence window: a kernel re-reads a region again and again while
           it streams a buffer much larger than L2, once without an access policy window and
           once per hitRatio with one (hitProp persisting, missProp streaming) over the region,
           with cudaLimitPersistingL2CacheSize set to persistingL2CacheMaxSize (set back
           afterwards). Prints per region size and hitRatio the median time, the spread, the L2
           hit rate (lts__t_sector_hit_rate.pct, from CUPTI) and the model's. Refused where the
           device has no persisting L2 (persistingL2CacheMaxSize = 0).
  --windows S1,S2,...    region (= window) sizes (default 2M,4M,8M,16M,24M,32M,48M,64M)
  --hit-ratios R1,R2,... hitRatio values in (0, 1] (default 0.25,0.5,0.75,1)
  --no-tuned             leave out hitRatio = min(1, set-aside / window)
  --set-aside SIZE       bytes set aside (default persistingL2CacheMaxSize)
  --stream SIZE          streaming buffer (default 2G)
  --stream-per-region N  streaming bytes per region byte read (default 4)
  --repetitions N        timed launches per point after one warm-up (default 7)
  --no-counters          timing only
  --json                 the measure_l2_persistence answer as one JSON line
  Ctrl-C cancels between points.
)";

using json = nlohmann::json;

/// The options with a value (runMeasurementCommandLine's MeasurementOption).
std::optional<int> readL2PersistenceOption(const std::string& arg, const std::string& value,
                                           json& options) {
    if (arg == "--windows") {
        json sizes = json::array();
        for (const std::string& item : splitList(value)) {
            const long long bytes = parseByteSize(item);
            if (bytes < 0) {
                return commandFail("--windows: '" + item + "' is not a size (4096, 64K, 16M)",
                                   kExitBadInput);
            }
            sizes.push_back(bytes);
        }
        options["windowBytes"] = sizes;
    } else if (arg == "--hit-ratios") {
        json ratios = json::array();
        for (const std::string& item : splitList(value)) {
            std::size_t used = 0;
            double ratio = 0.0;
            try {
                ratio = std::stod(item, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != item.size()) {
                return commandFail("--hit-ratios: '" + item + "' is not a number", kExitBadInput);
            }
            ratios.push_back(ratio);
        }
        options["hitRatios"] = ratios;
    } else if (arg == "--set-aside" || arg == "--stream") {
        const long long bytes = parseByteSize(value);
        if (bytes < 0) {
            return commandFail(arg + ": '" + value + "' is not a size (4096, 64K, 16M, 2G)",
                               kExitBadInput);
        }
        options[arg == "--set-aside" ? "setAsideBytes" : "streamBytes"] = bytes;
    } else if (arg == "--stream-per-region" || arg == "--repetitions") {
        const long long number = parseByteSize(value);
        if (number < 0 || value.find_first_not_of("0123456789") != std::string::npos) {
            return commandFail(arg + ": '" + value + "' is not a whole number", kExitBadInput);
        }
        options[arg == "--repetitions" ? "repetitions" : "streamPerRegion"] = number;
    } else {
        return commandFail("l2-persistence takes no option '" + arg + "'", kExitBadInput);
    }
    return std::nullopt;
}

/// The options without one: --no-tuned, --no-counters.
bool readL2PersistenceFlag(const std::string& arg, json& options) {
    if (arg == "--no-tuned" || arg == "--no-counters") {
        options[arg == "--no-tuned" ? "tuned" : "counters"] = false;
        return true;
    }
    return false;
}

void printL2Persistence(const json& answer) {
    const auto bytes = [](const json& value) { return formatBytes(value.get<std::int64_t>()); };
    std::cout << "device     " << answer.value("device", "") << "\n"
              << "L2         " << bytes(answer["l2Bytes"]) << ", persisting at most "
              << bytes(answer["persistingL2MaxBytes"]) << ", largest window "
              << bytes(answer["maxWindowBytes"]) << "\n"
              << "set aside  " << bytes(answer["setAsideBytes"]) << " (was "
              << bytes(answer["previousSetAsideBytes"]) << ", set back afterwards)\n"
              << "streaming  " << bytes(answer["streamBytes"]) << " read once per launch, "
              << answer.value("streamPerRegion", 0) << " bytes per region byte\n"
              << "medians of " << answer.value("repetitions", 0)
              << " timed launches after one warm-up; spread = (max - min) / median\n";
    if (!answer.value("countersMeasured", false)) {
        std::cout << "counters   not measured: "
                  << answer.value("countersUnavailableReason", std::string()) << "\n";
    }
    if (!answer.value("capped", std::string()).empty()) {
        std::cout << "note       " << answer.value("capped", std::string()) << "\n";
    }
    std::cout << "\n"
              << pad("window", 9, true) << pad("hitRatio", 10, true) << pad("median ms", 11, true)
              << pad("spread", 9, true) << pad("GB/s", 9, true) << pad("L2 hit", 9, true)
              << pad("model", 9, true) << pad("region", 9, true) << pad("model", 9, true)
              << "  model kind\n";
    for (const json& point : answer["points"]) {
        const double median = point.value("medianMs", 0.0);
        const double spread =
            median > 0.0 ? 100.0 * (point.value("maxMs", 0.0) - point.value("minMs", 0.0)) / median
                         : 0.0;
        const bool window = point.value("window", false);
        const std::string ratio = window ? fixed(point.value("hitRatio", 0.0), 3) +
                                               (point.value("tuned", false) ? "*" : "")
                                         : std::string("none");
        const bool counted = point.value("countersMeasured", false);
        std::cout << pad(bytes(point["windowBytes"]), 9, true) << pad(ratio, 10, true)
                  << pad(fixed(median, 4), 11, true) << pad(fixed(spread, 1) + " %", 9, true)
                  << pad(fixed(point.value("bandwidthGBs", 0.0), 0), 9, true)
                  << pad(counted ? fixed(point.value("hitRatePct", 0.0), 1) + " %" : "-", 9, true)
                  << pad(fixed(point.value("modelHitRatePct", 0.0), 1) + " %", 9, true)
                  << pad(counted ? fixed(point.value("regionHitPct", 0.0), 1) + " %" : "-", 9, true)
                  << pad(fixed(point.value("modelRegionHitPct", 0.0), 1) + " %", 9, true) << "  "
                  << point.value("modelRegionHitKind", std::string("estimate")) << "\n";
    }
    std::cout << "\n* the tuned hitRatio, min(1, set-aside / window). 'region' is the share of "
                 "the region's reads served by L2, from the DRAM bytes read.\n"
                 "model kind: the region's model is a prediction only where the window holds the "
                 "whole region (hitRatio 1, window <= set-aside), the notes' rule, exact on the "
                 "H100; elsewhere, and for the L2 hit rate always, it is an estimate with no "
                 "documented rule (docs/models.md).\n";
}

} // namespace

ExperimentCommand l2PersistenceCommandLine() {
    return ExperimentCommand{kL2PersistenceExperiment.op,
                             "the L2 persistence window (set-aside, hitRatio)",
                             kL2PersistenceUsage,
                             readL2PersistenceOption,
                             readL2PersistenceFlag,
                             printL2Persistence,
                             pointsProgress};
}

} // namespace warpscope::probe
