// Device helper shared by the single-warp kernels: a lane picks its own byte offset out of the
// 32 offsets passed in the kernel parameters with a select chain, so it reads only the constant
// bank (a dynamic index into the parameters could go through local memory).
#pragma once

#include "replay_kernels.h"

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

} // namespace warpscope::gpu
