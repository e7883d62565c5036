// The chart views' legends under their charts (putLegendUnderChart): after a one-shot export and
// on a lecture slide every entry lies inside the chart, in more than one row where one row does
// not fit, and the chart views fill their slide's panel with a plot area that is not squeezed;
// the kernel sweep's ticks do not run into one another.
#include "document/patterndocument.h"
#include "experimentfixture.h"
#include "experiments/l2persistenceview.h"
#include "experiments/streamsview.h"
#include "experiments/transfersview.h"
#include "export/figureexport.h"
#include "gpu/kernelmeasurement.h"
#include "harness/screenshotrunner.h"
#include "lecture/lecturewindow.h"
#include "shell/mainwindow.h"
#include "views/chartfigure.h"
#include "views/kernelsweepview.h"
#include "views/sweepplot.h"
#include "views/viewpainting.h"
#include "windowfixture.h"

#include <warpscope/kernel_preset.h>

#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFontMetrics>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <vector>

namespace warpscope::app::test {
namespace {

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT

/// The widths of `plot`'s legend entries side by side in one row, with the legend's margins.
/// The legend's entries (its grid's cells that hold one).
std::vector<QCPAbstractLegendItem*> entries(QCustomPlot* plot) {
    std::vector<QCPAbstractLegendItem*> found;
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem* item = plot->legend->item(i)) {
            found.push_back(item);
        }
    }
    return found;
}

int oneRowWidth(QCustomPlot* plot) {
    QCPLegend* legend = plot->legend;
    int width = legend->margins().left() + legend->margins().right() - legend->columnSpacing();
    for (QCPAbstractLegendItem* item : entries(plot)) {
        width += item->minimumOuterSizeHint().width() + legend->columnSpacing();
    }
    return width;
}

/// Every legend entry inside `area` (the chart's widget or the figure's chart), and the legend
/// in more than one row where one row is wider than `area`.
void expectLegendInside(QCustomPlot* plot, const QRect& area) {
    QCPLegend* legend = plot->legend;
    const auto items = entries(plot);
    ASSERT_GT(items.size(), 1u);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const QRect item = items[i]->outerRect();
        EXPECT_TRUE(area.contains(item))
            << "entry " << i << " at " << item.x() << "," << item.y() << " " << item.width() << "x"
            << item.height() << " outside " << area.width() << "x" << area.height();
    }
    // Its frame is drawn on its outer rect's edge, the right and bottom lines one pixel past it.
    const QRect frame = legend->outerRect();
    EXPECT_LT(frame.x() + frame.width(), area.x() + area.width()) << "the frame's right line cut";
    EXPECT_LT(frame.y() + frame.height(), area.y() + area.height())
        << "the frame's bottom line cut";
    if (oneRowWidth(plot) > area.width()) {
        EXPECT_GT(legend->rowCount(), 1)
            << "the legend does not fit one row of " << area.width() << " px";
    }
}

/// `view`'s chart after a one-shot export at `size` (the view never shown, filled once before the
/// export): the legend in rows of `columns` (they fit at that width), inside the figure.
template <class View>
void expectExportedLegendInRows(View* view, QCustomPlot* plot, int columns, QSize size) {
    ASSERT_NE(plot, nullptr);
    QTemporaryDir dir;
    QString error;
    ASSERT_TRUE(view->exportFigure(dir.filePath(QStringLiteral("chart.png")), size, &error))
        << qPrintable(error);
    QCPLegend* legend = plot->legend;
    const int count = static_cast<int>(entries(plot).size());
    ASSERT_GT(count, columns) << "a legend of one row tells nothing";
    EXPECT_EQ(legend->columnCount(), columns);
    EXPECT_EQ(legend->rowCount(), (count + columns - 1) / columns);
    // The layout the export drew: the figure's width, the chart's part of its height.
    expectLegendInside(plot, QRect(0, 0, size.width(), size.height()));
}

