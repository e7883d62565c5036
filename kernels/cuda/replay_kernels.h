// Single-warp replay: runs one warp instruction of a pattern on the GPU and nothing else that the
// memory counters see, so Nsight Compute's l1tex counters for the launch are exactly that
// instruction's. Lane addresses travel in the kernel parameters (constant bank), never through
// global or shared memory.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace warpscope::gpu {

inline constexpr int kReplayLanes = 32;

enum class ReplaySpace : int { Global = 0, Shared = 1 };
enum class ReplayOp : int { Load = 0, Store = 1 };
enum class ReplayCache : int { Default = 0, CacheAll = 1, CacheGlobal = 2, NonCoherent = 3 };

struct ReplayLaunch {
    ReplaySpace space = ReplaySpace::Global;
    ReplayOp op = ReplayOp::Load;
    ReplayCache cache = ReplayCache::Default;
    int widthBytes = 4;
    std::uint32_t activeMask = 0;
    std::int64_t offsets[kReplayLanes] = {}; // byte offsets into the arena
    /// Global arena (device memory); unused for shared patterns.
    void* globalArena = nullptr;
    /// Bytes of dynamic shared memory the launch needs (highest offset + width).
    std::size_t sharedBytes = 0;
    /// ldmatrix / stmatrix (op Load / Store, shared, 16-byte rows): the 8x8 matrices moved, 1, 2
    /// or 4, and .trans; 0 for an LDS / STS. Every lane runs the instruction (it is .sync
    /// .aligned): lanes past the row lanes carry a copy of a row lane's offset.
    int matrices = 0;
    bool transpose = false;
    /// Device buffer of at least 32 x 16 bytes; written only if `neverTrue` is set, which the
    /// host never does: it keeps loaded values alive without a second memory instruction.
    void* sink = nullptr;
};

/// Enqueue one replay launch (1 block of 32 threads) on `stream`.
cudaError_t launchReplay(const ReplayLaunch& launch, cudaStream_t stream);

/// Largest dynamic shared memory a replay launch may ask for on the current device.
cudaError_t maxReplaySharedBytes(std::size_t* bytes);

} // namespace warpscope::gpu
