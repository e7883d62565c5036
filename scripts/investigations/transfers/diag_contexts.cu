// Issue 16's fourth repeatability diagnosis: is what moves a run's median of pageable copies and of
// managed memory's first touch a property of the CUDA context (its pinned staging buffers), of the
// process, or of the host's memory? One process, one of two parts:
//
//   diag_contexts pageable K S   K contexts (driver API cuCtxCreate), S samples of each of h2d and
//                                d2h pageable at 64 and 256 MiB, sample j staged through context
//                                j % K, each from a fresh window of two 1 GiB pools (as the probe
//                                does); beside every sample a plain host memcpy of the same sizes
//                                between the pools. Prints the median over all samples, each
//                                context's median, the pools' huge pages and the host's first-touch
//                                speed (mmap + memset of a fresh 256 MiB).
//   diag_contexts managed K      managed memory's first touch (fresh arrays per sample, A and B
//                                written on the host, sumArrays on the device) at 64 and 256 MiB in
//                                three variants interleaved: one context back to back, K contexts
//                                in turn, one context with 100 ms between samples.
//
// Run each part in several processes and compare the process medians (diag_contexts_summary.py).
// Build: nvcc -O2 -arch=sm_90 -o diag_contexts diag_contexts.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t status_ = (call);                                                              \
        if (status_ != cudaSuccess) {                                                              \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status_));                  \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

