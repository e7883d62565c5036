// The Grid tab on large and huge grids: above the size it asks about, the view asks first with the
// core's estimate (blocks x threads x accesses, thread-accesses, memory); declining leaves it not
// computed with a Compute button; while a grid computes the view shows its progress, never the
// previous grid, and Esc stops it; over the grid model's budget it says so with the estimate, the
// limit and the variable that raises it. A uniform kernel's map has block lines, axes of block
// indices and a hover that names block, warp and threads. Each answers within 2 s.
#include "document/gridcomputation.h"
#include "document/patterndocument.h"
#include "qtmessagerecorder.h"
#include "views/gridview.h"
#include "views/hugegridquestion.h"

#include <warpscope/kernel.h>
#include <warpscope/kernel_preset.h>

#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <memory>
#include <string>

namespace warpscope::app::test {
namespace {

/// One 4-byte global load of `lane * 4` (the same 4 sectors in every warp: a uniform kernel).
Kernel launch(const std::string& gridX, const std::string& gridY, int blockX) {
    const std::string json = R"({"name": "uniform", "grid": [)" + gridX + ", " + gridY +
                             R"(, 1], "block": [)" + std::to_string(blockX) +
                             R"(, 1, 1], "buffers": [{"name": "data", "bytes": 4096}], )"
                             R"("accesses": [{"op": "load", "space": "global", "width": 4, )"
                             R"("buffer": "data", "address": "lane * 4"}]})";
    auto kernel = kernelFromJsonText(json);
    EXPECT_TRUE(kernel) << kernel.error().describe();
    return kernel ? kernel.value() : Kernel{};
}

std::int64_t threadAccessesOf(const Kernel& kernel) {
    auto resolved = resolveKernel(kernel);
    EXPECT_TRUE(resolved) << resolved.error().describe();
    return resolved ? estimateGrid(resolved.value()).threadAccesses : 0;
}

/// Where screenshots go when WARPSCOPE_SCREENSHOT_DIR is set (run under Xvfb to look at them).
void saveShot(QWidget* widget, const char* name) {
    const QString dir = qEnvironmentVariable("WARPSCOPE_SCREENSHOT_DIR");
    if (!dir.isEmpty()) {
        widget->grab().save(QDir(dir).filePath(QString::fromLatin1(name)));
    }
}

// The question is for grids a user made large: no built-in kernel at its own size asks, and the
// size asked about is below the grid model's budget, so asking comes before refusing.
TEST(HugeGridDefaults, NoKernelPresetIsAskedAboutAndTheSizeIsUnderTheBudget) {
    EXPECT_LT(GridView::kDefaultAskAbove, defaultGridBudget().maxThreadAccesses);
    ASSERT_FALSE(builtinKernelPresets().empty());
    for (const KernelPreset& preset : builtinKernelPresets()) {
        EXPECT_LE(threadAccessesOf(preset.kernel), GridView::kDefaultAskAbove) << preset.id;
    }
    PatternDocument document;
    GridView view(&document);
    EXPECT_EQ(view.askAboveThreadAccesses(), GridView::kDefaultAskAbove);
}

/// The Grid tab's view on a document of its own, shown as a window on the offscreen platform.
class HugeGridTest : public ::testing::Test {
protected:
    void SetUp() override {
        clearRecordedQtWarnings();
        view = std::make_unique<GridView>(&document);
        view->resize(1200, 700);
        view->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(view.get()));
    }
    void TearDown() override {
        view.reset();
        EXPECT_TRUE(recordedQtWarnings().isEmpty())
            << qPrintable(recordedQtWarnings().join(QLatin1Char('\n')));
    }
    /// Shows a small grid and waits for it: what a later grid must not be confused with.
    void computeSmallGrid(GridView* grid) {
        document.editKernel(launch("4", "2", 64), QStringLiteral("small"));
        // The view computed the empty document's grid when it was shown: wait for this one.
        ASSERT_TRUE(QTest::qWaitFor(
            [&] { return grid->result().has_value() && grid->result()->totalWarps == 16; }, 20000))
            << qPrintable(grid->statusText());
    }

