// Grid kernels: a pattern's expression compiled with NVRTC into a kernel that runs over the whole
// grid, so a pattern written over gid measures effective bandwidth the way the course notes do.
// Kernels are cached per expression; parameters are kernel arguments.
#pragma once

#include "probe_backend.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace warpscope::probe {

struct GridKernel {
    std::string source;     // CUDA C++ given to NVRTC
    std::string entryPoint; // extern "C" name
    std::string cacheKey;   // what makes two kernels the same
};

/// The generated source for a pattern with an expression (BadRequest without one).
ProbeResult<GridKernel> generateGridKernel(const Pattern& pattern);

struct GridTiming {
    std::vector<double> kernelMs;
    double bytesRequested = 0.0; // active threads x width
    double bytesMoved = 0.0;     // the modern model's sectors x 32, summed over warps
    std::int64_t threads = 0;
};

/// What a failed launch of a grid kernel means. A launch the GPU refuses for its configuration
/// (grid or block too large, too many registers or too much shared memory for the block) ran
/// nothing and leaves the context usable: PatternRefused, never fatal. Anything else (a fault
/// while running, a sticky error) is a fatal KernelFault.
ProbeError gridLaunchError(cudaError_t status, const Dim3& grid, const Dim3& block);

/// Compiles (or reuses, cached by source) a generated kernel with NVRTC for the current device
/// and loads it. When `cubin` is given, the compiled cubin is copied there (for cuobjdump).
ProbeResult<cudaKernel_t> compileGeneratedKernel(const std::string& source,
                                                 const std::string& entryPoint,
                                                 std::vector<char>* cubin = nullptr);

/// Checks every thread's address on the host (PatternRefused naming the thread and address when
/// one falls outside the arena or is misaligned), compiles or reuses the kernel, and times
/// `repetitions` launches with CUDA events after one warm-up.
ProbeResult<GridTiming> runGridKernel(const Pattern& pattern, const WarpAccess& access, void* arena,
                                      std::size_t arenaBytes, void* sink, cudaStream_t stream,
                                      int repetitions);

} // namespace warpscope::probe
