// Per-instruction truth on the H200 (tests/data/per_instruction_h200.jsonl, written by
// scripts/gpu/per_instruction.sh on 2026-11-29, driver 580.159.04, Nsight Compute 2025.3.1):
// for every measured kernel preset, the grid model's count of each access equals the count of
// the access's own SASS instruction (Nsight Compute's source counters), and where the hardware
// counter differs the difference is named, not hidden.
#include "warpscope/file_format.h"
#include "warpscope/kernel_preset.h"
#include "warpscope/per_instruction.h"

#include "per_instruction_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace warpscope;
using warpscope::per_instruction_test::recordedRows;

namespace {

const PerInstructionRow* find(const std::vector<PerInstructionRow>& rows, const std::string& kernel,
                              int access) {
    for (const PerInstructionRow& row : rows) {
        if (row.kernel == kernel && row.access == access) {
            return &row;
        }
    }
    return nullptr;
}

AccessCountComparison single(std::uint64_t predicted, std::uint64_t instruction,
                             std::uint64_t hardware) {
    AccessCountComparison c;
    c.count = AccessCount::Conflicts;
    c.predicted = predicted;
    c.instruction = instruction;
    c.hardware = hardware;
    c.instructionSumOfHardware = instruction;
    return c;
}

} // namespace

TEST(PerInstruction, TheModelEqualsEachAccesssOwnInstructionInEveryMeasuredPreset) {
    const auto rows = recordedRows("per_instruction_h200.jsonl");
    ASSERT_EQ(rows.size(), 114u);
    std::set<std::string> kernels;
    for (const PerInstructionRow& row : rows) {
        kernels.insert(row.kernel);
        EXPECT_NE(row.mapping, "unmapped") << row.kernel << " access " << row.access;
        ASSERT_EQ(row.counts.size(), 2u);
        for (const AccessCountComparison& c : row.counts) {
            EXPECT_TRUE(c.modelEqualsInstruction())
                << row.kernel << " access " << row.access << " (" << row.sass << ") "
                << accessCountName(c.count) << ": model " << c.predicted << ", instruction "
                << (c.instruction ? std::to_string(*c.instruction) : "none");
        }
    }
    // Every built-in preset with a global or shared access is among them, and every row names a
    // built-in preset (the table is of the presets, not of look-alikes).
    int measurable = 0;
    for (const KernelPreset& preset : builtinKernelPresets()) {
        const bool globalOrShared = std::any_of(
            preset.kernel.accesses.begin(), preset.kernel.accesses.end(), [](const auto& access) {
                return access.kind.space == MemorySpace::Global ||
                       access.kind.space == MemorySpace::Shared;
            });
        if (globalOrShared) {
            ++measurable;
            EXPECT_TRUE(kernels.count(preset.id)) << preset.id << " has no recorded row";
        }
    }
    for (const std::string& kernel : kernels) {
        EXPECT_NE(findKernelPreset(kernel), nullptr) << kernel;
    }
    EXPECT_EQ(static_cast<int>(kernels.size()), measurable);
    EXPECT_EQ(kernels.size(), 37u);
}

TEST(PerInstruction, GlobalHardwareCountersEqualTheirInstructionsExactly) {
    // The kernel-level l1tex__t_requests/sectors of each op add up that op's instructions,
    // with nothing beside them: readOffset's two loads, 1,048,576 requests = 2 x 524,288.
    const auto rows = recordedRows("per_instruction_h200.jsonl");
    int global = 0;
    for (const PerInstructionRow& row : rows) {
        if (row.space != "global") {
            continue;
        }
        ++global;
        for (const AccessCountComparison& c : row.counts) {
            ASSERT_TRUE(c.hardware) << row.kernel;
            EXPECT_EQ(c.hardwareExcess(), 0)
                << row.kernel << " access " << row.access << " " << accessCountName(c.count);
        }
    }
    EXPECT_EQ(global, 107);
    const PerInstructionRow* load = find(rows, "readoffset", 0);
    ASSERT_NE(load, nullptr);
    EXPECT_EQ(load->counts[0].accessesInHardware, 2);
    EXPECT_EQ(*load->counts[0].hardware, 1048576u);
    EXPECT_EQ(excessExplanation(load->counts[0]),
              "equal to the sum of the 2 instructions' own counts");
}

