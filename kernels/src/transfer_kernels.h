// The notes' sumArrays kernel for measure_transfers (transfers_cuda.cpp), behind a plain launch
// function so that the host code compiles as C++20.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace warpscope::probe {

/// C = A + B over n floats, one element per thread in blocks of 256, on `stream`. Returns the
/// launch's status (cudaGetLastError).
cudaError_t launchSumArrays(const float* a, const float* b, float* c, std::int64_t n,
                            cudaStream_t stream);

} // namespace warpscope::probe
