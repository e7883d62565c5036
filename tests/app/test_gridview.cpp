// The grid view: the heat map's warps against the per-warp model, the histogram against the grid
// model, a representative region for huge grids (said so), clicking a cell selects that warp in
// the other views (undoably), and superseded jobs are dropped.
#include "document/gridcomputation.h"
#include "document/patterndocument.h"
#include "views/gridview.h"
#include "windowfixture.h"

#include <warpscope/kernel.h>
#include <warpscope/kernel_preset.h>
#include <warpscope/model.h>

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTabWidget>
#include <QUndoStack>

namespace warpscope::app::test {
namespace {

Kernel naiveCol(std::int64_t bx, std::int64_t by) {
    const KernelPreset* preset = findKernelPreset("transpose-naivecol-cg");
    EXPECT_NE(preset, nullptr);
    Kernel kernel = preset != nullptr ? preset->kernel : Kernel{};
    for (Parameter& parameter : kernel.parameters) {
        if (parameter.name == "bx") {
            parameter.value = bx;
        }
        if (parameter.name == "by") {
            parameter.value = by;
        }
    }
    return kernel;
}

TEST(GridComputation, HugeGridShowsARegionAndTheWholeHistogram) {
    GridRequest request;
    request.kernel = naiveCol(16, 16); // 128 x 128 blocks of 8 warps: 131072 warps
    request.access = 0;
    request.maxWarps = 8192; // below the launch: a region
    auto result = GridComputation::compute(request);
    ASSERT_TRUE(result) << result.error().describe();
    const GridResult& r = result.value();
    EXPECT_EQ(r.totalWarps, 131072);
    EXPECT_TRUE(r.representative);
    EXPECT_LE(static_cast<std::int64_t>(r.values.size()), request.maxWarps);
    EXPECT_EQ(static_cast<std::int64_t>(r.values.size()),
              r.shownBlocksX * r.shownBlocksY * r.warpsPerBlock);
    // The histogram is the grid model's, over every warp.
    auto resolved = resolveKernel(request.kernel);
    ASSERT_TRUE(resolved);
    auto grid = predictGrid(resolved.value());
    ASSERT_TRUE(grid);
    EXPECT_EQ(r.prediction.histogram, grid.value().accesses[0].histogram);
    std::int64_t warps = 0;
    for (const auto n : r.prediction.histogram) {
        warps += n;
    }
    EXPECT_EQ(warps, 131072);
    // Each cell is the per-warp model of its warp: check one away from the origin.
    const std::int64_t bxCell = r.shownBlocksX - 1;
    const std::int64_t byCell = r.shownBlocksY - 1;
    const std::int64_t warp = r.warpsPerBlock - 1;
    auto access = resolveWarp(resolved.value(), 0, byCell * r.grid.x + bxCell, warp);
    ASSERT_TRUE(access);
    const ModernPrediction p = predictModern(access.value());
    ASSERT_TRUE(p.global.has_value());
    const std::size_t index =
        static_cast<std::size_t>((byCell * r.shownBlocksX + bxCell) * r.warpsPerBlock + warp);
    EXPECT_EQ(r.values[index], p.global->sectors);
}

// The default budget holds the 2048 x 2048 transpose's 131072 warps: every one is drawn, each the
// per-warp model's count for it (the values come from the grid model's one pass).
TEST(GridComputation, EveryWarpOfTheTransposeIsItsPerWarpModel) {
    GridRequest request;
    request.kernel = naiveCol(32, 8); // 64 x 256 blocks of 8 warps
    auto result = GridComputation::compute(request);
    ASSERT_TRUE(result) << result.error().describe();
    const GridResult& r = result.value();
    EXPECT_FALSE(r.representative);
    ASSERT_EQ(static_cast<std::int64_t>(r.values.size()), 131072);
    auto resolved = resolveKernel(request.kernel);
    ASSERT_TRUE(resolved);
    int maxValue = 0;
    for (std::int64_t sample = 0; sample < 131072; sample += 4099) {
        const std::int64_t warp = sample % r.warpsPerBlock;
        const std::int64_t cell = sample / r.warpsPerBlock; // row-major over the shown blocks
        const std::int64_t block = (cell / r.shownBlocksX) * r.grid.x + cell % r.shownBlocksX;
        auto access = resolveWarp(resolved.value(), 0, block, warp);
        ASSERT_TRUE(access);
        const ModernPrediction p = predictModern(access.value());
        ASSERT_TRUE(p.global.has_value());
        EXPECT_EQ(r.values[static_cast<std::size_t>(sample)], p.global->sectors)
            << "block " << block << ", warp " << warp;
    }
    for (int v : r.values) {
        maxValue = std::max(maxValue, v);
    }
    EXPECT_EQ(r.maxValue, maxValue);
    // The shared-memory tile of the tiled transpose: wavefronts, one per warp of the launch.
    const KernelPreset* tiled = findKernelPreset("transpose-tiled");
    ASSERT_NE(tiled, nullptr);
    for (int a = 0; a < static_cast<int>(tiled->kernel.accesses.size()); ++a) {
        if (tiled->kernel.accesses[static_cast<std::size_t>(a)].kind.space != MemorySpace::Shared) {
            continue;
        }
        GridRequest shared;
        shared.kernel = tiled->kernel;
        shared.access = a;
        auto tile = GridComputation::compute(shared);
        ASSERT_TRUE(tile) << tile.error().describe();
        EXPECT_TRUE(tile.value().shared);
        auto resolvedTiled = resolveKernel(tiled->kernel);
        ASSERT_TRUE(resolvedTiled);
        auto warp0 = resolveWarp(resolvedTiled.value(), a, 0, 0);
        ASSERT_TRUE(warp0);
        EXPECT_EQ(tile.value().values.front(), predictModern(warp0.value()).shared->wavefronts);
    }
}

TEST(GridComputation, SmallGridShowsEveryWarp) {
    GridRequest request;
    request.kernel = naiveCol(8, 32);
    request.kernel.parameters[0].value = 64; // nx
    request.kernel.parameters[1].value = 64; // ny
    auto result = GridComputation::compute(request);
    ASSERT_TRUE(result) << result.error().describe();
    EXPECT_FALSE(result.value().representative);
    EXPECT_EQ(static_cast<std::int64_t>(result.value().values.size()), result.value().totalWarps);
}

TEST(GridComputation, SupersededJobsAreDropped) {
    GridComputation computation;
    QSignalSpy results(&computation, &GridComputation::resultReady);
    GridRequest first;
    first.kernel = naiveCol(16, 16);
    computation.request(first);
    GridRequest second;
    second.kernel = naiveCol(8, 32);
    const int latest = computation.request(second);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !results.isEmpty(); }, 60000));
    // Until the worker is idle the first job could still be delivered: wait for that, then for
    // every result it posted, so that a superseded result shows here however slow the machine.
    ASSERT_TRUE(QTest::qWaitFor([&] { return !computation.isBusy(); }, 60000));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    ASSERT_EQ(results.size(), 1);
    EXPECT_EQ(results.at(0).at(0).toInt(), latest);
    EXPECT_EQ(results.at(0).at(1).value<GridResult>().warpsPerBlock, 8);
}

