// Internal to the core: the field-by-field part of the guarded JSON readers that pattern,
// session, deck (file_format.cpp) and kernel files (kernel_file.cpp) share. Every read names the
// offending place as a JSON pointer ("/accesses/2/width") and says what it expected; the first
// error is kept and every read returns false after it.
#pragma once

#include "warpscope/pattern.h"
#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::detail {

/// An ErrorCode::FileFormat error at `where` (a JSON pointer, or a line and column).
Error fileError(std::string message, std::string where);

/// A key escaped as one JSON pointer token (RFC 6901: "~" as "~0", "/" as "~1").
std::string escapePointerToken(std::string_view token);

/// The pointer of member `key`, or of entry `index`, below `pointer`.
std::string child(const std::string& pointer, std::string_view key);
std::string child(const std::string& pointer, std::size_t index);

/// A short description of a value for "found ..." in messages.
std::string describe(const nlohmann::json& value);

/// The value as a signed 64-bit integer, or nullopt for anything else (floats included).
std::optional<std::int64_t> asInt64(const nlohmann::json& value);

/// Parameters as the files write them: [{"name", "value", "default", "min", "max"}, ...].
nlohmann::ordered_json parametersToJson(const std::vector<Parameter>& parameters);

/// Reads fields and keeps the first error. Each read* returns false after an error.
class JsonFieldReader {
public:
    using json = nlohmann::json;

    bool fail(std::string message, std::string where);
    const std::optional<Error>& error() const { return m_error; }

    /// The member `key` of `object`, or nullptr when absent.
    static const json* find(const json& object, std::string_view key);
    /// The same; a required member that is absent is an error ("the field ... is missing").
    const json* member(const json& object, std::string_view key, const std::string& where,
                       bool required);

    bool requireObject(const json& value, const std::string& where, const std::string& what);
    bool readString(const json& value, const std::string& where, std::string_view name,
                    std::string& out);
    bool readInt64(const json& value, const std::string& where, std::string_view name,
                   std::int64_t& out);
    /// A string member; absent is an error when `required`, else leaves `out` as it is.
    bool stringMember(const json& object, std::string_view key, const std::string& where,
                      bool required, std::string& out);
    /// Optional fields: absent leaves `out` as it is.
    bool optionalString(const json& object, std::string_view key, const std::string& where,
                        std::string& out);
    bool optionalInt64(const json& object, std::string_view key, const std::string& where,
                       std::int64_t& out);

    /// "format" and "version" of a file. Without `formatRequired`, an object with no "format"
    /// is the bare form and passes; with a "format", "version" is required.
    bool readHeader(const json& object, const std::string& where, const char* formatName,
                    int supportedVersion, bool formatRequired);

    /// "space" (absent: global, unless `spaceRequired`), "op", "width" and "cache" (absent: left
    /// as it is) of an access.
    bool readAccessKind(const json& object, const std::string& where, bool spaceRequired,
                        AccessKind& out);

    /// `name` must look like a C identifier and not be a built-in name; `what` is "a parameter",
    /// "a buffer", ...
    bool checkName(const std::string& name, const std::string& where, const char* what);
    /// min <= max, and the default (and, with `valueKey`, the value) between them.
    bool checkParameterRange(const Parameter& parameter, const std::string& where,
                             const char* valueKey);

protected:
    std::optional<Error> m_error;
};

} // namespace warpscope::detail
