// The kernel of measure_l2_persistence (l2_persistence_cuda.cpp), behind a plain launch function
// so that the host code compiles as C++20.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace warpscope::probe {

/// Each step j (grid-stride, `steps` of them) reads region[j % regionCount] once and
/// stream[s * steps + j] for s in [0, perRegion): the region is re-read again and again while the
/// streaming buffer (steps x perRegion float4) passes through L2 once. `sink` receives one value
/// only if the data sum to -1 (it never does for zero-filled buffers), so no read is dropped.
cudaError_t launchRegionAndStream(const float4* region, std::int64_t regionCount,
                                  const float4* stream, std::int64_t steps, int perRegion,
                                  float* sink, int blocks, cudaStream_t cudaStream);

} // namespace warpscope::probe
