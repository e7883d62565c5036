// The Streams tab: recorded H100 results (tests/data/streams_h100.json) drawn as a timeline, one
// row per copy engine and one for compute, a bar per copy and kernel with the model's timeline
// beneath; the speed-up measured beside predicted; hover; the model-only state (the model's
// timeline and the notes' statement, never an empty chart); sessions; exports (in-process and
// headless); the course deck's slide; and a run through the fake probe's measure_streams.
#include "experimentfixture.h"
#include "experiments/streamsview.h"
#include "lecture/lecturewindow.h"
#include "probefixture.h"
#include "windowfixture.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

#include <algorithm>
#include <cmath>

namespace warpscope::app::test {
namespace {

const QString kRecordedStreams = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/streams_h100.json");

StreamsResults recordedStreams() {
    return recordedResultsIn<StreamsResults>(kRecordedStreams);
}

using experiments::StreamsOpRecord;
using experiments::StreamsRun;

TEST(StreamsData, RecordedH100RunsHoldEveryOperation) {
    const experiments::StreamsMeasurement results = recordedStreams().measurement;
    EXPECT_EQ(results.deviceName, "NVIDIA H100 80GB HBM3");
    EXPECT_GE(results.asyncEngineCount, 2);
    EXPECT_EQ(results.timelineSource, "cupti_activity");
    ASSERT_EQ(results.runs.size(), 8u);
    for (const StreamsRun& run : results.runs) {
        ASSERT_EQ(run.timeline.size(), static_cast<std::size_t>(3 * run.streams)) << run.streams;
        std::int64_t copiedIn = 0;
        for (const StreamsOpRecord& op : run.timeline) {
            EXPECT_LE(op.startMs, op.endMs);
            EXPECT_LE(op.endMs, run.maxMs * 1.05) << "an operation outside its run";
            if (op.op == StreamOp::H2d) {
                copiedIn += op.bytes;
            }
        }
        EXPECT_EQ(copiedIn, results.bytes) << "the chunks cover the array";
    }
    // Overlap is real on the H100: eight streams beat one by more than a third.
    EXPECT_GT(results.speedup(*results.run(8)), 1.33);
}

TEST(StreamsData, ComparisonUsesTheModelOverTheMeasuredStages) {
    const StreamsResults recorded = recordedStreams();
    const experiments::StreamsMeasurement& results = recorded.measurement;
    const StreamsComparison c = compareStreams(&recorded, 4);
    const StreamPrediction expected =
        predictStreams(results.stages, 4, results.asyncEngineCount, results.order);
    EXPECT_DOUBLE_EQ(c.predicted.totalMs, expected.totalMs);
    EXPECT_DOUBLE_EQ(c.predicted.speedup, expected.speedup);
    ASSERT_TRUE(c.measuredSpeedup);
    EXPECT_DOUBLE_EQ(*c.measuredSpeedup, results.run(1)->totalMs / results.run(4)->totalMs);
    EXPECT_FALSE(c.modelOnly);
    EXPECT_TRUE(c.text.contains(QStringLiteral("the model predicts"))) << qPrintable(c.text);
    EXPECT_TRUE(c.text.contains(QStringLiteral("asyncEngineCount"))) << qPrintable(c.text);
}

TEST(StreamsData, BadResultsAreRefusedByPlace) {
    QString error;
    EXPECT_FALSE(readRecordedResults<StreamsResults>("not json", &error));
    EXPECT_TRUE(error.startsWith(QStringLiteral("not JSON"))) << qPrintable(error);
    EXPECT_FALSE(readRecordedResults<StreamsResults>(R"({"stages":{}})", &error));
    EXPECT_TRUE(error.contains(QStringLiteral("/asyncEngineCount"))) << qPrintable(error);
    const QByteArray stages = R"("asyncEngineCount":2,"stages":{"h2dMs":1,"kernelMs":1,"d2hMs":1})";
    EXPECT_FALSE(readRecordedResults<StreamsResults>(
        "{" + stages + R"(,"runs":[{"streams":2,"totalMs":1}]})", &error));
    EXPECT_TRUE(error.contains(QStringLiteral("one-stream run"))) << qPrintable(error);
    EXPECT_FALSE(readRecordedResults<StreamsResults>(
        "{" + stages +
            R"(,"runs":[{"streams":1,"totalMs":3,"timeline":[{"stream":1,"op":"h2d","startMs":0,"endMs":1}]}]})",
        &error));
    EXPECT_TRUE(error.contains(QStringLiteral("/runs/0/timeline/0"))) << qPrintable(error);
    EXPECT_TRUE(readRecordedResults<StreamsResults>(
        "{" + stages + R"(,"runs":[{"streams":1,"totalMs":3}]})", &error))
        << qPrintable(error);
}

class StreamsWindowTest : public WindowTest {};

// A model-only machine: the model's timeline over 2 engines and the notes' statement.
TEST_F(StreamsWindowTest, ModelOnlyDrawsTheModelsTimeline) {
    StreamsView* view = window->experimentView<StreamsView>(experiments::StreamsExperiment::key);
    ASSERT_NE(view, nullptr);
    window->viewTabs()->setCurrentWidget(view);
    EXPECT_FALSE(view->results());
    EXPECT_EQ(view->streamCount(), 4);
    const QString text = view->summaryLabel()->text();
    EXPECT_TRUE(text.contains(QStringLiteral("Model only"))) << qPrintable(text);
    EXPECT_TRUE(text.contains(QStringLiteral("asyncEngineCount"))) << qPrintable(text);
    EXPECT_TRUE(text.contains(QStringLiteral("speed-up of 2.00×"))) << qPrintable(text);
    // Three rows (two copy engines, compute), twelve bars: the model's pipeline of 4 chunks.
    EXPECT_EQ(view->rowNames().size(), 3);
    ASSERT_EQ(view->bars().size(), 12u);
    const StreamPrediction expected = predictStreams(streamsExampleStages(), 4, 2);
    for (std::size_t i = 0; i < view->bars().size(); ++i) {
        const StreamsView::Bar& bar = view->bars()[i];
        EXPECT_FALSE(bar.measured);
        EXPECT_DOUBLE_EQ(bar.startMs, expected.spans[i].startMs);
        EXPECT_EQ(bar.row, streamRowOf(expected.spans[i].op, 2));
    }
    view->streamSelector()->setValue(1);
    EXPECT_EQ(view->bars().size(), 3u);
    EXPECT_TRUE(view->summaryLabel()->text().contains(QStringLiteral("speed-up of 1.00×")));
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    if (view->timelineChart() != nullptr) {
        EXPECT_EQ(view->timelineChart()->itemCount(), 3 + 1); // three bars, one hatched kernel
        EXPECT_GE(view->speedupChart()->graphCount(), 2);     // the model and its limit
    }
#endif
}

TEST_F(StreamsWindowTest, RecordedResultsDrawMeasuredAndModelRowsAndHoverGivesNumbers) {
    ASSERT_TRUE(
        window->experimentTab(experiments::StreamsExperiment::key)->loadResults(kRecordedStreams));
    StreamsView* view = window->experimentView<StreamsView>(experiments::StreamsExperiment::key);
    window->viewTabs()->setCurrentWidget(view);
    view->setStreamCount(4);
    QApplication::processEvents();
    EXPECT_TRUE(view->statusLabel()->text().contains(QStringLiteral("Recorded on NVIDIA H100")));
    EXPECT_TRUE(view->statusLabel()->text().contains(QStringLiteral("CUPTI")))
        << qPrintable(view->statusLabel()->text());
    const experiments::StreamsMeasurement& results = view->results()->measurement;
    const int copyRows = streamCopyRows(results.asyncEngineCount);
    ASSERT_EQ(view->rowNames().size(), 2 * (copyRows + 1));
    EXPECT_TRUE(view->rowNames().front().startsWith(QStringLiteral("measured: copy engine 1")));
    EXPECT_TRUE(view->rowNames().back().startsWith(QStringLiteral("model: compute")));
    ASSERT_EQ(view->bars().size(), 24u); // 12 measured, 12 predicted
    const StreamsRun* run = results.run(4);
    for (std::size_t i = 0; i < 12; ++i) {
        const StreamsView::Bar& bar = view->bars()[i];
        EXPECT_TRUE(bar.measured);
        EXPECT_DOUBLE_EQ(bar.startMs, run->timeline[i].startMs);
        EXPECT_EQ(bar.row, streamRowOf(run->timeline[i].op, results.asyncEngineCount));
        EXPECT_FALSE(view->bars()[12 + i].measured);
        EXPECT_GE(view->bars()[12 + i].row, copyRows + 1);
    }
    // Copies overlap kernels in the measured timeline: some kernel runs while a copy does.
    bool overlapped = false;
    for (const StreamsOpRecord& a : run->timeline) {
        for (const StreamsOpRecord& b : run->timeline) {
            overlapped = overlapped || (a.op == StreamOp::Kernel && b.op != StreamOp::Kernel &&
                                        a.startMs < b.endMs && b.startMs < a.endMs);
        }
    }
    EXPECT_TRUE(overlapped);
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    if (view->timelineChart() == nullptr) {
        GTEST_SKIP() << "this build has no QCustomPlot";
    }
    QCustomPlot* plot = view->timelineChart();
    plot->replot();
    const StreamsView::Bar& first = view->bars().front();
    const QPointF pixel(plot->xAxis->coordToPixel(0.5 * (first.startMs + first.endMs)),
                        plot->yAxis->coordToPixel(first.row));
    const QString text = view->timelineHoverText(pixel);
    EXPECT_TRUE(text.startsWith(QStringLiteral("measured, stream 1, H2D of 16.0 MiB")))
        << qPrintable(text);
    EXPECT_TRUE(text.contains(QStringLiteral("GB/s"))) << qPrintable(text);
    EXPECT_TRUE(view->timelineHoverText(QPointF(-50, -50)).isEmpty());
    QCustomPlot* speedup = view->speedupChart();
    speedup->replot();
    const QPointF point(speedup->xAxis->coordToPixel(4),
                        speedup->yAxis->coordToPixel(results.speedup(*run)));
    const QString pointText = view->speedupHoverText(point);
    EXPECT_TRUE(pointText.startsWith(QStringLiteral("4 stream(s), measured: ")))
        << qPrintable(pointText);
#endif
}

TEST_F(StreamsWindowTest, SessionsKeepTheResultsAndTheCount) {
    ASSERT_TRUE(
        window->experimentTab(experiments::StreamsExperiment::key)->loadResults(kRecordedStreams));
    window->experimentView<StreamsView>(experiments::StreamsExperiment::key)->setStreamCount(6);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("streams.warpscope"));
    ASSERT_TRUE(window->saveSession(path));
    MainWindow reopened(quietOptions());
    ASSERT_TRUE(reopened.openSession(path));
    ASSERT_TRUE(
        reopened.experimentView<StreamsView>(experiments::StreamsExperiment::key)->results());
    EXPECT_EQ(
        reopened.experimentView<StreamsView>(experiments::StreamsExperiment::key)->streamCount(),
        6);
    EXPECT_EQ(reopened.experimentView<StreamsView>(experiments::StreamsExperiment::key)
                  ->results()
                  ->measurement.runs.size(),
              8u);
    EXPECT_EQ(reopened.experimentView<StreamsView>(experiments::StreamsExperiment::key)
                  ->summaryLabel()
                  ->text(),
              window->experimentView<StreamsView>(experiments::StreamsExperiment::key)
                  ->summaryLabel()
                  ->text());
    EXPECT_TRUE(reopened.experimentView<StreamsView>(experiments::StreamsExperiment::key)
                    ->statusLabel()
                    ->text()
                    .contains(QStringLiteral("Recorded in this session")));
    MainWindow plain(quietOptions());
    const QString plainPath = dir.filePath(QStringLiteral("plain.warpscope"));
    ASSERT_TRUE(plain.saveSession(plainPath));
    ASSERT_TRUE(reopened.openSession(plainPath));
    EXPECT_FALSE(
        reopened.experimentView<StreamsView>(experiments::StreamsExperiment::key)->results());
}

TEST_F(StreamsWindowTest, ExportsTheTimelineAsSvgPdfAndPng) {
    ASSERT_TRUE(
        window->experimentTab(experiments::StreamsExperiment::key)->loadResults(kRecordedStreams));
    StreamsView* view = window->experimentView<StreamsView>(experiments::StreamsExperiment::key);
    QTemporaryDir dir;
    const QByteArray text = exportEveryFormat(view, dir, QStringLiteral("s"));
    EXPECT_TRUE(text.contains("Streams and overlap"));
    EXPECT_TRUE(text.contains("the model predicts"));
    if (view->timelineChart() != nullptr) {
        EXPECT_TRUE(text.contains("measured: compute")); // a row label, drawn as text
        EXPECT_FALSE(text.contains("<image"));           // the bars are vectors
    }
}

TEST(StreamsExport, HeadlessExportWritesTheTimeline) {
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("streams.svg"));
    runAppHeadless({QStringLiteral("--preset"), QStringLiteral("streams"),
                    QStringLiteral("--streams"), kRecordedStreams, QStringLiteral("--export"),
                    svg});
    EXPECT_TRUE(readWholeFile(svg).contains("NVIDIA H100 80GB HBM3"));
    const QString model = dir.filePath(QStringLiteral("model.svg"));
    runAppHeadless(
        {QStringLiteral("--preset"), QStringLiteral("streams"), QStringLiteral("--export"), model});
    EXPECT_TRUE(readWholeFile(model).contains("no measurement"));
    EXPECT_TRUE(
        runAppHeadless({QStringLiteral("--preset"), QStringLiteral("streams"),
                        QStringLiteral("--streams"), dir.filePath(QStringLiteral("missing.json")),
                        QStringLiteral("--export"), svg},
                       2)
            .contains("missing.json"));
}

