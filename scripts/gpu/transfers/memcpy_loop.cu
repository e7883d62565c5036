// A plain cudaMemcpy loop, the reference `scripts/gpu/check.sh transfers` holds warpscope-probe's
// pinned host-to-device copies against: one pinned buffer, one device buffer, one warm-up copy,
// then N copies each timed with CUDA events. Prints one JSON line with every sample.
// Build: nvcc -O2 -arch=sm_90 -o memcpy_loop memcpy_loop.cu
// Usage: memcpy_loop [MiB] [copies]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t status_ = (call);                                                              \
        if (status_ != cudaSuccess) {                                                              \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status_));                  \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char** argv) {
    const std::size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 256;
    const int copies = argc > 2 ? std::atoi(argv[2]) : 20;
    const std::size_t bytes = mib << 20;
    void* host = nullptr;
    void* device = nullptr;
    CHECK(cudaHostAlloc(&host, bytes, cudaHostAllocDefault));
    std::memset(host, 1, bytes);
    CHECK(cudaMalloc(&device, bytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice)); // warm-up
    std::vector<double> gbs;
    for (int i = 0; i < copies; ++i) {
        CHECK(cudaEventRecord(start));
        CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms = 0.0f;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        gbs.push_back(static_cast<double>(bytes) / (ms * 1e6));
    }
    std::vector<double> sorted = gbs;
    std::sort(sorted.begin(), sorted.end());
    std::printf("{\"bytes\": %zu, \"copies\": %d, \"bestGBs\": %.4f, \"medianGBs\": %.4f, "
                "\"samplesGBs\": [",
                bytes, copies, sorted.back(), sorted[sorted.size() / 2]);
    for (std::size_t i = 0; i < gbs.size(); ++i) {
        std::printf("%s%.4f", i ? ", " : "", gbs[i]);
    }
    std::printf("]}\n");
    cudaFree(device);
    cudaFreeHost(host);
    return 0;
}
