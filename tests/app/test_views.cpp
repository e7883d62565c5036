// Tests of the views against the core's predictions: the warp view's lines and sectors, clicking a
// sector, the bank view's conflict marks (seed 003: a 32x32 tile read by columns conflicts, padded
// to 33 columns it does not), the block view choosing a warp, and the sweep (seed 002's offset
// experiment: 4 sectors at offset 0, 5 at offset 11).
#include "windowfixture.h"

#include "panels/lanetablemodel.h"
#include "panels/patterneditor.h"
#include "views/bankview.h"
#include "views/blockview.h"
#include "views/lanehighlight.h"
#include "views/sweepplot.h"
#include "views/warpview.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QScrollArea>
#include <QSpinBox>

#include <algorithm>

namespace warpscope::app::test {
namespace {

TEST_F(WindowTest, TheWarpViewDrawsTheModelsLinesAndSectors) {
    loadPreset("readsegment-offset-11");
    const WarpLayout& layout = window->warpView()->currentLayout();
    const GlobalPrediction& global = *document().evaluation()->modern.global;
    ASSERT_EQ(layout.lines.size(), global.lineList.size());
    int fetched = 0;
    for (const WarpLayout::Sector& sector : layout.sectors) {
        fetched += sector.sectorIndex >= 0 ? 1 : 0;
    }
    EXPECT_EQ(fetched, global.sectors);
    // Two textbook transactions of 128 bytes (seed 002, cached loads, offset 11).
    EXPECT_EQ(layout.transactions.size(), document().evaluation()->textbook.transactions.size());
    // Every lane's bytes are drawn: lane 0 reads byte 44.
    auto span = layout.byteSpan(44, 48);
    ASSERT_TRUE(span.has_value());
    EXPECT_LT(span->first, span->second);
}

TEST_F(WindowTest, ClickingASectorHighlightsItsLanes) {
    loadPreset("readsegment-offset-11");
    WarpView* view = window->warpView();
    const WarpLayout& layout = view->currentLayout();
    const GlobalPrediction& global = *document().evaluation()->modern.global;
    auto it = std::find_if(layout.sectors.begin(), layout.sectors.end(),
                           [](const WarpLayout::Sector& s) { return s.sectorIndex >= 0; });
    ASSERT_NE(it, layout.sectors.end());
    QTest::mouseClick(view, Qt::LeftButton, {}, it->stripRect.center().toPoint());
    EXPECT_EQ(window->laneHighlight()->selectedLanes(),
              global.sectorList[static_cast<std::size_t>(it->sectorIndex)].laneMask);
    // Clicking a lane selects just that lane.
    QTest::mouseClick(view, Qt::LeftButton, {}, layout.laneRects[7].center().toPoint());
    EXPECT_EQ(window->laneHighlight()->selectedLanes(), 1u << 7);
}

TEST_F(WindowTest, ZoomWidensTheWarpViewAndFitReturns) {
    loadPreset("readsegment-offset-11");
    window->showView(MainWindow::View::Warp);
    QApplication::processEvents();
    WarpView* view = window->warpView();
    const int fitted = view->width();
    view->zoomIn();
    view->zoomIn();
    EXPECT_GT(view->width(), fitted);
    view->fitToWindow();
    EXPECT_EQ(view->width(), fitted);
}

TEST_F(WindowTest, TheBankViewMarksTheColumnReadConflictAndThePaddedTileHasNone) {
    loadPreset("shared-tile-column");
    window->showView(MainWindow::View::Bank);
    QApplication::processEvents();
    const auto& conflicted = window->bankView()->bankDegrees();
    EXPECT_GT(*std::max_element(conflicted.begin(), conflicted.end()), 1);
    EXPECT_GT(window->bankView()->cellCount(), 0);

    loadPreset("shared-tile-column-padded");
    const auto& padded = window->bankView()->bankDegrees();
    EXPECT_EQ(*std::max_element(padded.begin(), padded.end()), 1);
    EXPECT_EQ(document().evaluation()->modern.shared->bankConflicts, 0);
}

TEST_F(WindowTest, ClickingAThreadInTheBlockViewChoosesItsWarp) {
    loadPreset("shared-tile-column-padded");
    window->showView(MainWindow::View::Block);
    QApplication::processEvents();
    BlockView* view = window->blockView();
    ASSERT_EQ(view->warpCosts().size(), 32u); // 32x32 threads
    const QRectF thread = view->threadRect(3 * 32 + 5);
    ASSERT_FALSE(thread.isEmpty());
    QTest::mouseClick(view, Qt::LeftButton, {}, thread.center().toPoint());
    EXPECT_EQ(document().pattern().source->warpIndex, 3);
    EXPECT_EQ(view->threadAt(thread.center()), 3 * 32 + 5);
}

TEST_F(WindowTest, TheSweepReproducesTheOffsetExperiment) {
    loadPreset("readsegment-offset-11");
    window->showView(MainWindow::View::Sweep);
    QApplication::processEvents();
    SweepPlot* sweep = window->sweepPlot();
    sweep->fromBox()->setValue(0);
    sweep->toBox()->setValue(32);
    const SweepData& data = sweep->data();
    ASSERT_EQ(data.values.size(), 33);
    // Seed 002: offset 0 is aligned (4 sectors, 100 %), offset 11 straddles (5 sectors, 80 %).
    EXPECT_EQ(data.modernSectors[0], 4);
    EXPECT_EQ(data.modernSectors[11], 5);
    EXPECT_NEAR(data.modernEfficiencyPercent[11], 80.0, 1e-9);
    EXPECT_EQ(data.textbookTransactions[11], 2);
    if (SweepPlot::plotAvailable()) {
        EXPECT_EQ(sweep->graphCount(), 4);
    }
}

TEST_F(WindowTest, TheLaneTableIsAWellBehavedModel) {
    loadPreset("bank-offset-1");
    QAbstractItemModelTester tester(window->laneTableModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    EXPECT_EQ(window->laneTableModel()->rowCount(), 32);
    // Lane i on bank i (seed 004, offset 1).
    const QModelIndex bank = window->laneTableModel()->index(5, LaneTableModel::BankColumn);
    EXPECT_TRUE(window->laneTableModel()->data(bank).toString().startsWith(QStringLiteral("5")));
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

// Addresses far apart (2^50 bytes between lanes) and a lone lane: gaps are elided, nothing
// overflows, every view still draws.
TEST_F(WindowTest, ExtremePatternsRenderInEveryView) {
    loadPreset("bank-offset-1");
    const char* expressions[] = {"lane * 1125899906842624", "lane == 7 ? 64 : 0",
                                 "(lane % 2) * 4096 * 1024"};
    for (MemorySpace space : {MemorySpace::Global, MemorySpace::Shared}) {
        for (const char* expression : expressions) {
            SCOPED_TRACE(expression);
            Pattern pattern = document().pattern();
            pattern.kind.space = space;
            pattern.source->addressExpression = expression;
            document().editPattern(pattern, QStringLiteral("test"));
            ASSERT_FALSE(document().error().has_value()) << document().error()->describe();
            for (auto view : {MainWindow::View::Warp, MainWindow::View::Bank,
                              MainWindow::View::Block, MainWindow::View::Sweep}) {
                window->showView(view);
                QApplication::processEvents();
                EXPECT_FALSE(window->viewTabs()->currentWidget()->grab().isNull());
            }
        }
    }
    // An address the core refuses keeps the last picture and says why.
    Pattern negative = document().pattern();
    negative.source->addressExpression = "lane - 1";
    document().editPattern(negative, QStringLiteral("test"));
    ASSERT_TRUE(document().error().has_value());
    EXPECT_EQ(document().error()->code, ErrorCode::NegativeAddress);
    EXPECT_FALSE(window->editor()->addressErrorText().isEmpty());
}

TEST_F(WindowTest, TheDarkThemeRendersWithoutWarnings) {
    loadPreset("shared-tile-column");
    clearRecordedQtWarnings();
    window->setTheme(Theme::Dark);
    for (auto view : {MainWindow::View::Warp, MainWindow::View::Bank, MainWindow::View::Block,
                      MainWindow::View::Sweep}) {
        window->showView(view);
        QApplication::processEvents();
        EXPECT_FALSE(window->grab().isNull());
    }
    window->setTheme(Theme::Light);
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

} // namespace
} // namespace warpscope::app::test
