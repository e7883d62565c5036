// warpscope-cli trace-summary as a user runs it, on traces recorded on an H200
// (tests/data/traces): the per-instruction lines, worst first, the --json form a script reads,
// incomplete traces, and bad files refused with a message and exit status 2.
#include "cli_run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>

namespace {

const std::string kTraces = std::string(WARPSCOPE_TEST_DATA_DIR) + "/traces/";

using warpscope::clitest::CliRun;
using warpscope::clitest::runCli;

std::string line(const std::string& text, std::size_t index) {
    std::istringstream in(text);
    std::string current;
    for (std::size_t i = 0; i <= index && std::getline(in, current); ++i) {
    }
    return current;
}

} // namespace

TEST(CliTraceSummary, ListsInstructionsWorstFirstWithNsightNames) {
    const CliRun run = runCli({"trace-summary", kTraces + "sample_transpose.wstrace"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(line(run.out, 2), "launch 0: transpose(float const*, float*, int)");
    EXPECT_EQ(line(run.out, 3), "  grid 2,2,1  block 32,8,1  complete");
    // The column read of the 32 x 32 tile: every lane in bank 0, 32 wavefronts a request.
    EXPECT_EQ(line(run.out, 4),
              "  0x16c0  shared load    4 B  warps 32  wavefronts/request 32.00  "
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum=1024  "
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum=992  | LDS R11, [R0+-0x40]"
              "  | /work/wt/trace/scripts/gpu/trace_sample.cu:36");
    // The row-wise shared stores come last: one wavefront each.
    EXPECT_NE(line(run.out, 19).find("shared store   4 B  warps 32  wavefronts/request 1.00"),
              std::string::npos)
        << line(run.out, 19);
}

TEST(CliTraceSummary, JsonGivesEachInstructionsCountersForScripts) {
    const CliRun run = runCli({"trace-summary", kTraces + "sample_strided.wstrace", "--json"});
    ASSERT_EQ(run.status, 0) << run.err;
    const auto root = nlohmann::json::parse(run.out);
    const auto& launch = root["launches"].at(0);
    EXPECT_EQ(launch["kernel"], "strided(float const*, float*)");
    EXPECT_EQ(launch["complete"], true);
    const auto& worst = launch["instructions"].at(0);
    EXPECT_EQ(worst["op"], "load");
    EXPECT_EQ(worst["pc"], 0xa0);
    EXPECT_EQ(worst["warps"], 8);
    EXPECT_EQ(worst["sectors_per_request"], 16.0); // in[i * 4]: 16-byte stride, two lanes a sector
    EXPECT_EQ(worst["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 128.0);
    EXPECT_EQ(worst["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 8.0);
    EXPECT_EQ(launch["instructions"].at(1)["sectors_per_request"], 4.0);
}

TEST(CliTraceSummary, IncompleteTracesSayWhy) {
    const CliRun full = runCli({"trace-summary", kTraces + "sample_full.wstrace"});
    ASSERT_EQ(full.status, 0) << full.err;
    EXPECT_EQ(line(full.out, 3),
              "  grid 32,1,1  block 128,1,1  INCOMPLETE (248 warp records dropped: buffer full)");
    const CliRun fault = runCli({"trace-summary", kTraces + "sample_fault.wstrace"});
    ASSERT_EQ(fault.status, 0) << fault.err;
    EXPECT_EQ(line(fault.out, 3), "  grid 4,1,1  block 128,1,1  INCOMPLETE");
    EXPECT_EQ(line(fault.out, 4), "  no traced memory instruction");
}

TEST(CliTraceSummary, BadFilesAndUsageAreRefusedWithAMessage) {
    const CliRun missing = runCli({"trace-summary", "/nonexistent/x.wstrace"});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("/nonexistent/x.wstrace"), std::string::npos) << missing.err;
    EXPECT_NE(missing.err.find("cannot read the trace file"), std::string::npos) << missing.err;

    const auto bad = std::filesystem::temp_directory_path() /
                     ("warpscope_bad_" + std::to_string(::getpid()) + ".wstrace");
    {
        std::ofstream out(bad);
        out << "{\"format\": \"warpscope-pattern\"}";
    }
    const CliRun notTrace = runCli({"trace-summary", bad.string()});
    std::filesystem::remove(bad);
    EXPECT_EQ(notTrace.status, 2);
    EXPECT_NE(notTrace.err.find("byte 0: not a warpscope trace"), std::string::npos)
        << notTrace.err;

    EXPECT_EQ(runCli({"trace-summary"}).status, 2);
    const CliRun option = runCli({"trace-summary", "--csv", "x.wstrace"});
    EXPECT_EQ(option.status, 2);
    EXPECT_NE(option.err.find("unknown option '--csv' for trace-summary"), std::string::npos);
}
