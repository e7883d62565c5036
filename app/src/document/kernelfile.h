// Kernel files in the app: the CLI's own kernel file (docs/file-formats.md, "Kernel files";
// `warpscope-cli analyze-kernel` reads it) opened as a session of one entry, and the current
// entry's kernel written as one, so a kernel built in the app can be analysed, measured and
// versioned from the command line.
#pragma once

#include <warpscope/file_format.h>
#include <warpscope/kernel.h>
#include <warpscope/result.h>

#include <QString>

#include <optional>
#include <string_view>

namespace warpscope::app {

/// True when `text` reads as a kernel file rather than a session: its format is
/// "warpscope-kernel", or it has no format and holds "accesses" (the line form).
bool looksLikeKernelFile(std::string_view text);

/// A session of one entry: `kernel`, its first access selected, titled with the kernel's name
/// (or `fallbackTitle`). Fails when the kernel does not resolve (its error names the place).
Result<Session> sessionFromKernel(const Kernel& kernel, const QString& fallbackTitle);

/// Write `kernel` in the file form ("format": "warpscope-kernel"), atomically (QSaveFile).
std::optional<Error> writeKernelFile(const QString& path, const Kernel& kernel);

} // namespace warpscope::app
