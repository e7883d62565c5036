// Start-up of the desktop app: the one application id and names used everywhere (desktop entry,
// AppStream, QSettings, setDesktopFileName), the compiled-in resources, and runWarpscope(), the
// whole of main() so that main.cpp stays one line.
#pragma once

#include <QString>

#include <functional>
#include <optional>

class QApplication;
class QElapsedTimer;

namespace warpscope::app {

struct CommandLine;
class MainWindow;

/// The command-line modes that time or photograph the app rather than being it. They live in
/// app/src/harness/ (the library warpscope-app-harness), which main.cpp links and hands over as
/// harnessModes(); the product never includes them. Each returns the process's exit status.
struct HarnessModes {
    /// --benchmark: redraw timings as a Markdown table.
    std::function<int(const CommandLine&, const QElapsedTimer& sinceStart)> benchmark;
    /// --benchmark-gpu: the time from an edit to the measured overlay, with the real probe.
    std::function<int(const CommandLine&)> benchmarkGpu;
    /// --screenshot FILE: show the window, let it paint, save it as a PNG.
    std::function<int(MainWindow&, const QString& path)> screenshot;
    /// --quit-after-first-frame: print when the first frame was painted, then quit.
    std::function<void(MainWindow&, const QElapsedTimer& sinceStart)> watchFirstFrame;
    /// --geometry-report FILE [--screenshot PNG]: the shown window's layout as JSON.
    std::function<int(MainWindow&, const QString& reportPath, const QString& screenshotPath)>
        geometryReport;
};

/// The option of a mode that `options` asks for and `modes` does not have ("--benchmark"), if any.
std::optional<QString> missingHarnessMode(const CommandLine& options, const HarnessModes& modes);

/// Reverse-DNS application id: the desktop file is io.github.warpscope.Warpscope.desktop.
inline constexpr const char* kApplicationId = "io.github.warpscope.Warpscope";
inline constexpr const char* kOrganizationName = "warpscope";
inline constexpr const char* kApplicationName = "warpscope";

/// Names, version, desktop file name, window icon; registers the app's Qt resources.
void configureApplication(QApplication& application);

/// Register the static library's Qt resources (icons). Safe to call more than once.
void initializeAppResources();

/// Parse the command line and run the window, an export or lecture mode, or one of `harness`'s
/// modes (a mode asked for but not given is refused with exit status 2).
int runWarpscope(int argc, char** argv, const HarnessModes& harness = {});

} // namespace warpscope::app
