// The modern model's structure and arithmetic on hand-checked patterns. Agreement with the
// hardware itself is test_hardware_table.cpp's job; these rows check what the views draw from
// (sector and line lists, lane masks, wavefront lists) and the derived numbers.
#include "warpscope/model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace warpscope;

WarpAccess makeAccess(MemorySpace space, AccessOp op, int width,
                      const std::function<std::optional<std::int64_t>(int)>& address) {
    WarpAccess access;
    access.kind = AccessKind{space, op, width, CachePath::Default};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        access.addresses[static_cast<std::size_t>(lane)] = address(lane);
    }
    return access;
}

struct GlobalRow {
    const char* name;
    int width;
    std::function<std::optional<std::int64_t>(int)> address;
    int sectors;
    int lines;
    std::int64_t uniqueBytes;
    double efficiency;
};

class GlobalRows : public ::testing::TestWithParam<GlobalRow> {};

TEST_P(GlobalRows, CountsSectorsLinesAndBytes) {
    const GlobalRow& row = GetParam();
    const auto prediction =
        predictModern(makeAccess(MemorySpace::Global, AccessOp::Load, row.width, row.address));
    ASSERT_TRUE(prediction.global.has_value());
    EXPECT_FALSE(prediction.shared.has_value());
    const auto& g = *prediction.global;
    EXPECT_EQ(g.requests, 1);
    EXPECT_EQ(g.sectors, row.sectors);
    EXPECT_EQ(g.lines, row.lines);
    EXPECT_EQ(g.uniqueBytesRequested, row.uniqueBytes);
    EXPECT_EQ(g.bytesMoved, row.sectors * 32);
    EXPECT_DOUBLE_EQ(g.efficiency, row.efficiency);
    EXPECT_EQ(g.sectorList.size(), static_cast<std::size_t>(row.sectors));
    EXPECT_EQ(g.lineList.size(), static_cast<std::size_t>(row.lines));
}

INSTANTIATE_TEST_SUITE_P(
    Modern, GlobalRows,
    ::testing::Values(
        GlobalRow{"coalesced floats", 4, [](int l) { return l * 4; }, 4, 1, 128, 1.0},
        GlobalRow{"offset 11 floats", 4, [](int l) { return (l + 11) * 4; }, 5, 2, 128, 0.8},
        GlobalRow{"one address", 4, [](int) { return 256; }, 1, 1, 4, 4.0 / 32.0},
        GlobalRow{"stride 128 bytes", 4, [](int l) { return l * 128; }, 32, 32, 128, 0.125},
        GlobalRow{"coalesced float4", 16, [](int l) { return l * 16; }, 16, 4, 512, 1.0},
        GlobalRow{"bytes", 1, [](int l) { return l; }, 1, 1, 32, 1.0},
        GlobalRow{"even lanes", 4,
                  [](int l) -> std::optional<std::int64_t> {
                      if (l % 2 != 0) {
                          return std::nullopt;
                      }
                      return l * 4;
                  },
                  4, 1, 64, 0.5}),
    [](const auto& rowInfo) {
        std::string name = rowInfo.param.name;
        for (char& c : name) {
            c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
        }
        return name;
    });

TEST(ModernGlobal, SectorAndLineListsNameTheirLanes) {
    const auto prediction = predictModern(
        makeAccess(MemorySpace::Global, AccessOp::Store, 4, [](int l) { return (l + 11) * 4; }));
    const auto& g = *prediction.global;
    ASSERT_EQ(g.sectorList.size(), 5u);
    EXPECT_EQ(g.sectorList[0].address, 32);
    EXPECT_EQ(g.sectorList[0].laneMask, 0x1Fu); // bytes 44..63: lanes 0..4
    EXPECT_EQ(g.sectorList[0].bytesUsed, 20);
    EXPECT_EQ(g.sectorList[4].address, 160);
    ASSERT_EQ(g.lineList.size(), 2u);
    EXPECT_EQ(g.lineList[0].sectorMask, 0b1110);
    EXPECT_EQ(g.lineList[1].sectorMask, 0b0011);
    EXPECT_EQ(g.lineList[0].laneMask | g.lineList[1].laneMask, 0xFFFFFFFFu);
    std::uint32_t all = 0;
    for (const auto& s : g.sectorList) {
        EXPECT_EQ(all & s.laneMask, 0u) << "a 4-byte lane sits in one sector only";
        all |= s.laneMask;
    }
    EXPECT_EQ(all, 0xFFFFFFFFu);
}

