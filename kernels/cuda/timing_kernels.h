// Timing kernels: single-warp load latency with clock64 (a cold access, then the same access
// again, warm), and helpers to flush the L2 cache between cold measurements.
#pragma once

#include "replay_kernels.h"

#include <cuda_runtime.h>

namespace warpscope::gpu {

/// Runs the pattern's load twice in one warp and writes the cycles of each, as seen by the warp
/// (first clock64 before the load to clock64 after every lane has its value), to
/// cycles[0] (cold) and cycles[1] (warm). Loads only; `cycles` is device memory.
cudaError_t launchLatency(const ReplayLaunch& launch, long long* cycles, cudaStream_t stream);

/// Writes `bytes` of `buffer` so that the L2 cache holds none of the arena afterwards.
cudaError_t launchFlush(void* buffer, std::size_t bytes, cudaStream_t stream);

/// Cold start for a whole kernel: writes `bytes` of `buffer` (evicting, and writing back, what
/// the last kernel left dirty in L2), then reads them back, so that L2 holds only clean lines of
/// `buffer` and the timed kernel pays no write-backs of someone else's data. `bytes` should be at
/// least twice the L2 size. `sink` takes a never-taken store that keeps the reads.
cudaError_t launchCleanFlush(void* buffer, std::size_t bytes, unsigned* sink, cudaStream_t stream);

} // namespace warpscope::gpu
