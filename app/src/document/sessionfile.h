// Reading and writing .warpscope session files: the core's session JSON, read with the core's size
// limit and written atomically with QSaveFile (a crash mid-save never leaves half a file).
#pragma once

#include <warpscope/file_format.h>
#include <warpscope/result.h>

#include <QString>

#include <optional>

namespace warpscope::app {

/// The file name suffix of sessions, without the dot.
inline constexpr const char* kSessionSuffix = "warpscope";

Result<Session> readSessionFile(const QString& path);
std::optional<Error> writeSessionFile(const QString& path, const Session& session);

} // namespace warpscope::app
