// measure_kernel's per_instruction option against the scripted FakeBackend: the answer carries
// each access's own instruction counts beside the model's and the hardware's, in the rows core
// reads back; without the option the answer has no such object; a wrong value is refused by name.
#include "protocol_test_support.h"

#include "warpscope/kernel_preset.h"
#include "warpscope/per_instruction.h"

namespace {

using namespace protocol_test;

std::string presetKernel(const char* id) {
    const warpscope::KernelPreset* preset = warpscope::findKernelPreset(id);
    EXPECT_NE(preset, nullptr) << id;
    return warpscope::kernelToJson(preset->kernel).dump();
}

TEST(ProbePerInstruction, TheOptionAddsEachAccessOwnCountsBesideTheHardware) {
    FakeBackend fake;
    const Served served =
        serveText(fake, request(1, "measure_kernel",
                                "\"kernel\":" + presetKernel("transpose-tiled") +
                                    ",\"options\":{\"per_instruction\":true,\"repetitions\":1}"));
    ASSERT_EQ(served.lines.back()["ok"], true) << served.text;
    EXPECT_TRUE(fake.lastKernelOptions.perInstruction);
    const json& live = served.lines.back()["result"]["perInstruction"];
    EXPECT_EQ(live["measured"], true);
    EXPECT_NE(live["source"].get<std::string>().find("fake"), std::string::npos);
    ASSERT_EQ(live["rows"].size(), 4u);
    EXPECT_EQ(live["rows"][2]["space"], "shared");
    EXPECT_EQ(live["rows"][2]["mapping"], "order");
    // The rows as the app reads them: the model equals the instruction, and the fake's
    // hardware counters equal both.
    auto rows = warpscope::perInstructionRowsFromJsonText(live["rows"].dump());
    ASSERT_TRUE(rows.ok()) << rows.error().describe();
    for (const warpscope::PerInstructionRow& row : rows.value()) {
        for (const warpscope::AccessCountComparison& count : row.counts) {
            EXPECT_TRUE(count.modelEqualsInstruction()) << row.access;
            EXPECT_EQ(count.hardwareExcess(), 0) << row.access;
        }
    }
    // The unpadded tile's shared load conflicts (a column of the tile falls in one bank).
    const json& conflicts = live["rows"][2]["instruction"]["conflicts"];
    EXPECT_EQ(conflicts, live["rows"][2]["predicted"]["conflicts"]);
    EXPECT_GT(conflicts.get<std::int64_t>(), 0);
}

TEST(ProbePerInstruction, WithoutTheOptionThereIsNoPerInstructionObject) {
    FakeBackend fake;
    const Served served =
        serveText(fake, request(1, "measure_kernel",
                                "\"kernel\":" + presetKernel("readoffset") + ",\"options\":{}"));
    ASSERT_EQ(served.lines.back()["ok"], true) << served.text;
    EXPECT_FALSE(served.lines.back()["result"].contains("perInstruction"));
    EXPECT_FALSE(fake.lastKernelOptions.perInstruction);
}

TEST(ProbePerInstruction, AWrongValueIsRefusedByName) {
    FakeBackend fake;
    const Served served =
        serveText(fake, request(1, "measure_kernel",
                                "\"kernel\":" + presetKernel("readoffset") +
                                    ",\"options\":{\"per_instruction\":\"yes\"}"));
    const json& answer = served.lines.back();
    EXPECT_EQ(answer["ok"], false);
    EXPECT_EQ(answer["error"]["code"], "bad_request");
    EXPECT_EQ(answer["error"]["where"], "/options/per_instruction");
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

} // namespace
