// The textbook (Fermi/Kepler) model against every figure of the course notes (../shared/seeds,
// README "Figures the textbook models must reproduce"), plus the metric names built from both
// models' predictions.
// This file: global memory (test_textbook_shared.cpp: shared memory; test_textbook_metrics.cpp:
// rule and metric names).
#include "textbook_test_support.h"

namespace warpscope {
namespace {

using namespace textbook_test;

std::vector<int> sizesOf(const TextbookPrediction& p) {
    std::vector<int> sizes;
    for (const Transaction& t : p.transactions) {
        sizes.push_back(t.sizeBytes);
    }
    return sizes;
}

TextbookOptions uncachedDefault() {
    TextbookOptions options;
    options.defaultLoadsCached = false; // K40 and later
    return options;
}

// ---- Global memory -----------------------------------------------------------------------------

struct GlobalRow {
    const char* name;
    const char* source; // where the expected numbers come from
    AccessOp op;
    int width;
    CachePath cache;
    LaneFunction address;
    TextbookOptions options;
    TextbookRule rule;
    std::vector<int> transactionSizes; // in address order
    double efficiencyPct;
};

std::vector<int> repeat(int size, int count) {
    return std::vector<int>(std::size_t(count), size);
}

// 32 lanes in 32 different lines at scattered offsets (figures 4-13 and 4-18).
std::int64_t scattered(int lane) {
    return (lane * 13 % 32) * 128 + (lane * 5 % 32) * 4;
}

// Figure 4-20's shape: lanes interleaved over segments 0, 2 and 5 of a 192-byte range.
std::optional<std::int64_t> threeSegments(int lane) {
    if (lane >= 24) {
        return std::nullopt;
    }
    const int segment = lane % 3 * 2 + lane % 3 / 2; // 0, 2, 5
    return segment * 32 + lane / 3 * 4;
}

const std::vector<GlobalRow>& globalRows() {
    static const std::vector<GlobalRow> rows = {
        // Cached loads, 128-byte transactions.
        {"cached aligned coalesced",
         "seed 002, figure 4-9",
         Load,
         4,
         CA,
         [](int l) { return l * 4; },
         {},
         Cached,
         {128},
         100.0},
        {"cached permuted inside one line",
         "seed 002, figure 4-10",
         Load,
         4,
         CA,
         [](int l) { return (l * 7 % 32) * 4; },
         {},
         Cached,
         {128},
         100.0},
        {"cached misaligned consecutive",
         "seed 002, figure 4-11",
         Load,
         4,
         CA,
         [](int l) { return (l + 1) * 4; },
         {},
         Cached,
         {128, 128},
         50.0},
        {"cached all lanes one address",
         "seed 002, figure 4-12",
         Load,
         4,
         CA,
         [](int) { return 40; },
         {},
         Cached,
         {128},
         3.125},
        {"cached 32 lanes in 32 lines",
         "seed 002, figure 4-13",
         Load,
         4,
         CA,
         scattered,
         {},
         Cached,
         repeat(128, 32),
         100.0 * 128 / 4096},
        // Uncached loads, 32-byte segments.
        {"uncached aligned coalesced",
         "seed 002, figure 4-14",
         Load,
         4,
         CG,
         [](int l) { return l * 4; },
         {},
         Uncached,
         repeat(32, 4),
         100.0},
        {"uncached permuted inside 128 bytes",
         "seed 002, figure 4-15",
         Load,
         4,
         CG,
         [](int l) { return (l * 7 % 32) * 4; },
         {},
         Uncached,
         repeat(32, 4),
         100.0},
        {"uncached misaligned consecutive",
         "seed 002, figure 4-16",
         Load,
         4,
         CG,
         [](int l) { return (l + 1) * 4; },
         {},
         Uncached,
         repeat(32, 5),
         80.0},
        {"uncached 32 scattered lanes",
         "seed 002, figure 4-18",
         Load,
         4,
         CG,
         scattered,
         {},
         Uncached,
         repeat(32, 32),
         100.0 * 128 / 1024},
        // readSegment: A[i + offset], 4-byte floats; L1 on (Fermi's default), then -dlcm=cg.
        {"readSegment offset 0, cached",
         "seed 002, Example_5_readSegment: 100 %",
         Load,
         4,
         Default,
         [](int l) { return (l + 0) * 4; },
         {},
         Cached,
         {128},
         100.0},
        {"readSegment offset 11, cached",
         "seed 002, Example_5_readSegment: ~49.81 %, doubled",
         Load,
         4,
         Default,
         [](int l) { return (l + 11) * 4; },
         {},
         Cached,
         {128, 128},
         50.0},
        {"readSegment offset 128, cached",
         "seed 002, Example_5_readSegment: 100 %",
         Load,
         4,
         Default,
         [](int l) { return (l + 128) * 4; },
         {},
         Cached,
         {128},
         100.0},
        {"readSegment offset 0, -dlcm=cg", "seed 002, Effect of Disabling L1 Cache: 100 %", Load, 4,
         Default, [](int l) { return (l + 0) * 4; }, uncachedDefault(), Uncached, repeat(32, 4),
         100.0},
        {"readSegment offset 11, -dlcm=cg", "seed 002, Effect of Disabling L1 Cache: 80 %", Load, 4,
         Default, [](int l) { return (l + 11) * 4; }, uncachedDefault(), Uncached, repeat(32, 5),
         80.0},
        {"readSegment offset 128, -dlcm=cg", "seed 002, Effect of Disabling L1 Cache: 100 %", Load,
         4, Default, [](int l) { return (l + 128) * 4; }, uncachedDefault(), Uncached,
         repeat(32, 4), 100.0},
        {"readSegment offset 11, .cg overrides a cached default",
         "seed 000, -Xptxas -dlcm=cg",
         Load,
         4,
         CG,
         [](int l) { return (l + 11) * 4; },
         {},
         Uncached,
         repeat(32, 5),
         80.0},
        {"readSegment offset 11, .ca overrides an uncached default",
         "seed 000, -Xptxas -dlcm=ca",
         Load,
         4,
         CA,
         [](int l) { return (l + 11) * 4; },
         uncachedDefault(),
         Cached,
         {128, 128},
         50.0},
        {"readSegment offset 11, .nc read-only path",
         "model.h: .nc is 32-byte granular",
         Load,
         4,
         NC,
         [](int l) { return (l + 11) * 4; },
         {},
         Uncached,
         repeat(32, 5),
         80.0},
        // Stores: 32-byte segments in 1-, 2- or 4-segment transactions.
        {"store 128 consecutive aligned bytes",
         "seed 002, figure 4-19",
         Store,
         4,
         Default,
         [](int l) { return l * 4; },
         {},
         StoreRule,
         {128},
         100.0},
        {"store scattered over a 192-byte range",
         "seed 002, figure 4-20",
         Store,
         4,
         Default,
         threeSegments,
         {},
         StoreRule,
         {32, 32, 32},
         100.0},
        {"store aligned 64-byte range",
         "seed 002, figure 4-21",
         Store,
         4,
         Default,
         [](int l) { return l < 16 ? std::optional<std::int64_t>(l * 4) : std::nullopt; },
         {},
         StoreRule,
         {64},
         100.0},
        {"writeSegment offset 0",
         "seed 002, Example_6_writeSegment: 100 %",
         Store,
         4,
         Default,
         [](int l) { return (l + 0) * 4; },
         {},
         StoreRule,
         {128},
         100.0},
        {"writeSegment offset 11",
         "seed 002, Cause of Efficiency Drop at Offset 11: 4+1, 80 %",
         Store,
         4,
         Default,
         [](int l) { return (l + 11) * 4; },
         {},
         StoreRule,
         {128, 32},
         80.0},
        {"writeSegment offset 128",
         "seed 002, Example_6_writeSegment: 100 %",
         Store,
         4,
         Default,
         [](int l) { return (l + 128) * 4; },
         {},
         StoreRule,
         {128},
         100.0},
        {"store ignores the cache path",
         "seed 000: stores never use L1",
         Store,
         4,
         CA,
         [](int l) { return (l + 11) * 4; },
         {},
         StoreRule,
         {128, 32},
         80.0},
        {"store run of 3 segments: 2 + 1",
         "reading in textbook_model.cpp",
         Store,
         4,
         Default,
         [](int l) { return l < 24 ? std::optional<std::int64_t>(l * 4) : std::nullopt; },
         {},
         StoreRule,
         {64, 32},
         100.0},
        {"store run of 7 segments: 4 + 2 + 1",
         "reading in textbook_model.cpp",
         Store,
         8,
         Default,
         [](int l) { return l < 28 ? std::optional<std::int64_t>(l * 8) : std::nullopt; },
         {},
         StoreRule,
         {128, 64, 32},
         100.0},
        // Element widths other than 4 bytes.
        {"width 1, cached",
         "derived: 32 bytes of one line",
         Load,
         1,
         CA,
         [](int l) { return l; },
         {},
         Cached,
         {128},
         25.0},
        {"width 1, uncached",
         "derived: one full segment",
         Load,
         1,
         CG,
         [](int l) { return l; },
         {},
         Uncached,
         {32},
         100.0},
        {"width 2, uncached",
         "derived: two full segments",
         Load,
         2,
         CG,
         [](int l) { return l * 2; },
         {},
         Uncached,
         repeat(32, 2),
         100.0},
        {"width 8, cached",
         "derived: two full lines",
         Load,
         8,
         CA,
         [](int l) { return l * 8; },
         {},
         Cached,
         repeat(128, 2),
         100.0},
        {"width 8, uncached misaligned by one element",
         "derived: 9 segments",
         Load,
         8,
         CG,
         [](int l) { return (l + 1) * 8; },
         {},
         Uncached,
         repeat(32, 9),
         256.0 / 288 * 100},
        {"width 16, cached",
         "derived: four full lines",
         Load,
         16,
         CA,
         [](int l) { return l * 16; },
         {},
         Cached,
         repeat(128, 4),
         100.0},
        {"width 16, store",
         "derived: 16 segments, four 4-segment transactions",
         Store,
         16,
         Default,
         [](int l) { return l * 16; },
         {},
         StoreRule,
         repeat(128, 4),
         100.0},
        // Inactive lanes ask for nothing.
        {"even lanes only, cached",
         "derived: 64 of 128 bytes",
         Load,
         4,
         CA,
         [](int l) { return l % 2 == 0 ? std::optional<std::int64_t>(l * 4) : std::nullopt; },
         {},
         Cached,
         {128},
         50.0},
        {"even lanes only, uncached",
         "derived: 4 segments half used",
         Load,
         4,
         CG,
         [](int l) { return l % 2 == 0 ? std::optional<std::int64_t>(l * 4) : std::nullopt; },
         {},
         Uncached,
         repeat(32, 4),
         50.0},
        {"no active lane",
         "derived: nothing moves",
         Load,
         4,
         CA,
         [](int) { return std::optional<std::int64_t>(); },
         {},
         Cached,
         {},
         0.0},
    };
    return rows;
}

class GlobalFigures : public ::testing::TestWithParam<std::size_t> {};

TEST_P(GlobalFigures, ReproducesTheNotes) {
    const GlobalRow& row = globalRows()[GetParam()];
    SCOPED_TRACE(std::string(row.name) + " (" + row.source + ")");
    const WarpAccess access =
        makeAccess(MemorySpace::Global, row.op, row.width, row.cache, row.address);
    const TextbookPrediction p = predictTextbook(access, row.options);

    EXPECT_EQ(p.kind, access.kind);
    EXPECT_EQ(p.rule, row.rule);
    EXPECT_EQ(sizesOf(p), row.transactionSizes);
    std::int64_t sum = 0;
    for (int size : row.transactionSizes) {
        sum += size;
    }
    EXPECT_EQ(p.bytesMoved, sum);
    EXPECT_NEAR(p.efficiency * 100.0, row.efficiencyPct, 1e-9);
    EXPECT_EQ(p.bytesRequested, std::int64_t{access.activeLaneCount()} * row.width);

    // Every active lane is served by exactly one transaction, which holds its element.
    std::uint32_t served = 0;
    for (const Transaction& t : p.transactions) {
        EXPECT_EQ(served & t.laneMask, 0u) << "a lane served twice";
        served |= t.laneMask;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            if (t.laneMask & (1u << lane)) {
                const std::int64_t a = *access.addresses[static_cast<std::size_t>(lane)];
                EXPECT_GE(a, t.address);
                EXPECT_LE(a + row.width, t.address + t.sizeBytes);
            }
        }
    }
    EXPECT_EQ(served, access.activeMask());
    EXPECT_TRUE(std::is_sorted(
        p.transactions.begin(), p.transactions.end(),
        [](const Transaction& a, const Transaction& b) { return a.address < b.address; }));
}

INSTANTIATE_TEST_SUITE_P(Textbook, GlobalFigures,
                         ::testing::Range(std::size_t{0}, globalRows().size()));

TEST(TextbookGlobal, SameAddressCountsDistinctBytes) {
    // Seed 002, figure 4-12: 4 distinct bytes of 128 moved, although 32 x 4 were asked for.
    const auto p =
        predictTextbook(makeAccess(MemorySpace::Global, Load, 4, CA, [](int) { return 40; }));
    EXPECT_EQ(p.bytesRequested, 128);
    EXPECT_EQ(p.uniqueBytesRequested, 4);
    EXPECT_EQ(p.bytesMoved, 128);
    ASSERT_EQ(p.transactions.size(), 1u);
    EXPECT_EQ(p.transactions[0].address, 0);
    EXPECT_EQ(p.transactions[0].laneMask, 0xFFFFFFFFu);
}

TEST(TextbookGlobal, ScatteredUncachedMovesLessThanCached) {
    // Seed 002, figure 4-18: "this worst case is still improved compared to cached loads".
    const auto cached = predictTextbook(makeAccess(MemorySpace::Global, Load, 4, CA, scattered));
    const auto uncached = predictTextbook(makeAccess(MemorySpace::Global, Load, 4, CG, scattered));
    EXPECT_EQ(cached.transactions.size(), 32u);
    EXPECT_EQ(uncached.transactions.size(), 32u);
    EXPECT_LT(uncached.bytesMoved, cached.bytesMoved);
    EXPECT_GT(uncached.efficiency, cached.efficiency);
}

TEST(TextbookGlobal, ReadSegmentOffset11DoublesTransactions) {
    // Seed 002, NVPROF results: gld_transactions 65,184 at offset 0, 131,039 at offset 11.
    auto at = [](int offset) {
        return predictTextbook(makeAccess(MemorySpace::Global, Load, 4, Default,
                                          [=](int l) { return (l + offset) * 4; }));
    };
    EXPECT_EQ(at(11).transactions.size(), 2 * at(0).transactions.size());
    EXPECT_EQ(at(128).transactions.size(), at(0).transactions.size());
}

TEST(TextbookGlobal, MisalignedLaneMasksAndAddresses) {
    // Seed 002, figure 4-11: lanes 0..30 fall in the first line, lane 31 in the next.
    const auto p = predictTextbook(
        makeAccess(MemorySpace::Global, Load, 4, CA, [](int l) { return (l + 1) * 4; }));
    ASSERT_EQ(p.transactions.size(), 2u);
    EXPECT_EQ(p.transactions[0].address, 0);
    EXPECT_EQ(p.transactions[0].laneMask, 0x7FFFFFFFu);
    EXPECT_EQ(p.transactions[1].address, 128);
    EXPECT_EQ(p.transactions[1].laneMask, 0x80000000u);
}

TEST(TextbookGlobal, WriteSegmentOffset11Transactions) {
    // Seed 002, "Cause of Efficiency Drop at Offset 11": bytes 44..171 are segments 1 to 5.
    const auto p = predictTextbook(
        makeAccess(MemorySpace::Global, Store, 4, Default, [](int l) { return (l + 11) * 4; }));
    ASSERT_EQ(p.transactions.size(), 2u);
    EXPECT_EQ(p.transactions[0].address, 32);
    EXPECT_EQ(p.transactions[0].sizeBytes, 128);
    EXPECT_EQ(p.transactions[0].laneMask, 0x1FFFFFFFu); // bytes 44..159: lanes 0..28
    EXPECT_EQ(p.transactions[1].address, 160);
    EXPECT_EQ(p.transactions[1].sizeBytes, 32);
    EXPECT_EQ(p.transactions[1].laneMask, 0xE0000000u); // bytes 160..171
    EXPECT_EQ(p.bytesRequested, 128);
    EXPECT_EQ(p.bytesMoved, 160);
}

TEST(TextbookGlobal, MalformedAccessGivesAnEmptyPrediction) {
    // Not validated: the model must neither crash nor invent transactions.
    auto bad = makeAccess(MemorySpace::Global, Load, 3, CA, [](int l) { return l * 3; });
    EXPECT_TRUE(predictTextbook(bad).transactions.empty());
    bad = makeAccess(MemorySpace::Global, Load, 4, CA, [](int l) { return l * 4 - 8; });
    EXPECT_TRUE(predictTextbook(bad).transactions.empty());
    bad = makeAccess(MemorySpace::Shared, Load, 4, CA, [](int l) { return l * 2; });
    EXPECT_TRUE(predictTextbook(bad).transactions.empty());
    bad = makeAccess(MemorySpace::Global, Store, 16, CA,
                     [](int) { return std::numeric_limits<std::int64_t>::max() - 15; });
    EXPECT_TRUE(predictTextbook(bad).transactions.empty());
    EXPECT_EQ(predictTextbook(bad).efficiency, 0.0);
}

} // namespace
} // namespace warpscope
