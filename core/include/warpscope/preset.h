// The built-in presets: every access figure of the course notes and the classic patterns
// (strides, AoS versus SoA, transpose, padded shared tiles, broadcast, swizzle). Their data lives
// in resources/presets.json, compiled into the core so every layer has the same list.
#pragma once

#include "warpscope/pattern.h"
#include "warpscope/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

struct Preset {
    std::string id;      // stable, used on command lines: "readsegment-offset-11"
    std::string topic;   // group in the picker: "Global loads", "Shared memory", ...
    std::string title;   // "Misaligned read, offset 11"
    std::string caption; // one line: what to look at
    std::string source;  // where it comes from: "seed 002, figure 4-11", or empty
    Pattern pattern;
};

/// Parse a preset list: a JSON array like resources/presets.json, whose entries hold id, topic,
/// title, caption, source and a "pattern" object shaped as in pattern files
/// (docs/file-formats.md). The error's `where` is a JSON pointer ("/3/pattern/width").
Result<std::vector<Preset>> parsePresets(std::string_view jsonText);

/// All built-in presets, in display order. Parsed once from the embedded JSON.
const std::vector<Preset>& builtinPresets();

/// The preset with this id, or nullptr.
const Preset* findPreset(std::string_view id);

} // namespace warpscope
