// The tracer's known program (scripts/gpu/trace_check.sh): kernels whose addresses are known in
// advance, so a test can compare what warpscope-trace recorded with what they must touch.
//   coalesced: out[i] = 2 * in[i] over n floats (grid n/128 x block 128)
//   strided:   out[i] = in[i * 4] (grid 2 x block 128)
//   transpose: a 32x32 shared tile, written by rows and read by columns (grid 2x2, block 32x8)
// It prints one JSON line with the buffers' device addresses and each launch's time in ms;
// `trace_sample N REPEAT` runs the coalesced kernel REPEAT times over N floats (overhead runs);
// `trace_sample fault` makes the coalesced kernel store to an invalid address.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <cuda_runtime.h>

__global__ void coalesced(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = 2.0f * in[i];
    }
}

__global__ void strided(const float* in, float* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 4];
}

__global__ void transpose(const float* in, float* out, int width) {
    __shared__ float tile[32][32];
    const int x = blockIdx.x * 32 + threadIdx.x;
    for (int row = threadIdx.y; row < 32; row += 8) {
        tile[row][threadIdx.x] = in[(blockIdx.y * 32 + row) * width + x];
    }
    __syncthreads();
    const int tx = blockIdx.y * 32 + threadIdx.x;
    for (int row = threadIdx.y; row < 32; row += 8) {
        out[(blockIdx.x * 32 + row) * width + tx] = tile[threadIdx.x][row];
    }
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        const cudaError_t status = (call);                                                         \
        if (status != cudaSuccess) {                                                               \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status));                   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "fault") {
        // A store to an address no allocation holds: the launch fails with an illegal address.
        float* in = nullptr;
        CHECK(cudaMalloc(&in, 512 * sizeof(float)));
        coalesced<<<4, 128>>>(in, reinterpret_cast<float*>(0x10), 512);
        CHECK(cudaDeviceSynchronize());
        return 0;
    }
    const int n = argc > 1 ? std::atoi(argv[1]) : 512;
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 1;
    const int width = 64;
    float* in = nullptr;
    float* out = nullptr;
    const size_t floats = n > width * width * 4 ? size_t(n) : size_t(width * width * 4);
    CHECK(cudaMalloc(&in, floats * sizeof(float)));
    CHECK(cudaMalloc(&out, floats * sizeof(float)));
    CHECK(cudaMemset(in, 0, floats * sizeof(float)));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::printf("{\"in\":%llu,\"out\":%llu,\"n\":%d,\"coalesced_ms\":[", (unsigned long long)in,
                (unsigned long long)out, n);
    for (int r = 0; r < repeat; ++r) {
        CHECK(cudaEventRecord(start));
        coalesced<<<(n + 127) / 128, 128>>>(in, out, n);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        std::printf("%s%.4f", r ? "," : "", ms);
    }
    std::printf("]}\n");
    strided<<<2, 128>>>(in, out);
    transpose<<<dim3(2, 2), dim3(32, 8)>>>(in, out, width);
    CHECK(cudaDeviceSynchronize());
    return 0;
}
