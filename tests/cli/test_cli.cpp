// warpscope-cli as a user and a script run it: a separate process, arguments on the command line,
// patterns on stdin, answers on stdout and stderr, and the exit status (docs/cli.md).
#include "warpscope/model.h"
#include "warpscope/preset.h"

#include "cli_run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using warpscope::clitest::CliRun;
using warpscope::clitest::readAll;
using warpscope::clitest::runCli;
using warpscope::clitest::shellQuote;

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        result.push_back(line);
    }
    return result;
}

bool containsRegex(const std::string& text, const std::string& pattern) {
    return std::regex_search(text, std::regex(pattern, std::regex::multiline));
}

/// A predict line with explicit addresses: lane i at base + i * stride.
std::string explicitLine(const std::string& space, const std::string& op, long stride,
                         long base = 0) {
    std::string line = R"({"space":")" + space + R"(","op":")" + op +
                       R"(","width":4,"cache":"default","addresses":[)";
    for (long lane = 0; lane < 32; ++lane) {
        line += (lane ? "," : "") + std::to_string(base + lane * stride);
    }
    return line + "]}\n";
}

// ---- help, version, usage errors -----------------------------------------------------------

TEST(Cli, HelpNamesEveryCommand) {
    for (const char* flag : {"--help", "help"}) {
        const CliRun run = runCli({flag});
        EXPECT_EQ(run.status, 0) << flag;
        for (const char* word : {"analyze", "predict", "presets", "--width", "--param", "Exit"}) {
            EXPECT_NE(run.out.find(word), std::string::npos) << flag << " lacks " << word;
        }
    }
}

TEST(Cli, VersionPrintsTheVersion) {
    const CliRun run = runCli({"--version"});
    EXPECT_EQ(run.status, 0);
    EXPECT_TRUE(containsRegex(run.out, R"(^warpscope-cli \d+\.\d+\.\d+)")) << run.out;
}

TEST(Cli, UsageMistakesExitTwo) {
    EXPECT_EQ(runCli({}).status, 2);
    EXPECT_EQ(runCli({"frobnicate"}).status, 2);
    const CliRun unknownOption = runCli({"analyze", "lane*4", "--colour"});
    EXPECT_EQ(unknownOption.status, 2);
    EXPECT_NE(unknownOption.err.find("--colour"), std::string::npos);
    const CliRun badWidth = runCli({"analyze", "lane*4", "--width", "3"});
    EXPECT_EQ(badWidth.status, 2);
    EXPECT_NE(badWidth.err.find("1, 2, 4, 8 or 16"), std::string::npos) << badWidth.err;
    EXPECT_EQ(runCli({"analyze"}).status, 2);
}

// ---- analyze -------------------------------------------------------------------------------

TEST(Cli, AnalyzePresetPrintsLanesAndTotals) {
    const auto& presets = warpscope::builtinPresets();
    ASSERT_FALSE(presets.empty()) << "resources/presets.json has no presets";
    const warpscope::Preset& preset = presets.front();
    const CliRun run = runCli({"analyze", preset.id});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find(preset.title), std::string::npos);
    EXPECT_TRUE(containsRegex(run.out, R"(^lane\s+.*address\s+hex\s+sector\s+line\s+bank)"))
        << run.out;
    for (int lane = 0; lane < 32; ++lane) {
        EXPECT_TRUE(containsRegex(run.out, "^ *" + std::to_string(lane) + "  ")) << lane;
    }
    EXPECT_NE(run.out.find("Modern model"), std::string::npos);
    EXPECT_NE(run.out.find("Textbook model"), std::string::npos);
}

TEST(Cli, AnalyzeExpressionCountsOneRequestFourSectors) {
    // 32 consecutive 4-byte words: one request, four sectors (seed 003, coalescing on 6.0+).
    const CliRun run = runCli({"analyze", "lane*4"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*requests\s+1\s)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*sectors\s+4\s)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*31\s+\(31,0,0\)\s+124\s+0x7c\s+3\s+0\s+31$)"))
        << "lane 31: address 124, sector 3, line 0, bank 31\n"
        << run.out;
    // Textbook: one 128-byte cached transaction (seed README, "aligned and coalesced").
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*transactions\s+1$)")) << run.out;
}

