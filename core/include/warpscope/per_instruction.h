// Per-instruction truth (issue 32): one access's counts three ways, the grid model's prediction,
// the access's own SASS instruction as Nsight Compute's source counters count it, and the whole
// kernel's hardware counter; and the words that name the difference between the last two.
// The rows come from scripts/gpu/per_instruction.sh (docs/benchmarks.md, docs/models.md).
#pragma once

#include "warpscope/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

/// Which count of an access: global requests and 32-byte sectors, shared wavefronts and bank
/// conflicts (wavefronts beyond the ideal, as Nsight Compute counts them).
enum class AccessCount { Requests, Sectors, Wavefronts, Conflicts };

/// "requests", "sectors", "wavefronts", "conflicts".
const char* accessCountName(AccessCount count);

/// One count of one access.
struct AccessCountComparison {
    AccessCount count = AccessCount::Sectors;
    std::uint64_t predicted = 0;
    /// The access's own SASS instruction (ncu --page source); empty where no instruction was
    /// matched to the access.
    std::optional<std::uint64_t> instruction;
    /// The kernel-level hardware counter (l1tex__...), which adds up every access of the same
    /// space and operation; empty where it was not collected.
    std::optional<std::uint64_t> hardware;
    /// The sum of the instruction-level counts of the accesses that hardware counter adds up
    /// (this one among them), and how many they are.
    std::uint64_t instructionSumOfHardware = 0;
    int accessesInHardware = 1;

    /// hardware − instructionSumOfHardware (negative where the hardware counts fewer); 0 when
    /// either is missing.
    std::int64_t hardwareExcess() const;
    bool modelEqualsInstruction() const { return instruction && *instruction == predicted; }
};

/// The difference between the hardware count and the instructions' own, named for a person:
/// "3,948 extra conflicts not caused by this access's addresses",
/// "1,052 extra sectors in the counter of these 2 accesses, not caused by their addresses",
/// "equal to the instruction's own count", "12 fewer wavefronts than the instruction's own count
/// (the hardware counter missed them)", or why there is nothing to compare.
std::string excessExplanation(const AccessCountComparison& comparison);

/// One access of one measured kernel (one line of tests/data/per_instruction_*.jsonl).
struct PerInstructionRow {
    std::string kernel;
    int access = 0;
    std::string label;
    std::string space; // "global" or "shared"
    std::string op;    // "load", "store", "copy_async"
    /// How the access was matched to its SASS instruction: "order", "opcode" or "unmapped".
    std::string mapping;
    std::string sass; // the instruction's text; empty when unmapped
    /// requests and sectors (global), or wavefronts and conflicts (shared).
    std::vector<AccessCountComparison> counts;
    /// The SASS-patched kernel totals (smsp__sass_*) for a shared access: wavefronts and
    /// conflicts of all the accesses its hardware counter adds up; empty for global accesses.
    std::optional<std::uint64_t> sassPatchedWavefronts;
    std::optional<std::uint64_t> sassPatchedConflicts;
    /// Warp executions of the access's instruction, and its offset in the kernel's code; empty
    /// where not known.
    std::optional<std::uint64_t> executed;
    std::optional<std::uint64_t> pcOffset;
};

/// Reads the JSON lines scripts/gpu/per_instruction.sh writes, and fills in each count's
/// instructionSumOfHardware from the rows of the same kernel. Errors name the line and field.
Result<std::vector<PerInstructionRow>> perInstructionRowsFromJsonLines(std::string_view text);

/// The same rows as a JSON array (a measure_kernel answer's "perInstruction"/"rows", each element
/// a line of the recorded form), read through the core's guarded reader. Errors name the row
/// ("rows/2: /predicted/sectors").
Result<std::vector<PerInstructionRow>> perInstructionRowsFromJsonText(std::string_view arrayText);

/// A text table of one kernel's rows, one line per count of each access: the model's count,
/// the instruction's own (✓ where it equals the model's), the hardware's and the difference
/// named by excessExplanation. Empty when no row is of that kernel.
std::string perInstructionTableText(const std::vector<PerInstructionRow>& rows,
                                    std::string_view kernel);

} // namespace warpscope
