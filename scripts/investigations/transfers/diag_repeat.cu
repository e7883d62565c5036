// Issue 16's repeatability diagnosis: where the spread of the host-bound transfer modes comes from.
// One process prints, for pageable copies at 64 and 256 MiB, the median of 3 copies per (round,
// buffer) over several buffers mapped at once and several rounds, in two CUDA contexts (the second
// after cudaDeviceReset, same buffers): a column pattern is the buffer's pages, a change between
// contexts the driver's staging buffers, a row pattern the machine's slow phases. Then pinned
// host-to-device copies at 256 MiB timed plainly and behind a spin kernel (the events then time
// only the DMA), and managed memory's first touch with fresh arrays. Run it in a few processes.
// With "cpus" as the third argument, only this: pageable copies of 64 MiB from the measuring
// thread held to each CPU in turn, twice over (is a CPU's speed a property of the CPU?), with each
// CPU's steal time (/proc/stat) over the whole.
// Build: nvcc -O2 -arch=sm_90 -o diag_repeat diag_repeat.cu
// Usage: diag_repeat [buffers] [rounds] [cpus]
#include <cuda_runtime.h>

#include <sched.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t status_ = (call);                                                              \
        if (status_ != cudaSuccess) {                                                              \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status_));                  \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

__global__ void spin(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

__global__ void sumArrays(const float* a, const float* b, float* c, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

void quantiles(const char* what, std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const auto q = [&](double f) { return v[static_cast<std::size_t>(f * (v.size() - 1))]; };
    int slow = 0;
    for (double x : v) {
        slow += x > 1.1 * v.front();
    }
    std::printf("%-34s n=%zu min %.3f p25 %.3f med %.3f p75 %.3f max %.3f ms; >1.1 min: %d\n", what,
                v.size(), v.front(), q(0.25), q(0.5), q(0.75), v.back(), slow);
}

void* mapPageable(std::size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        std::perror("mmap");
        std::exit(1);
    }
    madvise(p, bytes, MADV_HUGEPAGE);
    std::memset(p, 1, bytes);
    return p;
}

/// AnonHugePages (kB) of the mapping that starts at p, from /proc/self/smaps.
long hugeKb(const void* p) {
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    char start[32];
    std::snprintf(start, sizeof start, "%lx-", reinterpret_cast<unsigned long>(p));
    bool in = false;
    while (std::getline(smaps, line)) {
        if (line.rfind(start, 0) == 0) {
            in = true;
        } else if (in && line.rfind("AnonHugePages:", 0) == 0) {
            return std::atol(line.c_str() + 14);
        }
    }
    return -1;
}

struct Timer {
    cudaEvent_t a, b;
    Timer() {
        CHECK(cudaEventCreate(&a));
        CHECK(cudaEventCreate(&b));
    }
};

float copyMs(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t s,
             Timer& t, bool gated) {
    if (gated) {
        spin<<<1, 1, 0, s>>>(2000000); // about 1 ms at 1.98 GHz
    }
    CHECK(cudaEventRecord(t.a, s));
    CHECK(cudaMemcpyAsync(dst, src, bytes, kind, s));
    CHECK(cudaEventRecord(t.b, s));
    CHECK(cudaEventSynchronize(t.b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, t.a, t.b));
    return ms;
}

/// Steal time of each CPU (/proc/stat, in clock ticks), by CPU number.
std::vector<long long> steal() {
    std::vector<long long> out;
    std::ifstream stat("/proc/stat");
    std::string line;
    while (std::getline(stat, line)) {
        if (line.rfind("cpu", 0) != 0 || line.size() < 4 || line[3] == ' ') {
            continue;
        }
        std::istringstream in(line);
        std::string name;
        long long v[8] = {};
        in >> name;
        for (long long& x : v) {
            in >> x;
        }
        out.push_back(v[7]);
    }
    return out;
}

int cpusOnly(int buffers) {
    std::vector<void*> host(buffers);
    for (auto& p : host) {
        p = mapPageable(64 * kMiB);
    }
    void* device = nullptr;
    CHECK(cudaMalloc(&device, 64 * kMiB));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    Timer t;
    cpu_set_t allowed;
    sched_getaffinity(0, sizeof allowed, &allowed);
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c) {
        if (CPU_ISSET(c, &allowed)) {
            cpus.push_back(c);
        }
    }
    const auto before = steal();
    int turn = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (int dir = 0; dir < 2; ++dir) {
            std::printf("pass %d %s pageable 64 MiB, median of 5 per CPU (ms):", pass,
                        dir == 0 ? "h2d" : "d2h");
            for (int c : cpus) {
                cpu_set_t one;
                CPU_ZERO(&one);
                CPU_SET(c, &one);
                sched_setaffinity(0, sizeof one, &one);
                std::vector<double> v;
                copyMs(device, host[0], 64 * kMiB, cudaMemcpyHostToDevice, s, t, false);
                for (int i = 0; i < 5; ++i) {
                    void* h = host[turn++ % buffers];
                    v.push_back(
                        dir == 0
                            ? copyMs(device, h, 64 * kMiB, cudaMemcpyHostToDevice, s, t, false)
                            : copyMs(h, device, 64 * kMiB, cudaMemcpyDeviceToHost, s, t, false));
                }
                std::printf(" %d:%.2f", c, median(v));
            }
            std::printf("\n");
        }
    }
    sched_setaffinity(0, sizeof allowed, &allowed);
    const auto after = steal();
    std::printf("steal ticks per CPU over the passes:");
    for (std::size_t c = 0; c < after.size() && c < before.size(); ++c) {
        std::printf(" %zu:%lld", c, after[c] - before[c]);
    }
    std::printf("\n");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const int buffers = argc > 1 ? std::atoi(argv[1]) : 6;
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 4;
    if (argc > 3 && std::strcmp(argv[3], "cpus") == 0) {
        return cpusOnly(buffers);
    }
    const std::size_t big = 256 * kMiB;
    const std::size_t sizes[2] = {64 * kMiB, 256 * kMiB};
    std::vector<void*> host(buffers);
    const auto t0 = std::chrono::steady_clock::now();
    for (auto& p : host) {
        p = mapPageable(big);
    }
    std::printf(
        "pageable buffers: %d x 256 MiB mapped in %.0f ms; AnonHugePages kB:", buffers,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    for (auto* p : host) {
        std::printf(" %ld", hugeKb(p));
    }
    std::printf("\n");

    // ---- pageable: rounds x buffers, two contexts ----
    for (int ctx = 0; ctx < 2; ++ctx) {
        if (ctx == 1) {
            CHECK(cudaDeviceReset());
        }
        void* device = nullptr;
        CHECK(cudaMalloc(&device, big));
        cudaStream_t s;
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        Timer t;
        for (int w = 0; w < 3; ++w) {
            copyMs(device, host[0], big, cudaMemcpyHostToDevice, s, t, false);
        }
        // [dir][size][round][buffer]
        std::vector<double> table[2][2];
        for (int r = 0; r < rounds; ++r) {
            for (int k = 0; k < buffers; ++k) {
                for (int dir = 0; dir < 2; ++dir) {
                    for (int z = 0; z < 2; ++z) {
                        std::vector<double> v;
                        for (int i = 0; i < 3; ++i) {
                            v.push_back(dir == 0 ? copyMs(device, host[k], sizes[z],
                                                          cudaMemcpyHostToDevice, s, t, false)
                                                 : copyMs(host[k], device, sizes[z],
                                                          cudaMemcpyDeviceToHost, s, t, false));
                        }
                        table[dir][z].push_back(median(v));
                    }
                }
            }
        }
        for (int dir = 0; dir < 2; ++dir) {
            for (int z = 0; z < 2; ++z) {
                std::printf("ctx%d %s pageable %3zu MiB (ms, rows rounds, columns buffers):\n", ctx,
                            dir == 0 ? "h2d" : "d2h", sizes[z] / kMiB);
                for (int r = 0; r < rounds; ++r) {
                    std::printf("   ");
                    for (int k = 0; k < buffers; ++k) {
                        std::printf(" %7.2f", table[dir][z][r * buffers + k]);
                    }
                    std::printf("\n");
                }
                quantiles("    all", table[dir][z]);
            }
        }
        // A fresh mapping per copy (mapped, touched, copied, unmapped).
        std::vector<double> fresh;
        for (int i = 0; i < 6; ++i) {
            void* p = mapPageable(big);
            fresh.push_back(copyMs(device, p, big, cudaMemcpyHostToDevice, s, t, false));
            munmap(p, big);
        }
        quantiles("fresh mapping h2d 256 MiB", fresh);
        CHECK(cudaFree(device));
        CHECK(cudaStreamDestroy(s));
    }

    // ---- pinned h2d / d2h 256 MiB: plain and gated, interleaved ----
    {
        void* device = nullptr;
        void* pinned = nullptr;
        CHECK(cudaMalloc(&device, big));
        CHECK(cudaHostAlloc(&pinned, big, cudaHostAllocMapped));
        std::memset(pinned, 1, big);
        cudaStream_t s;
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        Timer t;
        std::vector<double> plain, gated, plainD, gatedD, series;
        for (int i = 0; i < 3; ++i) {
            copyMs(device, pinned, big, cudaMemcpyHostToDevice, s, t, true);
        }
        for (int i = 0; i < 40; ++i) {
            plain.push_back(copyMs(device, pinned, big, cudaMemcpyHostToDevice, s, t, false));
            gated.push_back(copyMs(device, pinned, big, cudaMemcpyHostToDevice, s, t, true));
            plainD.push_back(copyMs(pinned, device, big, cudaMemcpyDeviceToHost, s, t, false));
            gatedD.push_back(copyMs(pinned, device, big, cudaMemcpyDeviceToHost, s, t, true));
        }
        quantiles("pinned h2d 256 MiB plain", plain);
        quantiles("pinned h2d 256 MiB gated", gated);
        quantiles("pinned d2h 256 MiB plain", plainD);
        quantiles("pinned d2h 256 MiB gated", gatedD);
        std::printf("pinned h2d plain series:");
        for (double x : plain) {
            std::printf(" %.2f", x);
        }
        std::printf("\n");
        CHECK(cudaFree(device));
        CHECK(cudaFreeHost(pinned));
        CHECK(cudaStreamDestroy(s));
    }

    // ---- managed first touch, fresh arrays per sample ----
    for (std::size_t bytes : sizes) {
        cudaStream_t s;
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        Timer t;
        std::vector<double> v, fillMs;
        const int count = bytes == sizes[0] ? 12 : 8;
        for (int i = 0; i < count + 1; ++i) {
            float* a[3];
            for (auto& p : a) {
                CHECK(cudaMallocManaged(&p, bytes));
            }
            const auto f0 = std::chrono::steady_clock::now();
            std::fill(a[0], a[0] + bytes / 4, 1.0f);
            std::fill(a[1], a[1] + bytes / 4, 2.0f);
            fillMs.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - f0)
                    .count());
            CHECK(cudaEventRecord(t.a, s));
            const std::size_t n = bytes / 4;
            sumArrays<<<static_cast<unsigned>((n + 255) / 256), 256, 0, s>>>(a[0], a[1], a[2], n);
            CHECK(cudaEventRecord(t.b, s));
            CHECK(cudaEventSynchronize(t.b));
            float ms = 0;
            CHECK(cudaEventElapsedTime(&ms, t.a, t.b));
            if (i > 0) {
                v.push_back(ms);
            }
            for (auto* p : a) {
                CHECK(cudaFree(p));
            }
        }
        char what[64];
        std::snprintf(what, sizeof what, "managed_fault %zu MiB", bytes / kMiB);
        quantiles(what, v);
        std::printf("    series:");
        for (double x : v) {
            std::printf(" %.1f", x);
        }
        std::printf("  (host fill of A and B: median %.1f ms)\n", median(fillMs));
        CHECK(cudaStreamDestroy(s));
    }
    for (auto* p : host) {
        munmap(p, big);
    }
    return 0;
}
