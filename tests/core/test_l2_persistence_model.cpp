// The L2 persistence window's model (warpscope/l2_persistence_model.h): each case worked out by
// hand from the rule (16 MiB, 64 MiB regions, 32 MiB set aside, 50 MiB of L2, 4 streaming bytes per
// region byte, as in the H100 experiment).
#include "byte_units_test_support.h"
#include "warpscope/l2_persistence_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace warpscope {
namespace {

using test_units::kMiB;

TEST(L2PersistenceModelRule, PersistingLinesThatFitAreAllServed) {
    const L2PersistenceModel model =
        l2PersistenceModel(16 * kMiB, 1.0, true, 32 * kMiB, 50 * kMiB, 4, 2);
    EXPECT_TRUE(model.fits);
    EXPECT_DOUBLE_EQ(model.regionHitFraction, 1.0);
    // One sector in five is the region's; two partitions: 1.5 lookups per sector.
    EXPECT_DOUBLE_EQ(model.lookupsPerSector, 1.5);
    EXPECT_DOUBLE_EQ(model.hitRateFraction, 0.2 / 1.5);
    // One partition: every sector is looked up once.
    EXPECT_DOUBLE_EQ(
        l2PersistenceModel(16 * kMiB, 1.0, true, 32 * kMiB, 50 * kMiB, 4, 1).hitRateFraction, 0.2);
}

TEST(L2PersistenceModelRule, StreamingMarkedLinesAreNeverServed) {
    // hitRatio 0.25: a quarter persists, the rest (missProp = streaming) is evicted first.
    const L2PersistenceModel model =
        l2PersistenceModel(2 * kMiB, 0.25, true, 32 * kMiB, 50 * kMiB, 4, 2);
    EXPECT_DOUBLE_EQ(model.regionHitFraction, 0.25);
}

TEST(L2PersistenceModelRule, WithoutAWindowLinesSurviveTheStreamAtRandom) {
    // 16 MiB: 64 MiB streamed between two reads of a line, 50 MiB of L2: exp(-1.28).
    EXPECT_DOUBLE_EQ(
        l2PersistenceModel(16 * kMiB, 0.0, false, 32 * kMiB, 50 * kMiB, 4, 2).regionHitFraction,
        std::exp(-64.0 / 50.0));
    // 2 MiB: 8 MiB streamed: exp(-0.16), about 85 %, not LRU's 100 %.
    const double small =
        l2PersistenceModel(2 * kMiB, 0.0, false, 32 * kMiB, 50 * kMiB, 4, 2).regionHitFraction;
    EXPECT_NEAR(small, 0.8521, 1e-4);
    // The hitRatio argument is ignored without a window.
    EXPECT_DOUBLE_EQ(
        l2PersistenceModel(2 * kMiB, 1.0, false, 32 * kMiB, 50 * kMiB, 4, 2).regionHitFraction,
        small);
}

TEST(L2PersistenceModelRule, OversubscribedPersistingLinesThrashAtRandom) {
    // 64 MiB, hitRatio 1 over 32 MiB set aside: ratio 2, s = exp(-2 (1 - s)), s ~ 0.2032.
    const L2PersistenceModel model =
        l2PersistenceModel(64 * kMiB, 1.0, true, 32 * kMiB, 50 * kMiB, 4, 2);
    EXPECT_FALSE(model.fits);
    const double s = model.regionHitFraction;
    EXPECT_NEAR(s, std::exp(-2.0 * (1.0 - s)), 1e-9);
    EXPECT_NEAR(s, 0.2032, 1e-4);
    // The tuned hitRatio (set-aside / size = 0.5) fits exactly: half the region is served.
    EXPECT_DOUBLE_EQ(tunedHitRatio(64 * kMiB, 32 * kMiB), 0.5);
    const L2PersistenceModel tuned =
        l2PersistenceModel(64 * kMiB, 0.5, true, 32 * kMiB, 50 * kMiB, 4, 2);
    EXPECT_TRUE(tuned.fits);
    EXPECT_DOUBLE_EQ(tuned.regionHitFraction, 0.5);
    EXPECT_GT(tuned.regionHitFraction, s);
}

TEST(L2PersistenceModelRule, AColdLaunchMissesTheFirstRead) {
    // 512 MiB of region reads per launch over 16 MiB: 32 reads, the first misses.
    EXPECT_DOUBLE_EQ(l2PersistenceModel(16 * kMiB, 1.0, true, 32 * kMiB, 50 * kMiB, 4, 2, 32.0)
                         .regionHitFraction,
                     31.0 / 32.0);
    EXPECT_DOUBLE_EQ(
        l2PersistenceModel(16 * kMiB, 1.0, true, 32 * kMiB, 50 * kMiB, 4, 2, 1.0).regionHitFraction,
        0.0);
}

TEST(L2PersistenceModelRule, RandomReplacementSurvival) {
    EXPECT_DOUBLE_EQ(randomReplacementSurvival(0.5), 1.0);
    EXPECT_DOUBLE_EQ(randomReplacementSurvival(1.0), 1.0);
    const double a = randomReplacementSurvival(1.5);
    const double b = randomReplacementSurvival(3.0);
    EXPECT_LT(a, 1.0);
    EXPECT_LT(b, a);
    EXPECT_GT(b, 0.0);
    EXPECT_NEAR(b, std::exp(-3.0 * (1.0 - b)), 1e-9);
}

TEST(L2PersistenceModelRule, PartitionsFollowTheWhitepapers) {
    EXPECT_EQ(l2PartitionCount(9, 0), 2); // H100
    EXPECT_EQ(l2PartitionCount(8, 0), 2); // A100
    EXPECT_EQ(l2PartitionCount(8, 6), 1);
    EXPECT_EQ(l2PartitionCount(8, 9), 1);
    EXPECT_EQ(l2PartitionCount(10, 0), 1);
}

TEST(L2PersistenceModelRule, OnlyTheWholeRegionInTheWindowIsAPrediction) {
    constexpr std::int64_t setAside = 32768000; // the H100's 31.25 MiB
    const auto at = [](std::int64_t size, double ratio, bool window) {
        return l2PersistenceModel(size, ratio, window, setAside, 50 * kMiB, 4, 2);
    };
    // hitRatio 1 and the region within the set-aside part: the notes' rule.
    for (std::int64_t size : {2 * kMiB, 16 * kMiB, 24 * kMiB, std::int64_t{setAside}}) {
        EXPECT_EQ(at(size, 1.0, true).basis, L2ModelBasis::WholeRegionPersists) << size;
        EXPECT_EQ(at(size, 1.0, true).regionKind, L2ModelKind::Prediction) << size;
        // Cold launches too: the first read misses, the rest are served.
        EXPECT_EQ(l2PersistenceModel(size, 1.0, true, setAside, 50 * kMiB, 4, 2, 32.0).regionKind,
                  L2ModelKind::Prediction);
    }
    // A byte past the set-aside part, hitRatio below 1 even where it fits (the tuned 0.977 at
    // 32 MiB), or no window: estimates.
    EXPECT_EQ(at(setAside + 1024, 1.0, true).basis, L2ModelBasis::PastSetAside);
    EXPECT_EQ(at(32 * kMiB, 1.0, true).regionKind, L2ModelKind::Estimate);
    const double tuned = tunedHitRatio(32 * kMiB, setAside);
    EXPECT_TRUE(at(32 * kMiB, tuned, true).fits);
    EXPECT_EQ(at(32 * kMiB, tuned, true).basis, L2ModelBasis::PartialHitRatio);
    EXPECT_EQ(at(32 * kMiB, tuned, true).regionKind, L2ModelKind::Estimate);
    EXPECT_EQ(at(2 * kMiB, 0.25, true).regionKind, L2ModelKind::Estimate);
    EXPECT_EQ(at(2 * kMiB, 0.0, false).basis, L2ModelBasis::NoWindow);
    EXPECT_EQ(at(2 * kMiB, 1.0, false).regionKind, L2ModelKind::Estimate);
    // No set-aside at all: nothing persists, nothing is predicted.
    EXPECT_EQ(l2PersistenceModel(2 * kMiB, 1.0, true, 0, 50 * kMiB, 4, 2).regionKind,
              L2ModelKind::Estimate);
    // The L2 hit rate is never a prediction.
    EXPECT_EQ(at(16 * kMiB, 1.0, true).hitRateKind, L2ModelKind::Estimate);
    EXPECT_STREQ(l2ModelKindName(L2ModelKind::Prediction), "prediction");
    EXPECT_STREQ(l2ModelKindName(L2ModelKind::Estimate), "estimate");
    EXPECT_NE(std::string(l2ModelBasisText(L2ModelBasis::WholeRegionPersists)).find("prediction"),
              std::string::npos);
    for (L2ModelBasis basis :
         {L2ModelBasis::PartialHitRatio, L2ModelBasis::PastSetAside, L2ModelBasis::NoWindow}) {
        EXPECT_EQ(std::string(l2ModelBasisText(basis)).rfind("estimate (no documented rule)", 0),
                  0u);
    }
}

} // namespace
} // namespace warpscope
