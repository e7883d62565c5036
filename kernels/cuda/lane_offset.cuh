// Helpers shared by the single-warp kernels (the replays, the ld/stmatrix replays and the latency
// chase): a lane picks its own byte offset out of the 32 offsets passed in the kernel parameters
// with a select chain, so it reads only the constant bank (a dynamic index into the parameters
// could go through local memory); the host copies the offsets in and launches the one warp.
#pragma once

#include "replay_kernels.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace warpscope::gpu {

__device__ __forceinline__ long long laneOffset(const long long (&offsets)[kReplayLanes],
                                                int lane) {
    long long offset = 0;
#pragma unroll
    for (int i = 0; i < kReplayLanes; ++i) {
        offset = (lane == i) ? offsets[i] : offset;
    }
    return offset;
}

/// The launch's 32 byte offsets into a kernel's parameters.
inline void copyLaneOffsets(long long (&to)[kReplayLanes],
                            const std::int64_t (&from)[kReplayLanes]) {
    for (int i = 0; i < kReplayLanes; ++i) {
        to[i] = static_cast<long long>(from[i]);
    }
}

/// Launches `kernel` as one warp on `stream`, asking for dynamic shared memory above the default
/// 48 KiB first. The launch's error, or the attribute's when it was refused.
template <typename Params>
cudaError_t launchOneWarp(void (*kernel)(Params), const Params& params, std::size_t sharedBytes,
                          cudaStream_t stream) {
    if (sharedBytes > 48 * 1024) {
        const cudaError_t status = cudaFuncSetAttribute(
            kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sharedBytes));
        if (status != cudaSuccess) {
            return status;
        }
    }
    kernel<<<1, kReplayLanes, sharedBytes, stream>>>(params);
    return cudaGetLastError();
}

} // namespace warpscope::gpu
