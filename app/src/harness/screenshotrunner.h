// Screenshots and start-up timing from the command line: show the window for real (under Xvfb in
// scripts/app-screenshots.sh), wait until it is exposed and painted, and grab it into a PNG; or
// report when the first frame was painted and quit.
#pragma once

#include <QElapsedTimer>
#include <QString>

namespace warpscope::app {

class MainWindow;

/// Show `window`, let it paint, save QWidget::grab() to `path`. Returns the process exit code.
int takeScreenshot(MainWindow& window, const QString& path);

/// Wait until `window` (and its shown widgets) is exposed and has painted, up to `timeoutMs`.
bool waitUntilPainted(MainWindow& window, int timeoutMs);

/// Print "first frame after N ms" (measured from `sinceStart`) when the warp view first paints,
/// then quit the event loop.
void watchFirstFrame(MainWindow& window, const QElapsedTimer& sinceStart);

} // namespace warpscope::app
