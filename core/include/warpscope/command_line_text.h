// What warpscope's command lines (warpscope-cli, warpscope-probe) print alike: the error and
// usage lines, an access kind in words, and the caret under a column of an expression. The
// caller names the stream; core itself never writes to one.
#pragma once

#include "warpscope/pattern.h"

#include <ostream>
#include <string>
#include <string_view>

namespace warpscope {

/// "program: message".
void writeCommandError(std::ostream& out, std::string_view program, std::string_view message);

/// The error, then where the commands and options are listed ("Run 'program --help' ...").
void writeUsageError(std::ostream& out, std::string_view program, std::string_view message);

/// "global load, 4-byte elements, cache default" (the cache only for global loads).
std::string describeAccessKind(const AccessKind& kind);

/// The white space that puts a caret under the 1-based byte `column` of `text` on the next line:
/// tabs kept, one space per UTF-8 character.
std::string caretPadding(std::string_view text, int column);

} // namespace warpscope