TEST(FigureExportLegend, EntriesAddedBeforeTheLegendMovedAreLaidOutInRows) {
    // A view's first fill adds its entries, then puts the legend under the chart: a one-shot
    // export of that chart drew them all in one row, wider than the figure.
    QCustomPlot plot;
    for (int i = 0; i < 8; ++i) {
        plot.addGraph()->setName(QStringLiteral("a curve with a long name, number %1").arg(i));
    }
    plot.legend->setVisible(true);
    ASSERT_TRUE(putLegendUnderChart(&plot, 4));
    EXPECT_FALSE(putLegendUnderChart(&plot, 4)) << "once";
    const QPixmap figure = plot.toPixmap(1600, 600);
    EXPECT_EQ(figure.width(), 1600);
    EXPECT_EQ(plot.legend->columnCount(), 4);
    EXPECT_EQ(plot.legend->rowCount(), 2);
    expectLegendInside(&plot, QRect(0, 0, 1600, 600));
    // Narrower than four columns: fewer, never past the chart's edge.
    plot.toPixmap(700, 600);
    EXPECT_LT(plot.legend->columnCount(), 4);
    EXPECT_GT(plot.legend->rowCount(), 2);
    expectLegendInside(&plot, QRect(0, 0, 700, 600));
    // With no limit (0) as many as fit.
    QCustomPlot wide;
    for (int i = 0; i < 3; ++i) {
        wide.addGraph()->setName(QStringLiteral("curve %1").arg(i));
    }
    wide.legend->setVisible(true);
    putLegendUnderChart(&wide, 0);
    wide.toPixmap(1600, 600);
    EXPECT_EQ(wide.legend->rowCount(), 1);
    EXPECT_EQ(wide.legend->columnCount(), 3);
}

