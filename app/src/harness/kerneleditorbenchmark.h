// Benchmark rows for the kernel editor (issue 12): with the whole 2048 x 2048 transpose kernel
// loaded, an edit of one access (its store's address expression, as typing does) to the warp
// view painted, and choosing another access to the warp view painted. runBenchmark prints them
// with its other rows.
#pragma once

#include "harness/kernelbenchmark.h"

#include <vector>

namespace warpscope::app {

class MainWindow;

std::vector<KernelBenchmarkRow> kernelEditorBenchmarkRows(MainWindow& window, int iterations);

} // namespace warpscope::app
