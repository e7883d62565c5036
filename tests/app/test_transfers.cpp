// The Transfers tab: recorded H100 results (tests/data/transfers_h100.json) drawn as one curve per
// mode with the notes' reference lines, the summary computed from the numbers, the hover text,
// the model-only state (the notes' figures, never an empty chart), sessions, exports (in-process
// and headless), and a run through the fake probe's measure_transfers.
#include "experimentfixture.h"
#include "experiments/transfersview.h"
#include "lecture/lecturewindow.h"
#include "probefixture.h"
#include "windowfixture.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

namespace warpscope::app::test {
namespace {

const QString kRecorded = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/transfers_h100.json");
constexpr qint64 kMiB = 1024 * 1024;

using experiments::TransferCurve;
using experiments::TransferMeasurement;
using experiments::TransferMode;
using experiments::TransferPoint;

TransferResults recordedResults() {
    return recordedResultsIn<TransferResults>(kRecorded);
}

TEST(TransfersData, RecordedH100ResultsHoldEveryMode) {
    const TransferMeasurement results = recordedResults().measurement;
    EXPECT_EQ(results.deviceName, "NVIDIA H100 80GB HBM3");
    EXPECT_TRUE(results.link.description.starts_with("PCIe 5.0 x16")) << results.link.description;
    ASSERT_EQ(results.curves.size(), 11u);
    for (const TransferCurve& curve : results.curves) {
        EXPECT_EQ(curve.points.size(), 10u) << experiments::transferModeName(curve.mode);
        EXPECT_EQ(curve.points.front().bytes, 4096);
        EXPECT_EQ(curve.points.back().bytes, 1024 * kMiB);
    }
    const TransferCurve* pinned = results.curve(TransferMode::H2dPinned);
    ASSERT_NE(pinned, nullptr);
    ASSERT_NE(pinned->at(256 * kMiB), nullptr);
    EXPECT_GT(pinned->at(256 * kMiB)->bandwidthGBs, 50.0);
}

TEST(TransfersData, SummaryIsComputedFromTheNumbers) {
    const TransferResults recorded = recordedResults();
    const TransferMeasurement& results = recorded.measurement;
    const TransferSummary summary = summarizeTransfers(&recorded);
    ASSERT_EQ(summary.atBytes, 1024 * kMiB);
    const double pinned = results.curve(TransferMode::H2dPinned)->at(summary.atBytes)->bandwidthGBs;
    const double pageable =
        results.curve(TransferMode::H2dPageable)->at(summary.atBytes)->bandwidthGBs;
    const double zeroCopy =
        results.curve(TransferMode::SumZeroCopy)->at(summary.atBytes)->bandwidthGBs;
    ASSERT_TRUE(summary.pinnedOverPageable && summary.zeroCopyShareOfPinned &&
                summary.deviceOverLink);
    EXPECT_DOUBLE_EQ(*summary.pinnedOverPageable, pinned / pageable);
    EXPECT_DOUBLE_EQ(*summary.zeroCopyShareOfPinned, zeroCopy / pinned);
    EXPECT_DOUBLE_EQ(*summary.deviceOverLink, results.deviceCopyBandwidthGBs / pinned);
    // The H100 run: 8.1 GB/s pageable, 55 GB/s pinned, 51 GB/s zero-copy, 2920 GB/s copy.
    EXPECT_TRUE(summary.text.contains(QStringLiteral("pinned copies are 6.8× faster than "
                                                     "pageable here")))
        << qPrintable(summary.text);
    EXPECT_TRUE(summary.text.contains(QStringLiteral("zero-copy reads reach 93 % of pinned copy "
                                                     "bandwidth")))
        << qPrintable(summary.text);
    EXPECT_TRUE(summary.text.contains(QStringLiteral("the device's own memory is 53× the link")))
        << qPrintable(summary.text);
    EXPECT_TRUE(summary.text.contains(QStringLiteral("144 GB/s")));
}

TEST(TransfersData, BadResultsAreRefusedByPlace) {
    QString error;
    EXPECT_FALSE(readRecordedResults<TransferResults>("{\"curves\": 3}", &error));
    EXPECT_TRUE(error.contains(QStringLiteral("\"curves\""))) << qPrintable(error);
    EXPECT_FALSE(readRecordedResults<TransferResults>(
        R"({"curves":[{"mode":"h2d_pinned","points":[{"bytes":4096,"medianMs":1}]}]})", &error));
    EXPECT_TRUE(error.contains(QStringLiteral("/curves/0/points/0"))) << qPrintable(error);
    EXPECT_FALSE(readRecordedResults<TransferResults>("not json", &error));
    EXPECT_TRUE(error.startsWith(QStringLiteral("not JSON"))) << qPrintable(error);
    EXPECT_FALSE(readRecordedResults<TransferResults>(R"({"runs":[]})", &error));
    EXPECT_TRUE(error.contains(QStringLiteral("no run"))) << qPrintable(error);
}

class TransfersWindowTest : public WindowTest {};

// A model-only machine (nothing measured): the notes' two lines and their explanation.
TEST_F(TransfersWindowTest, ModelOnlyShowsTheNotesFigures) {
    TransfersView* view =
        window->experimentView<TransfersView>(experiments::TransfersExperiment::key);
    ASSERT_NE(view, nullptr);
    window->viewTabs()->setCurrentWidget(view);
    EXPECT_FALSE(view->results());
    EXPECT_TRUE(view->summaryLabel()->text().contains(QStringLiteral("144 GB/s")));
    EXPECT_TRUE(view->summaryLabel()->text().contains(QStringLiteral("8 GB/s")));
    EXPECT_TRUE(view->summaryLabel()->text().contains(QStringLiteral("Nothing measured here")));
    EXPECT_EQ(view->curveCount(), 0);
    if (view->chart() != nullptr) {
        EXPECT_EQ(view->referenceLineCount(), 2);
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
        EXPECT_EQ(view->chart()->graphCount(), 2); // never an empty chart
#endif
    }
    EXPECT_TRUE(view->hoverText(QPointF(100, 100)).isEmpty());
}

TEST_F(TransfersWindowTest, RecordedResultsDrawEveryModeAndHoverGivesNumbers) {
    ASSERT_TRUE(
        window->experimentTab(experiments::TransfersExperiment::key)->loadResults(kRecorded));
    TransfersView* view =
        window->experimentView<TransfersView>(experiments::TransfersExperiment::key);
    window->viewTabs()->setCurrentWidget(view);
    QApplication::processEvents();
    EXPECT_TRUE(view->statusLabel()->text().contains(QStringLiteral("Recorded on NVIDIA H100")));
    if (view->chart() == nullptr) {
        GTEST_SKIP() << "this build has no QCustomPlot";
    }
    EXPECT_EQ(view->curveCount(), 11);
    EXPECT_EQ(view->referenceLineCount(), 4); // device copy, link, the notes' two
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    QCustomPlot* plot = view->chart();
    plot->replot();
    EXPECT_TRUE(plot->xAxis->scaleType() == QCPAxis::stLogarithmic);
    EXPECT_TRUE(plot->yAxis->scaleType() == QCPAxis::stLogarithmic);
    const TransferCurve* pinned = view->results()->measurement.curve(TransferMode::D2hPinned);
    const TransferPoint* point = pinned->at(256 * kMiB);
    const QPointF pixel(plot->xAxis->coordToPixel(static_cast<double>(point->bytes)),
                        plot->yAxis->coordToPixel(point->bandwidthGBs));
    const QString text = view->hoverText(pixel + QPointF(2, -2));
    EXPECT_TRUE(text.startsWith(QStringLiteral("D2H pinned, 256 MiB: "))) << qPrintable(text);
    EXPECT_TRUE(text.contains(QStringLiteral("of 7"))) << qPrintable(text);
    EXPECT_TRUE(view->hoverText(QPointF(-50, -50)).isEmpty());
#endif
}

TEST_F(TransfersWindowTest, SessionsKeepTheResults) {
    ASSERT_TRUE(
        window->experimentTab(experiments::TransfersExperiment::key)->loadResults(kRecorded));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("transfers.warpscope"));
    ASSERT_TRUE(window->saveSession(path));
    MainWindow reopened(quietOptions());
    ASSERT_TRUE(reopened.openSession(path));
    ASSERT_TRUE(
        reopened.experimentView<TransfersView>(experiments::TransfersExperiment::key)->results());
    EXPECT_EQ(reopened.experimentView<TransfersView>(experiments::TransfersExperiment::key)
                  ->results()
                  ->measurement.curves.size(),
              11u);
    EXPECT_EQ(reopened.experimentView<TransfersView>(experiments::TransfersExperiment::key)
                  ->summary()
                  .text,
              window->experimentView<TransfersView>(experiments::TransfersExperiment::key)
                  ->summary()
                  .text);
    EXPECT_TRUE(reopened.experimentView<TransfersView>(experiments::TransfersExperiment::key)
                    ->statusLabel()
                    ->text()
                    .contains(QStringLiteral("Recorded in this session")));
    // A session without results opens with none.
    MainWindow plain(quietOptions());
    const QString plainPath = dir.filePath(QStringLiteral("plain.warpscope"));
    ASSERT_TRUE(plain.saveSession(plainPath));
    ASSERT_TRUE(reopened.openSession(plainPath));
    EXPECT_FALSE(
        reopened.experimentView<TransfersView>(experiments::TransfersExperiment::key)->results());
}

TEST_F(TransfersWindowTest, ExportsTheChartAsSvgPdfAndPng) {
    ASSERT_TRUE(
        window->experimentTab(experiments::TransfersExperiment::key)->loadResults(kRecorded));
    TransfersView* view =
        window->experimentView<TransfersView>(experiments::TransfersExperiment::key);
    QTemporaryDir dir;
    const QByteArray text = exportEveryFormat(view, dir, QStringLiteral("t"));
    EXPECT_TRUE(text.contains("Host and device transfers"));
    EXPECT_TRUE(text.contains("pinned copies are"));
    if (view->chart() != nullptr) {
        EXPECT_TRUE(text.contains("notes: PCIe Gen2 bus 8 GB/s")); // a label, drawn as text
        EXPECT_TRUE(text.contains("256 MiB"));                     // a tick label
        EXPECT_FALSE(text.contains("<image"));                     // the curves are vectors
    }
    QString error;
    EXPECT_FALSE(view->exportFigure(dir.filePath(QStringLiteral("t.gif")), QSize(10, 10), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("gif"))) << qPrintable(error);
}

// Headless: `warpscope --preset transfers --transfers FILE --export FILE`, and without results
// the notes' figures.
TEST(TransfersExport, HeadlessExportWritesTheChart) {
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("transfers.svg"));
    runAppHeadless({QStringLiteral("--preset"), QStringLiteral("transfers"),
                    QStringLiteral("--transfers"), kRecorded, QStringLiteral("--export"), svg,
                    QStringLiteral("--size"), QStringLiteral("1280x720")});
    EXPECT_TRUE(readWholeFile(svg).contains("NVIDIA H100 80GB HBM3"));
    const QString notes = dir.filePath(QStringLiteral("notes.svg"));
    runAppHeadless({QStringLiteral("--preset"), QStringLiteral("transfers"),
                    QStringLiteral("--export"), notes});
    EXPECT_TRUE(readWholeFile(notes).contains("the course notes' figures"));
    EXPECT_TRUE(
        runAppHeadless({QStringLiteral("--preset"), QStringLiteral("transfers"),
                        QStringLiteral("--transfers"), dir.filePath(QStringLiteral("missing.json")),
                        QStringLiteral("--export"), svg},
                       2)
            .contains("missing.json"));
}

