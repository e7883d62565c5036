// warpscope-cli with ldmatrix and stmatrix patterns, run as a process: `predict` takes the form of
// docs/cli.md and answers under Nsight Compute's names; bad fields are answered with errors naming
// the field and the rule; `analyze` says the textbook model does not count them.
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

using warpscope::clitest::runCli;

std::vector<nlohmann::json> answers(const std::string& out) {
    std::vector<nlohmann::json> result;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        result.push_back(nlohmann::json::parse(line));
    }
    return result;
}

/// A pattern line; `rows` gives lanes 0.. their addresses, the rest null.
std::string line(const std::string& space, const std::string& op, int matrices, int width,
                 const std::vector<long long>& rows) {
    nlohmann::json addresses = nlohmann::json::array();
    for (std::size_t lane = 0; lane < 32; ++lane) {
        addresses.push_back(lane < rows.size() ? nlohmann::json(rows[lane])
                                               : nlohmann::json(nullptr));
    }
    return R"({"space":")" + space + R"(","op":")" + op + R"(","matrices":)" +
           std::to_string(matrices) + R"(,"transpose":false,"width":)" + std::to_string(width) +
           R"(,"addresses":)" + addresses.dump() + "}\n";
}

std::vector<long long> rowMajor(int rows, long long rowBytes) {
    // Matrix i is the 16-byte column i of a tile whose rows are rowBytes apart.
    std::vector<long long> out;
    for (int lane = 0; lane < rows; ++lane) {
        out.push_back((lane % 8) * rowBytes + (lane / 8) * 16);
    }
    return out;
}

TEST(CliLdmatrix, PredictAnswersUnderTheNsightComputeNames) {
    const warpscope::clitest::CliRun run =
        runCli({"predict"}, line("shared", "ldmatrix", 4, 16, rowMajor(32, 128)) +
                                line("shared", "stmatrix", 4, 16, rowMajor(32, 144)));
    EXPECT_EQ(run.status, 0) << run.out;
    const auto got = answers(run.out);
    ASSERT_EQ(got.size(), 2u) << run.out;
    // A row-major tile of 128-byte rows: the 8 rows of each matrix in one bank group, 8-way.
    const auto& load = got[0]["metrics"];
    EXPECT_EQ(load["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 32);
    EXPECT_EQ(load["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], 28);
    EXPECT_EQ(load["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], 0);
    EXPECT_EQ(load["smsp__inst_executed_op_ldsm.sum"], 1);
    EXPECT_NE(got[0]["textbook"].get<std::string>().find("not in the notes' era"),
              std::string::npos);
    // Padded to 144 bytes: conflict-free, counted as stores.
    const auto& store = got[1]["metrics"];
    EXPECT_EQ(store["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], 4);
    EXPECT_EQ(store["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"], 0);
    EXPECT_EQ(store["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 0);
    EXPECT_EQ(store["smsp__inst_executed_op_ldsm.sum"], 0);
}

TEST(CliLdmatrix, BadFieldsAreAnsweredWithTheFieldAndTheRule) {
    std::vector<long long> unaligned = rowMajor(8, 128);
    unaligned[5] = 8;
    const warpscope::clitest::CliRun run =
        runCli({"predict"}, line("shared", "ldmatrix", 3, 16, rowMajor(24, 128)) +
                                line("global", "ldmatrix", 1, 16, rowMajor(8, 128)) +
                                line("shared", "ldmatrix", 1, 8, rowMajor(8, 128)) +
                                line("shared", "stmatrix", 1, 16, unaligned));
    EXPECT_EQ(run.status, 1) << run.out;
    const auto got = answers(run.out);
    ASSERT_EQ(got.size(), 4u) << run.out;
    const char* where[] = {"/matrices", "/space", "/width", "lane 5"};
    const char* rule[] = {"1, 2 or 4", "\"shared\"", "width must be 16", "16-byte aligned"};
    for (std::size_t i = 0; i < got.size(); ++i) {
        ASSERT_TRUE(got[i].contains("error")) << got[i].dump();
        EXPECT_EQ(got[i]["error"]["where"], where[i]) << got[i].dump();
        EXPECT_NE(got[i]["error"]["message"].get<std::string>().find(rule[i]), std::string::npos)
            << got[i].dump();
    }
}

TEST(CliLdmatrix, AnalyzeShowsThePhasesAndTheTextbookAnswer) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("warpscope_cli_ldmatrix_" + std::to_string(::getpid()) + ".json");
    {
        std::ofstream out(path);
        out << line("shared", "ldmatrix", 2, 16, rowMajor(16, 32));
    }
    const warpscope::clitest::CliRun run = runCli({"analyze", path.string()});
    std::filesystem::remove(path);
    EXPECT_EQ(run.status, 0) << run.out;
    EXPECT_NE(run.out.find("ldmatrix .x2"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("smsp__inst_executed_op_ldsm.sum"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("not in the notes' era"), std::string::npos) << run.out;
}

} // namespace
