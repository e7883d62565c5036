// The built-in presets: resources/presets.json, compiled into the core as a string by
// resources/CMakeLists.txt, parsed once into Preset objects. Each entry's "pattern" object has the
// shape of a pattern file's pattern (docs/file-formats.md), so a preset can be saved as a file
// as it is; the parser here is separate so the core's preset list never depends on file I/O code.
#include "warpscope/preset.h"

#include "warpscope/file_format.h"

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
        if (p == nullptr) {
            return false;
        }
        // The pattern object is the file format's (docs/file-formats.md), read by its reader.
        auto named = patternFromJson(*p, child(where, "pattern"));
        if (!named) {
            if (!error) {
                error = named.error();
            }
            return false;
        }
        out.pattern = std::move(named).value().pattern;
        return true;
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