TEST(Cli, AnalyzeMatchesGoldenOutput) {
    // tests/data/cli/analyze_lane4.txt holds the whole output, compared byte for byte: it pins the
    // table layout a reader of docs/cli.md sees. Regenerate it when the layout changes on purpose:
    //   warpscope-cli analyze 'lane * 4' > tests/data/cli/analyze_lane4.txt
    const CliRun run = runCli({"analyze", "lane * 4"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.out, readAll(std::string(WARPSCOPE_TEST_DATA_DIR) + "/cli/analyze_lane4.txt"));
}

TEST(Cli, AnalyzeModelOptionSelectsTheModel) {
    const CliRun modern = runCli({"analyze", "lane*4", "--model", "modern"});
    ASSERT_EQ(modern.status, 0) << modern.err;
    EXPECT_NE(modern.out.find("Modern model"), std::string::npos);
    EXPECT_EQ(modern.out.find("Textbook model"), std::string::npos);
    const CliRun textbook = runCli({"analyze", "lane*4", "--model", "textbook"});
    ASSERT_EQ(textbook.status, 0) << textbook.err;
    EXPECT_EQ(textbook.out.find("Modern model"), std::string::npos);
    EXPECT_NE(textbook.out.find("Textbook model"), std::string::npos);
}

TEST(Cli, AnalyzeOptionsChangeTheAccess) {
    // Offset 11 words with L1 bypassed: five 32-byte segments, 80 % (seed 002, readSegment).
    const CliRun run = runCli(
        {"analyze", "(lane + o) * 4", "--param", "o=11", "--cache", "cg", "--model", "textbook"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*transactions\s+5$)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*efficiency\s+80\.0 %$)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*0\s+\(0,0,0\)\s+44\s+0x2c)")) << run.out;
}

