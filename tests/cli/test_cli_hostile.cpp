// warpscope-cli against hostile input (issue 30), run as a process: a launch of 2^31 x 1024
// threads, a grid written as `1 << 30` and a 2^40-byte buffer are answered at once on their own
// line (the next stdin line answered), a FIFO or a device as a file argument is refused without
// blocking, and titles reach the terminal without control characters.
#include "cli_run.h"

#include "../scratch_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

using warpscope::clitest::CliRun;
using warpscope::clitest::readAll;
using warpscope::clitest::runCli;

using warpscope::testsupport::ScratchDir;

std::vector<nlohmann::json> jsonLines(const std::string& text) {
    std::vector<nlohmann::json> result;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        result.push_back(nlohmann::json::parse(line, nullptr, false));
    }
    return result;
}

std::string kernelLine(const std::string& grid, const std::string& block, const std::string& bytes,
                       const std::string& op = "load") {
    return R"({"grid": [)" + grid + R"(, 1, 1], "block": [)" + block +
           R"(, 1, 1], "buffers": [{"name": "data", "bytes": )" + bytes +
           R"(}], "accesses": [{"op": ")" + op +
           R"(", "space": "global", "width": 4, "buffer": "data", "address": "lane * 4"}]})";
}

const std::string kHugeLaunch = kernelLine("2147483647", "1024", "4096");
const std::string kShiftedGrid = R"({"grid": ["1 << 30", 1, 1], "block": [32, 1, 1], )"
                                 R"("buffers": [{"name": "data", "bytes": 4096}], "accesses": )"
                                 R"([{"op": "load", "space": "global", "width": 4, )"
                                 R"("buffer": "data", "address": "lane * 4"}]})";
const std::string kHugeBuffer = kernelLine("1", "32", "1099511627776", "store");
const std::string kNormal = kernelLine("4", "32", "4096");

TEST(CliHostile, PredictKernelRefusesHugeWorkAndAnswersTheNextLine) {
    const CliRun run = runCli({"predict-kernel"}, kHugeLaunch + "\n" + kShiftedGrid + "\n" +
                                                      kHugeBuffer + "\n" + kNormal + "\n");
    EXPECT_LT(run.seconds, 2.0) << "the budget refuses before any walk";
    const auto answers = jsonLines(run.out);
    ASSERT_EQ(answers.size(), 4u) << run.out << run.err;
    for (std::size_t i : {0u, 1u}) {
        ASSERT_TRUE(answers[i].contains("error")) << answers[i].dump();
        EXPECT_EQ(answers[i]["error"]["code"], "over_budget") << answers[i].dump();
        EXPECT_NE(answers[i]["error"]["message"].get<std::string>().find("limit of 4294967296"),
                  std::string::npos)
            << answers[i].dump();
    }
    // The 2^40-byte buffer touched by one warp is answered, not refused nor out of memory.
    EXPECT_FALSE(answers[2].contains("error")) << answers[2].dump();
    EXPECT_TRUE(answers[2].contains("metrics")) << answers[2].dump();
    EXPECT_FALSE(answers[3].contains("error")) << answers[3].dump();
    EXPECT_EQ(answers[3]["line"], 4);
}

TEST(CliHostile, AnalyzeKernelRefusesAHugeLaunchNamingTheLimit) {
    ScratchDir dir("warpscope-cli-hostile");
    const std::string path = dir.file("huge.json");
    std::ofstream(path) << kHugeLaunch;
    const CliRun run = runCli({"analyze-kernel", path});
    EXPECT_LT(run.seconds, 2.0);
    EXPECT_NE(run.status, 0);
    EXPECT_NE(run.err.find("2199023254528 thread-accesses"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("WARPSCOPE_GRID_WORK_LIMIT"), std::string::npos) << run.err;
}

TEST(CliHostile, SpecialFilesAsArgumentsAreRefusedWithoutBlocking) {
    ScratchDir dir("warpscope-cli-hostile");
    const std::string fifo = dir.file("kernel.json");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const auto& [command, path, what] :
         std::vector<std::tuple<std::string, std::string, std::string>>{
             {"analyze-kernel", fifo, "FIFO"},
             {"analyze-kernel", "/dev/zero", "character device"},
             {"analyze", fifo, "FIFO"},
             {"analyze", "/dev/zero", "character device"}}) {
        const CliRun run = runCli({command, path});
        EXPECT_LT(run.seconds, 2.0) << command << " " << path;
        EXPECT_NE(run.status, 0) << command << " " << path;
        EXPECT_NE(run.err.find(what), std::string::npos) << command << " " << run.err;
    }
}

TEST(CliHostile, TitlesReachTheTerminalWithoutControlCharacters) {
    ScratchDir dir("warpscope-cli-hostile");
    const std::string path = dir.file("pattern.json");
    std::ofstream(path) << R"({"format": "warpscope-pattern", "version": 1,
 "title": "Stride \u001b]0;owned\u0007 \u001b[2J", "caption": "cap\u001b[31m",
 "space": "global", "op": "load", "width": 4, "source": {"address": "lane * 8"}})";
    const CliRun run = runCli({"analyze", path});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.out.find('\x1b'), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find('\x07'), std::string::npos);
    EXPECT_NE(run.out.find("Stride \\x1b]0;owned\\x07 \\x1b[2J"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("cap\\x1b[31m"), std::string::npos) << run.out;

    // A kernel name with an escape is refused by the reader; the message is escaped too.
    const std::string kernelPath = dir.file("kernel.json");
    std::ofstream(kernelPath)
        << R"({"name": "k\u001b[2J", "buffers": [{"name": "data", "bytes": 4096}],
 "accesses": [{"op": "load", "space": "global", "width": 4, "buffer": "data", "address": "lane * 4"}]})";
    const CliRun named = runCli({"analyze-kernel", kernelPath});
    EXPECT_NE(named.status, 0);
    EXPECT_EQ(named.err.find('\x1b'), std::string::npos) << named.err;
    EXPECT_NE(named.err.find("cannot be a kernel name"), std::string::npos) << named.err;
}

} // namespace
