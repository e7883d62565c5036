// The ldmatrix / stmatrix replay kernels themselves (ldsm_replay_kernels.h): shapes without a
// kernel are refused before anything reaches the GPU, and on a GPU of compute capability 9.0
// every kernel (ldmatrix and stmatrix, x1/x2/x4, with and without .trans) launches and completes.
// scripts/gpu/ldsm_probe_check.sh runs this binary under compute-sanitizer memcheck, which the
// probe's own replays cannot be (CUPTI's profiler refuses to share the GPU with the sanitizer).
#include "ldsm_replay_kernels.h"

#include <gtest/gtest.h>

namespace {

using warpscope::gpu::launchMatrixReplay;
using warpscope::gpu::ReplayLaunch;
using warpscope::gpu::ReplayOp;
using warpscope::gpu::ReplaySpace;

ReplayLaunch matrixLaunch(ReplayOp op, int matrices, bool transpose) {
    ReplayLaunch launch;
    launch.space = ReplaySpace::Shared;
    launch.op = op;
    launch.widthBytes = 16;
    launch.matrices = matrices;
    launch.transpose = transpose;
    const int rows = 8 * matrices;
    for (int lane = 0; lane < 32; ++lane) {
        // Rows 128 bytes apart: 8 rows on the same four banks, the conflicting case.
        launch.offsets[lane] = (lane % rows % 8) * 128 + (lane % rows / 8) * 16;
    }
    launch.activeMask = rows == 32 ? 0xffffffffu : (1u << rows) - 1u;
    launch.sharedBytes = 8 * 128;
    return launch;
}

TEST(LdsmReplay, RefusesShapesWithoutAKernelBeforeTheGpu) {
    // matrices 3, and a matrix access in global memory: no kernel, cudaErrorInvalidValue,
    // answered without a device (this runs on machines with none).
    EXPECT_EQ(launchMatrixReplay(matrixLaunch(ReplayOp::Load, 3, false), nullptr),
              cudaErrorInvalidValue);
    ReplayLaunch global = matrixLaunch(ReplayOp::Load, 4, false);
    global.space = ReplaySpace::Global;
    EXPECT_EQ(launchMatrixReplay(global, nullptr), cudaErrorInvalidValue);
}

TEST(LdsmReplayOnGpu, EveryKernelLaunchesAndCompletes) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        GTEST_SKIP() << "no CUDA device (or no driver): the replay kernels need a GPU";
    }
    cudaDeviceProp properties{};
    ASSERT_EQ(cudaGetDeviceProperties(&properties, 0), cudaSuccess);
    if (properties.major < 9) {
        GTEST_SKIP() << "stmatrix needs compute capability 9.0; device 0 has " << properties.major
                     << "." << properties.minor;
    }
    void* sink = nullptr;
    ASSERT_EQ(cudaMalloc(&sink, 32 * 16), cudaSuccess);
    for (ReplayOp op : {ReplayOp::Load, ReplayOp::Store}) {
        for (int matrices : {1, 2, 4}) {
            for (bool transpose : {false, true}) {
                ReplayLaunch launch = matrixLaunch(op, matrices, transpose);
                launch.sink = sink;
                SCOPED_TRACE(std::string(op == ReplayOp::Load ? "ldmatrix" : "stmatrix") + " x" +
                             std::to_string(matrices) + (transpose ? ".trans" : ""));
                EXPECT_EQ(launchMatrixReplay(launch, nullptr), cudaSuccess);
                EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
            }
        }
    }
    cudaFree(sink);
}

} // namespace
