// Benchmarks of the grid model (predictGrid) on the two targets: a 2048 x 2048 transpose
// (block 16 x 16, 131,072 warps, two accesses; target <= 150 ms) and readOffset over 2^24 threads
// (three accesses; target <= 500 ms), one core, Release build. docs/benchmarks.md has the numbers.
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

warpscope::ResolvedKernel presetKernel(const std::string& id) {
    const warpscope::KernelPreset* preset = warpscope::findKernelPreset(id);
    if (preset == nullptr) {
        return {};
    }
    auto resolved = warpscope::resolveKernel(preset->kernel);
    return resolved ? resolved.value() : warpscope::ResolvedKernel{};
}

void runGrid(benchmark::State& state, const std::string& id) {
    const warpscope::ResolvedKernel kernel = presetKernel(id);
    if (kernel.accesses.empty()) {
        state.SkipWithError(("no kernel preset " + id).c_str());
        return;
    }
    for (auto _ : state) {
        auto prediction = warpscope::predictGrid(kernel);
        if (!prediction) {
            state.SkipWithError(prediction.error().describe().c_str());
            return;
        }
        benchmark::DoNotOptimize(prediction.value().metrics.data());
    }
    state.counters["warps"] = static_cast<double>(kernel.warpCount());
    state.counters["accesses"] = static_cast<double>(kernel.accesses.size());
}

// The transpose: loads by columns, stores by rows, 2048 x 2048 floats in 16 x 16 blocks.
void BM_GridTransposeNaiveCol(benchmark::State& state) {
    runGrid(state, "transpose-naivecol");
}
BENCHMARK(BM_GridTransposeNaiveCol)->Unit(benchmark::kMillisecond);

void BM_GridTransposeCopyRow(benchmark::State& state) {
    runGrid(state, "transpose-copyrow");
}
BENCHMARK(BM_GridTransposeCopyRow)->Unit(benchmark::kMillisecond);

// readOffset: 2^24 threads in blocks of 512, load A, load B, store C.
void BM_GridReadOffset(benchmark::State& state) {
    runGrid(state, "readoffset");
}
BENCHMARK(BM_GridReadOffset)->Unit(benchmark::kMillisecond);

// The tiled transpose: four accesses, two of them shared with a 32-way conflict.
void BM_GridTransposeTiled(benchmark::State& state) {
    runGrid(state, "transpose-tiled");
}
BENCHMARK(BM_GridTransposeTiled)->Unit(benchmark::kMillisecond);

} // namespace
