// Internal to the core: the list part of the built-in preset lists (resources/presets.json read
// by preset.cpp, resources/kernels.json by kernel_preset.cpp): a JSON array of entries with
// unique ids, and the look-up by id.
#pragma once

#include "json_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::detail {

/// The entries of `document`, read one by one with `reader.preset(value, where, entry)` (a
/// JsonFieldReader keeping its first error). `listName` ("preset list") names the list when the
/// document is not an array; an id used twice is an error at the second one.
template <typename Entry, typename Reader>
Result<std::vector<Entry>> readPresetList(const nlohmann::json& document, std::string_view listName,
                                          Reader& reader) {
    if (!document.is_array()) {
        return fileError("the " + std::string(listName) + " must be a JSON array", "");
    }
    std::vector<Entry> entries;
    std::set<std::string> ids;
    for (std::size_t i = 0; i < document.size(); ++i) {
        Entry entry;
        const std::string where = child(std::string(), i);
        if (!reader.preset(document[i], where, entry)) {
            return *reader.error();
        }
        if (!ids.insert(entry.id).second) {
            return fileError("the id \"" + entry.id + "\" is used twice", child(where, "id"));
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

/// A built-in list's entries, or none when it does not parse: the tests check the embedded
/// lists, and should one ever be broken the program runs without it rather than failing.
template <typename Entry> std::vector<Entry> entriesOrNone(Result<std::vector<Entry>> parsed) {
    return parsed ? std::move(parsed).value() : std::vector<Entry>{};
}

/// The entry whose id is `id`, or nullptr.
template <typename Entry>
const Entry* findById(const std::vector<Entry>& entries, std::string_view id) {
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [&](const Entry& entry) { return entry.id == id; });
    return it == entries.end() ? nullptr : &*it;
}

} // namespace warpscope::detail
