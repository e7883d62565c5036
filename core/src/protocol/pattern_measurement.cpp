// The JSON of a pattern's measurement (pattern_measurement.h).
#include "warpscope/protocol/pattern_measurement.h"

#include "../json_guard.h"
#include "answer_reader.h"

#include <cmath>
#include <cstdint>

namespace warpscope::protocol {

using json = nlohmann::json;
using warpscope::detail::child;

std::optional<double> cyclesToNs(double cycles, double smClockKHz) {
    if (!(smClockKHz > 0.0)) {
        return std::nullopt;
    }
    return cycles * 1.0e6 / smClockKHz; // cycles / (kHz * 1e3) seconds
}

json numberJson(double value) {
    constexpr double kExactInteger = 9007199254740992.0; // 2^53
    if (std::isfinite(value) && std::trunc(value) == value && std::fabs(value) < kExactInteger) {
        return json(static_cast<std::int64_t>(value));
    }
    return json(value);
}

json toRequestJson(const MeasureOptions& options) {
    json object{{"counters", options.counters},
                {"latency", options.latency},
                {"grid", options.grid},
                {"repetitions", options.repetitions}};
    if (!options.counterNames.empty()) {
        object["counterNames"] = options.counterNames;
    }
    return object;
}

json toJson(const Stats& stats) {
    return json{{"median", stats.median},
                {"min", stats.min},
                {"max", stats.max},
                {"samples", stats.samples}};
}

json numbersJson(const std::map<std::string, double>& numbers) {
    json object = json::object();
    for (const auto& [name, value] : numbers) {
        object[name] = numberJson(value);
    }
    return object;
}

namespace {

json optionalNumber(std::optional<double> value) {
    return value ? numberJson(*value) : json(nullptr);
}

bool readMeasurement(detail::AnswerReader& reader, const json& value, const std::string& where,
                     PatternMeasurement& m) {
    if (!reader.requireObject(value, where, "a measurement")) {
        return false;
    }
    reader.numberMap(value, "counters", where, m.counters);
    reader.optionalBool(value, "countersMeasured", where, m.countersMeasured);
    reader.optionalString(value, "countersUnavailableReason", where, m.countersUnavailableReason);
    reader.numberMap(value, "predicted", where, m.predicted);
    if (const json* latency = reader.optionalObject(value, "latency", where)) {
        const std::string at = child(where, "latency");
        reader.optionalNumber(*latency, "smClockKHz", at, m.smClockKHz);
        reader.optionalStats(*latency, "coldCycles", at, m.latencyColdCycles);
        reader.optionalStats(*latency, "warmCycles", at, m.latencyWarmCycles);
        // coldNs and warmNs follow from the cycles and the clock (cyclesToNs); a number or null.
        double ignored = 0.0;
        reader.optionalNumber(*latency, "coldNs", at, ignored);
        reader.optionalNumber(*latency, "warmNs", at, ignored);
    }
    if (const json* grid = reader.optionalObject(value, "grid", where)) {
        const std::string at = child(where, "grid");
        reader.optionalStats(*grid, "kernelMs", at, m.gridKernelMs);
        if (!m.gridKernelMs && !reader.error()) {
            // A grid run without its timing is not one.
            return reader.fail("the field \"kernelMs\" is missing", child(at, "kernelMs"));
        }
        reader.optionalNumber(*grid, "bytesRequested", at, m.gridBytesRequested);
        reader.optionalNumber(*grid, "bytesMoved", at, m.gridBytesMoved);
        reader.optionalNumber(*grid, "effectiveBandwidthGBs", at, m.gridEffectiveBandwidthGBs);
        reader.optionalNumber(*grid, "movedBandwidthGBs", at, m.gridMovedBandwidthGBs);
    }
    return !reader.error();
}

} // namespace

json toJson(const PatternMeasurement& measurement) {
    json result{{"counters", numbersJson(measurement.counters)},
                {"countersMeasured", measurement.countersMeasured},
                {"countersUnavailableReason", measurement.countersUnavailableReason},
                {"predicted", numbersJson(measurement.predicted)}};
    if (measurement.latencyColdCycles || measurement.latencyWarmCycles) {
        json latency{{"smClockKHz", measurement.smClockKHz}};
        if (measurement.latencyColdCycles) {
            latency["coldCycles"] = toJson(*measurement.latencyColdCycles);
            latency["coldNs"] = optionalNumber(
                cyclesToNs(measurement.latencyColdCycles->median, measurement.smClockKHz));
        }
        if (measurement.latencyWarmCycles) {
            latency["warmCycles"] = toJson(*measurement.latencyWarmCycles);
            latency["warmNs"] = optionalNumber(
                cyclesToNs(measurement.latencyWarmCycles->median, measurement.smClockKHz));
        }
        result["latency"] = std::move(latency);
    }
    if (measurement.gridKernelMs) {
        result["grid"] = json{{"kernelMs", toJson(*measurement.gridKernelMs)},
                              {"bytesRequested", measurement.gridBytesRequested},
                              {"bytesMoved", measurement.gridBytesMoved},
                              {"effectiveBandwidthGBs", measurement.gridEffectiveBandwidthGBs},
                              {"movedBandwidthGBs", measurement.gridMovedBandwidthGBs}};
    }
    return result;
}

Result<PatternMeasurement> patternMeasurementFromJson(const json& value,
                                                      const std::string& pointer) {
    detail::AnswerReader reader;
    PatternMeasurement measurement;
    if (!readMeasurement(reader, value, pointer, measurement)) {
        return *reader.error();
    }
    return measurement;
}

Result<std::vector<PatternMeasurement>> sweepAnswerFromJson(const json& value) {
    detail::AnswerReader reader;
    if (!reader.requireObject(value, "", "a sweep's answer")) {
        return *reader.error();
    }
    const json* list = reader.member(value, "measurements", "", true);
    if (list == nullptr) {
        return *reader.error();
    }
    if (!list->is_array()) {
        reader.fail("measurements must be an array; found " + warpscope::detail::describe(*list),
                    "/measurements");
        return *reader.error();
    }
    std::vector<PatternMeasurement> measurements;
    measurements.reserve(list->size());
    for (std::size_t i = 0; i < list->size(); ++i) {
        PatternMeasurement measurement;
        if (!readMeasurement(reader, (*list)[i], child("/measurements", i), measurement)) {
            return *reader.error();
        }
        measurements.push_back(std::move(measurement));
    }
    return measurements;
}

Result<PatternMeasurement> patternMeasurementFromJsonText(std::string_view text) {
    auto parsed = warpscope::detail::parseGuardedJson(text);
    if (!parsed) {
        return parsed.error();
    }
    return patternMeasurementFromJson(parsed.value());
}

Result<std::vector<PatternMeasurement>> sweepAnswerFromJsonText(std::string_view text) {
    auto parsed = warpscope::detail::parseGuardedJson(text);
    if (!parsed) {
        return parsed.error();
    }
    return sweepAnswerFromJson(parsed.value());
}

} // namespace warpscope::protocol
