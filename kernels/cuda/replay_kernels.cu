// Replay kernels: one template per (space, op, width, cache path). Each thread picks its own
// offset out of the kernel parameters with a select chain (constant-bank reads only), then the
// active lanes execute exactly one ld/st instruction written in PTX, so the compiler can neither
// split, widen, merge nor drop it.
#include "replay_kernels.h"

#include "lane_offset.cuh"
#include "ldsm_replay_kernels.h"

namespace warpscope::gpu {
namespace {

struct ReplayParams {
    long long offsets[kReplayLanes];
    unsigned activeMask;
    int neverTrue;
    unsigned char* globalArena;
    uint4* sink;
};

template <int Width, int Cache> __device__ __forceinline__ uint4 globalLoad(const void* ptr) {
    uint4 v = make_uint4(0, 0, 0, 0);
#define WS_LD(COP, TYPE)                                                                           \
    if constexpr (Width == 1)                                                                      \
        asm volatile("ld.global" COP ".u8 %0, [%1];" : "=r"(v.x) : "l"(ptr) : "memory");           \
    else if constexpr (Width == 2)                                                                 \
        asm volatile("ld.global" COP ".u16 %0, [%1];" : "=r"(v.x) : "l"(ptr) : "memory");          \
    else if constexpr (Width == 4)                                                                 \
        asm volatile("ld.global" COP ".u32 %0, [%1];" : "=r"(v.x) : "l"(ptr) : "memory");          \
    else if constexpr (Width == 8)                                                                 \
        asm volatile("ld.global" COP ".v2.u32 {%0, %1}, [%2];"                                     \
                     : "=r"(v.x), "=r"(v.y)                                                        \
                     : "l"(ptr)                                                                    \
                     : "memory");                                                                  \
    else                                                                                           \
        asm volatile("ld.global" COP ".v4.u32 {%0, %1, %2, %3}, [%4];"                             \
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)                                  \
                     : "l"(ptr)                                                                    \
                     : "memory");
    if constexpr (Cache == static_cast<int>(ReplayCache::Default)) {
        WS_LD("", u)
    } else if constexpr (Cache == static_cast<int>(ReplayCache::CacheAll)) {
        WS_LD(".ca", u)
    } else if constexpr (Cache == static_cast<int>(ReplayCache::CacheGlobal)) {
        WS_LD(".cg", u)
    } else {
        WS_LD(".nc", u)
    }
#undef WS_LD
    return v;
}

template <int Width> __device__ __forceinline__ void globalStore(void* ptr, unsigned value) {
    if constexpr (Width == 1)
        asm volatile("st.global.u8 [%0], %1;" ::"l"(ptr), "r"(value) : "memory");
    else if constexpr (Width == 2)
        asm volatile("st.global.u16 [%0], %1;" ::"l"(ptr), "r"(value) : "memory");
    else if constexpr (Width == 4)
        asm volatile("st.global.u32 [%0], %1;" ::"l"(ptr), "r"(value) : "memory");
    else if constexpr (Width == 8)
        asm volatile("st.global.v2.u32 [%0], {%1, %1};" ::"l"(ptr), "r"(value) : "memory");
    else
        asm volatile("st.global.v4.u32 [%0], {%1, %1, %1, %1};" ::"l"(ptr), "r"(value) : "memory");
}

template <int Width> __device__ __forceinline__ uint4 sharedLoad(unsigned address) {
    uint4 v = make_uint4(0, 0, 0, 0);
    if constexpr (Width == 1)
        asm volatile("ld.shared.u8 %0, [%1];" : "=r"(v.x) : "r"(address) : "memory");
    else if constexpr (Width == 2)
        asm volatile("ld.shared.u16 %0, [%1];" : "=r"(v.x) : "r"(address) : "memory");
    else if constexpr (Width == 4)
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v.x) : "r"(address) : "memory");
    else if constexpr (Width == 8)
        asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];"
                     : "=r"(v.x), "=r"(v.y)
                     : "r"(address)
                     : "memory");
    else
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                     : "r"(address)
                     : "memory");
    return v;
}

template <int Width> __device__ __forceinline__ void sharedStore(unsigned address, unsigned value) {
    if constexpr (Width == 1)
        asm volatile("st.shared.u8 [%0], %1;" ::"r"(address), "r"(value) : "memory");
    else if constexpr (Width == 2)
        asm volatile("st.shared.u16 [%0], %1;" ::"r"(address), "r"(value) : "memory");
    else if constexpr (Width == 4)
        asm volatile("st.shared.u32 [%0], %1;" ::"r"(address), "r"(value) : "memory");
    else if constexpr (Width == 8)
        asm volatile("st.shared.v2.u32 [%0], {%1, %1};" ::"r"(address), "r"(value) : "memory");
    else
        asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};" ::"r"(address), "r"(value)
                     : "memory");
}