TEST(Cli, AnalyzeSharedShowsWavefrontsAndInactiveLanes) {
    // A stride of 32 words puts every lane on bank 0: 32 wavefronts (seed 004, offset 32).
    const CliRun run = runCli({"analyze", "lane * 128", "--space", "shared", "--active",
                               "lane != 5", "--model", "modern"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(containsRegex(run.out, R"(^lane\s+.*bank\s+wavefront$)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*5\s+\(5,0,0\)\s+inactive$)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*wavefronts\s+31\s)")) << run.out;
}

TEST(Cli, AnalyzePatternFile) {
    const std::string path =
        std::string(WARPSCOPE_TEST_DATA_DIR) + "/files/good_pattern_inactive_lanes.json";
    const CliRun run = runCli({"analyze", path});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("Odd lanes inactive"), std::string::npos);
    EXPECT_TRUE(containsRegex(run.out, R"(^\s*1\s+inactive$)")) << run.out;

    const CliRun bad =
        runCli({"analyze", std::string(WARPSCOPE_TEST_DATA_DIR) + "/files/bad_width_3.json"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("/width"), std::string::npos) << bad.err;
}

TEST(Cli, BrokenExpressionNamesTheColumn) {
    const CliRun run = runCli({"analyze", "lane*4+"});
    EXPECT_EQ(run.status, 2);
    EXPECT_TRUE(run.out.empty()) << run.out;
    EXPECT_NE(run.err.find("column 8"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("not a preset id"), std::string::npos) << run.err;
    // The caret stands under column 8 of the echoed expression.
    const auto errLines = lines(run.err);
    bool caretFound = false;
    for (std::size_t i = 1; i < errLines.size(); ++i) {
        if (errLines[i - 1] == "  lane*4+" && errLines[i].rfind("         ^", 0) == 0) {
            caretFound = true;
        }
    }
    EXPECT_TRUE(caretFound) << run.err;
}

TEST(Cli, MisalignedAddressExitsTwoNamingTheLane) {
    const CliRun run = runCli({"analyze", "lane * 2"});
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find("lane 1"), std::string::npos) << run.err;
}

TEST(Cli, PresetsListsIdsByTopic) {
    const auto& presets = warpscope::builtinPresets();
    ASSERT_FALSE(presets.empty());
    const CliRun run = runCli({"presets"});
    ASSERT_EQ(run.status, 0) << run.err;
    for (const warpscope::Preset& preset : presets) {
        EXPECT_NE(run.out.find("  " + preset.id + " "), std::string::npos) << preset.id;
        EXPECT_TRUE(containsRegex(
            run.out,
            "^" + std::regex_replace(preset.topic, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                "$"))
            << preset.topic;
    }
}

// ---- predict -------------------------------------------------------------------------------

const char* const kLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";

TEST(Cli, PredictAnswersEveryLineAndGoesOnAfterABadOne) {
    const std::string good = explicitLine("global", "load", 4);
    const CliRun run = runCli({"predict"}, good + "{\"space\": \"global\", oops\n" + good);
    EXPECT_EQ(run.status, 1) << "a refused line makes the exit status 1 (docs/cli.md)";
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 3u) << run.out;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto answer = nlohmann::json::parse(out[i], nullptr, false);
        ASSERT_FALSE(answer.is_discarded()) << out[i];
        EXPECT_EQ(answer.at("line"), i + 1);
        if (i == 1) {
            ASSERT_TRUE(answer.contains("error")) << out[i];
            EXPECT_EQ(answer["error"]["code"], "file_format");
            EXPECT_FALSE(answer["error"]["message"].get<std::string>().empty());
        } else {
            ASSERT_TRUE(answer.contains("metrics")) << out[i];
            EXPECT_EQ(answer["metrics"].at(kLoadSectors), 4);
            EXPECT_EQ(answer["metrics"].at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 1);
            EXPECT_TRUE(answer["metrics"].contains("textbook__gld_transactions"));
        }
    }
}

TEST(Cli, PredictReportsAllEightCounters) {
    const CliRun run = runCli({"predict"}, explicitLine("global", "load", 4));
    EXPECT_EQ(run.status, 0);
    const auto answer = nlohmann::json::parse(run.out, nullptr, false);
    ASSERT_FALSE(answer.is_discarded()) << run.out;
    // The eight names, as the core's test of nsightCounterNames() fixes them.
    ASSERT_EQ(warpscope::nsightCounterNames().size(), 8U);
    for (const std::string& name : warpscope::nsightCounterNames()) {
        EXPECT_TRUE(answer["metrics"].contains(name)) << name;
    }
}

TEST(Cli, PredictSharedStoreUsesTheStoreNames) {
    // Lane i on word i: one wavefront, no conflict (seed 004). Lane i on word 32 i: every lane on
    // bank 0, a 32-way conflict.
    const CliRun run = runCli({"predict"}, explicitLine("shared", "store", 4) +
                                               explicitLine("shared", "store", 128));
    EXPECT_EQ(run.status, 0) << run.out;
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 2u) << run.out;
    const auto free = nlohmann::json::parse(out[0], nullptr, false);
    const auto conflict = nlohmann::json::parse(out[1], nullptr, false);
    ASSERT_TRUE(free.contains("metrics")) << out[0];
    ASSERT_TRUE(conflict.contains("metrics")) << out[1];
    EXPECT_EQ(free["metrics"].at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 1);
    EXPECT_EQ(free["metrics"].at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 0);
    EXPECT_EQ(free["metrics"].at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 0);
    EXPECT_EQ(conflict["metrics"].at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 32);
    EXPECT_GT(conflict["metrics"].at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
              0);
    EXPECT_EQ(conflict["metrics"].at("textbook__bank_conflict_degree"), 32);
}

TEST(Cli, PredictRefusesMisalignedAndNegativeAddresses) {
    const CliRun run = runCli({"predict"}, explicitLine("global", "load", 4, 2) +
                                               R"({"space":"global","op":"load","width":4,)"
                                               R"("addresses":[-4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,)"
                                               R"(0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]})"
                                               "\n");
    EXPECT_EQ(run.status, 1);
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 2u) << run.out;
    const auto misaligned = nlohmann::json::parse(out[0], nullptr, false);
    EXPECT_EQ(misaligned["error"]["code"], "misaligned") << out[0];
    EXPECT_EQ(misaligned["error"]["where"], "lane 0") << out[0];
    const auto negative = nlohmann::json::parse(out[1], nullptr, false);
    EXPECT_EQ(negative["error"]["where"], "/addresses/0") << out[1];
}

