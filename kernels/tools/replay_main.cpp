// warpscope-replay: reads patterns as JSON lines (the `warpscope-cli predict` form, plus an
// optional "name") and runs each one as a single-warp replay launch, in file order, one launch per
// pattern. Under `ncu` the n-th profiled kernel is the n-th pattern. Every address is checked
// against the arena before launch; a pattern that would fault is reported and not launched.
#include "replay_kernels.h"
#include "warpscope/file_format.h"
#include "warpscope/matrix_access.h"
#include "warpscope/pattern.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

namespace {

constexpr std::size_t kGlobalArenaBytes = 8u << 20;

bool check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        std::fprintf(stderr, "warpscope-replay: %s: %s\n", what, cudaGetErrorString(status));
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    const bool dryRun = argc == 3 && std::strcmp(argv[1], "--dry-run") == 0;
    if ((argc != 2 && !dryRun) || std::strcmp(argv[1], "--help") == 0) {
        std::fprintf(stderr, "usage: warpscope-replay [--dry-run] PATTERNS.jsonl\n"
                             "Runs each pattern as one single-warp launch, in file order.\n"
                             "--dry-run reads and checks the patterns without a GPU.\n");
        return argc == 2 ? 0 : 2;
    }
    const char* path = argv[argc - 1];
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "warpscope-replay: cannot open %s\n", path);
        return 2;
    }
    void* arena = nullptr;
    void* sink = nullptr;
    std::size_t maxShared = 227 * 1024;
    if (!dryRun &&
        (!check(cudaMalloc(&arena, kGlobalArenaBytes), "cudaMalloc") ||
         !check(cudaMemset(arena, 0x5a, kGlobalArenaBytes), "cudaMemset") ||
         !check(cudaMalloc(&sink, 32 * 16), "cudaMalloc") ||
         !check(warpscope::gpu::maxReplaySharedBytes(&maxShared), "shared memory limit"))) {
        return 3;
    }

    std::string line;
    int index = 0;
    int failures = 0;
    while (std::getline(in, line)) {
        if (line.empty()) {
            continue;
        }
        const auto json = nlohmann::json::parse(line, nullptr, false);
        const std::string name =
            json.is_object() && json.contains("name") && json["name"].is_string()
                ? json["name"].get<std::string>()
                : std::to_string(index);
        auto named = warpscope::patternFromJsonText(line);
        if (!named) {
            std::fprintf(stderr, "%d %s: %s\n", index, name.c_str(),
                         named.error().describe().c_str());
            ++failures;
            ++index;
            continue;
        }
        auto access = warpscope::resolve(named->pattern);
        if (!access) {
            std::fprintf(stderr, "%d %s: %s\n", index, name.c_str(),
                         access.error().describe().c_str());
            ++failures;
            ++index;
            continue;
        }
        if (warpscope::isMatrixAccess(access->kind)) {
            // These kernels issue LDS/STS; warpscope-ldmatrix-replay runs LDSM/STSM.
            std::fprintf(stderr, "%d %s: an %s is run by warpscope-ldmatrix-replay\n", index,
                         name.c_str(), warpscope::opName(access->kind));
            ++failures;
            ++index;
            continue;
        }
        using namespace warpscope::gpu;
        ReplayLaunch launch;
        const auto& kind = access->kind;
        launch.space = kind.space == warpscope::MemorySpace::Global ? ReplaySpace::Global
                                                                    : ReplaySpace::Shared;
        launch.op = kind.op == warpscope::AccessOp::Load ? ReplayOp::Load : ReplayOp::Store;
        launch.cache = static_cast<ReplayCache>(static_cast<int>(kind.cache));
        launch.widthBytes = kind.widthBytes;
        launch.globalArena = arena;
        launch.sink = sink;
        const std::size_t limit =
            launch.space == ReplaySpace::Global ? kGlobalArenaBytes : maxShared;
        bool fits = true;
        std::int64_t highest = 0;
        for (int lane = 0; lane < warpscope::kWarpSize; ++lane) {
            const auto& address = access->addresses[static_cast<std::size_t>(lane)];
            if (!address) {
                continue;
            }
            if (static_cast<std::uint64_t>(*address) + static_cast<std::uint64_t>(kind.widthBytes) >
                limit) {
                std::fprintf(stderr, "%d %s: lane %d address %lld is outside the %zu-byte arena\n",
                             index, name.c_str(), lane, static_cast<long long>(*address), limit);
                fits = false;
                break;
            }
            launch.activeMask |= 1u << lane;
            launch.offsets[lane] = *address;
            highest = std::max<std::int64_t>(highest, *address + kind.widthBytes);
        }
        if (!fits) {
            ++failures;
            ++index;
            continue;
        }
        launch.sharedBytes = static_cast<std::size_t>((highest + 15) / 16 * 16);
        if (!dryRun && (!check(launchReplay(launch, nullptr), name.c_str()) ||
                        !check(cudaDeviceSynchronize(), name.c_str()))) {
            return 4; // a fault leaves the context unusable
        }
        std::printf("%d %s\n", index, name.c_str());
        ++index;
    }
    std::fflush(stdout);
    std::fprintf(stderr, "warpscope-replay: %d launched, %d refused\n", index - failures, failures);
    if (!dryRun) {
        cudaFree(arena);
        cudaFree(sink);
    }
    return failures == 0 ? 0 : 1;
}
