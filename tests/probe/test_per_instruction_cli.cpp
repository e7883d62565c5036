// `warpscope-probe run-kernel ID --per-instruction FILE` as a user runs it: the per-access table
// from the rows recorded on the H200 (tests/data/per_instruction_h200.jsonl), and a clear refusal
// of a file or kernel it cannot show.
#include "probe_process.h"

#include <gtest/gtest.h>

#include <string>

using namespace warpscope::probe::testing;

namespace {

using warpscope::probe::testing::kFakeProbe;
const std::string kRecorded = std::string(WARPSCOPE_TEST_DATA_DIR) + "/per_instruction_h200.jsonl";

} // namespace

TEST(ProbePerInstruction, RunKernelPrintsTheRecordedTableWithTheDifferenceNamed) {
    const auto result =
        runCommand(kFakeProbe, {"run-kernel", "transpose-tiled", "--per-instruction", kRecorded});
    ASSERT_EQ(result.exitStatus, 0) << result.err;
    // The 32-way conflicting load: the model equals its instruction (ticked), the hardware
    // counts 25,267 more, and the line says so.
    EXPECT_NE(result.out.find("conflicts     4,063,232    4,063,232 ✓    4,088,499  25,267 extra "
                              "conflicts not caused by this access's addresses"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("SASS: LDS R9, [R9] (matched by order)"), std::string::npos);
    // The global store: all three agree.
    EXPECT_NE(result.out.find("sectors         524,288      524,288 ✓      524,288  equal to "
                              "the instruction's own count"),
              std::string::npos);
}

TEST(ProbePerInstruction, AKernelOrFileItCannotShowIsRefusedByName) {
    const auto missing = runCommand(
        kFakeProbe, {"run-kernel", "constant-broadcast", "--per-instruction", kRecorded});
    EXPECT_EQ(missing.exitStatus, 2);
    EXPECT_NE(missing.err.find("has no rows for the kernel 'constant-broadcast'; it has "
                               "aos-testinnerstruct, "),
              std::string::npos)
        << missing.err;

    const auto noFile = runCommand(kFakeProbe, {"run-kernel", "transpose-tiled",
                                                "--per-instruction", "/nonexistent/rows.jsonl"});
    EXPECT_EQ(noFile.exitStatus, 2);
    EXPECT_NE(noFile.err.find("--per-instruction /nonexistent/rows.jsonl: "), std::string::npos)
        << noFile.err;

    const auto noValue =
        runCommand(kFakeProbe, {"run-kernel", "transpose-tiled", "--per-instruction"});
    EXPECT_EQ(noValue.exitStatus, 2);
    EXPECT_NE(noValue.err.find("--per-instruction needs a file"), std::string::npos);

    const auto notRows =
        runCommand(kFakeProbe, {"run-kernel", "transpose-tiled", "--per-instruction",
                                std::string(WARPSCOPE_TEST_DATA_DIR) + "/per_instruction_env.txt"});
    EXPECT_EQ(notRows.exitStatus, 2);
    EXPECT_NE(notRows.err.find("line 1"), std::string::npos) << notRows.err;
}

// --per-instruction-live measures them with the run (here the fake probe, whose instructions count
// what the model predicts) and prints the same table under the counters, saying what counted.
TEST(ProbePerInstruction, RunKernelLiveMeasuresAndPrintsTheTable) {
    const auto result = runCommand(kFakeProbe, {"run-kernel", "transpose-tiled",
                                                "--per-instruction-live", "--repetitions", "1"});
    ASSERT_EQ(result.exitStatus, 0) << result.err;
    EXPECT_NE(result.out.find("Per access, measured now: the model, the access's own SASS "
                              "instruction (the fake probe: the grid model's counts, no GPU"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("conflicts     4,063,232    4,063,232 ✓    4,063,232  equal to the "
                              "instruction's own count"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("SASS: LDS at offset 0x0120 (matched by order)"), std::string::npos);

    const auto json =
        runCommand(kFakeProbe, {"run-kernel", "transpose-tiled", "--per-instruction-live", "--json",
                                "--repetitions", "1"});
    ASSERT_EQ(json.exitStatus, 0) << json.err;
    EXPECT_NE(json.out.find("\"perInstruction\":{\"measured\":true"), std::string::npos)
        << json.out.substr(0, 400);
    // Without the option the answer carries no per-instruction object.
    const auto plain =
        runCommand(kFakeProbe, {"run-kernel", "transpose-tiled", "--json", "--repetitions", "1"});
    ASSERT_EQ(plain.exitStatus, 0) << plain.err;
    EXPECT_EQ(plain.out.find("perInstruction"), std::string::npos);
}
