// The TMA tile-layout model (core/tma_layout.h) against the shared memory an H200 held after each
// cp.async.bulk.tensor.2d of tests/data/tma_layout_h200.jsonl (scripts/hw/tma_dump.cu), and its
// refusals of what the hardware refuses.
#include "warpscope/tma_layout.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <string>

namespace warpscope {
namespace {

using nlohmann::json;

std::vector<json> recordedRows() {
    std::ifstream in(std::string(WARPSCOPE_TEST_DATA_DIR) + "/tma_layout_h200.jsonl");
    std::vector<json> rows;
    for (std::string line; std::getline(in, line);) {
        rows.push_back(json::parse(line));
    }
    return rows;
}

TmaTileLoad loadOf(const json& row, std::int64_t sharedAddress) {
    TmaTileLoad load;
    load.elementBytes = row.at("element_bytes").get<int>();
    load.boxInnerElements = row.at("box").at(0).get<int>();
    load.boxRows = row.at("box").at(1).get<int>();
    load.swizzle = parseTmaSwizzle(row.at("mode").get<std::string>()).value();
    load.smemOffset = sharedAddress;
    return load;
}

TEST(TmaLayout, EqualsEveryLoadDumpedOnTheH200) {
    const std::vector<json> rows = recordedRows();
    ASSERT_GT(rows.size(), 700u) << "tests/data/tma_layout_h200.jsonl is missing or cut short";
    EXPECT_EQ(rows.front().at("gpu"), "NVIDIA H200");
    EXPECT_EQ(rows.front().at("compute_capability"), "9.0");
    std::set<std::string> modes;
    std::set<int> elementSizes;
    std::set<std::int64_t> offsets;
    int compared = 0;
    int refused = 0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const json& row = rows[i];
        const std::string status = row.at("status").get<std::string>();
        const std::string what = row.dump().substr(0, 120);
        if (status != "ok") {
            // Every load the hardware refused, the model refuses, naming the field at fault.
            auto layout = layTmaTile(loadOf(row, row.at("smem_offset").get<std::int64_t>()));
            ASSERT_FALSE(layout.ok()) << what;
            EXPECT_EQ(layout.error().where, status == "encode failed" ? "swizzle" : "smemOffset")
                << what;
            ++refused;
            continue;
        }
        ASSERT_EQ(row.at("arrived"), 1) << what;
        ASSERT_EQ(row.at("garbled_chunks"), 0) << what;
        // The model takes the shared-memory address the TMA was given: the dumped window's
        // base plus the offset into it.
        const std::int64_t address =
            row.at("smem_base").get<std::int64_t>() + row.at("smem_offset").get<std::int64_t>();
        auto layout = layTmaTile(loadOf(row, address));
        ASSERT_TRUE(layout.ok()) << what << ": " << layout.error().describe();
        // The recorded chunks start at the first one written; the model's at the destination.
        std::vector<std::optional<TmaChunkSource>> expected(
            static_cast<std::size_t>(row.at("first_chunk").get<int>() / 16));
        for (const json& chunk : row.at("chunks")) {
            const int r = chunk.at(0).get<int>();
            expected.push_back(r < 0 ? std::nullopt
                                     : std::optional(TmaChunkSource{r, chunk.at(1).get<int>()}));
        }
        ASSERT_EQ(layout->chunks.size(), expected.size()) << what;
        for (std::size_t k = 0; k < expected.size(); ++k) {
            ASSERT_EQ(layout->chunks[k].has_value(), expected[k].has_value())
                << what << " chunk " << k;
            if (expected[k]) {
                EXPECT_EQ(layout->chunks[k]->row, expected[k]->row) << what << " chunk " << k;
                EXPECT_EQ(layout->chunks[k]->byteInRow, expected[k]->byteInRow)
                    << what << " chunk " << k;
            }
        }
        modes.insert(row.at("mode").get<std::string>());
        elementSizes.insert(row.at("element_bytes").get<int>());
        offsets.insert(row.at("smem_offset").get<std::int64_t>());
        ++compared;
    }
    EXPECT_EQ(compared, 756);
    EXPECT_EQ(refused, 23);
    EXPECT_EQ(modes, (std::set<std::string>{"none", "32B", "64B", "128B"}));
    EXPECT_EQ(elementSizes, (std::set<int>{1, 2, 4, 8}));
    EXPECT_EQ(offsets.size(), 12u);
}

// A window at shared address 1408 (line 3 of a 1024-byte pattern; tma_dump's static window): the
// H200 swizzled by the address, so the same loads into an aligned buffer would differ.
TEST(TmaLayout, TheSwizzleFollowsTheAddressNotTheBuffer) {
    std::ifstream in(std::string(WARPSCOPE_TEST_DATA_DIR) + "/tma_layout_h200_window1408.jsonl");
    std::string line;
    ASSERT_TRUE(std::getline(in, line)); // header
    int rows = 0;
    int differFromAligned = 0;
    for (; std::getline(in, line); ++rows) {
        const json row = json::parse(line);
        ASSERT_EQ(row.at("smem_base"), 1408);
        const std::int64_t offset = row.at("smem_offset").get<std::int64_t>();
        auto layout = layTmaTile(loadOf(row, 1408 + offset));
        auto aligned = layTmaTile(loadOf(row, offset));
        ASSERT_TRUE(layout.ok() && aligned.ok());
        const json& prefix = row.at("chunks_prefix");
        ASSERT_GE(prefix.size(), 16u);
        ASSERT_LE(prefix.size(), layout->chunks.size());
        bool differs = false;
        for (std::size_t k = 0; k < prefix.size(); ++k) {
            ASSERT_TRUE(layout->chunks[k].has_value()) << line;
            EXPECT_EQ(layout->chunks[k]->row, prefix[k].at(0).get<int>()) << line << " chunk " << k;
            EXPECT_EQ(layout->chunks[k]->byteInRow, prefix[k].at(1).get<int>())
                << line << " chunk " << k;
            differs = differs || aligned->chunks[k]->byteInRow != prefix[k].at(1).get<int>();
        }
        differFromAligned += differs ? 1 : 0;
    }
    EXPECT_EQ(rows, 16);
    EXPECT_EQ(differFromAligned, 12); // every swizzled load; the 4 unswizzled ones agree
}

// The swizzle reads the address bits above the destination: the same 64x16 box of 2-byte elements
// at offsets 0 and 384 of a 1024-byte-aligned buffer puts row 0 differently.
TEST(TmaLayout, TheOffsetChangesTheSwizzle) {
    TmaTileLoad load; // 128B, 64x16, 2 bytes
    auto atZero = layTmaTile(load);
    load.smemOffset = 384;
    auto at384 = layTmaTile(load);
    ASSERT_TRUE(atZero.ok());
    ASSERT_TRUE(at384.ok());
    ASSERT_EQ(atZero->chunks.size(), 128u);
    ASSERT_EQ(at384->chunks.size(), 128u);
    // Row 0 at 0: chunk k holds bytes 16k; at 384 (128-byte line 3): chunk k holds 16 (k ^ 3).
    for (int k = 0; k < 8; ++k) {
        EXPECT_EQ(atZero->chunks[static_cast<std::size_t>(k)]->byteInRow, 16 * k);
        EXPECT_EQ(at384->chunks[static_cast<std::size_t>(k)]->row, 0);
        EXPECT_EQ(at384->chunks[static_cast<std::size_t>(k)]->byteInRow, 16 * (k ^ 3));
    }
    EXPECT_EQ(at384->sharedAddress(0, 0), 384 + 48);
    EXPECT_EQ(at384->bank(0, 0), 12);
    EXPECT_EQ(at384->sharedAddress(5, 18), 384 + 5 * 128 + 18); // line 8: no XOR
}

TEST(TmaLayout, RowsNarrowerThanTheSpanLeaveTheRestOfTheirLineUntouched) {
    TmaTileLoad load;
    load.swizzle = TmaSwizzle::Span32;
    load.elementBytes = 1;
    load.boxInnerElements = 16;
    load.boxRows = 8;
    load.smemOffset = 0;
    auto layout = layTmaTile(load);
    ASSERT_TRUE(layout.ok());
    EXPECT_EQ(layout->rowPitchBytes, 32);
    // Rows 0-3 in chunks 0, 2, 4, 6; rows 4-7 (bit 7 set) in chunks 9, 11, 13, 15.
    ASSERT_EQ(layout->chunks.size(), 16u);
    for (int row = 0; row < 8; ++row) {
        const std::size_t at = static_cast<std::size_t>(2 * row + (row >= 4 ? 1 : 0));
        ASSERT_TRUE(layout->chunks[at].has_value()) << row;
        EXPECT_EQ(layout->chunks[at]->row, row);
        EXPECT_FALSE(layout->chunks[at ^ 1].has_value()) << row;
    }
    load.swizzle = TmaSwizzle::None; // packed at the box's width
    auto plain = layTmaTile(load);
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(plain->rowPitchBytes, 16);
    EXPECT_EQ(plain->chunks.size(), 8u);
}

struct RefusalCase {
    TmaTileLoad load;
    const char* field;
    const char* says;
};

TEST(TmaLayout, BadLoadsNameTheFieldAndTheRule) {
    const RefusalCase cases[] = {
        {{3, 16, 8, TmaSwizzle::None, 0}, "elementBytes", "1, 2, 4 or 8 bytes"},
        {{16, 4, 8, TmaSwizzle::None, 0}, "elementBytes", "not a TMA element size"},
        {{2, 0, 8, TmaSwizzle::None, 0}, "box", "from 1 to 256"},
        {{1, 257, 8, TmaSwizzle::None, 0}, "box", "from 1 to 256"},
        {{2, 64, 300, TmaSwizzle::Span128, 0}, "box", "from 1 to 256"},
        {{2, 12, 8, TmaSwizzle::None, 0}, "box", "multiple of 16 bytes"},
        {{2, 128, 8, TmaSwizzle::Span128, 0}, "box", "wider than the 128B swizzle span"},
        {{4, 16, 8, TmaSwizzle::Span32, 0}, "box", "at most 32 bytes (8 elements of 4 bytes)"},
        {{2, 64, 8, TmaSwizzle::Span128Atom32, 0}, "swizzle", "compute capability 9.0"},
        {{2, 64, 8, TmaSwizzle::Span128Atom64, 0}, "swizzle", "CUDA 12.8"},
        {{2, 64, 8, TmaSwizzle::Span128, 400}, "smemOffset", "not a multiple of 128"},
        {{2, 64, 8, TmaSwizzle::Span128, 16}, "smemOffset", "128-byte aligned"},
        {{2, 64, 8, TmaSwizzle::Span128, -128}, "smemOffset", "not a multiple of 128"},
        {{8, 256, 256, TmaSwizzle::None, 0}, "smemOffset", "227 KiB"},
    };
    for (const RefusalCase& c : cases) {
        auto layout = layTmaTile(c.load);
        ASSERT_FALSE(layout.ok()) << c.says;
        EXPECT_EQ(layout.error().where, c.field) << layout.error().message;
        EXPECT_NE(layout.error().message.find(c.says), std::string::npos) << layout.error().message;
    }
}

TEST(TmaLayout, SwizzleNamesRoundTrip) {
    for (const char* name : {"none", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B",
                             "128B_ATOM_64B"}) {
        auto swizzle = parseTmaSwizzle(name);
        ASSERT_TRUE(swizzle.has_value()) << name;
        EXPECT_STREQ(toString(*swizzle), name);
    }
    EXPECT_FALSE(parseTmaSwizzle("128").has_value());
    EXPECT_FALSE(parseTmaSwizzle("16B").has_value());
}

} // namespace
} // namespace warpscope