    PatternDocument document; // outlives the view
    std::unique_ptr<GridView> view;
};

// 65,536 blocks x 256 threads x 1 access = 16,777,216 thread-accesses, above a size of 2^20.
TEST_F(HugeGridTest, AsksFirstWithTheEstimateAndComputesWhenTheUserAgrees) {
    computeSmallGrid(view.get());
    view->setAskAboveThreadAccesses(std::int64_t{1} << 20);
    const Kernel big = launch("65536", "1", 256);
    ASSERT_EQ(threadAccessesOf(big), 16777216);
    document.editKernel(big, QStringLiteral("large"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return view->question() != nullptr && view->question()->isVisible(); }, 2000))
        << qPrintable(view->statusText());
    HugeGridQuestion* question = view->question();
    const QString work = QStringLiteral("%1 blocks × %2 threads × 1 access = %3 thread-accesses")
                             .arg(HugeGridQuestion::grouped(65536), HugeGridQuestion::grouped(256),
                                  HugeGridQuestion::grouped(16777216));
    EXPECT_TRUE(question->text().contains(work)) << qPrintable(question->text());
    EXPECT_TRUE(question->text().contains(HugeGridQuestion::grouped(1 << 20)))
        << qPrintable(question->text());
    EXPECT_TRUE(question->text().contains(QStringLiteral("MiB"))) << qPrintable(question->text());
    // While it asks, neither the small grid's histogram nor any computation.
    EXPECT_FALSE(view->result().has_value());
    EXPECT_FALSE(view->isComputing());
    EXPECT_FALSE(view->computation()->isBusy());
    EXPECT_TRUE(view->statusText().contains(work)) << qPrintable(view->statusText());
    saveShot(question, "huge-grid-question.png");

    QSignalSpy computed(view.get(), &GridView::computed);
    question->computeButton()->click();
    ASSERT_TRUE(computed.wait(20000)) << qPrintable(view->statusText());
    ASSERT_TRUE(view->result().has_value()) << qPrintable(view->statusText());
    EXPECT_EQ(view->result()->totalWarps, 65536 * 8);
    EXPECT_EQ(view->question(), nullptr);
    EXPECT_FALSE(view->computeButton()->isVisible());
}

TEST_F(HugeGridTest, DecliningLeavesTheGridNotComputedUntilComputeIsPressed) {
    view->setAskAboveThreadAccesses(std::int64_t{1} << 20);
    document.editKernel(launch("65536", "1", 256), QStringLiteral("large"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->question() != nullptr; }, 2000));
    view->question()->skipButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->question() == nullptr; }, 2000));
    EXPECT_TRUE(view->statusText().startsWith(QStringLiteral("Not computed")))
        << qPrintable(view->statusText());
    EXPECT_TRUE(view->computeButton()->isVisible());
    EXPECT_FALSE(view->computation()->isBusy());
    // Asked again for the same grid (the tab shown again), it neither asks nor computes.
    view->recompute();
    QApplication::processEvents();
    EXPECT_EQ(view->question(), nullptr);
    EXPECT_FALSE(view->isComputing());
    QSignalSpy computed(view.get(), &GridView::computed);
    view->computeButton()->click();
    ASSERT_TRUE(computed.wait(20000)) << qPrintable(view->statusText());
    ASSERT_TRUE(view->result().has_value()) << qPrintable(view->statusText());
    EXPECT_EQ(view->result()->totalWarps, 65536 * 8);
}

// 4,194,304 blocks of 1024 threads: 2^32 thread-accesses, the budget's limit, minutes of work.
TEST_F(HugeGridTest, ComputingShowsProgressNotThePreviousGridAndEscStopsIt) {
    view->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(view.get()));
    computeSmallGrid(view.get());
    view->setAskAboveThreadAccesses(0); // never ask: the grid starts at once
    document.editKernel(launch("4194304", "1", 1024), QStringLiteral("huge"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->isComputing() && !view->result(); }, 2000))
        << "the previous grid is still shown: " << qPrintable(view->statusText());
    EXPECT_TRUE(view->cancelButton()->isVisible());
    EXPECT_FALSE(view->computeButton()->isVisible());
    saveShot(view.get(), "huge-grid-computing.png");

    QTest::keyClick(view.get(), Qt::Key_Escape);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !view->isComputing(); }, 2000));
    EXPECT_TRUE(view->statusText().startsWith(QStringLiteral("Cancelled")))
        << qPrintable(view->statusText());
    EXPECT_FALSE(view->result().has_value());
    EXPECT_TRUE(view->computeButton()->isVisible());
    EXPECT_FALSE(view->cancelButton()->isVisible());
    // The worker stops too: it polls the cancel flag every 1024 warps.
    EXPECT_TRUE(QTest::qWaitFor([&] { return !view->computation()->isBusy(); }, 2000));
}