class GridViewTest : public WindowTest {};

TEST_F(GridViewTest, ClickingACellSelectsThatWarpUndoably) {
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("table-4-11"))); // NaiveCol (32, 32)
    GridView* view = window->gridView();
    QSignalSpy computed(view, &GridView::computed);
    window->viewTabs()->setCurrentWidget(view);
    ASSERT_TRUE(computed.wait(60000));
    ASSERT_TRUE(view->result().has_value()) << qPrintable(view->statusText());
    EXPECT_EQ(view->result()->totalWarps, 131072);
    EXPECT_FALSE(view->result()->representative);
    EXPECT_TRUE(view->statusText().contains(QStringLiteral("every warp shown")))
        << qPrintable(view->statusText());
    const QRect area = view->heatMapRect();
    const QPoint target(area.left() + area.width() * 3 / 4, area.top() + area.height() / 2);
    const auto warp = view->warpAt(target);
    ASSERT_TRUE(warp.has_value());
    const int undoBefore = document().undoStack()->count();
    QTest::mouseClick(view, Qt::LeftButton, {}, target);
    const Dim3 grid = view->result()->grid;
    const auto& source = document().pattern().source;
    ASSERT_TRUE(source.has_value());
    EXPECT_EQ(source->blockIdx.x, warp->first % grid.x);
    EXPECT_EQ(source->blockIdx.y, warp->first / grid.x);
    EXPECT_EQ(source->warpIndex, warp->second);
    EXPECT_GT(warp->first, 0);
    EXPECT_EQ(document().undoStack()->count(), undoBefore + 1);
    view->grab().save(QStringLiteral("/tmp/warpscope-gridview.png"));
    document().undoStack()->undo();
    EXPECT_EQ(document().pattern().source->blockIdx, (Dim3{0, 0, 0}));
}

} // namespace
} // namespace warpscope::app::test

namespace warpscope::app::test {
namespace {

// The grid view's margins, header and histogram are sized for the app's type; in type at least a
// quarter larger (a lecture slide at 4K: 26 px) they grow with it, so the histogram's labels
// (one row per count) are not drawn over one another, and at the usual type they stay as they
// were (the golden figure and the screenshots).
TEST(GridViewType, TheLayoutGrowsWithLargeTypeOnly) {
    PatternDocument document;
    GridView view(&document);
    view.resize(1800, 1500);
    QFont usual = view.font();
    usual.setPixelSize(12);
    view.setFont(usual);
    // 56 px left of the map for the blockIdx.y axis, 40 below it for the blockIdx.x axis.
    EXPECT_EQ(view.heatMapRect(),
              QRect(12 + 56, 40, 1800 - 3 * 12 - 56 - 260, 1500 - 40 - 12 - 40));
    QFont large = view.font();
    large.setPixelSize(26);
    view.setFont(large);
    const qreal scale = QFontMetricsF(large).height() / 16.0;
    ASSERT_GT(scale, 1.25);
    const QRect area = view.heatMapRect();
    EXPECT_EQ(area.top(), qRound(40 * scale));
    EXPECT_EQ(area.left(), qRound(12 * scale) + qRound(56 * scale));
    // The header's line fits above the map, and a histogram row (14 px at the usual type) is
    // taller than its label's digits in this type (at 14 px they ran into the next row's).
    EXPECT_GE(area.top(), QFontMetrics(large).height());
    const int digits = QFontMetrics(large).tightBoundingRect(QStringLiteral("0123456789")).height();
    EXPECT_LT(14, digits);
    EXPECT_GT(qRound(14 * scale), digits);
    EXPECT_EQ(view.width() - area.right() - 1, qRound(12 * scale) * 2 + qRound(260 * scale));
}

} // namespace
} // namespace warpscope::app::test
