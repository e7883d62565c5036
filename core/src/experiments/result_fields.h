// Internal to the core: the field reads the experiments' result readers share (transfers.cpp,
// streams.cpp, l2_persistence.cpp), on top of the protocol's AnswerReader: lenient about what is
// absent, strict about what is there, and here also about what an answer cannot do without (a
// required number and its range, a required array). Every refusal names the field's JSON pointer.
// Also a timed point's numbers (medianMs, minMs, maxMs, samples, bandwidthGBs: a transfer size,
// an L2 persistence window), computed, written and read in one place.
#pragma once

#include "../protocol/answer_reader.h"

#include <warpscope/statistics.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::experiments::detail {

using protocol::detail::AnswerReader;

/// A number that must be there, and be at least `least` (any number for
/// std::numeric_limits<double>::lowest()).
bool requiredNumber(AnswerReader& reader, const nlohmann::json& object, std::string_view key,
                    const std::string& where, double least, double& out);
/// An integer that must be there, between `least` and `most`.
bool requiredInt(AnswerReader& reader, const nlohmann::json& object, std::string_view key,
                 const std::string& where, std::int64_t least, std::int64_t most,
                 std::int64_t& out);
/// An array member: nullptr when absent (an error when `required`) or not an array (check
/// reader.error()).
const nlohmann::json* arrayMember(AnswerReader& reader, const nlohmann::json& object,
                                  std::string_view key, const std::string& where, bool required);

/// An integer member that must be there and be above 0 ("bytes", "windowBytes").
bool requiredPositiveInt64(AnswerReader& reader, const nlohmann::json& object, std::string_view key,
                           const std::string& where, std::int64_t& out);

/// A point's timing from its timed launches: samples, minMs, maxMs and medianMs (left at 0 when
/// there are none), and bandwidthGBs, `bytes` moved per median time in GB/s (1e9 bytes per
/// second), when the median is above 0.
template <typename Point>
void setTiming(Point& point, std::vector<double> samplesMs, double bytes) {
    if (samplesMs.empty()) {
        return;
    }
    const SampleSummary summary = summarizeSamples(std::move(samplesMs));
    point.samples = summary.samples;
    point.minMs = summary.min;
    point.maxMs = summary.max;
    point.medianMs = summary.median;
    if (point.medianMs > 0.0) {
        point.bandwidthGBs = bytes / (point.medianMs * 1e6);
    }
}

/// A point's timing members, as setTiming fills them, for its JSON object.
template <typename Point> nlohmann::json timingJson(const Point& point) {
    return nlohmann::json{{"medianMs", point.medianMs},
                          {"minMs", point.minMs},
                          {"maxMs", point.maxMs},
                          {"samples", point.samples},
                          {"bandwidthGBs", point.bandwidthGBs}};
}

/// Reads a point's timing: medianMs required (at least 0), minMs, maxMs and samples where given;
/// bandwidthGBs is the caller's (required or not).
template <typename Point>
bool readTiming(AnswerReader& reader, const nlohmann::json& value, const std::string& where,
                Point& point) {
    return requiredNumber(reader, value, "medianMs", where, 0.0, point.medianMs) &&
           reader.optionalNumber(value, "minMs", where, point.minMs) &&
           reader.optionalNumber(value, "maxMs", where, point.maxMs) &&
           reader.optionalInt(value, "samples", where, point.samples);
}

} // namespace warpscope::experiments::detail
