// The textbook (Fermi/Kepler) model's shared-memory rules against every shared-memory figure of
// the course notes.
#include "textbook_test_support.h"

namespace warpscope {
namespace {

using namespace textbook_test;

// ---- Shared memory -----------------------------------------------------------------------------

TextbookOptions eightByteBanks() {
    TextbookOptions options;
    options.bankMode = SharedBankMode::EightByte;
    return options;
}

struct SharedRow {
    const char* name;
    const char* source;
    int width;
    LaneFunction address;
    TextbookOptions options;
    int passes;
    int degree;
};

const std::vector<SharedRow>& sharedRows() {
    static const std::vector<SharedRow> rows = {
        {"lane i on word i",
         "seed README; seed 004, offset 1",
         4,
         [](int l) { return l * 4; },
         {},
         1,
         1},
        {"all lanes on one word: broadcast",
         "seed 003, Broadcast; seed 004, offset 0",
         4,
         [](int) { return 12; },
         {},
         1,
         1},
        {"pairs of lanes on one word: multicast",
         "seed 003, Broadcast (multicast)",
         4,
         [](int l) { return l / 2 * 4; },
         {},
         1,
         1},
        {"stride of 32 words",
         "seed README; seed 004, offset 32",
         4,
         [](int l) { return l * 32 * 4; },
         {},
         32,
         32},
        {"32x32 float tile read by column",
         "seed 003, C=AA^T before padding",
         4,
         [](int l) { return (l * 32 + 5) * 4; },
         {},
         32,
         32},
        {"32x32 tile padded to 33 columns, column read",
         "seed 003, [TILE_DIM][TILE_DIM+1]",
         4,
         [](int l) { return (l * 33 + 5) * 4; },
         {},
         1,
         1},
        {"bank offset benchmark, offset 0",
         "seed 004, Figure 2: broadcast",
         4,
         [](int l) { return l * 0 * 4; },
         {},
         1,
         1},
        {"bank offset benchmark, offset 1",
         "seed 004, Figure 2: conflict-free",
         4,
         [](int l) { return l * 1 * 4; },
         {},
         1,
         1},
        {"bank offset benchmark, offset 2",
         "derived: lanes i and i+16 share a bank",
         4,
         [](int l) { return l * 2 * 4; },
         {},
         2,
         2},
        {"bank offset benchmark, offset 32",
         "seed 004, Figure 2: 32-way conflict",
         4,
         [](int l) { return l * 32 * 4; },
         {},
         32,
         32},
        {"stride of 2 words, 4-byte banks",
         "seed 003, compute capability 3.x",
         4,
         [](int l) { return l * 8; },
         {},
         2,
         2},
        {"8-byte mode, 4-byte elements, lane i on word i", "seed 003/004, 64-bit bank mode", 4,
         [](int l) { return l * 4; }, eightByteBanks(), 1, 1},
        {"8-byte mode, stride of 2 words", "seed 003, 64-bit mode: successive 64-bit words", 4,
         [](int l) { return l * 8; }, eightByteBanks(), 1, 1},
        {"8-byte mode, 8-byte elements at stride 1", "seed 003/004, 64-bit bank mode", 8,
         [](int l) { return l * 8; }, eightByteBanks(), 1, 1},
        {"4-byte mode, 8-byte elements at stride 1",
         "reading: 256 bytes need two passes",
         8,
         [](int l) { return l * 8; },
         {},
         2,
         2},
        {"4-byte mode, 16-byte elements at stride 1",
         "reading: 512 bytes need four passes",
         16,
         [](int l) { return l * 16; },
         {},
         4,
         4},
        {"8-byte mode, 16-byte elements at stride 1", "reading: 512 bytes need two passes", 16,
         [](int l) { return l * 16; }, eightByteBanks(), 2, 2},
        {"1-byte elements, lane i on byte i",
         "derived: 8 words, 4 lanes each",
         1,
         [](int l) { return l; },
         {},
         1,
         1},
        {"2-byte elements, stride 64 bytes",
         "derived: every lane in bank 0 or 16",
         2,
         [](int l) { return l * 64; },
         {},
         16,
         16},
        {"even lanes only, stride 32 words",
         "derived: 16 lanes in one bank",
         4,
         [](int l) { return l % 2 == 0 ? std::optional<std::int64_t>(l * 128) : std::nullopt; },
         {},
         16,
         16},
        {"no active lane",
         "derived: nothing to serve",
         4,
         [](int) { return std::optional<std::int64_t>(); },
         {},
         0,
         0},
    };
    return rows;
}

class SharedFigures : public ::testing::TestWithParam<std::size_t> {};

TEST_P(SharedFigures, ReproducesTheNotes) {
    const SharedRow& row = sharedRows()[GetParam()];
    SCOPED_TRACE(std::string(row.name) + " (" + row.source + ")");
    for (AccessOp op : {Load, Store}) {
        const WarpAccess access = makeAccess(MemorySpace::Shared, op, row.width, CA, row.address);
        const TextbookPrediction p = predictTextbook(access, row.options);
        EXPECT_EQ(p.rule, TextbookRule::SharedMemory);
        EXPECT_EQ(static_cast<int>(p.transactions.size()), row.passes);
        EXPECT_EQ(p.bankConflictDegree, row.degree);
        EXPECT_EQ(p.bankWidthBytes, row.options.bankMode == SharedBankMode::EightByte ? 8 : 4);
        EXPECT_EQ(p.bytesMoved, 0);
        EXPECT_EQ(p.efficiency, 0.0);
        EXPECT_EQ(p.bytesRequested, std::int64_t{access.activeLaneCount()} * row.width);

        // Every active lane is served, each in exactly one pass.
        std::uint32_t served = 0;
        for (const Transaction& t : p.transactions) {
            EXPECT_NE(t.laneMask, 0u);
            EXPECT_EQ(served & t.laneMask, 0u);
            served |= t.laneMask;
            EXPECT_GT(t.sizeBytes, 0);
            EXPECT_LE(t.sizeBytes, kBankCount * p.bankWidthBytes);
        }
        EXPECT_EQ(served, access.activeMask());
    }
}

INSTANTIATE_TEST_SUITE_P(Textbook, SharedFigures,
                         ::testing::Range(std::size_t{0}, sharedRows().size()));

TEST(TextbookShared, ColumnReadServesOneLanePerPass) {
    // Seed 004, offset 32: all lanes in bank 0, on different words; served one by one.
    const auto p = predictTextbook(
        makeAccess(MemorySpace::Shared, Load, 4, Default, [](int l) { return l * 128; }));
    ASSERT_EQ(p.transactions.size(), 32u);
    for (int pass = 0; pass < 32; ++pass) {
        EXPECT_EQ(p.transactions[static_cast<std::size_t>(pass)].laneMask, 1u << pass);
        EXPECT_EQ(p.transactions[static_cast<std::size_t>(pass)].address, pass * 128);
        EXPECT_EQ(p.transactions[static_cast<std::size_t>(pass)].sizeBytes, 4);
    }
}

TEST(TextbookShared, WideElementsSplitIntoHalfWarps) {
    // 8-byte elements in 4-byte mode: lanes 0..15 fill the 32 banks, lanes 16..31 the next pass.
    const auto p = predictTextbook(
        makeAccess(MemorySpace::Shared, Load, 8, Default, [](int l) { return l * 8; }));
    ASSERT_EQ(p.transactions.size(), 2u);
    EXPECT_EQ(p.transactions[0].laneMask, 0x0000FFFFu);
    EXPECT_EQ(p.transactions[0].address, 0);
    EXPECT_EQ(p.transactions[0].sizeBytes, 128);
    EXPECT_EQ(p.transactions[1].laneMask, 0xFFFF0000u);
    EXPECT_EQ(p.transactions[1].address, 128);
    EXPECT_EQ(p.uniqueBytesRequested, 256);
}

} // namespace
} // namespace warpscope
