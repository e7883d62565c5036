// ldmatrix and stmatrix: the modern model against every row measured on an H200 (the designed set
// and the held-out set, tests/data/ldmatrix_*_h200.jsonl, scripts/hw/measure_ldmatrix.sh), the
// pattern fields and their errors, and the textbook model's "not in the notes' era" answer.
#include "warpscope/file_format.h"
#include "warpscope/matrix_access.h"
#include "warpscope/model.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace warpscope;

struct MeasuredTable {
    nlohmann::json header;
    std::vector<std::string> lines; // rows as written
};

MeasuredTable readTable(const std::string& path) {
    MeasuredTable table;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) {
            continue;
        }
        if (table.header.is_null()) {
            table.header = nlohmann::json::parse(line, nullptr, false);
        } else {
            table.lines.push_back(line);
        }
    }
    return table;
}

/// The counters each table row holds that the model predicts.
const std::vector<std::string>& predictedCounters() {
    static const std::vector<std::string> names = {
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        kLdsmInstructionsMetric,
    };
    return names;
}

/// Every row of a table, counter for counter; returns how many rows disagreed.
int checkTable(const MeasuredTable& table) {
    int mismatched = 0;
    for (const std::string& line : table.lines) {
        const auto row = nlohmann::json::parse(line);
        const std::string name = row.value("name", "unnamed");
        auto named = patternFromJsonText(line);
        if (!named.ok()) {
            ADD_FAILURE() << name << ": " << named.error().describe();
            ++mismatched;
            continue;
        }
        auto access = resolve(named->pattern);
        if (!access.ok()) {
            ADD_FAILURE() << name << ": " << access.error().describe();
            ++mismatched;
            continue;
        }
        std::map<std::string, double> predicted;
        for (const Metric& metric : modernMetrics(predictModern(access.value()))) {
            predicted[metric.name] = metric.value;
        }
        bool agrees = true;
        for (const std::string& counter : predictedCounters()) {
            if (!row["measured"].contains(counter) || !predicted.count(counter)) {
                ADD_FAILURE() << name << ": " << counter << " is missing";
                agrees = false;
                continue;
            }
            const double measured = row["measured"][counter].get<double>();
            if (predicted[counter] != measured) {
                ADD_FAILURE() << name << ": " << counter << " predicted " << predicted[counter]
                              << ", measured " << measured;
                agrees = false;
            }
        }
        mismatched += agrees ? 0 : 1;
    }
    return mismatched;
}

TEST(LdmatrixTable, DesignedSetHeaderNamesTheH200DriverAndTools) {
    const MeasuredTable table = readTable(WARPSCOPE_TEST_DATA_DIR "/ldmatrix_designed_h200.jsonl");
    ASSERT_TRUE(table.header.is_object());
    EXPECT_EQ(table.header.value("format", ""), "warpscope-ldmatrix-table");
    EXPECT_EQ(table.header.value("gpu", ""), "NVIDIA H200");
    EXPECT_EQ(table.header.value("computeCapability", ""), "9.0");
    EXPECT_FALSE(table.header.value("driver", "").empty());
    EXPECT_FALSE(table.header.value("ncu", "").empty());
    EXPECT_TRUE(table.header.value("memcheckClean", false));
    EXPECT_EQ(table.lines.size(), 260u);
}

TEST(LdmatrixTable, ModernModelMatchesEveryRowOfTheDesignedSet) {
    const MeasuredTable table = readTable(WARPSCOPE_TEST_DATA_DIR "/ldmatrix_designed_h200.jsonl");
    ASSERT_FALSE(table.lines.empty());
    EXPECT_EQ(checkTable(table), 0);
}

TEST(LdmatrixTable, ModernModelMatchesEveryRowOfTheHeldOutSet) {
    const MeasuredTable table =
        readTable(WARPSCOPE_TEST_DATA_DIR "/ldmatrix_validation_h200.jsonl");
    ASSERT_TRUE(table.header.is_object());
    EXPECT_EQ(table.header.value("gpu", ""), "NVIDIA H200");
    EXPECT_TRUE(table.header.value("memcheckClean", false));
    ASSERT_EQ(table.lines.size(), 72u);
    EXPECT_EQ(checkTable(table), 0);
}

