// The GPU from the command line: `--measure` (run the pattern before a screenshot, so scripts can
// capture the measured overlay) and `--benchmark-gpu` (the time from an edit to the measured
// overlay on screen, with the real probe, as a Markdown table).
#pragma once

namespace warpscope::app {

struct CommandLine;
class MainWindow;

/// Run the window's current pattern on the GPU and wait (up to two minutes) for its measurement;
/// false, with the reason in the message bar, when none came.
bool measureAndWait(MainWindow& window);

int runGpuBenchmark(const CommandLine& options);

} // namespace warpscope::app