TEST(FigureExportLegend, AOneShotExportDrawsEachViewsLegendInRows) {
    const QSize size(1600, 1000);
    {
        TransfersView view;
        view.setResults(recordedResultsIn<TransferResults>(
            QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/transfers_h100.json")));
        SCOPED_TRACE("transfers");
        expectExportedLegendInRows(&view, view.chart(), 4, size);
    }
    {
        L2PersistenceView view;
        view.setResults(recordedResultsIn<L2PersistenceResults>(
            QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/l2_persistence_h100.json")));
        SCOPED_TRACE("l2");
        expectExportedLegendInRows(&view, view.chart(), 4, size);
    }
}

TEST(FigureExportLegend, TheDeckExportDrawsTheStreamsAndL2Slides) {
    // A deck of the course deck's two chart slides the deck export knew least: the streams slide
    // was left blank, the L2 chart squeezed under its legend.
    QTemporaryDir dir;
    const QString deck = dir.filePath(QStringLiteral("charts.json"));
    QFile file(deck);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "warpscope-deck", "version": 1, "title": "charts", "slides": [
        {"preset": "cached-aligned-coalesced", "title": "Streams", "views": ["streams"]},
        {"preset": "cached-aligned-coalesced", "title": "L2", "views": ["warp", "l2-persistence"]}
    ]})");
    file.close();
    runAppHeadless({QStringLiteral("--export-deck"), deck, QStringLiteral("--output-dir"),
                    dir.path(), QStringLiteral("--format"), QStringLiteral("svg")});
    const QStringList files =
        QDir(dir.path()).entryList({QStringLiteral("*.svg")}, QDir::Files, QDir::Name);
    ASSERT_EQ(files.size(), 2);
    EXPECT_TRUE(readWholeFile(QDir(dir.path()).filePath(files[0])).contains("Streams and overlap"))
        << files[0].toStdString();
    EXPECT_TRUE(
        readWholeFile(QDir(dir.path()).filePath(files[1])).contains("The L2 persistence window"))
        << files[1].toStdString();
}

TEST(FigureExportLegend, ANarrowChartWrapsItsLegendAndIsNotWidenedByIt) {
    // 700 px: the L2 view's eight entries do not fit in rows of four. The legend wraps to fewer
    // columns, and the chart keeps the width it was given instead of growing to the legend's.
    L2PersistenceView view;
    view.setResults(recordedResultsIn<L2PersistenceResults>(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/l2_persistence_h100.json")));
    view.resize(700, 800);
    view.show();
    QApplication::processEvents();
    QCustomPlot* plot = view.chart();
    ASSERT_NE(plot, nullptr);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_LE(plot->width(), 700);
    EXPECT_LT(plot->legend->columnCount(), 4);
    expectLegendInside(plot, plot->rect());
}

/// The lecture slide showing `viewName` of the course deck, at `size`: its chart view fills the
/// panel without a horizontal scroll bar, its plot area is at least `minimumPlotShare` of the
/// panel's height, and its legend lies inside the chart.
template <class View>
void expectSlideChartFits(LectureWindow& lecture, const Deck& deck, const QString& viewName,
                          double minimumPlotShare,
                          const std::function<QCustomPlot*(View*)>& chartOf) {
    int slide = -1;
    for (std::size_t i = 0; i < deck.slides.size() && slide < 0; ++i) {
        for (const std::string& name : deck.slides[i].views) {
            if (QString::fromStdString(name) == viewName) {
                slide = static_cast<int>(i);
            }
        }
    }
    ASSERT_GE(slide, 0) << "the course deck has no slide with " << qPrintable(viewName);
    SCOPED_TRACE(qPrintable(viewName));
    lecture.setSlide(slide);
    lecture.revealAll();
    for (int pass = 0; pass < 8; ++pass) {
        QApplication::processEvents();
    }
    View* view = lecture.findChild<View*>();
    ASSERT_NE(view, nullptr);
    ASSERT_TRUE(view->isVisible());
    auto* area = qobject_cast<QScrollArea*>(view->parentWidget()->parentWidget());
    ASSERT_NE(area, nullptr) << "the view sits in a scroll area";
    const QSize panel = area->viewport()->size();
    EXPECT_EQ(view->width(), panel.width()) << "the view fills its panel's width";
    EXPECT_EQ(view->height(), panel.height()) << "the view fills its panel's height";
    EXPECT_FALSE(area->horizontalScrollBar()->isVisible()) << "nothing cut off at the right";
    QCustomPlot* plot = chartOf(view);
    ASSERT_NE(plot, nullptr);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const int plotArea = plot->axisRect()->rect().height();
    EXPECT_GE(plotArea, minimumPlotShare * panel.height())
        << "plot area " << plotArea << " px of a " << panel.height() << " px panel";
    expectLegendInside(plot, plot->rect());
}

TEST(LectureChartSlides, ChartSlidesFillTheirPanelWithTheLegendInside) {
    auto loaded = loadDeckFile(builtinDeckPath());
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const Deck deck = std::move(loaded).value();
    for (const QSize size : {QSize(1920, 1080), QSize(1600, 900)}) {
        SCOPED_TRACE(size.width());
        LectureWindow lecture(deck);
        lecture.present(size);
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&lecture));
        lecture.setExperimentResults(experiments::TransfersExperiment::key,
                                     recordedResultsIn<TransferResults>(QStringLiteral(
                                         WARPSCOPE_TEST_DATA_DIR "/transfers_h100.json")));
        lecture.setExperimentResults(experiments::StreamsExperiment::key,
                                     recordedResultsIn<StreamsResults>(QStringLiteral(
                                         WARPSCOPE_TEST_DATA_DIR "/streams_h100.json")));
        lecture.setExperimentResults(experiments::L2PersistenceExperiment::key,
                                     recordedResultsIn<L2PersistenceResults>(QStringLiteral(
                                         WARPSCOPE_TEST_DATA_DIR "/l2_persistence_h100.json")));
        expectSlideChartFits<L2PersistenceView>(lecture, deck, QStringLiteral("l2-persistence"),
                                                0.4, [](auto* view) { return view->chart(); });
        expectSlideChartFits<TransfersView>(lecture, deck, QStringLiteral("transfers"), 0.4,
                                            [](auto* view) { return view->chart(); });
        expectSlideChartFits<StreamsView>(lecture, deck, QStringLiteral("streams"), 0.15,
                                          [](auto* view) { return view->timelineChart(); });
    }
}

TEST(KernelSweepChart, AParametersTicksAreItsValuesSideBySide) {
    // The constant sweep's 32 points: "distinct 1" to "distinct 32" under each bar ran into one
    // another; the values alone fit, the axis naming the parameter.
    KernelMeasurementStore store;
    KernelSweepView view(&store);
    ASSERT_TRUE(view.setKernelPreset(QStringLiteral("constant-divergent")));
    Parameter smaller;
    smaller.name = "n";
    smaller.value = 8192; // a quick model
    view.setParameterValues({smaller});
    view.resize(1000, 600);
    view.show();
    view.ensureModel();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !view.isModelBusy(); }, 60000));
    ASSERT_TRUE(view.plan().has_value());
    ASSERT_EQ(view.plan()->points.size(), 32u);
    auto* plot = view.findChild<QCustomPlot*>();
    ASSERT_NE(plot, nullptr);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ASSERT_FALSE(ticker.isNull());
    ASSERT_EQ(ticker->ticks().size(), 32);
    EXPECT_EQ(ticker->ticks().value(32), QStringLiteral("32"));
    EXPECT_EQ(plot->xAxis->label(), QStringLiteral("distinct"));
    // Each label narrower than the room between two ticks.
    const QFontMetrics metrics(plot->xAxis->tickLabelFont());
    const double room = plot->xAxis->coordToPixel(2) - plot->xAxis->coordToPixel(1);
    for (const QString& label : ticker->ticks()) {
        EXPECT_LT(metrics.horizontalAdvance(label), room) << qPrintable(label);
    }
    // For looking at: build/<preset>/tests/app/kernel-sweep-constant.png.
    view.grab().save(QCoreApplication::applicationDirPath() +
                     QStringLiteral("/kernel-sweep-constant.png"));
}

