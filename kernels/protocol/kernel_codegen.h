// CUDA source for a whole kernel (measure_kernel), generated from its description: every access
// is one inline-PTX memory instruction, in the kernel's order, so the SASS holds exactly one
// memory instruction per access (tests/probe/check_kernel_sass.py checks it on a GPU machine).
// Plain C++: the text is testable without CUDA; kernels/cuda/cuda_backend.cpp compiles it.
#pragma once

#include "warpscope/kernel.h"

#include <string>
#include <vector>

namespace warpscope::probe {

struct GeneratedKernel {
    std::string source;     // CUDA C++ for NVRTC
    std::string entryPoint; // extern "C" name
    /// The kernel's arguments in order: one pointer per buffer (unsigned char*), then one
    /// long long per parameter.
    int bufferArguments = 0;
    int parameterArguments = 0;
    /// The SASS memory instructions the kernel must contain, in order, one per access
    /// ("LDG.E.32", "STS.64", ...: the opcode family and width; see expectedSass()).
    std::vector<std::string> expectedMemoryInstructions;
    /// True when the kernel ends with loads no later store consumes: it then carries one extra
    /// guarded store to a sink (never executed, but present in the SASS) so nothing is elided.
    bool hasSink = false;
    /// The accesses that read a texture, in order: after the parameters, the kernel takes one
    /// cudaTextureObject_t (unsigned long long) per such access, a 2-D texture of 32-bit texels
    /// over the access's buffer (pitched linear memory, rows of its textureRowBytes).
    std::vector<int> textureAccesses;
};

/// The source for `kernel`. Shared memory is `extern __shared__` (dynamic, sized at launch from
/// the grid model's sharedBytesPerBlock). A __syncthreads() separates a shared store from a later
/// shared load (and a shared load from a later shared store), as the notes' tiled transpose does;
/// barriers are not memory instructions.
///
/// Local accesses address the thread's own array `ws_local` of `localBytesPerThread` bytes (the
/// grid model's GridPrediction::localBytesPerThread, rounded up to 16): its address is taken
/// into the inline PTX, so it lives in local memory (ptxas -v reports it as the stack frame).
GeneratedKernel generateKernelSource(const ResolvedKernel& resolved,
                                     std::int64_t localBytesPerThread = 0);

} // namespace warpscope::probe
