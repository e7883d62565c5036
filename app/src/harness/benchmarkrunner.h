// `warpscope --benchmark`: times what a user waits for — the redraw after an edit (the model runs
// and the window repaints into an image the window's size), the block view of a 1024-thread block,
// and start to first frame — and prints a Markdown table with the machine it ran on.
#pragma once

#include <QElapsedTimer>

#include <vector>

namespace warpscope::app {

struct CommandLine;

int runBenchmark(const CommandLine& options, const QElapsedTimer& sinceStart);

/// The value at fraction `p` (0.5: the median) of `values`, nearest rank; 0 when empty.
double percentile(std::vector<double> values, double p);

} // namespace warpscope::app