TEST(Cli, PredictAcceptsTheExpressionForm) {
    const CliRun run = runCli(
        {"predict"}, R"({"space":"global","op":"load","width":4,"source":{"address":"(lane+o)*4",)"
                     R"("parameters":[{"name":"o","value":8}]}})"
                     "\n"
                     R"({"space":"global","op":"load","width":4,"source":{"address":"lane*4+"}})"
                     "\n");
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 2u) << run.out;
    const auto good = nlohmann::json::parse(out[0], nullptr, false);
    EXPECT_EQ(good["metrics"].at(kLoadSectors), 4) << out[0];
    const auto bad = nlohmann::json::parse(out[1], nullptr, false);
    EXPECT_EQ(bad["error"]["code"], "syntax") << out[1];
    EXPECT_EQ(bad["error"]["column"], 8) << out[1];
}

TEST(Cli, PredictSkipsBlankLinesButCountsThem) {
    const CliRun run = runCli({"predict"}, "\n   \r\n" + explicitLine("global", "load", 4) + "\n");
    EXPECT_EQ(run.status, 0);
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 1u) << run.out;
    EXPECT_EQ(nlohmann::json::parse(out[0], nullptr, false)["line"], 3);
}

TEST(Cli, PredictAnswersAnOverlongLineWithAnError) {
    const std::string huge(2u * 1024u * 1024u, 'x');
    const CliRun run = runCli({"predict"}, huge + "\n" + explicitLine("global", "load", 4));
    EXPECT_EQ(run.status, 1);
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 2u) << run.out.substr(0, 400);
    const auto tooLong = nlohmann::json::parse(out[0], nullptr, false);
    EXPECT_TRUE(tooLong.contains("error")) << out[0];
    EXPECT_NE(tooLong["error"]["message"].get<std::string>().find("1 MiB"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(out[1], nullptr, false)["metrics"].at(kLoadSectors), 4);
}

TEST(Cli, PredictTextbookOptions) {
    // K40's default (L1 off): an aligned warp moves four 32-byte segments instead of one line.
    const CliRun cached = runCli({"predict"}, explicitLine("global", "load", 4));
    const CliRun uncached =
        runCli({"predict", "--textbook-uncached-default"}, explicitLine("global", "load", 4));
    const auto a = nlohmann::json::parse(cached.out, nullptr, false);
    const auto b = nlohmann::json::parse(uncached.out, nullptr, false);
    EXPECT_EQ(a["metrics"].at("textbook__gld_transactions"), 1) << cached.out;
    EXPECT_EQ(b["metrics"].at("textbook__gld_transactions"), 4) << uncached.out;
    EXPECT_EQ(runCli({"predict", "--textbook-bank-mode", "5"}).status, 2);
    EXPECT_EQ(runCli({"predict", "--textbook-bank-mode", "8"}).status, 0);
}

} // namespace

namespace {

// ---- Kernels -------------------------------------------------------------------------------

// The issue's line: a 2048 x 2048 transpose reading columns and storing rows.
const std::string kTransposeLine =
    R"({"grid": [128, 128, 1], "block": [16, 16, 1], "parameters": {"nx": 2048, "ny": 2048}, )"
    R"("buffers": [{"name": "in", "bytes": 16777216}, {"name": "out", "bytes": 16777216}], )"
    R"("accesses": [{"op": "load", "space": "global", "width": 4, "buffer": "in", )"
    R"("cache": "default", "address": "((bid.x * bdim.x + tid.x) * ny + (bid.y * bdim.y + )"
    R"(tid.y)) * 4", "active": "(bid.x * bdim.x + tid.x) < nx && (bid.y * bdim.y + tid.y) < ny"}, )"
    R"({"op": "store", "space": "global", "width": 4, "buffer": "out", "cache": "default", )"
    R"("address": "((bid.y * bdim.y + tid.y) * nx + (bid.x * bdim.x + tid.x)) * 4", )"
    R"("active": "(bid.x * bdim.x + tid.x) < nx && (bid.y * bdim.y + tid.y) < ny"}]})"
    "\n";

