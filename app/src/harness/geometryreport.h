// --geometry-report: the shown window's layout as JSON, for scripts/first-start-check.sh to check
// that a first start fits the screen (every metric's name and value whole, all 32 banks visible,
// and where something does not fit, a scroll bar that says so).
#pragma once

#include <QJsonObject>
#include <QString>

namespace warpscope::app {

class MainWindow;

/// The window's layout now: the screen, the window, the docks, each metrics table's columns
/// (widths against what their text needs), rows and scroll bars, and the bank view's 32 bank
/// headers against its scroll area's viewport.
QJsonObject windowGeometry(MainWindow& window);

/// Show `window`, let it paint and settle, write windowGeometry() to `reportPath` (and, when
/// `screenshotPath` is not empty, the window as a PNG). Returns the process exit code.
int writeGeometryReport(MainWindow& window, const QString& reportPath,
                        const QString& screenshotPath);

} // namespace warpscope::app