TEST(KernelSweepChart, TheAsyncCopyWidthSweepTicksItsThreeWidths) {
    KernelMeasurementStore store;
    KernelSweepView view(&store);
    ASSERT_TRUE(view.setKernelPreset(QStringLiteral("copyasync-width")));
    view.resize(1000, 600);
    view.show();
    view.ensureModel();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !view.isModelBusy(); }, 60000));
    auto* plot = view.findChild<QCustomPlot*>();
    ASSERT_NE(plot, nullptr);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ASSERT_FALSE(ticker.isNull());
    EXPECT_EQ(ticker->ticks().values(),
              (QList<QString>{QStringLiteral("4"), QStringLiteral("8"), QStringLiteral("16")}));
    expectLegendInside(plot, plot->rect());
    // For looking at: build/<preset>/tests/app/kernel-sweep-copy-async.png.
    view.grab().save(QCoreApplication::applicationDirPath() +
                     QStringLiteral("/kernel-sweep-copy-async.png"));
}

/// The constant sweep's kernel at n = 8192, so that its grid model takes moments in a debug
/// build.
Kernel quickConstantKernel() {
    const KernelPreset* preset = findKernelPreset("constant-divergent");
    EXPECT_NE(preset, nullptr);
    return kernelAtPoint(preset != nullptr ? preset->kernel : Kernel{}, {{"n", 8192}});
}

/// Collects the Qt warnings while it lives.
class WarningLog {
public:
    WarningLog() {
        messages().clear();
        m_previous = qInstallMessageHandler(
            [](QtMsgType, const QMessageLogContext&, const QString& text) { messages() << text; });
    }
    ~WarningLog() { qInstallMessageHandler(m_previous); }
    WarningLog(const WarningLog&) = delete;
    WarningLog& operator=(const WarningLog&) = delete;
    static QStringList& messages() {
        static QStringList list;
        return list;
    }

private:
    QtMessageHandler m_previous = nullptr;
};

TEST(KernelSweepExport, AKernelPresetsSweepExportDrawsTheGridModel) {
    // The constant sweep's export drew the access's sweep: empty axes, and QCustomPlot warned
    // that the keys and values differed in size (a constant load has no wavefronts). It draws the
    // whole kernel's sweep, its grid model computed before drawing, and warns of nothing.
    auto pattern = patternFromKernel(quickConstantKernel(), 0);
    ASSERT_TRUE(pattern.ok());
    Session session = sessionForPattern({"constant sweep", "", pattern.value()});
    session.viewSettings[kSweepKernelPresetSetting] = "constant-divergent";
    const FigureRenderer renderer(session);
    FigureSpec spec;
    spec.views = {QStringLiteral("sweep")};
    QString error;
    QByteArray svg;
    {
        const WarningLog log;
        svg = renderer.render(spec, FigureFormat::Svg, &error);
        EXPECT_FALSE(WarningLog::messages()
                         .join(QLatin1Char('\n'))
                         .contains(QLatin1String("different sizes")))
            << qPrintable(WarningLog::messages().join(QLatin1Char('\n')));
    }
    ASSERT_FALSE(svg.isEmpty()) << qPrintable(error);
    EXPECT_TRUE(svg.contains("grid model: constant-cache requests")) << "no model's legend entry";
    EXPECT_FALSE(svg.contains("wavefronts / conflicts")) << "the access's sweep drawn instead";
    // For looking at: build/<preset>/tests/app/kernel-sweep-export.png.
    renderer.renderImage(spec).save(QCoreApplication::applicationDirPath() +
                                    QStringLiteral("/kernel-sweep-export.png"));
}

