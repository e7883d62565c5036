// Single-warp latency kernels. The loaded value is stored to shared scratch before the closing
// clock64: the store cannot issue before the load has returned, and a warp issues in order, so
// the clock is read after every active lane has its data.
#include "timing_kernels.h"

#include "lane_offset.cuh"

namespace warpscope::gpu {
namespace {

struct LatencyParams {
    long long offsets[kReplayLanes];
    unsigned activeMask;
    int space; // ReplaySpace
    unsigned char* globalArena;
    long long* cycles;
};

__device__ __forceinline__ long long clockNow() {
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

// The body of one load of Width bytes from the state space SPACE ("global", "shared") at
// ADDRESS, passed under the register constraint REG ("l": a 64-bit pointer, "r": a 32-bit shared
// address), its 32-bit words folded into one. A macro: inline assembly takes its text and its
// constraints as literals, and the two spaces differ in both.
#define WARPSCOPE_LOAD_WIDTH(SPACE, REG, ADDRESS)                                                  \
    unsigned v;                                                                                    \
    if constexpr (Width == 1) {                                                                    \
        asm volatile("ld." SPACE ".u8 %0, [%1];" : "=r"(v) : REG(ADDRESS) : "memory");             \
    } else if constexpr (Width == 2) {                                                             \
        asm volatile("ld." SPACE ".u16 %0, [%1];" : "=r"(v) : REG(ADDRESS) : "memory");            \
    } else if constexpr (Width == 4) {                                                             \
        asm volatile("ld." SPACE ".u32 %0, [%1];" : "=r"(v) : REG(ADDRESS) : "memory");            \
    } else if constexpr (Width == 8) {                                                             \
        unsigned w;                                                                                \
        asm volatile("ld." SPACE ".v2.u32 {%0, %1}, [%2];"                                         \
                     : "=r"(v), "=r"(w)                                                            \
                     : REG(ADDRESS)                                                                \
                     : "memory");                                                                  \
        v ^= w;                                                                                    \
    } else {                                                                                       \
        unsigned a, b, c;                                                                          \
        asm volatile("ld." SPACE ".v4.u32 {%0, %1, %2, %3}, [%4];"                                 \
                     : "=r"(v), "=r"(a), "=r"(b), "=r"(c)                                          \
                     : REG(ADDRESS)                                                                \
                     : "memory");                                                                  \
        v ^= a ^ b ^ c;                                                                            \
    }                                                                                              \
    return v

template <int Width> __device__ __forceinline__ unsigned loadGlobal(const unsigned char* p) {
    WARPSCOPE_LOAD_WIDTH("global", "l", p);
}

template <int Width> __device__ __forceinline__ unsigned loadShared(unsigned address) {
    WARPSCOPE_LOAD_WIDTH("shared", "r", address);
}

#undef WARPSCOPE_LOAD_WIDTH

extern __shared__ __align__(16) unsigned char latencySharedArena[];

template <int Width> __global__ void latencyKernel(LatencyParams p) {
    __shared__ unsigned scratch[kReplayLanes];
    const int lane = static_cast<int>(threadIdx.x);
    const long long offset = laneOffset(p.offsets, lane);
    const bool active = (p.activeMask >> lane) & 1u;
    const unsigned sharedBase = static_cast<unsigned>(__cvta_generic_to_shared(latencySharedArena));
    long long elapsed[2];
#pragma unroll
    for (int round = 0; round < 2; ++round) {
        __syncwarp();
        const long long start = clockNow();
        unsigned v = 0;
        if (active) {
            v = p.space == static_cast<int>(ReplaySpace::Global)
                    ? loadGlobal<Width>(p.globalArena + offset)
                    : loadShared<Width>(sharedBase + static_cast<unsigned>(offset));
        }
        scratch[lane] = v; // waits for the load
        __syncwarp();
        elapsed[round] = clockNow() - start;
    }
    if (lane == 0) {
        p.cycles[0] = elapsed[0];
        p.cycles[1] = elapsed[1];
    }
    if (scratch[lane] == 0x12345678u && p.activeMask == 0u) {
        p.cycles[2] = 0; // never true: keeps the scratch stores alive
    }
}

__global__ void flushKernel(uint4* buffer, std::size_t count) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        buffer[i] = make_uint4(static_cast<unsigned>(i), 0, 0, 0);
    }
}

__global__ void readFlushKernel(const uint4* buffer, std::size_t count, unsigned* sink) {
    unsigned acc = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const uint4 v = buffer[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    // The buffer holds small indices (flushKernel), so acc never equals this.
    if (acc == 0x9e3779b9u) {
        sink[0] = acc;
    }
}

using LatencyFn = void (*)(LatencyParams);

LatencyFn latencyFor(int width) {
    switch (width) {
    case 1:
        return latencyKernel<1>;
    case 2:
        return latencyKernel<2>;
    case 4:
        return latencyKernel<4>;
    case 8:
        return latencyKernel<8>;
    case 16:
        return latencyKernel<16>;
    default:
        return nullptr;
    }
}

} // namespace

cudaError_t launchLatency(const ReplayLaunch& launch, long long* cycles, cudaStream_t stream) {
    LatencyFn kernel = latencyFor(launch.widthBytes);
    if (kernel == nullptr || launch.op != ReplayOp::Load) {
        return cudaErrorInvalidValue;
    }
    LatencyParams params{};
    copyLaneOffsets(params.offsets, launch.offsets);
    params.activeMask = launch.activeMask;
    params.space = static_cast<int>(launch.space);
    params.globalArena = static_cast<unsigned char*>(launch.globalArena);
    params.cycles = cycles;
    const std::size_t shared = launch.space == ReplaySpace::Shared ? launch.sharedBytes : 0;
    return launchOneWarp(kernel, params, shared, stream);
}

cudaError_t launchFlush(void* buffer, std::size_t bytes, cudaStream_t stream) {
    const std::size_t count = bytes / sizeof(uint4);
    flushKernel<<<1024, 256, 0, stream>>>(static_cast<uint4*>(buffer), count);
    return cudaGetLastError();
}

cudaError_t launchCleanFlush(void* buffer, std::size_t bytes, unsigned* sink, cudaStream_t stream) {
    const std::size_t count = bytes / sizeof(uint4);
    flushKernel<<<1056, 512, 0, stream>>>(static_cast<uint4*>(buffer), count);
    readFlushKernel<<<1056, 512, 0, stream>>>(static_cast<const uint4*>(buffer), count, sink);
    return cudaGetLastError();
}

} // namespace warpscope::gpu
