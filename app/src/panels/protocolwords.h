// A probe protocol code ("no_driver", "compile_error") is for scripts and logs; a user reads
// what happened. sayProtocolCodesInWords() is what the message bar shows of any text it is given.
#pragma once

#include <QString>

namespace warpscope::app {

/// `text` with each raw probe protocol code said in words ("the error compile_error" -> "the
/// error a kernel that did not compile") or, in parentheses after a sentence that already says
/// what happened ("cannot be loaded (no_driver)."), left out.
QString sayProtocolCodesInWords(const QString& text);

} // namespace warpscope::app