TEST(PerInstruction, SharedHardwareCountsMoreThanTheInstructionsAndTheTextSaysHowMuch) {
    const auto rows = recordedRows("per_instruction_h200.jsonl");
    const PerInstructionRow* load = find(rows, "transpose-tiled", 2);
    ASSERT_NE(load, nullptr);
    EXPECT_EQ(load->sass, "LDS R9, [R9]");
    const AccessCountComparison& conflicts = load->counts[1];
    EXPECT_EQ(conflicts.count, AccessCount::Conflicts);
    EXPECT_EQ(conflicts.predicted, 4063232u);
    EXPECT_EQ(*conflicts.instruction, 4063232u);
    EXPECT_EQ(*conflicts.hardware, 4088499u);
    EXPECT_EQ(excessExplanation(conflicts),
              "25,267 extra conflicts not caused by this access's addresses");
    // The SASS-patched wavefronts (smsp__sass_*) count what the instructions cause, like the
    // source counters: they equal the instructions' own sums in every kernel. (The recorded
    // raw pages have no value for the SASS-patched conflicts: ncu accepted the name, its raw
    // page did not list it.)
    for (const PerInstructionRow& row : rows) {
        if (row.space != "shared") {
            continue;
        }
        ASSERT_TRUE(row.sassPatchedWavefronts) << row.kernel;
        EXPECT_EQ(*row.sassPatchedWavefronts, row.counts[0].instructionSumOfHardware)
            << row.kernel << " access " << row.access;
        EXPECT_GE(row.counts[0].hardwareExcess(), 0) << row.kernel << " access " << row.access;
    }
}

TEST(PerInstruction, ExcessExplanationNamesEachCase) {
    EXPECT_EQ(excessExplanation(single(4063232, 4063232, 4067180)),
              "3,948 extra conflicts not caused by this access's addresses");
    EXPECT_EQ(excessExplanation(single(0, 0, 0)), "equal to the instruction's own count");
    EXPECT_EQ(excessExplanation(single(10, 10, 7)),
              "3 fewer conflicts than the instruction's own count (the hardware counter missed "
              "them)");
    AccessCountComparison group = single(524288, 524288, 1049628);
    group.count = AccessCount::Sectors;
    group.instructionSumOfHardware = 1048576;
    group.accessesInHardware = 2;
    EXPECT_EQ(excessExplanation(group),
              "1,052 extra sectors in the counter of these 2 accesses, not caused by their "
              "addresses");
    AccessCountComparison unmatched = single(5, 5, 5);
    unmatched.instruction.reset();
    EXPECT_EQ(excessExplanation(unmatched),
              "no instruction-level count: no SASS instruction was matched to this access");
    EXPECT_EQ(unmatched.hardwareExcess(), 0);
    AccessCountComparison noHardware = single(5, 5, 5);
    noHardware.hardware.reset();
    EXPECT_EQ(excessExplanation(noHardware), "no hardware count was collected");
    // One digit off is caught: the grouping of 1,000,000 and of 999.
    EXPECT_EQ(excessExplanation(single(0, 0, 1000000)),
              "1,000,000 extra conflicts not caused by this access's addresses");
    EXPECT_EQ(excessExplanation(single(0, 0, 999)),
              "999 extra conflicts not caused by this access's addresses");
}

