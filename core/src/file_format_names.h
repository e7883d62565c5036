// The format names that pattern, session and deck files carry (docs/file-formats.md), shared by
// the readers of file_format_read.cpp and the writers of file_format.cpp.
#pragma once

namespace warpscope::detail {

inline constexpr const char* kPatternFormatName = "warpscope-pattern";
inline constexpr const char* kSessionFormatName = "warpscope-session";
inline constexpr const char* kDeckFormatName = "warpscope-deck";

} // namespace warpscope::detail