TEST(ModernGlobal, NoActiveLaneMeansNoRequest) {
    const auto prediction = predictModern(
        makeAccess(MemorySpace::Global, AccessOp::Load, 4, [](int) { return std::nullopt; }));
    EXPECT_EQ(prediction.global->requests, 0);
    EXPECT_EQ(prediction.global->sectors, 0);
    EXPECT_EQ(prediction.global->efficiency, 0.0);
}

TEST(ModernShared, FourByteStridesGiveTheClassicConflicts) {
    struct Row {
        int strideWords;
        int wavefronts;
    };
    for (Row row : {Row{0, 1}, Row{1, 1}, Row{2, 2}, Row{4, 4}, Row{32, 32}, Row{33, 1}}) {
        const auto prediction =
            predictModern(makeAccess(MemorySpace::Shared, AccessOp::Load, 4,
                                     [&](int l) { return l * row.strideWords * 4; }));
        ASSERT_TRUE(prediction.shared.has_value());
        EXPECT_EQ(prediction.shared->wavefronts, row.wavefronts) << "stride " << row.strideWords;
        EXPECT_EQ(prediction.shared->worstBankDegree, row.strideWords == 0 ? 1 : row.wavefronts);
    }
}

TEST(ModernShared, WavefrontsServeEveryActiveLaneOnceAndNeverTwoWordsInOneBank) {
    const auto prediction = predictModern(makeAccess(
        MemorySpace::Shared, AccessOp::Load, 4, [](int l) { return (l % 4) * 128 + l % 3 * 4; }));
    const auto& s = *prediction.shared;
    std::uint32_t served = 0;
    for (const Wavefront& wave : s.wavefrontList) {
        EXPECT_EQ(served & wave.laneMask, 0u);
        served |= wave.laneMask;
    }
    EXPECT_EQ(served, 0xFFFFFFFFu);
    EXPECT_EQ(s.wavefronts, static_cast<int>(s.wavefrontList.size()));
    EXPECT_EQ(s.bankConflicts, s.wavefronts - s.idealWavefronts);
}