// grid.x = 2^31 - 1 of 256 threads: far over the budget of 2^32 thread-accesses.
TEST_F(HugeGridTest, OverTheBudgetSaysSoWithTheEstimateTheLimitAndTheVariable) {
    computeSmallGrid(view.get());
    document.editKernel(launch("2147483647", "1", 256), QStringLiteral("huge"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !view->result() && !view->isComputing(); }, 2000))
        << qPrintable(view->statusText());
    const QString status = view->statusText();
    EXPECT_TRUE(status.contains(QStringLiteral("549755813632 thread-accesses")))
        << qPrintable(status);
    EXPECT_TRUE(status.contains(QStringLiteral("limit of 4294967296"))) << qPrintable(status);
    EXPECT_TRUE(status.contains(QStringLiteral("WARPSCOPE_GRID_WORK_LIMIT"))) << qPrintable(status);
    EXPECT_FALSE(status.startsWith(QStringLiteral("/grid"))) << qPrintable(status);
    EXPECT_EQ(view->question(), nullptr) << "over the budget there is nothing to ask";
}

// 8 x 4 blocks of two warps, every warp alike: the map is not one flat rectangle.
TEST_F(HugeGridTest, AUniformKernelHasBlockLinesAxesAndHover) {
    document.editKernel(launch("8", "4", 64), QStringLiteral("uniform"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return view->result().has_value() && view->result()->totalWarps == 64; }, 20000));
    const GridResult& r = *view->result();
    ASSERT_EQ(r.shownBlocksX, 8);
    ASSERT_EQ(r.shownBlocksY, 4);
    for (const int value : r.values) {
        ASSERT_EQ(value, 4) << "lane * 4: four sectors in every warp";
    }
    const QRect area = view->heatMapRect();
    // Every block labelled on both axes, at its centre.
    const auto xs = view->xTicks();
    const auto ys = view->yTicks();
    ASSERT_EQ(xs.size(), 8u);
    ASSERT_EQ(ys.size(), 4u);
    EXPECT_EQ(xs[5].block, 5);
    EXPECT_NEAR(xs[5].position, area.left() + area.width() * 5.5 / 8, 1.0);
    EXPECT_NEAR(ys[2].position, area.top() + area.height() * 2.5 / 4, 1.0);
    // Lines between the blocks, and drawn: a pixel on a line is not the cells' colour, one
    // inside a block is.
    const auto linesX = view->blockLinesX();
    ASSERT_EQ(view->blockLinesX().size(), 7u);
    ASSERT_EQ(view->blockLinesY().size(), 3u);
    const QImage picture = view->grab().toImage();
    const QColor cell = GridView::heatColour(4, r.maxValue);
    const int midY = qRound(ys[1].position);
    EXPECT_EQ(picture.pixelColor(qRound(xs[2].position), midY), cell);
    const int lineX = static_cast<int>(linesX[2]);
    EXPECT_TRUE(picture.pixelColor(lineX, midY) != cell ||
                picture.pixelColor(lineX - 1, midY) != cell)
        << "no line between blocks 2 and 3 at x = " << linesX[2];
    // Hovering block (5, 2)'s second warp names it, its threads and its sectors.
    const QPoint point(area.left() + area.width() * 11 / 16 + 2, qRound(ys[2].position));
    const QString hover = view->hoverText(point);
    EXPECT_EQ(hover, QStringLiteral("Block (5, 2, 0), warp 1: threads 32–63 of 64; 4 sectors per "
                                    "request"));
    QTest::mouseMove(view.get(), point);
    EXPECT_TRUE(view->hoverText(QPoint(area.left() - 5, area.top())).isEmpty());
    saveShot(view.get(), "grid-axes.png");
}

// Many blocks: the labels thin out so that none overlaps the next.
TEST_F(HugeGridTest, AxisLabelsOfManyBlocksDoNotOverlap) {
    document.editKernel(launch("1000", "200", 32), QStringLiteral("wide"));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return view->result().has_value() && view->result()->totalWarps == 200000; }, 20000));
    const auto xs = view->xTicks();
    const auto ys = view->yTicks();
    ASSERT_GE(xs.size(), 3u);
    ASSERT_GE(ys.size(), 3u);
    const QFontMetricsF metrics(view->font());
    const double widest = metrics.horizontalAdvance(QStringLiteral("999"));
    for (std::size_t i = 1; i < xs.size(); ++i) {
        EXPECT_GE(xs[i].position - xs[i - 1].position, widest) << i;
    }
    for (std::size_t i = 1; i < ys.size(); ++i) {
        EXPECT_GE(ys[i].position - ys[i - 1].position, metrics.height()) << i;
    }
    // The labels span the whole axis: the last is within a step of the last block.
    EXPECT_GT(xs.back().block + (xs[1].block - xs[0].block), 999);
}

} // namespace
} // namespace warpscope::app::test