TEST(Cli, PredictKernelAnswersEveryLineAndGoesOnAfterABadOne) {
    const std::string bad =
        R"({"buffers": [{"name": "a", "bytes": 64}], "accesses": [{"op": "load", "buffer": "a", )"
        R"("width": 3, "address": "0"}]})"
        "\n";
    const std::string outOfBounds =
        R"({"buffers": [{"name": "a", "bytes": 64}], "accesses": [{"op": "load", "buffer": "a", )"
        R"("width": 4, "address": "lane * 4"}]})"
        "\n";
    const CliRun run = runCli({"predict-kernel"},
                              kTransposeLine + bad + outOfBounds + "not json\n" + kTransposeLine);
    EXPECT_EQ(run.status, 1) << run.err;
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 5u) << run.out;
    for (std::size_t i : {0u, 4u}) {
        const auto answer = nlohmann::json::parse(out[i], nullptr, false);
        ASSERT_FALSE(answer.is_discarded()) << out[i];
        EXPECT_EQ(answer.at("line"), i + 1);
        const auto& metrics = answer.at("metrics");
        EXPECT_EQ(metrics.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 131072);
        EXPECT_EQ(metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 131072 * 16);
        EXPECT_EQ(metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 524288);
        EXPECT_EQ(metrics.at("dram__bytes_read.sum"), 16777216);
        EXPECT_TRUE(metrics.contains("lts__t_sectors_srcunit_tex_op_read.sum"));
        EXPECT_TRUE(metrics.contains("lts__t_sectors_srcunit_tex_op_write.sum"));
        EXPECT_EQ(metrics.at("warpscope__bytes_requested"), 33554432);
        ASSERT_EQ(answer.at("accesses").size(), 2u);
    }
    const auto badAnswer = nlohmann::json::parse(out[1], nullptr, false);
    EXPECT_EQ(badAnswer.at("error").at("where"), "/accesses/0/width");
    const auto oob = nlohmann::json::parse(out[2], nullptr, false);
    EXPECT_EQ(oob.at("error").at("code"), "out_of_bounds");
    EXPECT_NE(oob.at("error").at("where").get<std::string>().find("thread (16, 0, 0)"),
              std::string::npos)
        << out[2];
    const auto notJson = nlohmann::json::parse(out[3], nullptr, false);
    EXPECT_EQ(notJson.at("error").at("code"), "file_format");
}

TEST(Cli, PredictKernelSkipsBlankLinesAndAnswersOverlongAndBrokenOnes) {
    const std::string huge(2u * 1024u * 1024u, 'x');
    const CliRun run =
        runCli({"predict-kernel"}, "\n" + huge + "\n{\"accesses\": [}\n" + kTransposeLine);
    EXPECT_EQ(run.status, 1) << run.err;
    const auto out = lines(run.out);
    ASSERT_EQ(out.size(), 3u) << run.out.substr(0, 400);
    const auto tooLong = nlohmann::json::parse(out[0], nullptr, false);
    EXPECT_EQ(tooLong.at("line"), 2) << out[0];
    EXPECT_NE(
        tooLong.at("error").at("message").get<std::string>().find("the most predict-kernel reads"),
        std::string::npos)
        << out[0];
    // The line is the reader's whole text: its place is a column, not "line 1, column 14".
    const auto broken = nlohmann::json::parse(out[1], nullptr, false);
    EXPECT_EQ(broken.at("line"), 3) << out[1];
    EXPECT_EQ(broken.at("error").at("where").get<std::string>().rfind("column ", 0), 0u) << out[1];
    const auto good = nlohmann::json::parse(out[2], nullptr, false);
    EXPECT_EQ(good.at("line"), 4) << out[2];
    EXPECT_TRUE(good.contains("metrics")) << out[2];
}

