// ldmatrix / stmatrix patterns in the app: the evaluation counts them as core does, and the
// access is named as the instruction it is, not as a plain shared load.
#include "document/evaluation.h"
#include "views/predictiontext.h"

#include <gtest/gtest.h>

namespace warpscope::app {
namespace {

TEST(MatrixAccessText, AnLdmatrixIsNamedAsSuchAndCountedAsCoreCountsIt) {
    Pattern pattern;
    pattern.kind = AccessKind{MemorySpace::Shared, AccessOp::Load, 16, CachePath::Default};
    pattern.kind.matrices = 4;
    // A row-major tile with 128-byte rows: the 8 rows of each matrix share one 16-byte bank
    // group, 8 wavefronts per matrix (docs/models.md, "ldmatrix and stmatrix").
    for (int lane = 0; lane < 32; ++lane) {
        pattern.addresses[static_cast<std::size_t>(lane)] = lane * 128;
    }
    auto evaluation = evaluatePattern(pattern, {});
    ASSERT_TRUE(evaluation.ok()) << evaluation.error().describe();
    ASSERT_TRUE(evaluation->modern.shared.has_value());
    EXPECT_EQ(evaluation->modern.shared->wavefronts, 32);
    EXPECT_EQ(evaluation->modern.shared->bankConflicts, 28);
    EXPECT_TRUE(describeAccess(evaluation->access).startsWith(QStringLiteral("ldmatrix.x4,")))
        << qPrintable(describeAccess(evaluation->access));

    pattern.kind.op = AccessOp::Store;
    pattern.kind.transpose = true;
    auto stored = evaluatePattern(pattern, {});
    ASSERT_TRUE(stored.ok()) << stored.error().describe();
    EXPECT_TRUE(describeAccess(stored->access).startsWith(QStringLiteral("stmatrix.x4.trans,")))
        << qPrintable(describeAccess(stored->access));
}

} // namespace
} // namespace warpscope::app
