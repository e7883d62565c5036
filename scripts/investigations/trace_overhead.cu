// The overhead benchmark's program (scripts/investigations/trace_overhead.sh): the course notes' readOffset,
// C[i] = A[i + offset] + B[i + offset] over n floats (grid n / 512 x block 512), launched REPEAT
// times, each launch timed with CUDA events. Under warpscope-trace one launch is patched; the
// others show whether a kernel that is not traced runs at native speed.
//   trace_overhead [N [REPEAT [OFFSET]]]   (defaults 2^24, 10, 0)
// Prints one JSON line: n, offset, each launch's GPU time in ms (CUDA events) and its host wall
// time in ms (from the launch call to the launch's end, which includes what a tool does on the
// host at launch: patching, copying records).
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

__global__ void readOffset(const float* a, const float* b, float* c, int n, int offset) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int k = i + offset;
    if (k < n) {
        c[i] = a[k] + b[k];
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
    const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 24;
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 10;
    const int offset = argc > 3 ? std::atoi(argv[3]) : 0;
    if (n < 1 || repeat < 1 || offset < 0) {
        std::fprintf(stderr, "usage: trace_overhead [N >= 1 [REPEAT >= 1 [OFFSET >= 0]]]\n");
        return 2;
    }
    const size_t bytes = size_t(n) * sizeof(float);
    float *a = nullptr, *b = nullptr, *c = nullptr;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMalloc(&c, bytes));
    CHECK(cudaMemset(a, 0, bytes));
    CHECK(cudaMemset(b, 0, bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    float* gpuMs = static_cast<float*>(std::calloc(size_t(repeat), sizeof(float)));
    double* wallMs = static_cast<double*>(std::calloc(size_t(repeat), sizeof(double)));
    if (gpuMs == nullptr || wallMs == nullptr) {
        std::fprintf(stderr, "out of host memory for %d launches\n", repeat);
        return 1;
    }
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        CHECK(cudaEventRecord(start));
        readOffset<<<(n + 511) / 512, 512>>>(a, b, c, n, offset);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        wallMs[r] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count();
        CHECK(cudaEventElapsedTime(&gpuMs[r], start, stop));
    }
    std::printf("{\"n\":%d,\"offset\":%d,\"launch_ms\":[", n, offset);
    for (int r = 0; r < repeat; ++r) {
        std::printf("%s%.4f", r ? "," : "", gpuMs[r]);
    }
    std::printf("],\"launch_wall_ms\":[");
    for (int r = 0; r < repeat; ++r) {
        std::printf("%s%.4f", r ? "," : "", wallMs[r]);
    }
    std::printf("]}\n");
    return 0;
}
