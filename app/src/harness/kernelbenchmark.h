// Benchmark rows for whole kernels (issue 12): the grid view of a 2048 x 2048 transpose
// (131,072 warps) from request to painted, and an edit of that transpose's access to the warp
// view painted. runBenchmark prints them with its other rows.
#pragma once

#include <QString>

#include <vector>

namespace warpscope::app {

class MainWindow;

struct KernelBenchmarkRow {
    QString name;
    std::vector<double> ms;
    QString target;
};

std::vector<KernelBenchmarkRow> kernelBenchmarkRows(MainWindow& window, int iterations);

} // namespace warpscope::app