// The model is meant for validated accesses; like predictTextbook it must still be safe on any
// input. Width 0 once divided by zero (SIGFPE) and width 256 never finished its shared phases.
TEST(ModernShared, LoadPhasesFuseWithOnePartnerDistanceForTheWholeWarp) {
    auto shared = [](AccessOp op, int width,
                     const std::function<std::optional<std::int64_t>(int)>& address) {
        return *predictModern(makeAccess(MemorySpace::Shared, op, width, address)).shared;
    };
    const std::vector<std::uint32_t> quarters = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};
    const std::vector<std::uint32_t> fusedQuarters = {0xFFFFu, 0xFFFF0000u};
    // Lanes 2k and 2k+1 on one address: distance 1.
    auto pairs = shared(AccessOp::Load, 16, [](int l) { return (l / 2) * 16; });
    EXPECT_TRUE(pairs.fusion.considered);
    EXPECT_EQ(pairs.fusion.partnerDistance, 1);
    EXPECT_EQ(pairs.phases, fusedQuarters);
    EXPECT_EQ(pairs.fusion.splitLane[0], -1);
    EXPECT_EQ(pairs.fusion.splitLane[1], 0); // lane 0 and lane 2 differ
    // Lanes l and l ^ 2 on one address (measured on the H100: 2 phases, 2 wavefronts each).
    auto apart = shared(AccessOp::Load, 16, [](int l) { return (l & ~2) * 16; });
    EXPECT_EQ(apart.fusion.partnerDistance, 2);
    EXPECT_EQ(apart.fusion.splitLane[0], 0);
    EXPECT_EQ(apart.phases, fusedQuarters);
    EXPECT_EQ(apart.wavefronts, 4);
    EXPECT_EQ(apart.bankConflicts, 2);
    // Lanes l and l ^ 3 do not fuse; the model names the first lane of each distance that splits.
    auto xor3 = shared(AccessOp::Load, 16, [](int l) { return std::min(l, l ^ 3) * 16; });
    EXPECT_EQ(xor3.fusion.partnerDistance, 0);
    EXPECT_EQ(xor3.fusion.splitLane[0], 0);
    EXPECT_EQ(xor3.fusion.splitLane[1], 0);
    EXPECT_EQ(xor3.phases, quarters);
    // One split pair anywhere stops fusion for the whole warp.
    auto split = shared(AccessOp::Load, 16, [](int l) { return l == 27 ? 4096 : (l / 2) * 16; });
    EXPECT_EQ(split.fusion.partnerDistance, 0);
    EXPECT_EQ(split.fusion.splitLane[0], 26);
    EXPECT_EQ(split.phases, quarters);
    // An inactive partner never splits: every odd lane off still fuses (distance 1).
    auto even = shared(AccessOp::Load, 8, [](int l) -> std::optional<std::int64_t> {
        return l % 2 == 0 ? std::optional<std::int64_t>(l * 8) : std::nullopt;
    });
    EXPECT_EQ(even.fusion.partnerDistance, 1);
    EXPECT_EQ(even.phases, std::vector<std::uint32_t>{0xFFFFFFFFu});
    // Stores and narrow loads never fuse, and say so.
    auto store = shared(AccessOp::Store, 16, [](int l) { return (l / 2) * 16; });
    EXPECT_FALSE(store.fusion.considered);
    EXPECT_EQ(store.phases, quarters);
    auto narrow = shared(AccessOp::Load, 4, [](int l) { return (l / 2) * 4; });
    EXPECT_FALSE(narrow.fusion.considered);
    EXPECT_EQ(narrow.fusion.partnerDistance, 0);
}

TEST(ModernModel, InvalidInputGivesAnEmptyPredictionInsteadOfACrashOrAHang) {
    for (MemorySpace space : {MemorySpace::Global, MemorySpace::Shared}) {
        for (AccessOp op : {AccessOp::Load, AccessOp::Store}) {
            for (int width : {0, -4, 3, 32, 256, 1 << 30}) {
                SCOPED_TRACE("width " + std::to_string(width));
                const auto prediction =
                    predictModern(makeAccess(space, op, width, [](int lane) { return lane * 4; }));
                EXPECT_EQ(prediction.kind.widthBytes, width);
                if (space == MemorySpace::Global) {
                    ASSERT_TRUE(prediction.global.has_value());
                    EXPECT_EQ(prediction.global->sectors, 0);
                    EXPECT_TRUE(prediction.global->sectorList.empty());
                } else {
                    ASSERT_TRUE(prediction.shared.has_value());
                    EXPECT_EQ(prediction.shared->wavefronts, 0);
                    EXPECT_TRUE(prediction.shared->phases.empty());
                }
            }
            // Negative, misaligned and near-overflow addresses.
            for (std::int64_t bad : {std::int64_t{-32}, std::int64_t{2},
                                     std::numeric_limits<std::int64_t>::max() - 3}) {
                SCOPED_TRACE("address " + std::to_string(bad));
                const auto prediction = predictModern(
                    makeAccess(space, op, 4, [&](int lane) -> std::optional<std::int64_t> {
                        return lane == 5 ? bad : lane * 4;
                    }));
                if (space == MemorySpace::Global) {
                    EXPECT_EQ(prediction.global->sectors, 0);
                } else {
                    EXPECT_EQ(prediction.shared->wavefronts, 0);
                }
            }
        }
    }
}

} // namespace