/// An ldmatrix / stmatrix pattern line with `rows` row addresses and the rest null.
std::string matrixLine(const std::string& op, int matrices, const std::vector<long long>& rows,
                       const std::string& extra = "") {
    nlohmann::json addresses = nlohmann::json::array();
    for (int lane = 0; lane < kWarpSize; ++lane) {
        addresses.push_back(lane < static_cast<int>(rows.size())
                                ? nlohmann::json(rows[static_cast<std::size_t>(lane)])
                                : nlohmann::json(nullptr));
    }
    return R"({"space":"shared","op":")" + op + R"(","matrices":)" + std::to_string(matrices) +
           extra + R"(,"transpose":false,"width":16,"addresses":)" + addresses.dump() + "}";
}

std::vector<long long> strided(int rows, long long stride) {
    std::vector<long long> out;
    for (int r = 0; r < rows; ++r) {
        out.push_back(r * stride);
    }
    return out;
}

WarpAccess resolved(const std::string& line) {
    auto named = patternFromJsonText(line);
    EXPECT_TRUE(named.ok()) << (named.ok() ? "" : named.error().describe());
    auto access = resolve(named->pattern);
    EXPECT_TRUE(access.ok()) << (access.ok() ? "" : access.error().describe());
    return access.value();
}

TEST(LdmatrixModel, EachMatrixIsOnePhaseAndCollidingRowsAddWavefronts) {
    // Rows 32 bytes apart: groups 0, 2, 4, 6, 0, 2, 4, 6, so each matrix takes two wavefronts.
    const WarpAccess access = resolved(matrixLine("ldmatrix", 2, strided(16, 32)));
    const ModernPrediction modern = predictModern(access);
    ASSERT_TRUE(modern.shared);
    EXPECT_EQ(modern.shared->phases, (std::vector<std::uint32_t>{0xffu, 0xff00u}));
    EXPECT_EQ(modern.shared->wavefronts, 4);
    EXPECT_EQ(modern.shared->idealWavefronts, 2);
    EXPECT_EQ(modern.shared->bankConflicts, 2);
    ASSERT_EQ(modern.shared->wavefrontList.size(), 4u);
    EXPECT_EQ(modern.shared->wavefrontList[0].laneMask, 0x0fu);
    EXPECT_EQ(modern.shared->wavefrontList[1].laneMask, 0xf0u);
    EXPECT_EQ(modern.shared->wavefrontList[2].laneMask, 0x0f00u);
    // Lane 1's row at byte 32 fills banks 8 to 11 with words 8 to 11.
    EXPECT_EQ(modern.shared->wavefrontList[0].bankWord[8], 8);
    EXPECT_EQ(modern.shared->wavefrontList[0].bankWord[11], 11);
    EXPECT_EQ(modern.shared->worstBankDegree, 2);
}

TEST(LdmatrixModel, IdenticalRowsBroadcastButMatricesNeverShareAWavefront) {
    const WarpAccess same = resolved(matrixLine("stmatrix", 4, std::vector<long long>(32, 512)));
    const ModernPrediction modern = predictModern(same);
    EXPECT_EQ(modern.shared->wavefronts, 4); // measured: 4, not 1
    EXPECT_EQ(modern.shared->bankConflicts, 0);
    std::map<std::string, double> metrics;
    for (const Metric& metric : modernMetrics(modern)) {
        metrics[metric.name] = metric.value;
    }
    EXPECT_EQ(metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], 4);
    EXPECT_EQ(metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 0);
    EXPECT_EQ(metrics[kLdsmInstructionsMetric], 0);
}

TEST(LdmatrixModel, ARowMajorTileOf128ByteRowsIsEightWayPerMatrix) {
    const WarpAccess access = resolved(matrixLine("ldmatrix", 4, strided(32, 128)));
    const ModernPrediction modern = predictModern(access);
    EXPECT_EQ(modern.shared->wavefronts, 32);
    EXPECT_EQ(modern.shared->bankConflicts, 28);
    EXPECT_EQ(modern.shared->worstBankDegree, 8);
}

