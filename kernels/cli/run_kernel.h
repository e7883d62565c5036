// `warpscope-probe run-kernel`: a whole kernel (a kernel preset, a kernel file or kernel JSON)
// measured on the GPU, with the grid model's prediction beside the counters, the timing and the
// effective bandwidth. docs/protocol.md ("run-kernel") describes it.
#pragma once

#include "probe_cli.h"

#include <string>
#include <vector>

namespace warpscope::probe {

int runKernelCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend);

/// The usage text of run-kernel, for --help.
extern const char* const kRunKernelUsage;

} // namespace warpscope::probe