// Measure through the probe: the fake's answer (capped at 256 MiB by its 1 GiB of memory) drawn,
// recorded in the session.
TEST(TransfersRun, MeasureThroughTheProbe) {
    REQUIRE_FAKE_PROBE();
    auto window = measureOnFakeProbe<TransfersView>(experiments::TransfersExperiment::key);
    TransfersView* view =
        window->experimentView<TransfersView>(experiments::TransfersExperiment::key);
    ASSERT_TRUE(view->results());
    EXPECT_EQ(view->results()->measurement.deviceName, "warpscope fake GPU");
    EXPECT_EQ(view->results()->measurement.curves.size(), 11u);
    EXPECT_EQ(view->results()->measurement.curves.front().points.back().bytes, 256 * kMiB);
    EXPECT_TRUE(view->statusLabel()->text().contains(QStringLiteral("from 1 GiB up were left out")))
        << qPrintable(view->statusLabel()->text());
    // The fake: pinned 25 GB/s and pageable 10 GB/s (after 10 us each).
    ASSERT_TRUE(view->summary().pinnedOverPageable);
    EXPECT_NEAR(*view->summary().pinnedOverPageable, 2.5, 0.01);
    EXPECT_TRUE(window->document()->isModified());
}

TEST(TransfersRun, NoGpuKeepsTheNotesFiguresAndSaysSo) {
    REQUIRE_FAKE_PROBE();
    auto window = expectMeasureWithoutGpu<TransfersView>(experiments::TransfersExperiment::key);
    if (window->experimentView<TransfersView>(experiments::TransfersExperiment::key)->chart() !=
        nullptr) {
        EXPECT_EQ(window->experimentView<TransfersView>(experiments::TransfersExperiment::key)
                      ->referenceLineCount(),
                  2);
    }
}

