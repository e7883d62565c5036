// The one byte formatter and the one statistics helper: each caller's way of printing a byte
// count (warpscope/format.h names them) and the median and percentile every timing uses.
#include "byte_units_test_support.h"

#include <warpscope/format.h>
#include <warpscope/statistics.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace warpscope {
namespace {

using test_units::kGiB;
using test_units::kKiB;
using test_units::kMiB;

TEST(FormatBytes, OneUnlessWholeAsTransfersAndTheProbe) {
    EXPECT_EQ(formatBytes(0), "0 B");
    EXPECT_EQ(formatBytes(1023), "1023 B");
    EXPECT_EQ(formatBytes(1024), "1 KiB");
    EXPECT_EQ(formatBytes(1536), "1.5 KiB");
    EXPECT_EQ(formatBytes(2 * kMiB), "2 MiB");
    EXPECT_EQ(formatBytes(kMiB - 1), "1024.0 KiB"); // not whole: one decimal, carried
    EXPECT_EQ(formatBytes(3 * kGiB / 2), "1.5 GiB");
    EXPECT_EQ(formatBytes(4 * 1024 * kGiB), "4 TiB");
    EXPECT_EQ(formatBytes(-2048), "-2048 B"); // a negative count stays in the smallest unit
}

TEST(FormatBytes, TiesRoundAwayFromZeroAsQtRounds) {
    // 2.25 MiB and 2.75 MiB are exact ties at one decimal: Qt's "%1".arg(2.25, 0, 'f', 1) is
    // "2.3", where printf("%.1f") gives "2.2".
    EXPECT_EQ(formatBytes(2 * kMiB + kMiB / 4), "2.3 MiB");
    EXPECT_EQ(formatBytes(2 * kMiB + 3 * kMiB / 4), "2.8 MiB");
    // Just below a tie rounds down.
    EXPECT_EQ(formatBytes(2 * kMiB + kMiB / 4 - 1), "2.2 MiB");
}

TEST(FormatBytes, OneBelowTenAsTheViews) {
    const ByteFormat views{ByteUnit::B, ByteUnit::GiB, ByteDecimals::OneBelowTen};
    EXPECT_EQ(formatBytes(128, views), "128 B");
    EXPECT_EQ(formatBytes(1024, views), "1.0 KiB");
    EXPECT_EQ(formatBytes(2560, views), "2.5 KiB");
    EXPECT_EQ(formatBytes(10 * kKiB, views), "10 KiB");
    EXPECT_EQ(formatBytes(12 * kKiB + 600, views), "13 KiB");
    EXPECT_EQ(formatBytes(kMiB - 1, views), "1024 KiB");
    EXPECT_EQ(formatBytes(9 * kMiB + 900 * kKiB, views), "9.9 MiB");
    EXPECT_EQ(formatBytes(2 * 1024 * kGiB, views), "2048 GiB"); // GiB is the largest
    EXPECT_EQ(formatBytes(-5, views), "-5 B");
}

TEST(FormatBytes, OneDecimalFromKiBAsStreams) {
    const ByteFormat streams{ByteUnit::KiB, ByteUnit::MiB, ByteDecimals::One};
    EXPECT_EQ(formatBytes(2 * kMiB, streams), "2.0 MiB");
    EXPECT_EQ(formatBytes(64 * kMiB, streams), "64.0 MiB");
    EXPECT_EQ(formatBytes(2 * kGiB, streams), "2048.0 MiB");
    EXPECT_EQ(formatBytes(512 * kKiB, streams), "512 KiB");
    EXPECT_EQ(formatBytes(1536, streams), "2 KiB"); // the smallest unit is whole
}

TEST(FormatBytes, KiBToGiBAsL2Persistence) {
    const ByteFormat l2{ByteUnit::KiB, ByteUnit::GiB, ByteDecimals::OneUnlessWhole};
    EXPECT_EQ(formatBytes(512 * kKiB, l2), "512 KiB");
    EXPECT_EQ(formatBytes(1000032, l2), "977 KiB");
    EXPECT_EQ(formatBytes(50 * kMiB, l2), "50 MiB");
    EXPECT_EQ(formatBytes(60 * kMiB + kMiB / 2, l2), "60.5 MiB");
    EXPECT_EQ(formatBytes(80 * kGiB, l2), "80 GiB");
    EXPECT_EQ(formatBytes(2048 * kGiB, l2), "2048 GiB");
}

TEST(FormatBytes, ExtremesNeitherOverflowNorLoseTheSign) {
    EXPECT_EQ(formatBytes(std::numeric_limits<std::int64_t>::max()), "8388608.0 TiB");
    EXPECT_EQ(formatBytes(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808 B");
}

TEST(Statistics, MedianOfOddAndEvenCounts) {
    EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
    EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
    EXPECT_DOUBLE_EQ(median({}), 0.0);
}

TEST(Statistics, SummaryHasTheSpread) {
    const SampleSummary summary = summarizeSamples({5.0, 1.0, 9.0, 2.0});
    EXPECT_EQ(summary.samples, 4);
    EXPECT_DOUBLE_EQ(summary.min, 1.0);
    EXPECT_DOUBLE_EQ(summary.max, 9.0);
    EXPECT_DOUBLE_EQ(summary.median, 3.5);
    const SampleSummary none = summarizeSamples({});
    EXPECT_EQ(none.samples, 0);
    EXPECT_DOUBLE_EQ(none.median, 0.0);
}

TEST(Statistics, PercentileIsANearestRankSample) {
    // Ranks 0..10: p50 is rank 5, p95 rank round(9.5) = 10, never an interpolated value.
    const std::vector<double> values = {10, 0, 9, 1, 8, 2, 7, 3, 6, 4, 5};
    EXPECT_DOUBLE_EQ(percentile(values, 0.5), 5.0);
    EXPECT_DOUBLE_EQ(percentile(values, 0.95), 10.0);
    EXPECT_DOUBLE_EQ(percentile(values, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(percentile(values, 2.0), 10.0); // clamped
    // An even count: p50 is the upper middle sample (rank round(1.5) = 2), not their mean.
    EXPECT_DOUBLE_EQ(percentile({1.0, 2.0, 3.0, 4.0}, 0.5), 3.0);
    EXPECT_DOUBLE_EQ(percentile({}, 0.5), 0.0);
}

} // namespace
} // namespace warpscope
