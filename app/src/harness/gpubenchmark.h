// The GPU from the command line: `--measure` (run the pattern before a screenshot, so scripts can
// capture the measured overlay) and `--benchmark-gpu` (the time from an edit to the measured
// overlay on screen, with the real probe, as a Markdown table).
#pragma once

#include <warpscope/file_format.h>

#include <QString>

#include <optional>

namespace warpscope::app {

struct CommandLine;
class MainWindow;

/// Run the window's current pattern on the GPU and wait (up to two minutes) for its measurement;
/// false, with the reason in the message bar, when none came.
bool measureAndWait(MainWindow& window);

int runGpuBenchmark(const CommandLine& options);

/// For `--export --measure`: measure the current entry of `session` with the probe (`command`, or
/// the default one) and record the answer in the entry, so the exported figure shows it. Returns
/// why not, when no measurement came.
std::optional<QString> measureSessionEntry(Session& session, const std::optional<QString>& command);

} // namespace warpscope::app
