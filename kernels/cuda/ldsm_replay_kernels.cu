// ldmatrix / stmatrix replay kernels: one template per (op, matrices, transpose). Each thread
// picks its row address out of the kernel parameters with a select chain (constant-bank reads
// only), then every lane executes exactly one LDSM or STSM written in PTX. An ldmatrix's
// registers go to a global sink behind a flag the host never sets; an stmatrix stores the lane's
// own numbers. Nothing else touches shared memory.
#include "ldsm_replay_kernels.h"

#include "lane_offset.cuh"

#include <cstdint>

namespace warpscope::gpu {
namespace {

struct MatrixParams {
    long long offsets[kReplayLanes];
    int neverTrue;
    uint4* sink;
};

extern __shared__ __align__(128) unsigned char matrixSharedArena[];

__device__ __forceinline__ unsigned rowAddress(const MatrixParams& p) {
    const int lane = static_cast<int>(threadIdx.x);
    const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(matrixSharedArena));
    return base + static_cast<unsigned>(laneOffset(p.offsets, lane));
}

template <int Matrices, bool Transpose> __global__ void replayLoadMatrix(MatrixParams p) {
    const unsigned address = rowAddress(p);
    unsigned r[4] = {0, 0, 0, 0};
#define WS_LDSM(SHAPE, TRANS, REGS, ...)                                                           \
    asm volatile("ldmatrix.sync.aligned.m8n8." SHAPE TRANS ".shared.b16 " REGS ";"                 \
                 : __VA_ARGS__                                                                     \
                 : "r"(address)                                                                    \
                 : "memory")
    if constexpr (Matrices == 1) {
        if constexpr (Transpose) {
            WS_LDSM("x1", ".trans", "{%0}, [%1]", "=r"(r[0]));
        } else {
            WS_LDSM("x1", "", "{%0}, [%1]", "=r"(r[0]));
        }
    } else if constexpr (Matrices == 2) {
        if constexpr (Transpose) {
            WS_LDSM("x2", ".trans", "{%0, %1}, [%2]", "=r"(r[0]), "=r"(r[1]));
        } else {
            WS_LDSM("x2", "", "{%0, %1}, [%2]", "=r"(r[0]), "=r"(r[1]));
        }
    } else {
        if constexpr (Transpose) {
            WS_LDSM("x4", ".trans", "{%0, %1, %2, %3}, [%4]", "=r"(r[0]), "=r"(r[1]), "=r"(r[2]),
                    "=r"(r[3]));
        } else {
            WS_LDSM("x4", "", "{%0, %1, %2, %3}, [%4]", "=r"(r[0]), "=r"(r[1]), "=r"(r[2]),
                    "=r"(r[3]));
        }
    }
#undef WS_LDSM
    // Never taken (the host leaves neverTrue 0): keeps the load without a second instruction.
    if (p.neverTrue) {
        p.sink[threadIdx.x] = make_uint4(r[0], r[1], r[2], r[3]);
    }
}

template <int Matrices, bool Transpose> __global__ void replayStoreMatrix(MatrixParams p) {
    const unsigned address = rowAddress(p);
    const unsigned lane = threadIdx.x;
    const unsigned r0 = lane * 4u;
    const unsigned r1 = r0 + 1u;
    const unsigned r2 = r0 + 2u;
    const unsigned r3 = r0 + 3u;
    // stmatrix came with compute capability 9.0; the host refuses it on older devices, and the
    // code for them is an empty kernel.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define WS_STSM(SHAPE, TRANS, REGS, ...)                                                           \
    asm volatile("stmatrix.sync.aligned.m8n8." SHAPE TRANS ".shared.b16 [%0], " REGS               \
                 ";" ::"r"(address),                                                               \
                 __VA_ARGS__                                                                       \
                 : "memory")
    if constexpr (Matrices == 1) {
        if constexpr (Transpose) {
            WS_STSM("x1", ".trans", "{%1}", "r"(r0));
        } else {
            WS_STSM("x1", "", "{%1}", "r"(r0));
        }
    } else if constexpr (Matrices == 2) {
        if constexpr (Transpose) {
            WS_STSM("x2", ".trans", "{%1, %2}", "r"(r0), "r"(r1));
        } else {
            WS_STSM("x2", "", "{%1, %2}", "r"(r0), "r"(r1));
        }
    } else {
        if constexpr (Transpose) {
            WS_STSM("x4", ".trans", "{%1, %2, %3, %4}", "r"(r0), "r"(r1), "r"(r2), "r"(r3));
        } else {
            WS_STSM("x4", "", "{%1, %2, %3, %4}", "r"(r0), "r"(r1), "r"(r2), "r"(r3));
        }
    }
#undef WS_STSM
#else
    (void)address;
    (void)r0;
    (void)r1;
    (void)r2;
    (void)r3;
#endif
}

using MatrixKernel = void (*)(MatrixParams);

MatrixKernel matrixKernelFor(const ReplayLaunch& launch) {
    const int shape = launch.matrices == 1   ? 0
                      : launch.matrices == 2 ? 1
                      : launch.matrices == 4 ? 2
                                             : -1;
    if (shape < 0 || launch.space != ReplaySpace::Shared) {
        return nullptr;
    }
    static const MatrixKernel loads[6] = {replayLoadMatrix<1, false>, replayLoadMatrix<1, true>,
                                          replayLoadMatrix<2, false>, replayLoadMatrix<2, true>,
                                          replayLoadMatrix<4, false>, replayLoadMatrix<4, true>};
    static const MatrixKernel stores[6] = {replayStoreMatrix<1, false>, replayStoreMatrix<1, true>,
                                           replayStoreMatrix<2, false>, replayStoreMatrix<2, true>,
                                           replayStoreMatrix<4, false>, replayStoreMatrix<4, true>};
    const int index = shape * 2 + (launch.transpose ? 1 : 0);
    return launch.op == ReplayOp::Load ? loads[index] : stores[index];
}

} // namespace

cudaError_t launchMatrixReplay(const ReplayLaunch& launch, cudaStream_t stream) {
    MatrixKernel kernel = matrixKernelFor(launch);
    if (kernel == nullptr) {
        return cudaErrorInvalidValue;
    }
    MatrixParams params{};
    copyLaneOffsets(params.offsets, launch.offsets);
    params.neverTrue = 0;
    params.sink = static_cast<uint4*>(launch.sink);
    const std::size_t shared = launch.sharedBytes;
    return launchOneWarp(kernel, params, shared, stream);
}

} // namespace warpscope::gpu
