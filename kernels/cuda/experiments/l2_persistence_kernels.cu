// The region-and-stream kernel (l2_persistence_kernels.h).
#include "l2_persistence_kernels.h"

namespace warpscope::probe {

namespace {

constexpr int kBlock = 256;

__global__ void regionAndStream(const float4* region, std::int64_t regionCount,
                                const float4* stream, std::int64_t steps, int perRegion,
                                float* sink) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    float sum = 0.0f;
    for (std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         j < steps; j += stride) {
        const float4 r = region[j % regionCount];
        sum += r.x + r.y + r.z + r.w;
        for (int s = 0; s < perRegion; ++s) {
            const float4 v = stream[static_cast<std::int64_t>(s) * steps + j];
            sum += v.x + v.y + v.z + v.w;
        }
    }
    if (sum == -1.0f) {
        sink[0] = sum;
    }
}

} // namespace

cudaError_t launchRegionAndStream(const float4* region, std::int64_t regionCount,
                                  const float4* stream, std::int64_t steps, int perRegion,
                                  float* sink, int blocks, cudaStream_t cudaStream) {
    regionAndStream<<<static_cast<unsigned>(blocks), kBlock, 0, cudaStream>>>(
        region, regionCount, stream, steps, perRegion, sink);
    return cudaGetLastError();
}

} // namespace warpscope::probe
