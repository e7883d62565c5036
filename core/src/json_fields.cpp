#include "json_fields.h"

#include "warpscope/expression.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace warpscope::detail {

using json = nlohmann::json;

Error fileError(std::string message, std::string where) {
    return Error{ErrorCode::FileFormat, std::move(message), 0, std::move(where)};
}

std::string escapePointerToken(std::string_view token) {
    std::string out;
    for (char c : token) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

std::string child(const std::string& pointer, std::string_view key) {
    return pointer + "/" + escapePointerToken(key);
}

std::string child(const std::string& pointer, std::size_t index) {
    return pointer + "/" + std::to_string(index);
}

std::string describe(const json& value) {
    switch (value.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return value.get<bool>() ? "true" : "false";
    case json::value_t::string: {
        const auto& text = value.get_ref<const std::string&>();
        if (text.size() > 40) {
            return "a string of " + std::to_string(text.size()) + " bytes";
        }
        return "\"" + text + "\"";
    }
    case json::value_t::number_integer:
        return std::to_string(value.get<std::int64_t>());
    case json::value_t::number_unsigned:
        return std::to_string(value.get<std::uint64_t>());
    case json::value_t::number_float: {
        const double number = value.get<double>();
        if (!std::isfinite(number)) {
            return "a number too large to represent";
        }
        char buffer[40];
        std::snprintf(buffer, sizeof buffer, "%.17g", number);
        return buffer;
    }
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "an array";
    default:
        return "a value of an unknown kind";
    }
}

std::optional<std::int64_t> asInt64(const json& value) {
    if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (number > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            return std::nullopt;
        }
        return static_cast<std::int64_t>(number);
    }
    if (value.is_number_integer()) {
        return value.get<std::int64_t>();
    }
    return std::nullopt;
}

nlohmann::ordered_json parametersToJson(const std::vector<Parameter>& parameters) {
    using ordered_json = nlohmann::ordered_json;
    ordered_json out = ordered_json::array();
    for (const Parameter& p : parameters) {
        ordered_json parameter = ordered_json::object();
        parameter["name"] = p.name;
        parameter["value"] = p.value;
        parameter["default"] = p.defaultValue;
        parameter["min"] = p.minimum;
        parameter["max"] = p.maximum;
        out.push_back(std::move(parameter));
    }
    return out;
}

bool JsonFieldReader::fail(std::string message, std::string where) {
    if (!m_error) {
        m_error = fileError(std::move(message), std::move(where));
    }
    return false;
}

const json* JsonFieldReader::find(const json& object, std::string_view key) {
    const auto it = object.find(std::string(key));
    return it == object.end() ? nullptr : &*it;
}

const json* JsonFieldReader::member(const json& object, std::string_view key,
                                    const std::string& where, bool required) {
    const json* value = find(object, key);
    if (value == nullptr && required) {
        fail("the field \"" + std::string(key) + "\" is missing", child(where, key));
    }
    return value;
}

bool JsonFieldReader::requireObject(const json& value, const std::string& where,
                                    const std::string& what) {
    if (!value.is_object()) {
        return fail(what + " must be a JSON object; found " + describe(value), where);
    }
    return true;
}

bool JsonFieldReader::readString(const json& value, const std::string& where, std::string_view name,
                                 std::string& out) {
    if (!value.is_string()) {
        return fail(std::string(name) + " must be a string; found " + describe(value), where);
    }
    out = value.get<std::string>();
    return true;
}

bool JsonFieldReader::readInt64(const json& value, const std::string& where, std::string_view name,
                                std::int64_t& out) {
    if (const auto number = asInt64(value)) {
        out = *number;
        return true;
    }
    if (value.is_number()) {
        return fail(std::string(name) + " must be an integer that fits in a signed 64-bit " +
                        "integer; found " + describe(value),
                    where);
    }
    return fail(std::string(name) + " must be an integer; found " + describe(value), where);
}

bool JsonFieldReader::stringMember(const json& object, std::string_view key,
                                   const std::string& where, bool required, std::string& out) {
    const json* value = member(object, key, where, required);
    if (value == nullptr) {
        return !required;
    }
    return readString(*value, child(where, key), key, out);
}

bool JsonFieldReader::optionalString(const json& object, std::string_view key,
                                     const std::string& where, std::string& out) {
    return stringMember(object, key, where, false, out);
}

bool JsonFieldReader::optionalInt64(const json& object, std::string_view key,
                                    const std::string& where, std::int64_t& out) {
    const json* value = find(object, key);
    return value == nullptr || readInt64(*value, child(where, key), key, out);
}