#define CHECK_CU(call)                                                                             \
    do {                                                                                           \
        CUresult status_ = (call);                                                                 \
        if (status_ != CUDA_SUCCESS) {                                                             \
            const char* text_ = nullptr;                                                           \
            cuGetErrorString(status_, &text_);                                                     \
            std::fprintf(stderr, "%s: %s\n", #call, text_ ? text_ : "?");                          \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kPool = 1024 * kMiB;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

__global__ void sumArrays(const float* a, const float* b, float* c, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

double median(std::vector<double> v) {
    if (v.empty()) {
        return 0.0;
    }
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void* mapPageable(std::size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        std::perror("mmap");
        std::exit(1);
    }
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

/// AnonHugePages (kB) of the mapping that holds p (adjacent anonymous mappings are merged into one,
/// so this may count a neighbour too), from /proc/self/smaps.
long hugeKb(const void* p) {
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    const auto at = reinterpret_cast<unsigned long>(p);
    bool in = false;
    while (std::getline(smaps, line)) {
        unsigned long start = 0, end = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx ", &start, &end) == 2 && line.find(' ') > 8) {
            in = start <= at && at < end;
        } else if (in && line.rfind("AnonHugePages:", 0) == 0) {
            return std::atol(line.c_str() + 14);
        }
    }
    return -1;
}

/// The host's own first touch: mmap + memset + munmap of a fresh 256 MiB, median of 3 (ms).
double hostFirstTouchMs() {
    std::vector<double> v;
    for (int i = 0; i < 3; ++i) {
        const auto t0 = Clock::now();
        void* p = mapPageable(256 * kMiB);
        std::memset(p, 3, 256 * kMiB);
        v.push_back(msSince(t0));
        munmap(p, 256 * kMiB);
    }
    return median(v);
}

struct Context {
    CUcontext ctx = nullptr;
    void* device = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t a = nullptr, b = nullptr;
};

std::vector<Context> makeContexts(int k, std::size_t deviceBytes) {
    CUdevice dev;
    CHECK_CU(cuDeviceGet(&dev, 0));
    std::vector<Context> out(static_cast<std::size_t>(k));
    for (Context& c : out) {
        CHECK_CU(cuCtxCreate(&c.ctx, nullptr, 0, dev));
        CHECK_CU(cuCtxSetCurrent(c.ctx));
        if (deviceBytes) {
            CHECK(cudaMalloc(&c.device, deviceBytes));
        }
        CHECK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
        CHECK(cudaEventCreate(&c.a));
        CHECK(cudaEventCreate(&c.b));
    }
    return out;
}

float copyMs(Context& c, void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    CHECK(cudaEventRecord(c.a, c.stream));
    CHECK(cudaMemcpyAsync(dst, src, bytes, kind, c.stream));
    CHECK(cudaEventRecord(c.b, c.stream));
    CHECK(cudaEventSynchronize(c.b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, c.a, c.b));
    return ms;
}

struct Windows {
    std::size_t cursor = 0;
    std::size_t next(std::size_t size) {
        if (cursor + size > kPool) {
            cursor = 0;
        }
        const std::size_t at = cursor;
        cursor += size;
        return at;
    }
};

int pageable(int k, int samples) {
    const double touch = hostFirstTouchMs();
    char* pool[2];
    double fillMs[2];
    for (int i = 0; i < 2; ++i) {
        const auto t0 = Clock::now();
        pool[i] = static_cast<char*>(mapPageable(kPool));
        std::memset(pool[i], i + 1, kPool);
        fillMs[i] = msSince(t0);
    }
    std::printf("HOST first_touch_256MiB_ms %.1f pool_fill_ms %.1f %.1f pool_huge_kB %ld %ld\n",
                touch, fillMs[0], fillMs[1], hugeKb(pool[0]), hugeKb(pool[1]));
    { // the host's memcpy between the pools before any CUDA context exists
        std::vector<double> before;
        for (int i = 0; i < 5; ++i) {
            const auto h0 = Clock::now();
            std::memcpy(pool[1] + static_cast<std::size_t>(i % 4) * 256 * kMiB,
                        pool[0] + static_cast<std::size_t>(i % 4) * 256 * kMiB, 256 * kMiB);
            before.push_back(msSince(h0));
        }
        std::printf("HOSTMEMCPY_BEFORE_CONTEXTS 256 median_ms %.3f\n", median(before));
    }
    const auto c0 = Clock::now();
    auto contexts = makeContexts(k, 256 * kMiB);
    std::printf("CONTEXTS %d created in %.0f ms\n", k, msSince(c0));
    Windows in, out;
    const std::size_t sizes[2] = {64 * kMiB, 256 * kMiB};
    for (Context& c : contexts) { // untimed: the staging path and the link woken in every context
        CHECK_CU(cuCtxSetCurrent(c.ctx));
        for (int w = 0; w < 2; ++w) {
            copyMs(c, c.device, pool[0] + in.next(sizes[1]), sizes[1], cudaMemcpyHostToDevice);
            copyMs(c, pool[1] + out.next(sizes[1]), c.device, sizes[1], cudaMemcpyDeviceToHost);
        }
    }
    // [dir][size] samples with their context; host memcpy [size]
    std::vector<double> ms[2][2];
    std::vector<int> ctxOf;
    std::vector<double> host[2];
    const auto t0 = Clock::now();
    for (int j = 0; j < samples; ++j) {
        const int which = j % k;
        Context& c = contexts[static_cast<std::size_t>(which)];
        CHECK_CU(cuCtxSetCurrent(c.ctx));
        ctxOf.push_back(which);
        for (int z = 0; z < 2; ++z) {
            ms[0][z].push_back(
                copyMs(c, c.device, pool[0] + in.next(sizes[z]), sizes[z], cudaMemcpyHostToDevice));
            ms[1][z].push_back(copyMs(c, pool[1] + out.next(sizes[z]), c.device, sizes[z],
                                      cudaMemcpyDeviceToHost));
            const auto h0 = Clock::now();
            std::memcpy(pool[1] + out.next(sizes[z]), pool[0] + in.next(sizes[z]), sizes[z]);
            host[z].push_back(msSince(h0));
        }
    }
    std::printf("SAMPLED %d in %.0f ms\n", samples, msSince(t0));
    for (int dir = 0; dir < 2; ++dir) {
        for (int z = 0; z < 2; ++z) {
            const double mb = static_cast<double>(sizes[z]) / 1e6;
            std::printf("PAGEABLE K=%d %s %zu median_ms %.3f GBps %.3f per_ctx_ms", k,
                        dir == 0 ? "h2d" : "d2h", sizes[z] / kMiB, median(ms[dir][z]),
                        mb / median(ms[dir][z]));
            for (int c = 0; c < k; ++c) {
                std::vector<double> mine;
                for (std::size_t j = 0; j < ms[dir][z].size(); ++j) {
                    if (ctxOf[j] == c) {
                        mine.push_back(ms[dir][z][j]);
                    }
                }
                std::printf(" %.3f", median(mine));
            }
            std::printf("\n  series");
            for (double x : ms[dir][z]) {
                std::printf(" %.2f", x);
            }
            std::printf("\n");
        }
    }
    for (int z = 0; z < 2; ++z) {
        std::printf("HOSTMEMCPY %zu median_ms %.3f GBps %.3f\n", sizes[z] / kMiB, median(host[z]),
                    static_cast<double>(sizes[z]) / 1e6 / median(host[z]));
    }
    for (Context& c : contexts) {
        CHECK_CU(cuCtxDestroy(c.ctx));
    }
    munmap(pool[0], kPool);
    munmap(pool[1], kPool);
    return 0;
}

/// One first touch of managed memory in context c: fresh A, B, C; A and B written on the host;
/// sumArrays timed on the device. Returns the kernel's ms; fill gets the host's writing of A and B.
float managedOnce(Context& c, std::size_t bytes, double& fill) {
    CHECK_CU(cuCtxSetCurrent(c.ctx));
    float* a[3];
    for (auto& p : a) {
        CHECK(cudaMallocManaged(&p, bytes));
    }
    const std::size_t n = bytes / 4;
    const auto f0 = Clock::now();
    std::fill(a[0], a[0] + n, 1.0f);
    std::fill(a[1], a[1] + n, 2.0f);
    fill = msSince(f0);
    CHECK(cudaEventRecord(c.a, c.stream));
    sumArrays<<<static_cast<unsigned>((n + 255) / 256), 256, 0, c.stream>>>(a[0], a[1], a[2], n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(c.b, c.stream));
    CHECK(cudaEventSynchronize(c.b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, c.a, c.b));
    if (a[2][n - 1] != 3.0f) {
        std::fprintf(stderr, "sumArrays gave %f\n", static_cast<double>(a[2][n - 1]));
        std::exit(1);
    }
    for (auto* p : a) {
        CHECK(cudaFree(p));
    }
    return ms;
}

int managed(int k) {
    std::printf("HOST first_touch_256MiB_ms %.1f\n", hostFirstTouchMs());
    auto contexts = makeContexts(k, 0);
    const std::size_t sizes[2] = {64 * kMiB, 256 * kMiB};
    const int counts[2] = {12, 6};
    const char* names[3] = {"one_ctx", "k_ctx", "spaced"};
    for (int z = 0; z < 2; ++z) {
        double fill = 0;
        for (Context& c : contexts) { // a context's first managed allocation costs more
            managedOnce(c, sizes[z], fill);
        }
        std::vector<double> v[3], fills;
        for (int j = 0; j < counts[z]; ++j) {
            v[0].push_back(managedOnce(contexts[0], sizes[z], fill));
            fills.push_back(fill);
            v[1].push_back(managedOnce(contexts[static_cast<std::size_t>(j % k)], sizes[z], fill));
            fills.push_back(fill);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            v[2].push_back(managedOnce(contexts[0], sizes[z], fill));
            fills.push_back(fill);
        }
        for (int w = 0; w < 3; ++w) {
            std::printf("MANAGED K=%d %s %zu median_ms %.2f GBps %.3f  series", k, names[w],
                        sizes[z] / kMiB, median(v[w]),
                        2.0 * static_cast<double>(sizes[z]) / 1e6 / median(v[w]));
            for (double x : v[w]) {
                std::printf(" %.1f", x);
            }
            std::printf("\n");
        }
        std::printf("MANAGED_FILL %zu median_ms %.1f\n", sizes[z] / kMiB, median(fills));
    }
    for (Context& c : contexts) {
        CHECK_CU(cuCtxDestroy(c.ctx));
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: diag_contexts pageable K S | managed K\n");
        return 2;
    }
    const int k = std::atoi(argv[2]);
    if (k < 1 || k > 16) {
        std::fprintf(stderr, "K must be 1 to 16, got %s\n", argv[2]);
        return 2;
    }
    CHECK_CU(cuInit(0));
    if (std::strcmp(argv[1], "pageable") == 0 && argc > 3) {
        const int samples = std::atoi(argv[3]);
        if (samples < k) {
            std::fprintf(stderr, "S must be at least K, got %s\n", argv[3]);
            return 2;
        }
        return pageable(k, samples);
    }
    if (std::strcmp(argv[1], "managed") == 0) {
        return managed(k);
    }
    std::fprintf(stderr, "usage: diag_contexts pageable K S | managed K\n");
    return 2;
}
