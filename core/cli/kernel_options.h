// What warpscope-cli's kernel commands (predict-kernel, analyze-kernel) share: their options,
// --param applied to a kernel, and the grid model run over it.
#pragma once

#include "warpscope/kernel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::cli {

/// Options of the kernel commands: --param NAME=VALUE (repeatable), --preset ID, and for
/// analyze-kernel --progress (progress on stderr even when it is not a terminal).
struct KernelOptions {
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::int64_t>> parameters;
    std::string preset;
    bool progress = false;
};

bool parseKernelOptions(const std::vector<std::string>& args, const std::string& command,
                        bool allowPreset, KernelOptions& options);

/// Sets the --param values on the kernel; an unknown name is an error naming the kernel's
/// parameters.
std::optional<Error> applyParameters(Kernel& kernel, const KernelOptions& options);

Result<GridPrediction> predictKernel(const Kernel& kernel, ResolvedKernel& resolved);

} // namespace warpscope::cli
