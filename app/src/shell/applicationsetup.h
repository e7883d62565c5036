// Start-up of the desktop app: the one application id and names used everywhere (desktop entry,
// AppStream, QSettings, setDesktopFileName), the compiled-in resources, and runWarpscope(), the
// whole of main() so that main.cpp stays one line.
#pragma once

class QApplication;

namespace warpscope::app {

/// Reverse-DNS application id: the desktop file is io.github.warpscope.Warpscope.desktop.
inline constexpr const char* kApplicationId = "io.github.warpscope.Warpscope";
inline constexpr const char* kOrganizationName = "warpscope";
inline constexpr const char* kApplicationName = "warpscope";

/// Names, version, desktop file name, window icon; registers the app's Qt resources.
void configureApplication(QApplication& application);

/// Register the static library's Qt resources (icons). Safe to call more than once.
void initializeAppResources();

/// Parse the command line and run the window, a screenshot or the benchmark.
int runWarpscope(int argc, char** argv);

} // namespace warpscope::app
