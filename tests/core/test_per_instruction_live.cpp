// Per-instruction counts measured live (per_instruction_live.h): accesses matched to the SASS
// instructions CUPTI counted, in program order by opcode kind; the rows of a measure_kernel
// answer built from the match, the grid model and the hardware counters, and read back through
// the guarded reader with the difference named where the hardware counts more.
#include "warpscope/kernel_preset.h"
#include "warpscope/per_instruction_live.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace warpscope;

namespace {

SassInstructionCounts instruction(std::uint32_t pc, SassOpKind kind, std::uint64_t executed) {
    SassInstructionCounts i;
    i.pcOffset = pc;
    i.kind = kind;
    i.executed = executed;
    return i;
}

struct Predicted {
    ResolvedKernel kernel;
    GridPrediction prediction;
};

Predicted predictedPreset(const char* id) {
    const KernelPreset* preset = findKernelPreset(id);
    EXPECT_NE(preset, nullptr) << id;
    auto resolved = resolveKernel(preset->kernel);
    EXPECT_TRUE(resolved.ok());
    auto prediction = predictGrid(resolved.value());
    EXPECT_TRUE(prediction.ok());
    return {resolved.value(), prediction.value()};
}

} // namespace

TEST(PerInstructionLive, AccessesTakeTheirInstructionsInProgramOrder) {
    using K = SassOpKind;
    // A global load, a shared store, a shared load, a global store; the instructions come in
    // any order, with non-memory instructions (kind None) between them.
    const std::vector<K> accesses{K::GlobalLoad, K::SharedStore, K::SharedLoad, K::GlobalStore};
    const std::vector<SassInstructionCounts> found{
        instruction(0x90, K::GlobalStore, 8), instruction(0x10, K::None, 8),
        instruction(0x20, K::GlobalLoad, 8),  instruction(0x50, K::SharedLoad, 8),
        instruction(0x40, K::SharedStore, 8), instruction(0x60, K::None, 8)};
    const SassAccessMatch match = matchAccessesToInstructions(accesses, found);
    EXPECT_EQ(match.mapping, "order");
    EXPECT_EQ(match.instructionOfAccess, (std::vector<int>{2, 4, 3, 0}));
}

TEST(PerInstructionLive, ReorderedCodeIsMatchedByKindAndAMissingOneIsUnmapped) {
    using K = SassOpKind;
    // ptxas put the store before the second load; one shared load never ran (no kind).
    const std::vector<K> accesses{K::GlobalLoad, K::GlobalLoad, K::GlobalStore, K::SharedLoad};
    const std::vector<SassInstructionCounts> found{
        instruction(0x10, K::GlobalLoad, 4), instruction(0x20, K::GlobalStore, 4),
        instruction(0x30, K::GlobalLoad, 4), instruction(0x40, K::None, 0)};
    const SassAccessMatch match = matchAccessesToInstructions(accesses, found);
    EXPECT_EQ(match.mapping, "opcode");
    EXPECT_EQ(match.instructionOfAccess, (std::vector<int>{0, 2, 1, -1}));
}