// The fake probe's device: 2 engines, copies at 25 GB/s, 10 us per operation that the model
// leaves out: measured speed-ups fall short of predicted ones.
TEST(StreamsRun, MeasureThroughTheProbe) {
    REQUIRE_FAKE_PROBE();
    auto window = measureOnFakeProbe<StreamsView>(experiments::StreamsExperiment::key);
    StreamsView* view = window->experimentView<StreamsView>(experiments::StreamsExperiment::key);
    ASSERT_TRUE(view->results());
    EXPECT_EQ(view->results()->measurement.deviceName, "warpscope fake GPU");
    EXPECT_EQ(view->results()->measurement.runs.size(), 8u);
    view->setStreamCount(4);
    ASSERT_TRUE(view->comparison().measuredSpeedup);
    EXPECT_LT(*view->comparison().measuredSpeedup, view->comparison().predicted.speedup);
    EXPECT_GT(*view->comparison().measuredSpeedup, 1.5);
    EXPECT_TRUE(window->document()->isModified());
}

TEST(StreamsRun, NoGpuKeepsTheModelAndSaysSo) {
    REQUIRE_FAKE_PROBE();
    auto window = expectMeasureWithoutGpu<StreamsView>(experiments::StreamsExperiment::key);
    EXPECT_EQ(
        window->experimentView<StreamsView>(experiments::StreamsExperiment::key)->bars().size(),
        12u); // the model's timeline stays
}