TEST(LdmatrixTextbook, SaysTheInstructionIsNotInTheNotesEra) {
    const WarpAccess access = resolved(matrixLine("ldmatrix", 1, strided(8, 16)));
    const TextbookPrediction textbook = predictTextbook(access);
    EXPECT_NE(textbook.notInNotes.find("not in the notes' era"), std::string::npos);
    EXPECT_TRUE(textbook.transactions.empty());
    EXPECT_TRUE(textbookMetrics(textbook).empty());
}

TEST(LdmatrixPattern, WritesAndReadsBackItsFields) {
    auto named = patternFromJsonText(
        R"({"space":"shared","op":"stmatrix","matrices":2,"transpose":true,"width":16,"addresses":[)"
        "0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,"
        "null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null]}");
    ASSERT_TRUE(named.ok()) << named.error().describe();
    EXPECT_EQ(named->pattern.kind.op, AccessOp::Store);
    EXPECT_EQ(named->pattern.kind.matrices, 2);
    EXPECT_TRUE(named->pattern.kind.transpose);
    const std::string text = patternToJsonText(*named);
    const auto json = nlohmann::json::parse(text);
    EXPECT_EQ(json["op"], "stmatrix");
    EXPECT_EQ(json["matrices"], 2);
    EXPECT_EQ(json["transpose"], true);
    auto again = patternFromJsonText(text);
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(again->pattern, named->pattern);
}

struct BadMatrix {
    const char* what;
    std::string line;
    ErrorCode code;
    const char* where;
    const char* says;
};

TEST(LdmatrixPattern, BadInputNamesTheFieldAndTheRule) {
    const std::vector<long long> rows8 = strided(8, 16);
    std::vector<long long> unaligned = rows8;
    unaligned[3] = 40;
    std::vector<long long> nine = rows8;
    nine.push_back(0);
    std::string global = matrixLine("ldmatrix", 1, rows8);
    global.replace(global.find("shared"), 6, "global");
    std::string width8 = matrixLine("ldmatrix", 1, rows8);
    width8.replace(width8.find("\"width\":16"), 10, "\"width\":8");
    std::string withSource = R"({"space":"shared","op":"ldmatrix","matrices":1,"width":16,)"
                             R"("source":{"address":"lane * 16"}})";
    const std::vector<BadMatrix> cases = {
        {"matrices 3", matrixLine("ldmatrix", 3, strided(24, 16)), ErrorCode::FileFormat,
         "/matrices", "1, 2 or 4"},
        {"global space", global, ErrorCode::FileFormat, "/space", "must be \"shared\""},
        {"width 8", width8, ErrorCode::FileFormat, "/width", "width must be 16"},
        {"unaligned row", matrixLine("ldmatrix", 1, unaligned), ErrorCode::Misaligned, "lane 3",
         "not 16-byte aligned"},
        {"row lane missing", matrixLine("stmatrix", 2, rows8), ErrorCode::InvalidValue, "lane 8",
         "row 0 of matrix 1"},
        {"lane past the rows", matrixLine("ldmatrix", 1, nine), ErrorCode::InvalidValue, "lane 8",
         "lanes 0-7 only"},
        {"expression form", withSource, ErrorCode::FileFormat, "/source", "32 row addresses"},
    };
    for (const BadMatrix& bad : cases) {
        auto named = patternFromJsonText(bad.line);
        Error error;
        if (!named.ok()) {
            error = named.error();
        } else {
            auto access = resolve(named->pattern);
            ASSERT_FALSE(access.ok()) << bad.what << " was accepted";
            error = access.error();
        }
        EXPECT_EQ(error.code, bad.code) << bad.what << ": " << error.describe();
        EXPECT_EQ(error.where, bad.where) << bad.what << ": " << error.describe();
        EXPECT_NE(error.message.find(bad.says), std::string::npos)
            << bad.what << ": " << error.describe();
    }
}

TEST(LdmatrixPattern, MatrixFieldsOnAPlainLoadAreRefused) {
    auto named = patternFromJsonText(
        R"({"space":"shared","op":"load","transpose":true,"width":16,"addresses":[)"
        "0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240,"
        "0,16,32,48,64,80,96,112,128,144,160,176,192,208,224,240]}");
    ASSERT_FALSE(named.ok());
    EXPECT_EQ(named.error().where, "/transpose");
}

} // namespace
