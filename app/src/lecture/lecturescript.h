// Lecture mode driven by a script (`warpscope --lecture --lecture-script STEPS`): the keys a
// presenter would press, sent to the lecture window one by one, and captures of what it shows.
// Used by the Xvfb test and by course authors who want slide pictures in a batch.
#pragma once

#include <QString>
#include <QStringList>

namespace warpscope::app {

class LectureWindow;

/// Check `script` (comma-separated steps) without running it; returns the message for a step that
/// is neither a key nor "capture:FILE", or an empty string.
QString checkLectureScript(const QString& script);

/// Run `script` on `window`, which must be shown: each step is a key as QKeySequence spells it
/// ("Right", "PgDown", "Space", "Shift+Space", "Backspace", "Home", "Return", "Esc") pressed on the
/// window, or "capture:FILE" to save what the window shows as a PNG. Prints one line per step
/// with the slide and the step-through state. Returns the process exit code: 1 when a capture
/// could not be written.
int runLectureScript(LectureWindow* window, const QString& script);

} // namespace warpscope::app
