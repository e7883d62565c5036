// Benchmarks of the pattern language: parsing plus evaluating an address expression for every
// thread of a 1024-thread block (the editor does this on each keystroke; target <= 50 us in
// Release), evaluating alone, and resolve() of a preset-like pattern.
#include "warpscope/expression.h"
#include "warpscope/pattern.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

constexpr const char* kTileAddress = "(tid.y * bdim.x + tid.x) * 4 + offset * 4";
const std::vector<std::string> kParameterNames = {"offset"};
const std::vector<std::int64_t> kParameterValues = {11};

/// The environments of the 1024 threads of a 32 x 32 block, x fastest.
std::vector<warpscope::ThreadEnvironment> blockThreads() {
    std::vector<warpscope::ThreadEnvironment> threads;
    for (std::int64_t y = 0; y < 32; ++y) {
        for (std::int64_t x = 0; x < 32; ++x) {
            warpscope::ThreadEnvironment env;
            const std::int64_t linear = y * 32 + x;
            env.lane = linear % 32;
            env.warp = linear / 32;
            env.tid = {x, y, 0};
            env.bdim = {32, 32, 1};
            env.gid = linear;
            threads.push_back(env);
        }
    }
    return threads;
}

std::int64_t evaluateBlock(const warpscope::Expression& expression,
                           const std::vector<warpscope::ThreadEnvironment>& threads) {
    std::int64_t sum = 0;
    for (const auto& env : threads) {
        auto value = expression.evaluate(env, kParameterValues);
        sum += value ? value.value() : 0;
    }
    return sum;
}

void BM_ParseAndEvaluateBlock(benchmark::State& state) {
    const auto threads = blockThreads();
    for (auto _ : state) {
        auto expression = warpscope::Expression::parse(kTileAddress, kParameterNames);
        benchmark::DoNotOptimize(evaluateBlock(expression.value(), threads));
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(threads.size()));
}
BENCHMARK(BM_ParseAndEvaluateBlock)->Unit(benchmark::kMicrosecond);

void BM_EvaluateBlock(benchmark::State& state) {
    const auto threads = blockThreads();
    const auto expression = warpscope::Expression::parse(kTileAddress, kParameterNames).value();
    for (auto _ : state) {
        benchmark::DoNotOptimize(evaluateBlock(expression, threads));
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(threads.size()));
}
BENCHMARK(BM_EvaluateBlock)->Unit(benchmark::kMicrosecond);

void BM_ParseOnly(benchmark::State& state) {
    for (auto _ : state) {
        auto expression = warpscope::Expression::parse(kTileAddress, kParameterNames);
        benchmark::DoNotOptimize(expression.ok());
    }
}
BENCHMARK(BM_ParseOnly);

/// A transpose-like pattern: a column read of a padded 32 x 33 shared tile, active lanes masked.
void BM_ResolvePattern(benchmark::State& state) {
    warpscope::Pattern pattern;
    pattern.kind.space = warpscope::MemorySpace::Shared;
    warpscope::PatternSource source;
    source.addressExpression = "(tid.x * (32 + pad) + tid.y) * 4";
    source.activeExpression = "tid.x < active";
    source.parameters = {{"pad", 1, 1, 0, 1}, {"active", 32, 32, 0, 32}};
    source.blockDim = {32, 8, 1};
    source.warpIndex = 3;
    pattern.source = source;
    for (auto _ : state) {
        auto access = warpscope::resolve(pattern);
        benchmark::DoNotOptimize(access.ok());
    }
}
BENCHMARK(BM_ResolvePattern);

} // namespace
