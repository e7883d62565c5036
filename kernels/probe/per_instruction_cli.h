// `warpscope-probe run-kernel ID --per-instruction FILE`: the per-access table of a kernel from
// rows recorded by scripts/gpu/per_instruction.sh (Nsight Compute's per-instruction source
// counters beside the hardware counters), without running anything on the GPU.
#pragma once

#include <string>

namespace warpscope::probe {

/// Prints the table for `kernel` from the JSON-lines file at `path`; kExitOk, or kExitBadInput
/// with a message naming the file and what is wrong with it.
int printPerInstructionTable(const std::string& kernel, const std::string& path);

} // namespace warpscope::probe
