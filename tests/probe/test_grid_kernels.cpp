// The grid kernel's launch checks (kernels/cuda/grid_kernels.cpp), which need no GPU: a launch
// CUDA would refuse is refused before anything is compiled or launched, and a launch the GPU
// refuses for its configuration is a pattern_refused answer, never a fatal kernel fault (which
// would make the probe exit). Built where the CUDA part of kernels/ is.
#include "grid_kernels.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace warpscope::probe {
namespace {

Pattern gridPattern(Dim3 block, Dim3 grid) {
    Pattern pattern;
    pattern.kind = AccessKind{MemorySpace::Global, AccessOp::Load, 4, CachePath::Default};
    PatternSource source;
    source.addressExpression = "gid * 4";
    source.blockDim = block;
    source.gridDim = grid;
    pattern.source = source;
    return pattern;
}

TEST(GridKernel, LaunchesBeyondCudaLimitsAreRefusedBeforeLaunching) {
    struct Case {
        Dim3 block;
        Dim3 grid;
        const char* messagePart;
    };
    const Case cases[] = {
        {{2, 1, 128}, {1, 1, 1}, "bdim.z must be between 1 and 64, not 128"},
        {{32, 1, 1}, {1, 70000, 1}, "gdim.y must be between 1 and 65535, not 70000"},
        {{32, 1, 1}, {1, 1, 65536}, "gdim.z must be between 1 and 65535, not 65536"},
    };
    for (const Case& c : cases) {
        // No arena, no stream: the check comes before any of them is used.
        auto result = runGridKernel(gridPattern(c.block, c.grid), WarpAccess{}, nullptr, 0, nullptr,
                                    nullptr, 1);
        ASSERT_TRUE(std::holds_alternative<ProbeError>(result)) << c.messagePart;
        const ProbeError& error = std::get<ProbeError>(result);
        EXPECT_EQ(error.code, ProbeErrorCode::PatternRefused) << error.message;
        EXPECT_FALSE(error.fatal) << error.message;
        EXPECT_NE(error.message.find(c.messagePart), std::string::npos) << error.message;
        EXPECT_NE(error.message.find("nothing was launched"), std::string::npos) << error.message;
    }
}

TEST(GridKernel, ALaunchConfigurationErrorIsNeverFatal) {
    for (cudaError_t status :
         {cudaErrorInvalidConfiguration, cudaErrorInvalidValue, cudaErrorLaunchOutOfResources}) {
        const ProbeError error = gridLaunchError(status, Dim3{1, 70000, 1}, Dim3{2, 1, 128});
        EXPECT_EQ(error.code, ProbeErrorCode::PatternRefused) << error.message;
        EXPECT_FALSE(error.fatal) << error.message;
        EXPECT_NE(error.message.find("1x70000x1 blocks of 2x1x128 threads"), std::string::npos)
            << error.message;
        EXPECT_NE(error.message.find("nothing ran"), std::string::npos) << error.message;
    }
    // A fault while running leaves the context unusable: fatal, the probe answers and exits.
    for (cudaError_t status : {cudaErrorIllegalAddress, cudaErrorLaunchFailure}) {
        const ProbeError error = gridLaunchError(status, Dim3{1, 1, 1}, Dim3{32, 1, 1});
        EXPECT_EQ(error.code, ProbeErrorCode::KernelFault) << error.message;
        EXPECT_TRUE(error.fatal) << error.message;
    }
}

} // namespace
} // namespace warpscope::probe
