// The notes' sumArrays and the staged experiment's kernel (transfer_kernels.h).
#include "transfer_kernels.h"

namespace warpscope::probe {

namespace {

constexpr int kBlock = 256;

__global__ void sumArrays(const float* a, const float* b, float* c, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

__global__ void stagedWork(const float* in, float* out, std::int64_t n, int work) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        for (int k = 0; k < work; ++k) {
            x = fmaf(x, 0.9999f, 0.0001f);
        }
        out[i] = x;
    }
}

} // namespace

cudaError_t launchStagedWork(const float* in, float* out, std::int64_t n, int work,
                             cudaStream_t stream) {
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    stagedWork<<<static_cast<unsigned>(blocks), kBlock, 0, stream>>>(in, out, n, work);
    return cudaGetLastError();
}

cudaError_t launchSumArrays(const float* a, const float* b, float* c, std::int64_t n,
                            cudaStream_t stream) {
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    sumArrays<<<static_cast<unsigned>(blocks), kBlock, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}

} // namespace warpscope::probe