TEST(PerInstructionLive, EachAccessKindHasItsOpcodeKindAndCounters) {
    AccessKind kind;
    kind.space = MemorySpace::Global;
    kind.op = AccessOp::CopyAsync;
    EXPECT_EQ(sassOpKindOf(kind), SassOpKind::Ldgsts);
    EXPECT_EQ(hardwareMetricsOfAccess(kind).at(1),
              "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum");
    kind.space = MemorySpace::Shared;
    kind.op = AccessOp::Load;
    kind.matrices = 4;
    kind.widthBytes = 16;
    EXPECT_EQ(sassOpKindOf(kind), SassOpKind::Ldsm);
    kind.matrices = 0;
    kind.op = AccessOp::Store;
    EXPECT_EQ(sassOpKindOf(kind), SassOpKind::SharedStore);
    EXPECT_EQ(hardwareMetricsOfAccess(kind).at(1),
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
    kind.space = MemorySpace::Constant;
    EXPECT_EQ(sassOpKindOf(kind), SassOpKind::None);
    EXPECT_TRUE(hardwareMetricsOfAccess(kind).empty());
}

// The tiled transpose: a global load, a shared store, a shared load, a global store. The
// instructions count what the model predicts; the hardware's shared load counter counts more,
// and the row read back names the difference.
TEST(PerInstructionLive, RowsReadBackWithTheHardwareExcessNamed) {
    const Predicted p = predictedPreset("transpose-tiled");
    ASSERT_EQ(p.kernel.accesses.size(), 4u);
    std::vector<SassInstructionCounts> found;
    std::map<std::string, double> counters;
    for (std::size_t a = 0; a < 4; ++a) {
        const AccessKind& kind = p.kernel.accesses[a].access.kind;
        const GridAccessPrediction& predicted = p.prediction.accesses[a];
        SassInstructionCounts i = instruction(static_cast<std::uint32_t>(0x100 + 0x10 * a),
                                              sassOpKindOf(kind), p.prediction.warps);
        if (kind.space == MemorySpace::Global) {
            i.executed = static_cast<std::uint64_t>(predicted.requests);
            i.sectors = static_cast<std::uint64_t>(predicted.sectors);
        } else {
            i.wavefronts = static_cast<std::uint64_t>(predicted.wavefronts);
            i.conflicts = static_cast<std::uint64_t>(predicted.bankConflicts);
        }
        found.push_back(i);
        const std::vector<std::string> names = hardwareMetricsOfAccess(kind);
        const bool global = kind.space == MemorySpace::Global;
        counters[names[0]] =
            static_cast<double>(global ? predicted.requests : predicted.wavefronts);
        counters[names[1]] =
            static_cast<double>(global ? predicted.sectors : predicted.bankConflicts);
    }
    const std::string load = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
    counters[load] += 3948;
    const nlohmann::json answer = livePerInstructionJson(p.kernel, p.prediction, counters, found);
    ASSERT_EQ(answer.size(), 4u);
    auto rows = perInstructionRowsFromJsonText(answer.dump());
    ASSERT_TRUE(rows.ok()) << rows.error().describe();
    const PerInstructionRow& sharedLoad = rows.value()[2];
    EXPECT_EQ(sharedLoad.space, "shared");
    EXPECT_EQ(sharedLoad.op, "load");
    EXPECT_EQ(sharedLoad.mapping, "order");
    EXPECT_EQ(sharedLoad.sass, "LDS at offset 0x0120");
    EXPECT_EQ(sharedLoad.pcOffset, 0x120u);
    ASSERT_EQ(sharedLoad.counts.size(), 2u);
    const AccessCountComparison& conflicts = sharedLoad.counts[1];
    EXPECT_EQ(conflicts.count, AccessCount::Conflicts);
    EXPECT_TRUE(conflicts.modelEqualsInstruction());
    EXPECT_EQ(conflicts.hardwareExcess(), 3948);
    EXPECT_EQ(excessExplanation(conflicts),
              "3,948 extra conflicts not caused by this access's addresses");
    // The global load: requests are warp executions where sectors moved; equal everywhere.
    const AccessCountComparison& requests = rows.value()[0].counts[0];
    EXPECT_EQ(requests.count, AccessCount::Requests);
    EXPECT_TRUE(requests.modelEqualsInstruction());
    EXPECT_EQ(requests.hardwareExcess(), 0);
    EXPECT_EQ(rows.value()[0].executed, requests.instruction);
}

TEST(PerInstructionLive, WithoutHardwareCountersAndWithoutAMatchTheRowsSaySo) {
    const Predicted p = predictedPreset("readoffset");
    // No instruction counted at all (the SASS metrics saw nothing of the kernel).
    const nlohmann::json answer = livePerInstructionJson(p.kernel, p.prediction, {}, {});
    auto rows = perInstructionRowsFromJsonText(answer.dump());
    ASSERT_TRUE(rows.ok()) << rows.error().describe();
    ASSERT_EQ(rows.value().size(), 3u);
    EXPECT_EQ(rows.value()[0].mapping, "unmapped");
    EXPECT_FALSE(rows.value()[0].counts[1].instruction.has_value());
    EXPECT_FALSE(rows.value()[0].counts[1].hardware.has_value());
    EXPECT_EQ(excessExplanation(rows.value()[0].counts[1]),
              "no instruction-level count: no SASS instruction was matched to this access");
}

TEST(PerInstructionLive, ABadRowInAnAnswerIsNamed) {
    auto notArray = perInstructionRowsFromJsonText("{\"kernel\": \"k\"}");
    ASSERT_FALSE(notArray.ok());
    EXPECT_EQ(notArray.error().where, "rows");
    auto badCount = perInstructionRowsFromJsonText(
        R"([{"kernel": "k", "access": 0, "space": "global", "predicted": {"requests": 1,
             "sectors": 4}, "instruction": {"sectors": -2}}])");
    ASSERT_FALSE(badCount.ok());
    EXPECT_EQ(badCount.error().where, "rows/0: /instruction/sectors");
}

// What the probe gives on the H200: only each instruction's space (it moved sectors or
// wavefronts); the accesses take them in program order, and the row names the generated opcode.
TEST(PerInstructionLive, InstructionsKnownOnlyBySpaceAreMatchedInProgramOrder) {
    using K = SassOpKind;
    const std::vector<K> accesses{K::GlobalLoad, K::SharedStore, K::SharedLoad, K::GlobalStore};
    const std::vector<SassInstructionCounts> found{
        instruction(0x370, K::Global, 8), instruction(0x330, K::Shared, 8),
        instruction(0x1a0, K::Global, 8), instruction(0x350, K::Shared, 8),
        instruction(0x100, K::None, 8)};
    const SassAccessMatch match = matchAccessesToInstructions(accesses, found);
    EXPECT_EQ(match.mapping, "order");
    EXPECT_EQ(match.instructionOfAccess, (std::vector<int>{2, 1, 3, 0}));
    EXPECT_FALSE(sassKindFits(K::GlobalLoad, K::Shared));
    EXPECT_TRUE(sassKindFits(K::Ldgsts, K::Global));

    const Predicted p = predictedPreset("transpose-tiled");
    const nlohmann::json rows = livePerInstructionJson(p.kernel, p.prediction, {}, found);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[2].value("sass", std::string()), "LDS at offset 0x0350");
    EXPECT_EQ(rows[3].value("sass", std::string()), "STG at offset 0x0370");
    EXPECT_EQ(rows[3]["mapping"], "order");
}
