// What the probe measured for one pattern (docs/protocol.md, "The measurement object"), declared
// once: the probe's backend fills PatternMeasurement, the protocol adds the model's prediction
// and writes it, and the app reads the same type back from measure and sweep answers.
#pragma once

#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::protocol {

/// Median and spread of repeated timings.
struct Stats {
    double median = 0.0;
    double min = 0.0;
    double max = 0.0;
    int samples = 0;
};

/// What to measure besides the counters: measure's and sweep's "options".
struct MeasureOptions {
    bool counters = true;
    bool latency = true;  // single-warp cold and warm latency (clock64)
    bool grid = false;    // the pattern's expression over a whole grid (needs an expression)
    int repetitions = 21; // timed repetitions for medians
    /// The replay counters to read, each one of nsightCounterNames(), in that list's order;
    /// empty: all of them. Fewer counters can need fewer CUPTI passes.
    std::vector<std::string> counterNames{};
};

/// The "options" object of a measure or sweep request (counterNames only when some are named).
nlohmann::json toRequestJson(const MeasureOptions& options);

struct PatternMeasurement {
    /// Nsight Compute metric name -> value, for the single-warp replay of the pattern.
    std::map<std::string, double> counters;
    bool countersMeasured = false;
    std::string countersUnavailableReason;
    /// The modern model's metrics for the same access, sent beside the counters.
    std::map<std::string, double> predicted;
    std::optional<Stats> latencyColdCycles;
    std::optional<Stats> latencyWarmCycles;
    double smClockKHz = 0.0; // to turn cycles into nanoseconds (cyclesToNs)
    // Grid run of the pattern's expression (when asked for and possible).
    std::optional<Stats> gridKernelMs;
    double gridBytesRequested = 0.0; // the notes' effective-bandwidth numerator
    double gridBytesMoved = 0.0;     // sectors x 32 over the whole grid, from the model
    double gridEffectiveBandwidthGBs = 0.0;
    double gridMovedBandwidthGBs = 0.0;
};

/// Nanoseconds for a number of SM cycles at `smClockKHz`; nullopt when the clock is unknown.
std::optional<double> cyclesToNs(double cycles, double smClockKHz);

/// Counters are counts: an integral value is written as an integer ("4", not "4.0").
nlohmann::json numberJson(double value);
/// Named counters as one object, each written as numberJson() writes it.
nlohmann::json numbersJson(const std::map<std::string, double>& numbers);
nlohmann::json toJson(const Stats& stats);

nlohmann::json toJson(const PatternMeasurement& measurement);
/// Reads a measurement object at `pointer` (measure's result, or one of sweep's
/// "measurements"). Absent fields keep their defaults; a field of the wrong type is a FileFormat
/// error naming its JSON pointer.
Result<PatternMeasurement> patternMeasurementFromJson(const nlohmann::json& value,
                                                      const std::string& pointer = "");
/// sweep's answer: {"measurements": [...]}.
Result<std::vector<PatternMeasurement>> sweepAnswerFromJson(const nlohmann::json& value);
/// measure's answer from text, through the core's guarded reader.
Result<PatternMeasurement> patternMeasurementFromJsonText(std::string_view text);
/// sweep's answer from text, through the core's guarded reader.
Result<std::vector<PatternMeasurement>> sweepAnswerFromJsonText(std::string_view text);

} // namespace warpscope::protocol