TEST(PerInstruction, BadRowsAreRefusedWithTheLineAndField) {
    auto notJson = perInstructionRowsFromJsonLines("\n{\"kernel\": \n");
    ASSERT_FALSE(notJson.ok());
    EXPECT_EQ(notJson.error().where, "line 2, column 12") << notJson.error().describe();

    auto noSpace = perInstructionRowsFromJsonLines(
        R"({"kernel":"k","access":0,"space":"local","predicted":{}})");
    ASSERT_FALSE(noSpace.ok());
    EXPECT_EQ(noSpace.error().where, "line 1: /space");

    auto negative = perInstructionRowsFromJsonLines(
        R"({"kernel":"k","access":0,"space":"shared","predicted":{"wavefronts":-1,"conflicts":0}})");
    ASSERT_FALSE(negative.ok());
    EXPECT_EQ(negative.error().where, "line 1: /predicted/wavefronts");

    auto missing = perInstructionRowsFromJsonLines(
        R"({"kernel":"k","access":0,"space":"global","predicted":{"requests":1}})");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().where, "line 1: /predicted/sectors");

    auto badAccess = perInstructionRowsFromJsonLines(
        R"({"kernel":"k","access":-3,"space":"global","predicted":{}})");
    ASSERT_FALSE(badAccess.ok());
    EXPECT_EQ(badAccess.error().where, "line 1: /access");

    auto deep = perInstructionRowsFromJsonLines(std::string(100000, '[') + "\n");
    EXPECT_FALSE(deep.ok());
}

TEST(PerInstruction, RowsOfOneKernelAddUpTheirSharedHardwareCounter) {
    const std::string text =
        R"({"kernel":"k","access":0,"space":"global","predicted":{"requests":2,"sectors":8},)"
        R"("instruction":{"requests":2,"sectors":8},"hardware":{"requests":4,"sectors":20},)"
        R"("hardwareShared":[0,1]})"
        "\n"
        R"({"kernel":"k","access":1,"space":"global","predicted":{"requests":2,"sectors":8},)"
        R"("instruction":{"requests":2,"sectors":8},"hardware":{"requests":4,"sectors":20},)"
        R"("hardwareShared":[0,1]})"
        "\n";
    auto rows = perInstructionRowsFromJsonLines(text);
    ASSERT_TRUE(rows.ok()) << rows.error().describe();
    ASSERT_EQ(rows->size(), 2u);
    EXPECT_EQ(rows->at(1).counts[1].instructionSumOfHardware, 16u);
    EXPECT_EQ(rows->at(1).counts[1].hardwareExcess(), 4);
    EXPECT_EQ(rows->at(1).counts[0].hardwareExcess(), 0);
    EXPECT_EQ(excessExplanation(rows->at(0).counts[1]),
              "4 extra sectors in the counter of these 2 accesses, not caused by their addresses");
}

TEST(PerInstruction, TheTableShowsEachCountWithATickWhereTheModelIsRight) {
    const auto rows = recordedRows("per_instruction_h200.jsonl");
    const std::string table = perInstructionTableText(rows, "transpose-tiled");
    EXPECT_EQ(perInstructionTableText(rows, "no-such-kernel"), "");
    // One header, two lines per access (requests and sectors, or wavefronts and conflicts) and
    // the SASS line: 1 + 4 x 3.
    EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 13);
    EXPECT_NE(table.find("conflicts     4,063,232    4,063,232 ✓    4,088,499  25,267 extra "
                         "conflicts not caused by this access's addresses\n"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("    SASS: LDS R9, [R9] (matched by order)\n"), std::string::npos);
    // A model one off loses its tick.
    std::vector<PerInstructionRow> wrong = rows;
    for (PerInstructionRow& row : wrong) {
        if (row.kernel == "transpose-tiled" && row.access == 2) {
            row.counts[1].predicted += 1;
        }
    }
    const std::string off = perInstructionTableText(wrong, "transpose-tiled");
    EXPECT_NE(off.find("4,063,233    4,063,232      "), std::string::npos) << off;
}
