// `warpscope --benchmark`: times what a user waits for — the redraw after an edit (the model runs
// and the window repaints into an image the window's size), the block view of a 1024-thread block,
// and start to first frame — and prints a Markdown table with the machine it ran on.
#pragma once

#include <QElapsedTimer>

namespace warpscope::app {

struct CommandLine;

int runBenchmark(const CommandLine& options, const QElapsedTimer& sinceStart);

} // namespace warpscope::app