bool JsonFieldReader::readHeader(const json& object, const std::string& where,
                                 const char* formatName, int supportedVersion,
                                 bool formatRequired) {
    const json* format = member(object, "format", where, formatRequired);
    if (format == nullptr) {
        return !formatRequired;
    }
    if (!format->is_string() || format->get_ref<const std::string&>() != formatName) {
        return fail(std::string("format must be \"") + formatName + "\"; found " +
                        describe(*format),
                    child(where, "format"));
    }
    const json* version = member(object, "version", where, true);
    if (version == nullptr) {
        return false;
    }
    std::int64_t number = 0;
    if (!readInt64(*version, child(where, "version"), "version", number)) {
        return false;
    }
    if (number < 1) {
        return fail("version must be 1 or more; found " + describe(*version),
                    child(where, "version"));
    }
    if (number > supportedVersion) {
        return fail("written by a newer warpscope (version " + std::to_string(number) +
                        "); this one reads version " + std::to_string(supportedVersion),
                    child(where, "version"));
    }
    return true;
}

bool JsonFieldReader::readAccessKind(const json& object, const std::string& where,
                                     bool spaceRequired, AccessKind& out) {
    const json* space = member(object, "space", where, spaceRequired);
    if (space == nullptr) {
        if (spaceRequired) {
            return false;
        }
        out.space = MemorySpace::Global;
    } else {
        const auto parsed = space->is_string()
                                ? memorySpaceFromString(space->get_ref<const std::string&>())
                                : std::nullopt;
        if (!parsed) {
            return fail("space must be \"global\", \"shared\", \"constant\", \"local\" or "
                        "\"texture\"; found " +
                            describe(*space),
                        child(where, "space"));
        }
        out.space = *parsed;
    }

    const json* op = member(object, "op", where, true);
    if (op == nullptr) {
        return false;
    }
    const auto opValue =
        op->is_string() ? accessOpFromString(op->get_ref<const std::string&>()) : std::nullopt;
    if (!opValue) {
        return fail("op must be \"load\", \"store\" or \"copy_async\"; found " + describe(*op),
                    child(where, "op"));
    }
    out.op = *opValue;
    if (out.space == MemorySpace::Constant && out.op == AccessOp::Store) {
        return fail("constant memory is read-only in a kernel: a constant access must be a "
                    "\"load\"",
                    child(where, "op"));
    }

    const json* width = member(object, "width", where, true);
    if (width == nullptr) {
        return false;
    }
    const std::optional<std::int64_t> widthValue = asInt64(*width);
    if (!widthValue || *widthValue > 16 || !isValidWidth(static_cast<int>(*widthValue))) {
        return fail("width must be one of 1, 2, 4, 8, 16; found " + describe(*width),
                    child(where, "width"));
    }
    out.widthBytes = static_cast<int>(*widthValue);
    if (!isValidWidthFor(out.space, out.widthBytes)) {
        return fail(out.space == MemorySpace::Local
                        ? "a local access is 1, 2 or 4 bytes wide; found " + describe(*width)
                        : "a texture read is 4 bytes wide; found " + describe(*width),
                    child(where, "width"));
    }
    if (out.space == MemorySpace::Texture && out.op != AccessOp::Load) {
        return fail("a texture is read only: op must be \"load\"", child(where, "op"));
    }

    if (const json* cache = find(object, "cache")) {
        const auto parsed = cache->is_string()
                                ? cachePathFromString(cache->get_ref<const std::string&>())
                                : std::nullopt;
        if (!parsed) {
            return fail("cache must be one of \"default\", \"ca\", \"cg\", \"nc\"; found " +
                            describe(*cache),
                        child(where, "cache"));
        }
        out.cache = *parsed;
    }
    if (auto error = checkCopyKind(out)) {
        return fail(error->message, child(where, error->where));
    }
    return true;
}

bool JsonFieldReader::checkName(const std::string& name, const std::string& where,
                                const char* what) {
    if (!isValidParameterName(name)) {
        return fail("\"" + name + "\" cannot be " + what +
                        " name (it must look like a C identifier and not be a built-in name)",
                    where);
    }
    return true;
}

bool JsonFieldReader::checkParameterRange(const Parameter& p, const std::string& where,
                                          const char* valueKey) {
    if (p.minimum > p.maximum) {
        return fail("min (" + std::to_string(p.minimum) + ") must not be above max (" +
                        std::to_string(p.maximum) + ")",
                    child(where, "min"));
    }
    if (valueKey != nullptr && (p.value < p.minimum || p.value > p.maximum)) {
        return fail("value must be between min and max (" + std::to_string(p.minimum) + " to " +
                        std::to_string(p.maximum) + "); found " + std::to_string(p.value),
                    child(where, valueKey));
    }
    if (p.defaultValue < p.minimum || p.defaultValue > p.maximum) {
        return fail("default must be between min and max (" + std::to_string(p.minimum) + " to " +
                        std::to_string(p.maximum) + "); found " + std::to_string(p.defaultValue),
                    child(where, "default"));
    }
    return true;
}

} // namespace warpscope::detail