// The sink store sits behind a flag the host never sets: it is never executed, so it adds no
// memory instruction, but the compiler must keep the load it depends on.
__device__ __forceinline__ void keepAlive(const ReplayParams& p, int lane, uint4 v) {
    if (p.neverTrue) {
        p.sink[lane] = v;
    }
}

template <int Width, int Cache> __global__ void replayGlobalLoad(ReplayParams p) {
    const int lane = static_cast<int>(threadIdx.x);
    const long long offset = laneOffset(p.offsets, lane);
    uint4 v = make_uint4(0, 0, 0, 0);
    if ((p.activeMask >> lane) & 1u) {
        v = globalLoad<Width, Cache>(p.globalArena + offset);
    }
    keepAlive(p, lane, v);
}

template <int Width> __global__ void replayGlobalStore(ReplayParams p) {
    const int lane = static_cast<int>(threadIdx.x);
    const long long offset = laneOffset(p.offsets, lane);
    if ((p.activeMask >> lane) & 1u) {
        globalStore<Width>(p.globalArena + offset, 0x01010101u * static_cast<unsigned>(lane + 1));
    }
}

extern __shared__ __align__(16) unsigned char replaySharedArena[];

template <int Width> __global__ void replaySharedLoad(ReplayParams p) {
    const int lane = static_cast<int>(threadIdx.x);
    const long long offset = laneOffset(p.offsets, lane);
    const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(replaySharedArena));
    uint4 v = make_uint4(0, 0, 0, 0);
    if ((p.activeMask >> lane) & 1u) {
        v = sharedLoad<Width>(base + static_cast<unsigned>(offset));
    }
    keepAlive(p, lane, v);
}

template <int Width> __global__ void replaySharedStore(ReplayParams p) {
    const int lane = static_cast<int>(threadIdx.x);
    const long long offset = laneOffset(p.offsets, lane);
    const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(replaySharedArena));
    if ((p.activeMask >> lane) & 1u) {
        sharedStore<Width>(base + static_cast<unsigned>(offset),
                           0x01010101u * static_cast<unsigned>(lane + 1));
    }
}

using KernelFn = void (*)(ReplayParams);

template <int Width> KernelFn pickGlobalLoad(ReplayCache cache) {
    switch (cache) {
    case ReplayCache::CacheAll:
        return replayGlobalLoad<Width, 1>;
    case ReplayCache::CacheGlobal:
        return replayGlobalLoad<Width, 2>;
    case ReplayCache::NonCoherent:
        return replayGlobalLoad<Width, 3>;
    case ReplayCache::Default:
        break;
    }
    return replayGlobalLoad<Width, 0>;
}

template <int Width> KernelFn pickKernel(const ReplayLaunch& launch) {
    if (launch.space == ReplaySpace::Global) {
        return launch.op == ReplayOp::Load ? pickGlobalLoad<Width>(launch.cache)
                                           : replayGlobalStore<Width>;
    }
    return launch.op == ReplayOp::Load ? replaySharedLoad<Width> : replaySharedStore<Width>;
}

KernelFn kernelFor(const ReplayLaunch& launch) {
    switch (launch.widthBytes) {
    case 1:
        return pickKernel<1>(launch);
    case 2:
        return pickKernel<2>(launch);
    case 4:
        return pickKernel<4>(launch);
    case 8:
        return pickKernel<8>(launch);
    case 16:
        return pickKernel<16>(launch);
    default:
        return nullptr;
    }
}

} // namespace

cudaError_t maxReplaySharedBytes(std::size_t* bytes) {
    int device = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status != cudaSuccess) {
        return status;
    }
    int optin = 0;
    status = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if (status != cudaSuccess) {
        return status;
    }
    *bytes = static_cast<std::size_t>(optin);
    return cudaSuccess;
}

cudaError_t launchReplay(const ReplayLaunch& launch, cudaStream_t stream) {
    if (launch.matrices != 0) {
        return launchMatrixReplay(launch, stream);
    }
    KernelFn kernel = kernelFor(launch);
    if (kernel == nullptr) {
        return cudaErrorInvalidValue;
    }
    ReplayParams params{};
    copyLaneOffsets(params.offsets, launch.offsets);
    params.activeMask = launch.activeMask;
    params.neverTrue = 0;
    params.globalArena = static_cast<unsigned char*>(launch.globalArena);
    params.sink = static_cast<uint4*>(launch.sink);

    const std::size_t shared = launch.space == ReplaySpace::Shared ? launch.sharedBytes : 0;
    return launchOneWarp(kernel, params, shared, stream);
}

} // namespace warpscope::gpu
