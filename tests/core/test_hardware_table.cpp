// The modern model against the hardware: every row of the measured table
// (tests/data/hardware_table_h100.jsonl, made by scripts/hw/measure.sh with Nsight Compute on an
// NVIDIA H100) must be predicted exactly, counter for counter.
#include "warpscope/file_format.h"
#include "warpscope/model.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

using warpscope::nsightCounterNames;

const char* const kTablePath = WARPSCOPE_TEST_DATA_DIR "/hardware_table_h100.jsonl";

struct TableRow {
    std::string name;
    std::string line; // the row as written, for the pattern reader
    std::map<std::string, double> measured;
};

struct Table {
    nlohmann::json header;
    std::vector<TableRow> rows;
};

const Table& table() {
    static const Table loaded = [] {
        Table t;
        std::ifstream in(kTablePath);
        std::string line;
        bool first = true;
        while (std::getline(in, line)) {
            if (line.empty()) {
                continue;
            }
            auto json = nlohmann::json::parse(line, nullptr, false);
            if (first) {
                t.header = json;
                first = false;
                continue;
            }
            TableRow row;
            row.line = line;
            if (json.is_object()) {
                row.name = json.value("name", std::string("unnamed"));
                if (json.contains("measured") && json["measured"].is_object()) {
                    for (auto& [key, value] : json["measured"].items()) {
                        if (value.is_number()) {
                            row.measured[key] = value.get<double>();
                        }
                    }
                }
            }
            t.rows.push_back(std::move(row));
        }
        return t;
    }();
    return loaded;
}

TEST(HardwareTable, NamesTheGpuDriverAndNcuVersion) {
    const auto& header = table().header;
    ASSERT_TRUE(header.is_object()) << "cannot read " << kTablePath;
    EXPECT_EQ(header.value("format", ""), "warpscope-hardware-table");
    EXPECT_NE(header.value("gpu", "").find("H100"), std::string::npos);
    EXPECT_FALSE(header.value("driver", "").empty());
    EXPECT_FALSE(header.value("ncu", "").empty());
}

TEST(HardwareTable, HasAtLeastEightyRowsCoveringEveryKind) {
    const auto& rows = table().rows;
    EXPECT_GE(rows.size(), 80u);
    std::map<std::string, int> kinds;
    for (const auto& row : rows) {
        auto named = warpscope::patternFromJsonText(row.line);
        ASSERT_TRUE(named.ok()) << row.name << ": " << named.error().describe();
        const auto& kind = named->pattern.kind;
        kinds[std::string(toString(kind.space)) + "/" + toString(kind.op) + "/" +
              std::to_string(kind.widthBytes)]++;
        if (kind.space == warpscope::MemorySpace::Global && kind.op == warpscope::AccessOp::Load) {
            kinds[std::string("cache/") + toString(kind.cache)]++;
        }
    }
    for (const char* space : {"global", "shared"}) {
        for (const char* op : {"load", "store"}) {
            for (int width : warpscope::kElementWidths) {
                EXPECT_GT(kinds[std::string(space) + "/" + op + "/" + std::to_string(width)], 0)
                    << space << " " << op << " width " << width << " is not measured";
            }
        }
    }
    for (const char* cache : {"default", "ca", "cg", "nc"}) {
        EXPECT_GT(kinds[std::string("cache/") + cache], 0) << cache;
    }
}

// One test over every row, in one process: the table has about two thousand rows, and a ctest
// entry per row started the binary (and parsed the table) two thousand times, under the
// sanitizers too. A failure names its row.
TEST(HardwareTable, ModernModelMatchesEveryCounterOfEveryRow) {
    const auto& rows = table().rows;
    ASSERT_FALSE(rows.empty()) << "cannot read " << kTablePath;
    int mismatchedRows = 0;
    for (const TableRow& row : rows) {
        auto named = warpscope::patternFromJsonText(row.line);
        if (!named.ok()) {
            ADD_FAILURE() << row.name << ": " << named.error().describe();
            ++mismatchedRows;
            continue;
        }
        auto access = warpscope::resolve(named->pattern);
        if (!access.ok()) {
            ADD_FAILURE() << row.name << ": " << access.error().describe();
            ++mismatchedRows;
            continue;
        }
        const auto metrics = warpscope::modernMetrics(warpscope::predictModern(access.value()));
        std::map<std::string, double> predicted;
        for (const auto& metric : metrics) {
            predicted[metric.name] = metric.value;
        }
        bool rowMatches = true;
        for (const std::string& counter : nsightCounterNames()) {
            auto measured = row.measured.find(counter);
            if (measured == row.measured.end()) {
                ADD_FAILURE() << row.name << ": " << counter << " was not measured";
                rowMatches = false;
                continue;
            }
            if (predicted[counter] != measured->second) {
                ADD_FAILURE() << row.name << ": " << counter << " predicted " << predicted[counter]
                              << ", measured " << measured->second;
                rowMatches = false;
            }
        }
        mismatchedRows += rowMatches ? 0 : 1;
    }
    EXPECT_EQ(mismatchedRows, 0) << "of " << rows.size() << " rows";
}

} // namespace
