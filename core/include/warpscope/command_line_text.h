// What warpscope's command lines (warpscope-cli, warpscope-probe) print alike: the error and
// usage lines, an access kind in words, and the caret under a column of an expression. The
// caller names the stream; core itself never writes to one.
#pragma once

#include "warpscope/pattern.h"

#include <ostream>
#include <string>
#include <string_view>

namespace warpscope {

/// `text` as it may reach a terminal: control characters (C0, DEL, the C1 range U+0080-U+009F
/// that some terminals read as escape sequences) and bytes that are not UTF-8 are written as
/// visible escapes ("\x1b", "\u009b"), so a title, a kernel name or a file's text can neither
/// move the cursor nor send commands to the terminal. Printable UTF-8 is kept as it is.
std::string terminalText(std::string_view text);

/// "program: message", the message through terminalText.
void writeCommandError(std::ostream& out, std::string_view program, std::string_view message);

/// The error, then where the commands and options are listed ("Run 'program --help' ...").
void writeUsageError(std::ostream& out, std::string_view program, std::string_view message);

/// "global load, 4-byte elements, cache default" (the cache only for global loads).
std::string describeAccessKind(const AccessKind& kind);

/// The white space that puts a caret under the 1-based byte `column` of `text` on the next line:
/// tabs kept, one space per UTF-8 character.
std::string caretPadding(std::string_view text, int column);

} // namespace warpscope
