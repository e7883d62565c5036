// warpscope-cli tma-layout as a user runs it (docs/cli.md): the JSON of issue 31's example
// against the shared memory an H200 held for that load, and bad options named with their rule.
#include "cli_run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

using warpscope::clitest::CliRun;

CliRun runTmaLayout(std::vector<std::string> args) {
    args.insert(args.begin(), "tma-layout");
    return warpscope::clitest::runCli(args);
}

/// The recorded H200 dump of one load (tests/data/tma_layout_h200.jsonl).
json recordedLoad(const std::string& mode, int elementBytes, int inner, int rows, int offset) {
    std::ifstream in(std::string(WARPSCOPE_TEST_DATA_DIR) + "/tma_layout_h200.jsonl");
    for (std::string line; std::getline(in, line);) {
        const json row = json::parse(line);
        if (row.value("mode", "") == mode && row.value("element_bytes", 0) == elementBytes &&
            row.at("box") == json::array({inner, rows}) && row.value("smem_offset", -1) == offset &&
            row.at("coords") == json::array({0, 0})) {
            return row;
        }
    }
    return json();
}

TEST(CliTma, IssueExamplePrintsTheChunksTheH200Wrote) {
    const CliRun run = runTmaLayout(
        {"--swizzle", "128B", "--box", "64x16", "--element-bytes", "2", "--smem-offset", "384"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(run.err.empty()) << run.err;
    const json out = json::parse(run.out);
    ASSERT_TRUE(out.is_object());
    EXPECT_EQ(out.size(), 1u) << "only \"chunks\"";
    const json& chunks = out.at("chunks");
    ASSERT_EQ(chunks.size(), 128u); // 16 rows of 128 bytes
    // Line 3 of the 1024-byte swizzle pattern: chunk k of row 0 holds bytes 16 (k ^ 3).
    EXPECT_EQ(chunks.at(0), json::array({0, 48}));
    EXPECT_EQ(chunks.at(3), json::array({0, 0}));
    EXPECT_EQ(chunks.at(4), json::array({0, 112}));
    // The dump's window starts at shared address 2048, a multiple of 1024, so its offset 384
    // has the same swizzle bits as the address 384.
    const json recorded = recordedLoad("128B", 2, 64, 16, 384);
    ASSERT_FALSE(recorded.is_null()) << "the H200 dump of this load is missing";
    ASSERT_EQ(recorded.at("smem_base").get<int>() % 1024, 0);
    ASSERT_EQ(recorded.at("first_chunk"), 0);
    EXPECT_EQ(chunks, recorded.at("chunks"));
}

TEST(CliTma, ChunksTheLoadSkipsAreNull) {
    // 16-byte rows in the 32B mode each take a 32-byte line; at address 128 bit 7 is set, so
    // each row's chunk lands in the second half of its line.
    const CliRun run = runTmaLayout(
        {"--swizzle", "32B", "--box", "16x2", "--element-bytes", "1", "--smem-offset", "128"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(json::parse(run.out), json::parse(R"({"chunks":[null,[0,0],null,[1,0]]})"));
    const json recorded = recordedLoad("32B", 1, 16, 8, 128);
    ASSERT_FALSE(recorded.is_null());
    EXPECT_EQ(recorded.at("first_chunk"), 16);
    EXPECT_EQ(recorded.at("chunks").at(0), json::array({0, 0}));
    EXPECT_EQ(recorded.at("chunks").at(1), json::array({-1, -1}));
}

struct BadCase {
    std::vector<std::string> args;
    const char* says;
};

TEST(CliTma, BadInputNamesTheOptionAndTheRule) {
    const BadCase cases[] = {
        {{"--swizzle", "128B", "--box", "128x16", "--element-bytes", "2"},
         "--box: the box's inner dimension is 256 bytes, wider than the 128B swizzle span"},
        {{"--swizzle", "64B", "--box", "64x8", "--element-bytes", "2"},
         "a swizzled box row may be at most 64 bytes (32 elements of 2 bytes)"},
        {{"--swizzle", "128B", "--box", "64x16", "--element-bytes", "2", "--smem-offset", "400"},
         "--smem-offset: shared-memory destination 400 is not a multiple of 128"},
        {{"--swizzle", "128B_ATOM_32B", "--box", "64x8", "--element-bytes", "2"},
         "--swizzle: swizzle 128B_ATOM_32B is a CUDA 12.8 mode of compute capability 10.0"},
        {{"--swizzle", "128b", "--box", "64x8", "--element-bytes", "2"},
         "--swizzle: '128b' is not a swizzle mode"},
        {{"--swizzle", "none", "--box", "8x2", "--element-bytes", "3"},
         "--element-bytes: element size 3 bytes is not a TMA element size"},
        {{"--swizzle", "none", "--box", "6x2", "--element-bytes", "2"},
         "--box: the box's inner dimension is 12 bytes"},
        {{"--swizzle", "none", "--box", "64", "--element-bytes", "2"},
         "--box: '64' is not INNERxROWS"},
        {{"--swizzle", "none", "--box", "64x300", "--element-bytes", "2"}, "from 1 to 256"},
        {{"--swizzle", "none", "--box", "64x8", "--element-bytes", "2", "--smem-offset", "-128"},
         "--smem-offset: '-128' is not a shared-memory address"},
        {{"--box", "64x8", "--element-bytes", "2"}, "needs --swizzle"},
        {{"--swizzle", "none", "--box", "64x8", "--element-bytes", "2", "--rows", "3"},
         "unknown argument '--rows'"},
        {{"--swizzle"}, "the option --swizzle needs a value"},
    };
    for (const BadCase& c : cases) {
        const CliRun run = runTmaLayout(c.args);
        EXPECT_EQ(run.status, 2) << c.says;
        EXPECT_TRUE(run.out.empty()) << c.says << ": " << run.out;
        EXPECT_NE(run.err.find(c.says), std::string::npos) << run.err;
    }
}

} // namespace
