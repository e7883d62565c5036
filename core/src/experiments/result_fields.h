// Internal to the core: the field reads the experiments' result readers share (transfers.cpp,
// streams.cpp, l2_persistence.cpp), on top of the protocol's AnswerReader: lenient about what is
// absent, strict about what is there, and here also about what an answer cannot do without (a
// required number and its range, a required array). Every refusal names the field's JSON pointer.
#pragma once

#include "../protocol/answer_reader.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

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

} // namespace warpscope::experiments::detail
