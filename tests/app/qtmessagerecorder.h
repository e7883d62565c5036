// Records the Qt warnings, criticals and fatals printed while the app tests run, so a test can
// assert that loading and rendering printed none.
#pragma once

#include <QString>
#include <QStringList>

namespace warpscope::app::test {

/// Install the recording message handler (once, from main()).
void installQtMessageRecorder();
/// Warnings and worse recorded since the last clear, as "file:line: message" lines.
QStringList recordedQtWarnings();
void clearRecordedQtWarnings();

} // namespace warpscope::app::test