// A lecture slide: resources/decks/transfers.json shows the Transfers chart full screen, the
// notes' figures until the main window hands over its results; the deck exports headless.
const QString kDeck =
    QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/../../resources/decks/transfers.json");

TEST(TransfersLecture, SlideShowsTheChartAndTheWindowsResults) {
    auto deck = loadDeckFile(kDeck);
    ASSERT_TRUE(deck.ok()) << deck.error().describe();
    LectureWindow lecture(std::move(deck).value());
    lecture.present(QSize(1280, 720));
    lecture.setSlide(0);
    QApplication::processEvents();
    EXPECT_EQ(lecture.shownViews(), QStringList{QStringLiteral("transfers")});
    auto* view = lecture.findChild<TransfersView*>();
    ASSERT_NE(view, nullptr);
    EXPECT_TRUE(view->runButton()->isHidden());
    EXPECT_FALSE(view->results());
    if (view->chart() != nullptr) {
        EXPECT_EQ(view->referenceLineCount(), 2); // the notes' two lines
    }
    lecture.setExperimentResults(experiments::TransfersExperiment::key, recordedResults());
    ASSERT_TRUE(view->results());
    if (view->chart() != nullptr) {
        EXPECT_EQ(view->curveCount(), 11);
    }
}

TEST(TransfersLecture, DeckExportsTheSlide) {
    QTemporaryDir dir;
    runAppHeadless({QStringLiteral("--export-deck"), kDeck, QStringLiteral("--output-dir"),
                    dir.path(), QStringLiteral("--format"), QStringLiteral("svg")});
    const QStringList files =
        QDir(dir.path()).entryList({QStringLiteral("*.svg")}, QDir::Files, QDir::Name);
    ASSERT_EQ(files.size(), 2);
    const QByteArray text = readWholeFile(QDir(dir.path()).filePath(files.first()));
    EXPECT_TRUE(text.contains("the course notes' figures")) << files.first().toStdString();
}

} // namespace
} // namespace warpscope::app::test
