// Per-instruction counts measured live (issue 32): the probe reads CUPTI's SASS metrics for every
// SASS instruction of a generated kernel; here, plain C++, each access of the kernel description
// is matched to its instruction in program order by opcode kind, and the rows of
// per_instruction.h are built from the match, the grid model's prediction and the kernel-level
// hardware counters, and written as the JSON a measure_kernel answer carries.
#pragma once

#include "warpscope/kernel.h"
#include "warpscope/per_instruction.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpscope {

/// The opcode kind of a memory instruction (smsp__sass_inst_executed_op_global_ld and its
/// siblings tell them apart), or only its space: Global for an instruction that moved global
/// sectors, Shared for one that moved shared wavefronts (what the probe uses: on the H200 the
/// per-opcode counts came back attributed to other instructions, docs/benchmarks.md).
enum class SassOpKind {
    None,
    GlobalLoad,
    GlobalStore,
    SharedLoad,
    SharedStore,
    Ldsm,
    Ldgsts,
    Global,
    Shared
};

/// "LDG", "STG", "LDS", "STS", "LDSM", "LDGSTS"; "" for None, Global and Shared.
const char* sassOpFamily(SassOpKind kind);

/// The kind of instruction the probe generates for `access` (kernels/protocol/kernel_codegen.h);
/// None for accesses without per-instruction counts here (constant, local, texture, stmatrix).
SassOpKind sassOpKindOf(const AccessKind& access);

/// One SASS instruction of the kernel as the SASS metrics counted it over one launch.
struct SassInstructionCounts {
    std::uint32_t pcOffset = 0;
    /// The opcode kind whose per-opcode count is non-zero; None for an instruction that never
    /// ran or moves no global or shared data.
    SassOpKind kind = SassOpKind::None;
    std::uint64_t executed = 0;   // smsp__sass_inst_executed: warp executions
    std::uint64_t sectors = 0;    // smsp__sass_sectors_mem_global
    std::uint64_t wavefronts = 0; // smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared
    std::uint64_t conflicts = 0;  // smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared
};

/// Whether an instruction of kind `instruction` can be an access of kind `access`: the same
/// kind, or the access's space where only the instruction's space is known.
bool sassKindFits(SassOpKind access, SassOpKind instruction);

/// Which instruction each access is: -1 where none could be matched, and how ("order" when the
/// memory instructions in address order fit the accesses one to one, "opcode" when each access
/// took the first unused instruction that fits it, as scripts/gpu/per_instruction.py maps Nsight
/// Compute's source page).
struct SassAccessMatch {
    std::string mapping;
    std::vector<int> instructionOfAccess; // per access: index into the instructions, or -1
};
SassAccessMatch matchAccessesToInstructions(const std::vector<SassOpKind>& accessKinds,
                                            const std::vector<SassInstructionCounts>& instructions);

/// The kernel-level Nsight Compute counters an access's requests and sectors (global) or
/// wavefronts and conflicts (shared) are compared with; empty for other accesses.
std::vector<std::string> hardwareMetricsOfAccess(const AccessKind& access);

/// The rows of one measured kernel as a JSON array, each element in the form of the recorded
/// lines (perInstructionRowsFromJsonText reads it back): for every global or shared access, the
/// grid model's counts, its own instruction's (executions, and the requests: its warp executions
/// where it moved any sector, as per_instruction.py counts them; sectors, or wavefronts and
/// conflicts), the hardware counters found in `counters`, the accesses each hardware counter adds
/// up, and how the access was matched. `instructions` in any order.
nlohmann::json livePerInstructionJson(const ResolvedKernel& kernel,
                                      const GridPrediction& prediction,
                                      const std::map<std::string, double>& counters,
                                      std::vector<SassInstructionCounts> instructions);

} // namespace warpscope
