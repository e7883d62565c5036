// The built-in presets: resources/presets.json, compiled into the core as a string by
// resources/CMakeLists.txt, parsed once into Preset objects. Each entry's "pattern" object has the
// shape of a pattern file's pattern (docs/file-formats.md), so a preset can be saved as a file
// as it is; the parser here is separate so the core's preset list never depends on file I/O code.
#include "warpscope/preset.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

namespace warpscope::detail {
extern const char* const kPresetsJson; // generated from resources/presets.json
} // namespace warpscope::detail

namespace warpscope {

namespace {

using json = nlohmann::json;

Error presetError(std::string message, std::string where) {
    return Error{ErrorCode::FileFormat, std::move(message), 0, std::move(where)};
}

std::string child(const std::string& where, std::string_view key) {
    return where + "/" + std::string(key);
}

std::string child(const std::string& where, std::size_t index) {
    return where + "/" + std::to_string(index);
}

/// Reads fields of one JSON object, remembering the first error with its JSON pointer.
class Reader {
public:
    std::optional<Error> error;

    bool fail(std::string message, std::string where) {
        if (!error) {
            error = presetError(std::move(message), std::move(where));
        }
        return false;
    }

    const json* member(const json& object, std::string_view key, const std::string& where,
                       bool required) {
        const auto it = object.find(std::string(key));
        if (it == object.end()) {
            if (required) {
                fail("the field \"" + std::string(key) + "\" is missing", child(where, key));
            }
            return nullptr;
        }
        return &*it;
    }

    bool string(const json& object, std::string_view key, const std::string& where, bool required,
                std::string& out) {
        const json* value = member(object, key, where, required);
        if (value == nullptr) {
            return !required;
        }
        if (!value->is_string()) {
            return fail("\"" + std::string(key) + "\" must be a string", child(where, key));
        }
        out = value->get<std::string>();
        return true;
    }

    bool integer(const json& value, const std::string& where, std::int64_t& out) {
        if (value.is_number_integer() &&
            (value.is_number_unsigned()
                 ? value.get<std::uint64_t>() <=
                       static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                 : true)) {
            out = value.get<std::int64_t>();
            return true;
        }
        return fail("expected an integer that fits in 64 bits", where);
    }

    bool optionalInteger(const json& object, std::string_view key, const std::string& where,
                         std::int64_t& out) {
        const json* value = member(object, key, where, false);
        return value == nullptr || integer(*value, child(where, key), out);
    }

    bool dim3(const json& object, std::string_view key, const std::string& where, Dim3& out) {
        const json* value = member(object, key, where, false);
        if (value == nullptr) {
            return true;
        }
        const std::string at = child(where, key);
        if (!value->is_array() || value->empty() || value->size() > 3) {
            return fail("\"" + std::string(key) + "\" must be an array [x, y, z]", at);
        }
        std::int64_t* axes[3] = {&out.x, &out.y, &out.z};
        for (std::size_t i = 0; i < value->size(); ++i) {
            if (!integer((*value)[i], child(at, i), *axes[i])) {
                return false;
            }
        }
        return true;
    }

    bool parameter(const json& value, const std::string& where, Parameter& out) {
        if (!value.is_object()) {
            return fail("a parameter must be an object {name, default, min, max}", where);
        }
        if (!string(value, "name", where, true, out.name)) {
            return false;
        }
        const json* current = member(value, "value", where, false);
        const json* fallback = member(value, "default", where, false);
        if (current == nullptr && fallback == nullptr) {
            return fail("a parameter needs \"default\" (or \"value\")", child(where, "default"));
        }
        if (current != nullptr && !integer(*current, child(where, "value"), out.value)) {
            return false;
        }
        if (fallback != nullptr && !integer(*fallback, child(where, "default"), out.defaultValue)) {
            return false;
        }
        if (current == nullptr) {
            out.value = out.defaultValue;
        }
        if (fallback == nullptr) {
            out.defaultValue = out.value;
        }
        out.minimum = std::min<std::int64_t>({0, out.value, out.defaultValue});
        out.maximum = std::max<std::int64_t>({0, out.value, out.defaultValue});
        if (!optionalInteger(value, "min", where, out.minimum) ||
            !optionalInteger(value, "max", where, out.maximum)) {
            return false;
        }
        if (out.minimum > out.maximum || out.value < out.minimum || out.value > out.maximum ||
            out.defaultValue < out.minimum || out.defaultValue > out.maximum) {
            return fail("a parameter needs min <= default, value <= max", where);
        }
        return true;
    }

    bool source(const json& value, const std::string& where, PatternSource& out) {
        if (!value.is_object()) {
            return fail("\"source\" must be an object", where);
        }
        if (!string(value, "address", where, true, out.addressExpression) ||
            !string(value, "active", where, false, out.activeExpression)) {
            return false;
        }
        if (const json* parameters = member(value, "parameters", where, false)) {
            const std::string at = child(where, "parameters");
            if (!parameters->is_array()) {
                return fail("\"parameters\" must be an array", at);
            }
            for (std::size_t i = 0; i < parameters->size(); ++i) {
                Parameter p;
                if (!parameter((*parameters)[i], child(at, i), p)) {
                    return false;
                }
                out.parameters.push_back(std::move(p));
            }
        }
        return dim3(value, "blockDim", where, out.blockDim) &&
               dim3(value, "gridDim", where, out.gridDim) &&
               dim3(value, "blockIdx", where, out.blockIdx) &&
               optionalInteger(value, "warp", where, out.warpIndex);
    }