// The course deck's last slide shows the Streams view: the model until the main window hands
// over its results.
TEST(StreamsLecture, CourseSlideShowsTheTimeline) {
    auto deck =
        loadDeckFile(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/../../resources/decks/course.json"));
    ASSERT_TRUE(deck.ok()) << deck.error().describe();
    int slide = -1;
    for (std::size_t i = 0; i < deck.value().slides.size(); ++i) {
        const auto& views = deck.value().slides[i].views;
        if (std::find(views.begin(), views.end(), "streams") != views.end()) {
            slide = static_cast<int>(i);
        }
    }
    ASSERT_GE(slide, 0) << "the course deck has a streams slide";
    LectureWindow lecture(std::move(deck).value());
    lecture.present(QSize(1280, 720));
    lecture.setSlide(slide);
    QApplication::processEvents();
    EXPECT_EQ(lecture.shownViews(), QStringList{QStringLiteral("streams")});
    auto* view = lecture.findChild<StreamsView*>();
    ASSERT_NE(view, nullptr);
    EXPECT_TRUE(view->runButton()->isHidden());
    EXPECT_FALSE(view->results());
    EXPECT_FALSE(view->bars().empty());
    // Stepping: one stream first (nothing overlaps), then 2, 4 and 8.
    EXPECT_EQ(view->streamCount(), 1);
    ASSERT_EQ(lecture.stepCount(), 3);
    lecture.revealNext();
    EXPECT_EQ(view->streamCount(), 2);
    lecture.revealAll();
    EXPECT_EQ(view->streamCount(), 8);
    EXPECT_EQ(view->bars().size(), 24u);
    lecture.setExperimentResults(experiments::StreamsExperiment::key, recordedStreams());
    ASSERT_TRUE(view->results());
    EXPECT_TRUE(view->bars().front().measured);
}

} // namespace
} // namespace warpscope::app::test