TEST(Cli, PredictKernelTakesAPresetAndParameters) {
    const CliRun run =
        runCli({"predict-kernel", "--preset", "readsegment", "--param", "offset=11"});
    EXPECT_EQ(run.status, 0) << run.err;
    const auto answer = nlohmann::json::parse(run.out, nullptr, false);
    ASSERT_FALSE(answer.is_discarded()) << run.out;
    EXPECT_EQ(answer["metrics"].at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
              2 * (32767 * 5 + 3));
    const CliRun unknown = runCli({"predict-kernel", "--preset", "no-such"});
    EXPECT_EQ(unknown.status, 2);
    EXPECT_NE(unknown.err.find("no kernel preset"), std::string::npos);
    const CliRun badParam = runCli({"predict-kernel", "--preset", "readsegment", "--param", "k=1"});
    EXPECT_EQ(badParam.status, 2);
    EXPECT_NE(badParam.err.find("offset"), std::string::npos) << badParam.err;
}

TEST(Cli, AnalyzeKernelPrintsATablePerAccess) {
    const CliRun run = runCli({"analyze-kernel", "transpose-tiled"});
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(containsRegex(run.out, R"(^Access 2 \(load tile\[tid.x\]\[tid.y\]\): shared load)"))
        << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(wavefronts +4,194,304)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(warps by wavefronts: 32\+: 131,072)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(^Shared memory: 4,096 bytes per block)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(dram__bytes_read.sum +16,777,216)")) << run.out;
}

TEST(Cli, AnalyzeKernelNamesSectorsWrittenInPart) {
    // NaiveRow's column stores write every output sector in parts; NaiveCol's rows write whole
    // sectors, and its DRAM line names no fills.
    CliRun run =
        runCli({"analyze-kernel", "transpose-naiverow", "--param", "nx=256", "--param", "ny=256"});
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(containsRegex(run.out, R"(^  out +0 +8,192 +0 +32,768 +8,192$)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(warpscope__sectors_written_in_part +8,192)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(^DRAM read of a cold launch: at least the footprint, )"
                                       R"(262,144 bytes, plus DRAM fills .*262,144 bytes if each)"))
        << run.out;
    // Completed inside each block: the fill rule predicts none.
    EXPECT_TRUE(containsRegex(run.out, R"(\(predicted: 0 bytes, by a rule)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(warpscope__sectors_filled +0$)")) << run.out;
    run =
        runCli({"analyze-kernel", "transpose-naivecol", "--param", "nx=256", "--param", "ny=256"});
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(containsRegex(run.out, R"(warpscope__sectors_written_in_part +0$)")) << run.out;
    EXPECT_TRUE(containsRegex(run.out, R"(^DRAM read of a cold launch: at least the footprint, )"
                                       R"(262,144 bytes$)"))
        << run.out;
}

TEST(Cli, AnalyzeKernelReadsAFileAndRefusesNonsense) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("warpscope_kernel_" + std::to_string(::getpid()) + ".json");
    {
        std::ofstream file(path);
        file << kTransposeLine;
    }
    const CliRun run = runCli({"analyze-kernel", path.string(), "--param", "nx=1024"});
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_TRUE(containsRegex(run.out, R"(active threads +2,097,152)")) << run.out;
    std::filesystem::remove(path);
    const CliRun missing = runCli({"analyze-kernel", "/no/such/kernel.json"});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("neither a kernel preset"), std::string::npos);
    const CliRun none = runCli({"analyze-kernel"});
    EXPECT_EQ(none.status, 2);
}

TEST(Cli, KernelsListsThePresets) {
    const CliRun run = runCli({"kernels"});
    EXPECT_EQ(run.status, 0);
    for (const char* id : {"readoffset", "writeoffset-cg", "transpose-unroll4col-cg",
                           "transpose-tiled-padded", "aos-testinnerstruct"}) {
        EXPECT_TRUE(containsRegex(run.out, std::string("^  ") + id + " ")) << id;
    }
}

} // namespace
