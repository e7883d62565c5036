// `warpscope-probe run-kernel ID --per-instruction FILE`: the per-access table of a kernel from
// rows recorded by scripts/gpu/per_instruction.sh (Nsight Compute's per-instruction source
// counters beside the hardware counters), without running anything on the GPU; and
// `--per-instruction-live`'s table of the counts the probe measured itself.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace warpscope::probe {

/// Prints the table for `kernel` from the JSON-lines file at `path`; kExitOk, or kExitBadInput
/// with a message naming the file and what is wrong with it.
int printPerInstructionTable(const std::string& kernel, const std::string& path);

/// Prints the per-access table of one measure_kernel answer `answer` that carries
/// "perInstruction" (run-kernel --per-instruction-live), or why it was not measured.
void printLivePerInstruction(const nlohmann::json& answer);

} // namespace warpscope::probe
