// The built-in presets: resources/presets.json, compiled into the core as a string by
// resources/CMakeLists.txt, parsed once into Preset objects. Each entry's "pattern" object has the
// shape of a pattern file's pattern (docs/file-formats.md), so a preset can be saved as a file
// as it is; the parser here is separate so the core's preset list never depends on file I/O code.
#include "warpscope/preset.h"

#include "preset_list.h"
#include "warpscope/file_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>

namespace warpscope {

namespace {

using json = nlohmann::json;

using detail::child;

/// Reads fields of one JSON object, remembering the first error with its JSON pointer.
class PresetReader : public detail::JsonFieldReader {
public:
    bool preset(const json& value, const std::string& where, Preset& out) {
        if (!value.is_object()) {
            return fail("a preset must be an object", where);
        }
        if (!stringMember(value, "id", where, true, out.id) ||
            !stringMember(value, "topic", where, true, out.topic) ||
            !stringMember(value, "title", where, true, out.title) ||
            !stringMember(value, "caption", where, true, out.caption) ||
            !stringMember(value, "source", where, false, out.source)) {
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
            if (!m_error) {
                m_error = named.error();
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
        return detail::fileError("the preset list is not valid JSON", "");
    }
    PresetReader reader;
    return detail::readPresetList<Preset>(document, "preset list", reader);
}

const std::vector<Preset>& builtinPresets() {
    // Checked by test_presets.cpp.
    static const std::vector<Preset> presets =
        detail::entriesOrNone(parsePresets(detail::kPresetsJson));
    return presets;
}

const Preset* findPreset(std::string_view id) {
    return detail::findById(builtinPresets(), id);
}

} // namespace warpscope
