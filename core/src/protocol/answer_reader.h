// Internal to the core: the field reads the protocol's answer types share (device_info.cpp,
// pattern_measurement.cpp). Answers are read leniently about what is absent (older probes write
// fewer fields; the defaults stand) and strictly about what is there: a field of the wrong type
// is an error naming its JSON pointer.
#pragma once

#include "../json_fields.h"
#include "warpscope/protocol/pattern_measurement.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope::protocol::detail {

class AnswerReader : public warpscope::detail::JsonFieldReader {
public:
    /// Absent or null leaves `out` as it is.
    bool optionalNumber(const json& object, std::string_view key, const std::string& where,
                        double& out);
    bool optionalInt(const json& object, std::string_view key, const std::string& where, int& out);
    bool optionalBool(const json& object, std::string_view key, const std::string& where,
                      bool& out);
    /// An object of name -> number; absent leaves `out` empty.
    bool numberMap(const json& object, std::string_view key, const std::string& where,
                   std::map<std::string, double>& out);
    /// A Stats object; absent leaves `out` empty.
    bool optionalStats(const json& object, std::string_view key, const std::string& where,
                       std::optional<Stats>& out);
    /// An object member; absent gives nullptr, another type an error (check error()).
    const json* optionalObject(const json& object, std::string_view key, const std::string& where);
};

} // namespace warpscope::protocol::detail
