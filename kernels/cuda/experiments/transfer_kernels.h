// The notes' sumArrays kernel for measure_transfers (transfers_cuda.cpp) and the staged
// experiment's kernel for measure_streams (streams_cuda.cpp), behind plain launch functions so that
// the host code compiles as C++20.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace warpscope::probe {

/// C = A + B over n floats, one element per thread in blocks of 256, on `stream`. Returns the
/// launch's status (cudaGetLastError).
cudaError_t launchSumArrays(const float* a, const float* b, float* c, std::int64_t n,
                            cudaStream_t stream);

/// The staged experiment's kernel (measure_streams): out[i] = in[i] after `work` multiply-adds
/// x = fmaf(x, 0.9999f, 0.0001f), over n floats in blocks of 256 on `stream`. Its time grows with
/// `work`, so that it can be made as long as a copy. Returns the launch's status.
cudaError_t launchStagedWork(const float* in, float* out, std::int64_t n, int work,
                             cudaStream_t stream);

} // namespace warpscope::probe