    bool pattern(const json& value, const std::string& where, Pattern& out) {
        if (!value.is_object()) {
            return fail("\"pattern\" must be an object", where);
        }
        std::string text;
        if (!string(value, "space", where, true, text)) {
            return false;
        }
        const auto space = memorySpaceFromString(text);
        if (!space) {
            return fail("space must be \"global\" or \"shared\"", child(where, "space"));
        }
        out.kind.space = *space;
        if (!string(value, "op", where, true, text)) {
            return false;
        }
        const auto op = accessOpFromString(text);
        if (!op) {
            return fail("op must be \"load\" or \"store\"", child(where, "op"));
        }
        out.kind.op = *op;
        const json* width = member(value, "width", where, true);
        std::int64_t widthBytes = 0;
        if (width == nullptr || !integer(*width, child(where, "width"), widthBytes)) {
            return false;
        }
        if (widthBytes > 16 || !isValidWidth(static_cast<int>(widthBytes))) {
            return fail("width must be 1, 2, 4, 8 or 16", child(where, "width"));
        }
        out.kind.widthBytes = static_cast<int>(widthBytes);
        text = "default";
        if (!string(value, "cache", where, false, text)) {
            return false;
        }
        const auto cache = cachePathFromString(text);
        if (!cache) {
            return fail("cache must be \"default\", \"ca\", \"cg\" or \"nc\"",
                        child(where, "cache"));
        }
        out.kind.cache = *cache;

        const json* addresses = member(value, "addresses", where, false);
        const json* expression = member(value, "source", where, false);
        if ((addresses == nullptr) == (expression == nullptr)) {
            return fail("a pattern gives either \"addresses\" or \"source\"", where);
        }
        if (expression != nullptr) {
            PatternSource parsed;
            if (!source(*expression, child(where, "source"), parsed)) {
                return false;
            }
            out.source = std::move(parsed);
            return true;
        }
        const std::string at = child(where, "addresses");
        if (!addresses->is_array() || addresses->size() != static_cast<std::size_t>(kWarpSize)) {
            return fail("\"addresses\" must be an array of 32 entries", at);
        }
        for (std::size_t lane = 0; lane < addresses->size(); ++lane) {
            const json& entry = (*addresses)[lane];
            if (entry.is_null()) {
                continue; // inactive lane
            }
            std::int64_t address = 0;
            if (!integer(entry, child(at, lane), address)) {
                return false;
            }
            out.addresses[lane] = address;
        }
        return true;
    }

    bool preset(const json& value, const std::string& where, Preset& out) {
        if (!value.is_object()) {
            return fail("a preset must be an object", where);
        }
        if (!string(value, "id", where, true, out.id) ||
            !string(value, "topic", where, true, out.topic) ||
            !string(value, "title", where, true, out.title) ||
            !string(value, "caption", where, true, out.caption) ||
            !string(value, "source", where, false, out.source)) {
            return false;
        }
        // Ids are used on command lines: lower-case letters, digits and dashes.
        const bool idOk = !out.id.empty() && std::all_of(out.id.begin(), out.id.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        });
        if (!idOk) {
            return fail("an id is made of lower-case letters, digits and dashes",
                        child(where, "id"));
        }
        for (auto [key, text] : {std::pair{"topic", &out.topic}, std::pair{"title", &out.title},
                                 std::pair{"caption", &out.caption}}) {
            if (text->empty()) {
                return fail(std::string("\"") + key + "\" must not be empty", child(where, key));
            }
        }
        const json* p = member(value, "pattern", where, true);
        return p != nullptr && pattern(*p, child(where, "pattern"), out.pattern);
    }
};

} // namespace

Result<std::vector<Preset>> parsePresets(std::string_view jsonText) {
    const json document = json::parse(jsonText.begin(), jsonText.end(), nullptr, false);
    if (document.is_discarded()) {
        return presetError("the preset list is not valid JSON", "");
    }
    if (!document.is_array()) {
        return presetError("the preset list must be a JSON array", "");
    }
    Reader reader;
    std::vector<Preset> presets;
    std::set<std::string> ids;
    for (std::size_t i = 0; i < document.size(); ++i) {
        Preset preset;
        const std::string where = child(std::string(), i);
        if (!reader.preset(document[i], where, preset)) {
            return *reader.error;
        }
        if (!ids.insert(preset.id).second) {
            return presetError("the id \"" + preset.id + "\" is used twice", child(where, "id"));
        }
        presets.push_back(std::move(preset));
    }
    return presets;
}

const std::vector<Preset>& builtinPresets() {
    // The embedded list is checked by the tests (test_presets.cpp); should it ever be broken,
    // the program runs with no presets rather than failing.
    static const std::vector<Preset> presets = [] {
        auto parsed = parsePresets(detail::kPresetsJson);
        return parsed ? std::move(parsed).value() : std::vector<Preset>{};
    }();
    return presets;
}

const Preset* findPreset(std::string_view id) {
    const std::vector<Preset>& presets = builtinPresets();
    const auto it =
        std::find_if(presets.begin(), presets.end(), [&](const Preset& p) { return p.id == id; });
    return it == presets.end() ? nullptr : &*it;
}

} // namespace warpscope