TEST(KernelSweepExport, AConstantAccessSweepHasNoSeriesWithoutValues) {
    // A constant load's access sweep: wavefronts and bank conflicts have no value at any point;
    // those series stay out rather than reach QCustomPlot with keys and no values.
    auto pattern = patternFromKernel(quickConstantKernel(), 0);
    ASSERT_TRUE(pattern.ok());
    PatternDocument document;
    ASSERT_FALSE(document.loadSession(sessionForPattern({"constant", "", pattern.value()})));
    const WarningLog log;
    SweepPlot sweep(&document);
    sweep.refresh();
    ASSERT_FALSE(sweep.data().values.isEmpty());
    auto* plot = sweep.findChild<QCustomPlot*>(QStringLiteral("sweepCustomPlot"));
    ASSERT_NE(plot, nullptr);
    for (int i = 0; i < plot->graphCount(); ++i) {
        EXPECT_EQ(plot->graph(i)->dataCount(), sweep.data().values.size())
            << qPrintable(plot->graph(i)->name());
    }
    EXPECT_FALSE(
        WarningLog::messages().join(QLatin1Char('\n')).contains(QLatin1String("different sizes")));
}

TEST(KernelSweepScreenshot, AScreenshotOfTheKernelSweepWaitsForItsModel) {
    // The screenshot caught "Computing the grid model at 32 point(s)..." over empty axes: it
    // waits for the model, as it does for the grid tab's.
    MainWindow window(quietOptions());
    window.resize(1920, 1080);
    ASSERT_TRUE(window.loadPresetById(QStringLiteral("kernel:constant-divergent")));
    Pattern smaller = window.document()->pattern();
    for (Parameter& p : smaller.source->parameters) {
        if (p.name == "n") {
            p.value = 1 << 20; // a model of seconds in a debug build: longer than the paint
        }
    }
    window.document()->editPattern(smaller, QStringLiteral("smaller grid"));
    window.showView(MainWindow::View::Sweep);
    ASSERT_TRUE(window.sweepPlot()->kernelMode());
    KernelSweepView* view = window.sweepPlot()->kernelSweepView();
    // For looking at: build/<preset>/tests/app/kernel-sweep-screenshot.png.
    ASSERT_EQ(takeScreenshot(window, QCoreApplication::applicationDirPath() +
                                         QStringLiteral("/kernel-sweep-screenshot.png")),
              0);
    EXPECT_FALSE(view->isModelBusy());
    EXPECT_EQ(view->modelPointCount(), 32);
    EXPECT_FALSE(view->statusLabel()->text().startsWith(QStringLiteral("Computing")));
}

/// Whether a curve of `plot` (its points and the lines between them) passes through `rect`.
bool aCurveCrosses(QCustomPlot* plot, const QRectF& rect) {
    for (int g = 0; g < plot->graphCount(); ++g) {
        QCPGraph* graph = plot->graph(g);
        std::optional<QPointF> previous; // none after a gap (a NaN breaks the line)
        for (int i = 0; i < graph->dataCount(); ++i) {
            const auto point = graph->data()->at(i);
            if (!std::isfinite(point->value) || !std::isfinite(point->key)) {
                previous.reset();
                continue;
            }
            const QPointF pixel(graph->keyAxis()->coordToPixel(point->key),
                                graph->valueAxis()->coordToPixel(point->value));
            const int steps = previous ? 40 : 1;
            for (int k = 1; k <= steps; ++k) {
                const QPointF at = previous ? *previous + (pixel - *previous) * k / steps : pixel;
                if (rect.contains(at)) {
                    ADD_FAILURE() << qPrintable(graph->name()) << " at " << at.x() << "," << at.y()
                                  << " in " << rect.x() << "," << rect.y() << " " << rect.width()
                                  << "x" << rect.height();
                    return true;
                }
            }
            previous = pixel;
        }
    }
    return false;
}

