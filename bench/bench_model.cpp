// Benchmarks of the two memory models on three typical warps (coalesced, strided, random
// scatter), for global and for shared memory: the app re-runs them on every edit.
#include "warpscope/model.h"
#include "warpscope/pattern.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>

namespace {

enum Shape : int { Coalesced, Strided, Scatter };

warpscope::WarpAccess makeAccess(warpscope::MemorySpace space, Shape shape) {
    warpscope::WarpAccess access;
    access.kind.space = space;
    access.kind.widthBytes = 4;
    std::mt19937_64 random(42); // fixed seed: every run measures the same warp
    std::uniform_int_distribution<std::int64_t> word(
        0, space == warpscope::MemorySpace::Shared ? 12 * 1024 - 1 : (std::int64_t{1} << 24) - 1);
    for (int lane = 0; lane < warpscope::kWarpSize; ++lane) {
        std::int64_t address = 0;
        switch (shape) {
        case Coalesced:
            address = lane * 4;
            break;
        case Strided:
            address = lane * 4 * 33; // 33 words apart: a new line per lane, banks spread
            break;
        case Scatter:
            address = word(random) * 4;
            break;
        }
        access.addresses[static_cast<std::size_t>(lane)] = address;
    }
    return access;
}

void BM_PredictModern(benchmark::State& state) {
    const auto access = makeAccess(static_cast<warpscope::MemorySpace>(state.range(0)),
                                   static_cast<Shape>(state.range(1)));
    for (auto _ : state) {
        auto prediction = warpscope::predictModern(access);
        benchmark::DoNotOptimize(prediction);
    }
}

void BM_PredictTextbook(benchmark::State& state) {
    const auto access = makeAccess(static_cast<warpscope::MemorySpace>(state.range(0)),
                                   static_cast<Shape>(state.range(1)));
    for (auto _ : state) {
        auto prediction = warpscope::predictTextbook(access);
        benchmark::DoNotOptimize(prediction);
    }
}

// Arguments: {memory space (0 global, 1 shared), shape (0 coalesced, 1 strided, 2 scatter)}.
void shapes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"shared", "shape"});
    for (int space : {0, 1}) {
        for (int shape : {Coalesced, Strided, Scatter}) {
            b->Args({space, shape});
        }
    }
}

BENCHMARK(BM_PredictModern)->Apply(shapes);
BENCHMARK(BM_PredictTextbook)->Apply(shapes);

} // namespace
