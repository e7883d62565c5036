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

/// A session file, or a kernel file (the CLI's, docs/file-formats.md) as a session of that one
/// kernel (`wasKernelFile`, when given, says which). Errors name the file and, inside it, a JSON
/// pointer.
Result<Session> readSessionFile(const QString& path, bool* wasKernelFile = nullptr);
std::optional<Error> writeSessionFile(const QString& path, const Session& session);

} // namespace warpscope::app
