// `warpscope-probe l2-persistence` (and `warpscope-probe experiment l2-persistence`): the usage,
// the options read into a measure_l2_persistence request and the answer as a table
// (L2PersistenceExperiment::commandLine, l2_persistence.h). docs/protocol.md ("l2-persistence").
#include "warpscope/experiments/l2_persistence.h"

#include "warpscope/format.h"

#include <nlohmann/json.hpp>

#include <exception>
#include <sstream>
#include <string>
#include <string_view>

namespace warpscope::experiments {

namespace {

constexpr std::string_view kL2PersistenceUsage =
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
std::string readL2PersistenceOption(const std::string& arg, const std::string& value,
                                    json& options) {
    if (arg == "--windows") {
        json sizes = json::array();
        for (const std::string& item : splitOptionList(value)) {
            const long long bytes = parseOptionByteSize(item);
            if (bytes < 0) {
                return "--windows: '" + item + "' is not a size (4096, 64K, 16M)";
            }
            sizes.push_back(bytes);
        }
        options["windowBytes"] = sizes;
    } else if (arg == "--hit-ratios") {
        json ratios = json::array();
        for (const std::string& item : splitOptionList(value)) {
            std::size_t used = 0;
            double ratio = 0.0;
            try {
                ratio = std::stod(item, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != item.size()) {
                return "--hit-ratios: '" + item + "' is not a number";
            }
            ratios.push_back(ratio);
        }
        options["hitRatios"] = ratios;
    } else if (arg == "--set-aside" || arg == "--stream") {
        const long long bytes = parseOptionByteSize(value);
        if (bytes < 0) {
            return arg + ": '" + value + "' is not a size (4096, 64K, 16M, 2G)";
        }
        options[arg == "--set-aside" ? "setAsideBytes" : "streamBytes"] = bytes;
    } else if (arg == "--stream-per-region" || arg == "--repetitions") {
        const long long number = parseOptionByteSize(value);
        if (number < 0 || value.find_first_not_of("0123456789") != std::string::npos) {
            return arg + ": '" + value + "' is not a whole number";
        }
        options[arg == "--repetitions" ? "repetitions" : "streamPerRegion"] = number;
    } else {
        return "l2-persistence takes no option '" + arg + "'";
    }
    return {};
}

/// The options without one: --no-tuned, --no-counters.
bool readL2PersistenceFlag(const std::string& arg, json& options) {
    if (arg == "--no-tuned" || arg == "--no-counters") {
        options[arg == "--no-tuned" ? "tuned" : "counters"] = false;
        return true;
    }
    return false;
}

std::string reportL2Persistence(const json& answer) {
    std::ostringstream out;
    const auto bytes = [](const json& value) { return formatBytes(value.get<std::int64_t>()); };
    out << "device     " << answer.value("device", "") << "\n"
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
        out << "counters   not measured: "
            << answer.value("countersUnavailableReason", std::string()) << "\n";
    }
    if (!answer.value("capped", std::string()).empty()) {
        out << "note       " << answer.value("capped", std::string()) << "\n";
    }
    out << "\n"
        << padColumns("window", 9, true) << padColumns("hitRatio", 10, true)
        << padColumns("median ms", 11, true) << padColumns("spread", 9, true)
        << padColumns("GB/s", 9, true) << padColumns("L2 hit", 9, true)
        << padColumns("model", 9, true) << padColumns("region", 9, true)
        << padColumns("model", 9, true) << "  model kind\n";
    for (const json& point : answer["points"]) {
        const double median = point.value("medianMs", 0.0);
        const double spread =
            median > 0.0 ? 100.0 * (point.value("maxMs", 0.0) - point.value("minMs", 0.0)) / median
                         : 0.0;
        const bool window = point.value("window", false);
        const std::string ratio = window ? fixedDecimals(point.value("hitRatio", 0.0), 3) +
                                               (point.value("tuned", false) ? "*" : "")
                                         : std::string("none");
        const bool counted = point.value("countersMeasured", false);
        out << padColumns(bytes(point["windowBytes"]), 9, true) << padColumns(ratio, 10, true)
            << padColumns(fixedDecimals(median, 4), 11, true)
            << padColumns(fixedDecimals(spread, 1) + " %", 9, true)
            << padColumns(fixedDecimals(point.value("bandwidthGBs", 0.0), 0), 9, true)
            << padColumns(counted ? fixedDecimals(point.value("hitRatePct", 0.0), 1) + " %" : "-",
                          9, true)
            << padColumns(fixedDecimals(point.value("modelHitRatePct", 0.0), 1) + " %", 9, true)
            << padColumns(counted ? fixedDecimals(point.value("regionHitPct", 0.0), 1) + " %" : "-",
                          9, true)
            << padColumns(fixedDecimals(point.value("modelRegionHitPct", 0.0), 1) + " %", 9, true)
            << "  " << point.value("modelRegionHitKind", std::string("estimate")) << "\n";
    }
    out << "\n* the tuned hitRatio, min(1, set-aside / window). 'region' is the share of "
           "the region's reads served by L2, from the DRAM bytes read.\n"
           "model kind: the region's model is a prediction only where the window holds the "
           "whole region (hitRatio 1, window <= set-aside), the notes' rule, exact on the "
           "H100; elsewhere, and for the L2 hit rate always, it is an estimate with no "
           "documented rule (docs/models.md).\n";
    return out.str();
}

} // namespace

ExperimentCommandLine L2PersistenceExperiment::commandLine() {
    return ExperimentCommandLine{"the L2 persistence window (set-aside, hitRatio)",
                                 kL2PersistenceUsage,
                                 readL2PersistenceOption,
                                 readL2PersistenceFlag,
                                 reportL2Persistence,
                                 {"points", false}};
}

} // namespace warpscope::experiments
