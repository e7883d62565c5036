// Benchmark rows for whole kernels (issue 12): the grid view of a 2048 x 2048 transpose
// (131,072 warps) from request to painted, and an edit of that transpose's access to the warp
// view painted. runBenchmark prints them with its other rows.
#pragma once

#include <warpscope/pattern.h>

#include <QString>

#include <vector>

namespace warpscope::app {

class MainWindow;

struct KernelBenchmarkRow {
    QString name;
    std::vector<double> ms;
    QString target;
};

/// The benchmarks' edit number `i`: the pattern's address expression shifted by 4 × (i mod 8)
/// bytes, so that each edit changes what the views draw and no two neighbours are the same.
Pattern benchmarkEdit(const Pattern& original, int i);

std::vector<KernelBenchmarkRow> kernelBenchmarkRows(MainWindow& window, int iterations);

} // namespace warpscope::app
