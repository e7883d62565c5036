// Async copies global -> shared in the app (issue 19): a copy_async kernel preset drawn in the
// warp view (its global side) and the bank view (its shared side), the prediction's text, and the
// element-size and stride sweeps of the kernel-sweep tab on the grid model alone (no GPU).
#include "document/evaluation.h"
#include "document/kernelsweepdata.h"
#include "views/bankview.h"
#include "views/predictiontext.h"
#include "windowfixture.h"

#include <warpscope/kernel_preset.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace warpscope::app::test {
namespace {

Kernel presetKernel(const char* id, std::int64_t n) {
    const KernelPreset* preset = findKernelPreset(id);
    if (preset == nullptr) {
        ADD_FAILURE() << "no kernel preset " << id;
        return {};
    }
    return kernelAtPoint(preset->kernel, {{"n", n}});
}

TEST_F(WindowTest, AnAsyncCopyIsDrawnInTheWarpViewAndTheBankView) {
    ASSERT_TRUE(window->showKernelPreset(QStringLiteral("copyasync-shared-stride")));
    window->showView(MainWindow::View::Bank);
    QApplication::processEvents();
    const auto& evaluation = document().evaluation();
    ASSERT_TRUE(evaluation.has_value());
    ASSERT_EQ(evaluation->access.kind.op, AccessOp::CopyAsync);
    // The global side: a coalesced 4-byte read, 4 sectors in one line.
    ASSERT_TRUE(evaluation->modern.global.has_value());
    EXPECT_EQ(evaluation->modern.global->sectors, 4);
    // The shared side: stride 32 words puts all 32 lanes on bank 0.
    ASSERT_TRUE(evaluation->modern.shared.has_value());
    EXPECT_EQ(evaluation->modern.shared->wavefronts, 32);
    EXPECT_EQ(evaluation->modern.shared->bankConflicts, 31);
    const auto& degrees = window->bankView()->bankDegrees();
    EXPECT_EQ(*std::max_element(degrees.begin(), degrees.end()), 32);
    EXPECT_EQ(degrees[0], 32);
    EXPECT_GT(window->bankView()->cellCount(), 0);
    const BankContent content = window->bankView()->content();
    EXPECT_TRUE(content.title.startsWith(QStringLiteral("Async copy global → shared")))
        << qPrintable(content.title);
    EXPECT_TRUE(content.title.contains(QStringLiteral("shared side"))) << qPrintable(content.title);
    EXPECT_TRUE(content.note.contains(QStringLiteral("8- or 16-byte"))) << qPrintable(content.note);
    // A lane's banks are those of its shared address.
    EXPECT_EQ(evaluation->banksOfLane(5), 1u);

    window->showView(MainWindow::View::Warp);
    QApplication::processEvents();
    EXPECT_TRUE(describeAccess(evaluation->access).contains(QStringLiteral("cp.async")));
}

TEST(CopyAsyncEvaluation, TheSharedSideIsAStoreOfTheSharedAddresses) {
    Pattern pattern;
    pattern.kind = AccessKind{MemorySpace::Global, AccessOp::CopyAsync, 8, CachePath::Default};
    PatternSource source;
    source.addressExpression = "lane * 16";
    source.sharedAddressExpression = "lane * 8";
    pattern.source = source;
    auto evaluation = evaluatePattern(pattern, {});
    ASSERT_TRUE(evaluation.ok()) << evaluation.error().describe();
    // Global stride 16 bytes: 512 bytes, 4 lines; each line's 8 lanes write 64 contiguous bytes.
    EXPECT_EQ(evaluation->modern.global->lines, 4);
    EXPECT_EQ(evaluation->modern.shared->wavefronts, 4);
    EXPECT_EQ(evaluation->modern.shared->idealWavefronts, 2);
    EXPECT_EQ(evaluation->modern.shared->bankConflicts, 2);
    const WarpAccess shared = sharedSideOf(evaluation->access);
    EXPECT_EQ(shared.kind.space, MemorySpace::Shared);
    EXPECT_EQ(shared.addresses[3], 24);
    EXPECT_TRUE(modernSummary(*evaluation).contains(QStringLiteral("4 wavefront(s)")));

    pattern.source->sharedAddressExpression.clear();
    auto missing = evaluatePattern(pattern, {});
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().where, "sharedAddressExpression");
}

// The element-size sweep on the grid model alone: every w moves the same bytes, so the same
// sectors; the async copy and the staged copy agree on the global side.
TEST(CopyAsyncSweep, ElementSizeSweepOnTheModelAlone) {
    constexpr std::int64_t n = 1 << 20;
    for (const char* id : {"copyasync-width", "copyasync-width-staged"}) {
        SCOPED_TRACE(id);
        const Kernel kernel = presetKernel(id, n);
        QString error;
        const auto plan = planKernelSweep(kernel, KernelSweepAxis{false, "w"},
                                          QStringLiteral("4, 8, 16"), &error);
        ASSERT_TRUE(plan.has_value()) << qPrintable(error);
        const KernelSweepData data = computeKernelSweep(kernel, *plan);
        ASSERT_EQ(data.modelSectors.size(), 3);
        EXPECT_TRUE(data.hasShared);
        for (int i = 0; i < 3; ++i) {
            EXPECT_TRUE(data.errors[i].isEmpty()) << qPrintable(data.errors[i]);
            EXPECT_EQ(data.modelSectors[i], n / 32);
            EXPECT_EQ(data.modelWavefronts[i], n / 128);
        }
    }
    const Kernel strided = presetKernel("copyasync-shared-stride", 1 << 16);
    QString error;
    const auto plan = planKernelSweep(strided, KernelSweepAxis{false, "stride"},
                                      QStringLiteral("1, 32, 33"), &error);
    ASSERT_TRUE(plan.has_value()) << qPrintable(error);
    const KernelSweepData data = computeKernelSweep(strided, *plan);
    ASSERT_EQ(data.modelWavefronts.size(), 3);
    EXPECT_EQ(data.modelWavefronts[1], 32 * data.modelWavefronts[0]);
    EXPECT_EQ(data.modelWavefronts[2], data.modelWavefronts[0]);
}

} // namespace
} // namespace warpscope::app::test