TEST(ChartNotes, TheL2ModelOnlyNoteLiesWhereNoCurveIs) {
    // Without a measurement the note ("No measurement here: ...") lay over the curves.
    L2PersistenceView view;
    view.resize(960, 600);
    view.show();
    QCustomPlot* plot = view.chart();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    auto* note = plot->findChild<QCPItemText*>(QStringLiteral("l2NoMeasurementNote"));
    ASSERT_NE(note, nullptr);
    const QRectF rect(note->topLeft->pixelPosition(), note->bottomRight->pixelPosition());
    ASSERT_GT(rect.width(), 50);
    EXPECT_TRUE(plot->axisRect()->rect().contains(rect.toRect())) << "the note left the chart";
    EXPECT_FALSE(aCurveCrosses(plot, rect));
    view.grab().save(QCoreApplication::applicationDirPath() + QStringLiteral("/l2-model-only.png"));
}

TEST(ChartNotes, TheTransfersReferenceLabelsLieOverTheCurves) {
    // The reference lines' labels at their right end were crossed by the measured curves: they
    // are drawn above the curves, on the chart's background.
    TransfersView view;
    view.setResults(recordedResultsIn<TransferResults>(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/transfers_h100.json")));
    view.resize(1280, 800);
    view.show();
    QCustomPlot* plot = view.chart();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const auto labels = plot->findChildren<QCPItemText*>(QStringLiteral("transfersReferenceLabel"));
    ASSERT_GE(labels.size(), 2);
    ASSERT_GT(plot->graphCount(), 0);
    for (QCPItemText* label : labels) {
        EXPECT_NE(label->brush().style(), Qt::NoBrush) << qPrintable(label->text());
        EXPECT_GT(label->layer()->index(), plot->graph(0)->layer()->index())
            << qPrintable(label->text());
    }
    view.grab().save(QCoreApplication::applicationDirPath() +
                     QStringLiteral("/transfers-recorded.png"));
}

TEST(ChartNotes, TheSpeedupAxisTitleFitsTheChartsLeastHeight) {
    // The deck's streams slide drew the speed-up chart short, its y-axis title cut.
    StreamsView view;
    view.resize(960, 600);
    view.show();
    QCustomPlot* plot = view.speedupChart();
    plot->setFixedHeight(160); // the chart's least height (ChartSpec)
    QApplication::processEvents();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QFontMetrics metrics(plot->yAxis->labelFont());
    EXPECT_LE(metrics.horizontalAdvance(plot->yAxis->label()), plot->axisRect()->height())
        << qPrintable(plot->yAxis->label()) << " in " << plot->axisRect()->height() << " px";
}

TEST(DeckWarpText, AOneLineTextWiderThanItsPanelIsSetSmaller) {
    // Slide 37's warp view cut its textbook line at the right ("100.0 % efficie"): the line is
    // drawn in a font that fits the width it has, and as before where it fits.
    const QString text = QStringLiteral("Textbook model (Fermi/Kepler), cached load, 128-byte "
                                        "transactions: 1 transaction(s) · 128 B moved · 100.0 % "
                                        "efficiency");
    QFont pixels;
    pixels.setPixelSize(22);
    pixels.setBold(true);
    QFont points;
    points.setPointSizeF(11);
    points.setBold(true);
    for (const QFont& font : {pixels, points}) {
        const qreal wide = QFontMetricsF(font).horizontalAdvance(text);
        EXPECT_EQ(fontFitting(font, text, wide + 1), font);
        const QFont fitted = fontFitting(font, text, wide * 0.8);
        EXPECT_LE(QFontMetricsF(fitted).horizontalAdvance(text), wide * 0.8);
        EXPECT_GT(QFontMetricsF(fitted).horizontalAdvance(text), wide * 0.6) << "shrunk too far";
        EXPECT_TRUE(fitted.bold());
    }
}

TEST(LectureChartSlides, AChartsTextFollowsTheFontSetOnItsView) {
    // On a slide the charts' ticks, axis titles and legend were 11 to 13 px against 22 px for
    // the view's other text: they follow the font the slide sets on the view.
    L2PersistenceView view;
    view.resize(960, 600);
    QCustomPlot* plot = view.chart();
    const qreal plain = plot->xAxis->tickLabelFont().pointSizeF();
    QFont slide = view.font();
    slide.setPointSizeF(plain * 2.5);
    view.setFont(slide);
    const qreal expected = slide.pointSizeF() * 0.8;
    EXPECT_NEAR(plot->xAxis->tickLabelFont().pointSizeF(), expected, 0.01);
    EXPECT_NEAR(plot->yAxis->tickLabelFont().pointSizeF(), expected, 0.01);
    EXPECT_NEAR(plot->yAxis->labelFont().pointSizeF(), expected, 0.01);
    const auto items = entries(plot);
    ASSERT_FALSE(items.empty());
    for (QCPAbstractLegendItem* item : items) {
        EXPECT_NEAR(item->font().pointSizeF(), expected, 0.01);
    }
    // A view whose font nobody set (the main window's, an export's) keeps the plot's own.
    L2PersistenceView plainView;
    EXPECT_NEAR(plainView.chart()->xAxis->tickLabelFont().pointSizeF(), plain, 0.01);
}

TEST(LectureChartSlides, AChartsTextItemsFollowTheFontSetOnItsView) {
    // The L2 view's note and set-aside label and the transfers view's reference labels, note and
    // brackets' labels stayed in the application's font on a slide, half the size of the ticks
    // beside them: they are set in the ticks' font, in the window and on a slide.
    L2PersistenceView l2;
    TransfersView transfers;
    TransfersView measured;
    measured.setResults(recordedResultsIn<TransferResults>(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/transfers_h100.json")));
    const std::vector<std::pair<QWidget*, QCustomPlot*>> views = {
        {&l2, l2.chart()}, {&transfers, transfers.chart()}, {&measured, measured.chart()}};
    for (const auto& [view, plot] : views) {
        const QString name = view->objectName();
        const auto texts = [plot = plot] { return plot->findChildren<QCPItemText*>(); };
        ASSERT_GE(texts().size(), 2) << qPrintable(name);
        // In the window: the plot's own type, as the ticks'.
        for (QCPItemText* text : texts()) {
            EXPECT_EQ(text->font(), plot->xAxis->tickLabelFont())
                << qPrintable(name) << ": " << qPrintable(text->text());
        }
        QFont slide = view->font();
        slide.setPointSizeF(plot->xAxis->tickLabelFont().pointSizeF() * 2.5);
        view->setFont(slide);
        const qreal expected = slide.pointSizeF() * 0.8;
        ASSERT_NEAR(plot->xAxis->tickLabelFont().pointSizeF(), expected, 0.01);
        ASSERT_GE(texts().size(), 2) << qPrintable(name);
        for (QCPItemText* text : texts()) {
            EXPECT_NEAR(text->font().pointSizeF(), expected, 0.01)
                << qPrintable(name) << ": " << qPrintable(text->text());
        }
    }
}

TEST(ChartNotes, TheL2PercentAxisHasNoTickAbove100) {
    // The model-only chart leaves a band above the curves for its note (the range runs to
    // 134 %): its axis was ticked at 125 %, a share no region or hit rate reaches.
    L2PersistenceView view;
    view.resize(960, 600);
    view.show();
    QCustomPlot* plot = view.chart();
    const auto check = [plot](const char* what) {
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QVector<double> ticks = plot->yAxis->tickVector();
        ASSERT_FALSE(ticks.isEmpty()) << what;
        EXPECT_DOUBLE_EQ(*std::max_element(ticks.begin(), ticks.end()), 100.0)
            << what << ": " << qPrintable(plot->yAxis->tickVectorLabels().join(u' '));
        EXPECT_GT(plot->yAxis->range().upper, 100.0) << what << ": room above the curves";
    };
    for (const auto quantity :
         {L2PersistenceView::Quantity::RegionHitRate, L2PersistenceView::Quantity::L2HitRate}) {
        view.setQuantity(quantity);
        check("model only");
        view.setAxis(L2PersistenceView::Axis::HitRatio);
        check("model only, against hitRatio");
        view.setAxis(L2PersistenceView::Axis::WindowSize);
    }
    view.setResults(recordedResultsIn<L2PersistenceResults>(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/l2_persistence_h100.json")));
    view.setQuantity(L2PersistenceView::Quantity::RegionHitRate);
    check("measured");
    // Times are not percent: their axis is ticked as far as it goes.
    view.setQuantity(L2PersistenceView::Quantity::Time);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QVector<double> ticks = plot->yAxis->tickVector();
    ASSERT_FALSE(ticks.isEmpty());
    EXPECT_GT(*std::max_element(ticks.begin(), ticks.end()), plot->yAxis->range().upper * 0.6);
}

#endif

} // namespace
} // namespace warpscope::app::test
