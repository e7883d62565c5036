// Internal to the core: a session's TMA tile load as JSON (docs/file-formats.md, "Session file"),
// written by file_format.cpp and read, field by field through the guarded reader, by
// file_format_read.cpp.
#pragma once

#include "json_fields.h"
#include "warpscope/tma_layout.h"

#include <nlohmann/json.hpp>

#include <string>

namespace warpscope::detail {

/// {"swizzle": "128B", "elementBytes": 2, "box": [64, 16], "smemOffset": 1024}
nlohmann::ordered_json tmaLoadToJson(const TmaTileLoad& load);

/// Reads that object into `out`. Refuses what the tile view cannot hold (an unknown swizzle
/// mode, an element size other than 1, 2, 4 or 8 bytes, a box dimension outside 1..256, an
/// offset outside the shared memory of compute capability 9.0), naming the field; keeps a load
/// core's TMA layout refuses for other reasons (a 128B_ATOM mode, an unaligned offset), which
/// the view shows with its reason.
bool readTmaLoad(JsonFieldReader& reader, const nlohmann::json& value, const std::string& where,
                 TmaTileLoad& out);

} // namespace warpscope::detail
