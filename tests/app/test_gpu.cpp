// The GPU in the window: Run, auto-run, sweeps and faults against real probe processes. The real
// warpscope-probe runs where the build has CUDA (without a GPU it answers no_driver or no_device,
// and on a GPU machine it measures); the probe's own command line over its scripted fake backend
// plays a GPU whose counters equal the model, one with no device, and a slow one to kill mid-sweep.
// Overlay rendering is checked with answers recorded from a real H100 (tests/data).
#include "probefixture.h"
#include "windowfixture.h"

#include "document/sessionfile.h"
#include "gpu/gpurunner.h"
#include "gpu/kernelsourcedialog.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"
#include "panels/messagebar.h"
#include "panels/metricspanel.h"
#include "panels/metricstablemodel.h"
#include "views/bankview.h"
#include "views/sweepplot.h"
#include "views/theme.h"
#include "views/warpview.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>

#include <csignal>
#include <sys/types.h>

namespace warpscope::app::test {
namespace {

constexpr int kGpuWaitMs = 20000;

QString realProbe() {
#ifdef WARPSCOPE_PROBE_PATH
    return QStringLiteral(WARPSCOPE_PROBE_PATH);
#else
    return {};
#endif
}

/// Sets WARPSCOPE_FAKE_PROBE_ANSWERS to the recorded H100 answers while it lives.
class RecordedAnswersFile {
public:
    RecordedAnswersFile() {
        qputenv("WARPSCOPE_FAKE_PROBE_ANSWERS",
                WARPSCOPE_TEST_DATA_DIR "/probe_answers_h100.jsonl");
    }
    ~RecordedAnswersFile() { qunsetenv("WARPSCOPE_FAKE_PROBE_ANSWERS"); }
};

QString gpuMeasured(MainWindow& window, const char* quantity) {
    return window.metricsPanel()->summaryModel()->text(QString::fromUtf8(quantity),
                                                       MetricsTableModel::MeasuredColumn);
}

TEST(GpuProbe, RealProbeAnswersAndTheModelStaysUsable) {
    if (realProbe().isEmpty()) {
        GTEST_SKIP() << "this build has no warpscope-probe (no CUDA toolkit at build time)";
    }
    auto window = windowWithProbe(realProbe());
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("readsegment-offset-11")));
    window->runOnGpu();
    ProbeClient* probe = window->probeClient();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return probe->state() == ProbeClient::State::NoGpu ||
                   probe->state() == ProbeClient::State::Failed ||
                   (probe->state() == ProbeClient::State::Ready &&
                    !window->gpuRunner()->isMeasuring());
        },
        60000));
    if (probe->state() == ProbeClient::State::Ready) {
        // A GPU machine: the measurement is on the panel and agrees with the model.
        std::printf("[ GPU      ] %s\n", qPrintable(probe->gpu().describe()));
        ASSERT_TRUE(window->measurements()->find(window->document()->pattern()) != nullptr);
        EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), QStringLiteral("5  ✓"));
        EXPECT_TRUE(window->warpView()->measurementMark().text.contains(probe->gpu().name));
        EXPECT_FALSE(window->warpView()->measurementMark().mismatch);
        EXPECT_TRUE(window->metricsPanel()->measurementLabel()->text().contains(
            probe->gpu().computeCapability));
        return;
    }
    // No GPU here: one message naming the cause in words; the probe's code is for scripts.
    ASSERT_EQ(probe->state(), ProbeClient::State::NoGpu)
        << qPrintable(probe->stateFailure() ? probe->stateFailure()->message : QString());
    const QString message = window->messageBar()->text();
    EXPECT_FALSE(message.contains(QStringLiteral("no_driver")) ||
                 message.contains(QStringLiteral("no_device")))
        << qPrintable(message);
    EXPECT_TRUE(message.contains(probe->stateFailure()->message)) << qPrintable(message);
    EXPECT_TRUE(message.contains(QStringLiteral("model views work")));
    EXPECT_TRUE(window->findChild<QLabel*>(QStringLiteral("gpuStatus"))
                    ->text()
                    .contains(QStringLiteral("No GPU")));
    EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), MetricsTableModel::noMeasurementText());
    // The model view stays fully usable: another preset, an undo.
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("shared-tile-column")));
    EXPECT_EQ(window->document()->evaluation()->modern.shared->wavefronts, 32);
    window->document()->undoStack()->undo();
    EXPECT_EQ(window->document()->evaluation()->modern.global->sectors, 5);
    // Running again says the same once more, and nothing else happens.
    window->runOnGpu();
    QApplication::processEvents();
    EXPECT_EQ(window->messageBar()->text(), message);
    EXPECT_FALSE(window->gpuRunner()->isMeasuring());
}

TEST(GpuProbe, NoDeviceIsOneMessageAndAutoRunDoesNotRepeatIt) {
    REQUIRE_FAKE_PROBE();
    FakeScript script("no_device");
    auto window = windowWithProbe(fakeProbe());
    int messages = 0;
    QObject::connect(window->messageBar(), &MessageBar::messageShown, [&] { ++messages; });
    window->autoRunAction()->setChecked(true);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->probeClient()->state() == ProbeClient::State::NoGpu; }, kGpuWaitMs));
    QApplication::processEvents();
    // The cause in words (the fake probe's message), never the protocol's code.
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("0 CUDA devices")))
        << qPrintable(window->messageBar()->text());
    EXPECT_FALSE(window->messageBar()->text().contains(QStringLiteral("no_device")))
        << qPrintable(window->messageBar()->text());
    // Edits with auto-run on: no new message per edit.
    const int before = messages;
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-4")));
    // Auto-run reacts to an edit at once (evaluationChanged is synchronous): an edit that asked
    // the probe anything shows here as a job, however slow the machine, and its answer as a
    // message once the client has no job left.
    EXPECT_EQ(window->probeClient()->pendingJobs(), 0);
    EXPECT_FALSE(window->gpuRunner()->isMeasuring());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return window->probeClient()->pendingJobs() == 0 && !window->gpuRunner()->isMeasuring();
        },
        kGpuWaitMs));
    QApplication::processEvents();
    EXPECT_EQ(messages, before);
}

// The fake probe answers with the counters an H100 measured (not the model's own numbers).
TEST(GpuProbe, RunShowsMeasuredBesidePredicted) {
    REQUIRE_FAKE_PROBE();
    FakeScript script("recorded");
    RecordedAnswersFile answers;
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("readsegment-offset-11")));
    EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), MetricsTableModel::noMeasurementText());
    window->runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->measurements()->find(window->document()->pattern()) != nullptr; },
        kGpuWaitMs));
    QApplication::processEvents();
    EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), QStringLiteral("5  ✓"));
    EXPECT_EQ(gpuMeasured(*window, "Requests"), QStringLiteral("1  ✓"));
    EXPECT_EQ(gpuMeasured(*window, "Efficiency"), QStringLiteral("80.0 %  ✓"));
    // Latency in cycles and nanoseconds, the GPU named on the panel.
    EXPECT_TRUE(gpuMeasured(*window, "Latency, cold").contains(QStringLiteral("cycles")));
    EXPECT_TRUE(gpuMeasured(*window, "Latency, cold").contains(QStringLiteral("ns")));
    EXPECT_TRUE(window->metricsPanel()->measurementLabel()->text().contains(
        QStringLiteral("warpscope fake GPU")));
    const MeasurementMark mark = window->warpView()->measurementMark();
    EXPECT_FALSE(mark.mismatch);
    EXPECT_TRUE(mark.text.contains(QStringLiteral("sectors 5"))) << qPrintable(mark.text);
    EXPECT_EQ(window->metricsPanel()->summaryModel()->mismatchCount(), 0);
    EXPECT_TRUE(window->document()->isModified()); // a result worth saving

    // Another pattern has no measurement; undo brings the first one's back.
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
    EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), MetricsTableModel::noMeasurementText());
    EXPECT_TRUE(window->warpView()->measurementMark().isEmpty());
    window->document()->undoStack()->undo();
    EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), QStringLiteral("5  ✓"));
}

TEST(GpuProbe, ARecordedMeasurementOpensWithoutAGpu) {
    REQUIRE_FAKE_PROBE();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lecture.warpscope"));
    {
        auto window = windowWithProbe(fakeProbe());
        ASSERT_TRUE(window->loadPresetById(QStringLiteral("shared-tile-column-padded")));
        window->runOnGpu();
        ASSERT_TRUE(QTest::qWaitFor(
            [&] { return window->measurements()->find(window->document()->pattern()) != nullptr; },
            kGpuWaitMs));
        ASSERT_TRUE(window->saveSession(path));
    }
    const auto saved = readSessionFile(path);
    ASSERT_TRUE(saved.ok());
    ASSERT_EQ(saved.value().entries.at(0).measurements.size(), 1u);
    EXPECT_EQ(saved.value().entries[0].measurements[0].gpu, "warpscope fake GPU");
    EXPECT_FALSE(saved.value().entries[0].measurements[0].date.empty());

    // A laptop without the probe at all.
    auto laptop = windowWithProbe(QStringLiteral("/nonexistent/warpscope-probe"));
    ASSERT_TRUE(laptop->openSession(path));
    EXPECT_EQ(gpuMeasured(*laptop, "Wavefronts"), QStringLiteral("1  ✓"));
    EXPECT_TRUE(
        laptop->metricsPanel()->measurementLabel()->text().contains(QStringLiteral("Recorded")));
    EXPECT_TRUE(laptop->bankView()->measurementMark().recorded);
    EXPECT_TRUE(laptop->bankView()->measurementMark().text.contains(QStringLiteral("(recorded)")));
    EXPECT_EQ(laptop->probeClient()->state(), ProbeClient::State::Stopped); // nothing was run
    // Saved again, the recording survives.
    const QString again = dir.filePath(QStringLiteral("again.warpscope"));
    ASSERT_TRUE(laptop->saveSession(again));
    const auto resaved = readSessionFile(again);
    ASSERT_TRUE(resaved.ok());
    EXPECT_EQ(resaved.value().entries.at(0).measurements, saved.value().entries[0].measurements);
}

TEST(GpuProbe, WhileEditingOnlyTheNewestPatternIsMeasured) {
    REQUIRE_FAKE_PROBE();
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
    const Pattern first = window->document()->pattern();
    window->runOnGpu(); // sent
    const char* later[] = {"stride-4", "stride-32", "aos-read-x", "soa-read-x"};
    for (const char* id : later) {
        ASSERT_TRUE(window->loadPresetById(QString::fromLatin1(id)));
        window->runOnGpu(); // each replaces the one waiting
    }
    const Pattern last = window->document()->pattern();
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return window->measurements()->find(last) != nullptr; }, kGpuWaitMs));
    EXPECT_EQ(window->measurements()->find(first), nullptr); // its answer came late: dropped
    EXPECT_EQ(window->measurements()->size(), 1);
    EXPECT_EQ(window->gpuRunner()->supersededCount(), 1);
    EXPECT_FALSE(window->gpuRunner()->isMeasuring());
}

TEST(GpuProbe, KillingTheProbeMidSweepRestartsItAndKeepsTheSession) {
    REQUIRE_FAKE_PROBE();
    // From the fourth pattern on, the sweep waits for the gate: it is surely under way when the
    // probe is killed, however long the GUI stalls.
    FakeGate gate;
    FakeScript script("gated");
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("readsegment-offset-11")));
    window->runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->measurements()->find(window->document()->pattern()) != nullptr; },
        kGpuWaitMs));
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
    SweepPlot* sweep = window->sweepPlot();
    window->showView(MainWindow::View::Sweep);
    sweep->toBox()->setValue(sweep->fromBox()->value() + 63);
    QApplication::processEvents();
    const Session before = window->currentSession();
    const int undoSteps = window->document()->undoStack()->count();
    window->runSweepOnGpu();
    ASSERT_TRUE(window->gpuRunner()->isSweeping());
    ASSERT_TRUE(QTest::qWaitFor([&] { return sweep->gpuProgress()->value() > 2; }, kGpuWaitMs));
    EXPECT_TRUE(sweep->gpuCancelButton()->isVisible());
    const qint64 pid = window->probeClient()->processId();
    ASSERT_GT(pid, 0);
    EXPECT_LT(sweep->gpuProgress()->value(), 64);
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    gate.open(); // the new probe's sweeps run through

    ASSERT_TRUE(QTest::qWaitFor([&] { return !window->gpuRunner()->isSweeping(); }, kGpuWaitMs));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->probeClient()->state() == ProbeClient::State::Ready; }, kGpuWaitMs));
    EXPECT_EQ(window->probeClient()->restartCount(), 1);
    EXPECT_NE(window->probeClient()->processId(), pid);
    const QString message = window->messageBar()->text();
    EXPECT_TRUE(message.contains(QStringLiteral("started again"))) << qPrintable(message);
    EXPECT_FALSE(sweep->gpuCancelButton()->isVisible());
    EXPECT_TRUE(sweep->gpuRunButton()->isEnabled());
    // The session, its undo history and the earlier result are as they were.
    EXPECT_EQ(window->currentSession(), before);
    EXPECT_EQ(window->document()->undoStack()->count(), undoSteps);
    window->document()->undoStack()->undo();
    EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), QStringLiteral("5  ✓"));
    window->document()->undoStack()->redo();

    // The restarted probe runs the sweep to the end.
    window->runSweepOnGpu();
    ASSERT_TRUE(QTest::qWaitFor([&] { return sweep->hasGpuMeasurements(); }, 30000));
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    EXPECT_GE(sweep->graphCount(), 5); // the model's four and the GPU's points
#endif
}

TEST(GpuProbe, TheRealProbeKilledMidSweepOnAGpuIsRestarted) {
    if (realProbe().isEmpty()) {
        GTEST_SKIP() << "this build has no warpscope-probe (no CUDA toolkit at build time)";
    }
    auto window = windowWithProbe(realProbe());
    window->probeClient()->start();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->probeClient()->state() != ProbeClient::State::Starting; }, 60000));
    // Skipped only where there is truly no GPU (the probe answers no_driver or no_device); a
    // probe that fails or crashes on a GPU machine fails the test.
    const auto& failure = window->probeClient()->stateFailure();
    if (window->probeClient()->state() == ProbeClient::State::NoGpu && failure &&
        (failure->code == QLatin1String("no_driver") ||
         failure->code == QLatin1String("no_device"))) {
        GTEST_SKIP() << "no GPU here: " << qPrintable(failure->code) << ": "
                     << qPrintable(failure->message);
    }
    ASSERT_EQ(window->probeClient()->state(), ProbeClient::State::Ready)
        << qPrintable(failure ? failure->code + QStringLiteral(": ") + failure->message
                              : window->probeClient()->stateText());
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
    window->runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->measurements()->find(window->document()->pattern()) != nullptr; },
        60000));
    SweepPlot* sweep = window->sweepPlot();
    window->showView(MainWindow::View::Sweep);
    sweep->fromBox()->setValue(1);
    sweep->toBox()->setValue(2048); // 2048 patterns: seconds of GPU work
    QApplication::processEvents();
    const Session before = window->currentSession();
    window->runSweepOnGpu();
    ASSERT_TRUE(window->gpuRunner()->isSweeping());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return sweep->gpuProgress()->value() > 0 || !window->gpuRunner()->isSweeping(); },
        60000));
    ASSERT_TRUE(window->gpuRunner()->isSweeping())
        << "the sweep ended before it could be killed: "
        << qPrintable(sweep->findChild<QLabel*>()->text()) << " / "
        << qPrintable(window->messageBar()->text());
    const qint64 pid = window->probeClient()->processId();
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window->gpuRunner()->isSweeping(); }, 30000));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->probeClient()->state() == ProbeClient::State::Ready; }, 60000));
    EXPECT_NE(window->probeClient()->processId(), pid);
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("started again")))
        << qPrintable(window->messageBar()->text());
    EXPECT_EQ(window->currentSession(), before);
    // The new probe measures.
    sweep->toBox()->setValue(64);
    QApplication::processEvents();
    window->runSweepOnGpu();
    ASSERT_TRUE(QTest::qWaitFor([&] { return sweep->hasGpuMeasurements(); }, 60000));
    std::printf("[ GPU      ] %s\n", qPrintable(sweep->findChild<QLabel*>()->text()));
}

TEST(GpuProbe, CancellingASweepStopsIt) {
    REQUIRE_FAKE_PROBE();
    FakeGate gate; // the sweep cannot end before Cancel is pressed, however loaded the machine
    FakeScript script("gated");
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
    SweepPlot* sweep = window->sweepPlot();
    window->showView(MainWindow::View::Sweep);
    sweep->toBox()->setValue(sweep->fromBox()->value() + 63);
    window->runSweepOnGpu();
    ASSERT_TRUE(QTest::qWaitFor([&] { return sweep->gpuProgress()->value() > 1; }, kGpuWaitMs));
    QTest::mouseClick(sweep->gpuCancelButton(), Qt::LeftButton);
    gate.open();
    EXPECT_FALSE(window->gpuRunner()->isSweeping());
    EXPECT_FALSE(sweep->hasGpuMeasurements());
    // The probe is still the same process and answers the next request.
    const qint64 pid = window->probeClient()->processId();
    window->runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->measurements()->find(window->document()->pattern()) != nullptr; },
        kGpuWaitMs));
    EXPECT_EQ(window->probeClient()->processId(), pid);
}

TEST(GpuProbe, ASilentProbeIsStoppedAfterItsTimeout) {
    // `sleep` reads nothing and answers nothing: a hung probe.
    auto window = windowWithProbe(QStringLiteral("sleep 600"), 300);
    window->probeClient()->setConnectTimeoutMs(300); // a start is given 20 s by default
    window->runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->probeClient()->state() == ProbeClient::State::Failed; }, kGpuWaitMs));
    const QString message = window->messageBar()->text();
    EXPECT_TRUE(message.contains(QStringLiteral("did not answer"))) << qPrintable(message);
    EXPECT_TRUE(message.contains(QStringLiteral("Restart Probe"))) << qPrintable(message);
    EXPECT_FALSE(window->gpuRunner()->isMeasuring());
}

TEST(GpuProbe, AMissingProbeSaysHowToFixIt) {
    auto window = windowWithProbe(QStringLiteral("/nonexistent/warpscope-probe"));
    window->runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->probeClient()->state() == ProbeClient::State::Failed; }, kGpuWaitMs));
    QApplication::processEvents();
    const QString message = window->messageBar()->text();
    EXPECT_TRUE(message.contains(QStringLiteral("could not be started"))) << qPrintable(message);
    EXPECT_TRUE(message.contains(QStringLiteral("Probe Settings"))) << qPrintable(message);
    EXPECT_FALSE(window->gpuRunner()->isMeasuring());
    EXPECT_EQ(window->document()->evaluation()->modern.global.has_value(), true);
}

TEST(GpuProbe, ShowKernelDisplaysTheGeneratedSource) {
    REQUIRE_FAKE_PROBE();
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("readsegment-offset-11")));
    window->showKernelSource();
    KernelSourceDialog* dialog = window->kernelSourceDialog();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !dialog->source().isEmpty(); }, kGpuWaitMs));
    EXPECT_TRUE(dialog->source().contains(QStringLiteral("warpscope fake kernel")));
    EXPECT_TRUE(dialog->editor()->isReadOnly());
    dialog->close();
}

// ---- Overlay rendering from answers recorded on a real H100 -----------------------------------

struct RecordedAnswers {
    GpuInfo gpu;
    QString driver;
    std::vector<std::pair<QString, QJsonObject>> results; // preset id, measure result
};

RecordedAnswers readRecordedAnswers() {
    RecordedAnswers answers;
    QFile file(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/probe_answers_h100.jsonl"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << qPrintable(file.fileName());
    while (!file.atEnd()) {
        const QJsonObject line = QJsonDocument::fromJson(file.readLine()).object();
        if (line.contains(QStringLiteral("device"))) {
            answers.gpu = GpuInfo::fromJson(line.value(QStringLiteral("device")).toObject());
            answers.driver = line.value(QStringLiteral("driver")).toString();
        } else if (line.contains(QStringLiteral("preset"))) {
            answers.results.emplace_back(line.value(QStringLiteral("preset")).toString(),
                                         line.value(QStringLiteral("result")).toObject());
        }
    }
    return answers;
}

/// Pixels of `color` in the widget's rendering.
int pixelsOf(QWidget* widget, const QColor& color) {
    const QImage image = widget->grab().toImage().convertToFormat(QImage::Format_RGB32);
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            count += (row[x] & 0xFFFFFF) == (color.rgb() & 0xFFFFFF) ? 1 : 0;
        }
    }
    return count;
}

TEST(GpuOverlay, RecordedH100AnswersAgreeOnThePanelAndInTheViews) {
    const RecordedAnswers answers = readRecordedAnswers();
    ASSERT_TRUE(answers.gpu.name.contains(QStringLiteral("H100"))) << qPrintable(answers.gpu.name);
    ASSERT_GE(answers.results.size(), 4u);
    auto window = windowWithProbe(QStringLiteral("/nonexistent/warpscope-probe"));
    for (const auto& [preset, result] : answers.results) {
        SCOPED_TRACE(preset.toStdString());
        ASSERT_TRUE(window->loadPresetById(preset));
        const ProbeMeasurement m =
            ProbeMeasurement::fromProbeResult(result, answers.gpu, QDateTime::currentDateTime());
        ASSERT_TRUE(m.countersMeasured);
        window->measurements()->put(window->document()->pattern(), m);
        QApplication::processEvents();
        EXPECT_EQ(window->metricsPanel()->summaryModel()->mismatchCount(), 0);
        const auto& evaluation = *window->document()->evaluation();
        const bool shared = evaluation.modern.shared.has_value();
        const MeasurementMark mark =
            shared ? window->bankView()->measurementMark() : window->warpView()->measurementMark();
        EXPECT_FALSE(mark.mismatch) << qPrintable(mark.text);
        EXPECT_TRUE(mark.text.contains(QStringLiteral("H100"))) << qPrintable(mark.text);
        if (shared) {
            EXPECT_EQ(gpuMeasured(*window, "Wavefronts"),
                      QStringLiteral("%1  ✓").arg(evaluation.modern.shared->wavefronts));
        } else {
            EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"),
                      QStringLiteral("%1  ✓").arg(evaluation.modern.global->sectors));
        }
        if (m.warmCycles) { // the probe times loads
            EXPECT_TRUE(gpuMeasured(*window, "Latency, warm").contains(QStringLiteral("cycles")));
            EXPECT_TRUE(gpuMeasured(*window, "Latency, warm").contains(QStringLiteral("ns")));
        }
        if (const auto share = m.bandwidthSharePercent()) {
            EXPECT_TRUE(
                gpuMeasured(*window, "Effective bandwidth").contains(QStringLiteral("% of peak")));
        }
    }
}

/// Load `preset`, run it on the window's probe and wait for the measurement.
void measurePreset(MainWindow& window, const char* preset) {
    ASSERT_TRUE(window.loadPresetById(QString::fromLatin1(preset)));
    window.runOnGpu();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window.measurements()->find(window.document()->pattern()) != nullptr; },
        kGpuWaitMs))
        << qPrintable(window.messageBar()->text());
    QApplication::processEvents();
}

// A probe that disagrees with the model (the fake's "uncoalesced" script: every lane its own
// sector or wavefront) is shown disagreeing: the panel's ≠, the views' framed badge.
TEST(GpuOverlay, AProbeThatDisagreesIsShownAsADisagreement) {
    REQUIRE_FAKE_PROBE();
    FakeScript script("uncoalesced");
    auto window = windowWithProbe(fakeProbe());
    measurePreset(*window, "readsegment-offset-11");
    EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), QStringLiteral("32  ≠ 5"));
    EXPECT_GE(window->metricsPanel()->summaryModel()->mismatchCount(), 1);
    const MeasurementMark mark = window->warpView()->measurementMark();
    EXPECT_TRUE(mark.mismatch);
    EXPECT_TRUE(mark.text.contains(QStringLiteral("sectors 32 measured, 5 predicted")))
        << qPrintable(mark.text);

    measurePreset(*window, "shared-tile-column-padded");
    EXPECT_EQ(gpuMeasured(*window, "Wavefronts"), QStringLiteral("32  ≠ 1"));
    EXPECT_TRUE(window->bankView()->measurementMark().mismatch)
        << qPrintable(window->bankView()->measurementMark().text);
}

// The fake probe answering with counters recorded on an H100 (tests/data/probe_answers_h100.jsonl),
// through the whole path (process, protocol, runner, panel, views): they agree with the model.
TEST(GpuOverlay, RecordedH100AnswersThroughTheProbeAgree) {
    REQUIRE_FAKE_PROBE();
    FakeScript script("recorded");
    RecordedAnswersFile answers;
    auto window = windowWithProbe(fakeProbe());
    measurePreset(*window, "readsegment-offset-11");
    EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), QStringLiteral("5  ✓"));
    EXPECT_FALSE(window->warpView()->measurementMark().mismatch)
        << qPrintable(window->warpView()->measurementMark().text);
    measurePreset(*window, "shared-tile-column");
    EXPECT_EQ(gpuMeasured(*window, "Wavefronts"), QStringLiteral("32  ✓"));
    EXPECT_FALSE(window->bankView()->measurementMark().mismatch);
    EXPECT_EQ(window->metricsPanel()->summaryModel()->mismatchCount(), 0);
}

TEST(GpuOverlay, AMismatchIsMarkedInTheViewsAndThePanel) {
    const RecordedAnswers answers = readRecordedAnswers();
    auto window = windowWithProbe(QStringLiteral("/nonexistent/warpscope-probe"));
    for (const auto& [preset, result] : answers.results) {
        if (preset != QLatin1String("readsegment-offset-11")) {
            continue;
        }
        ASSERT_TRUE(window->loadPresetById(preset));
        window->showView(MainWindow::View::Warp);
        QApplication::processEvents();
        const QColor warning = ViewColors::fromPalette(window->warpView()->palette()).warning;
        const int warningBefore = pixelsOf(window->warpView(), warning);

        // The H100's answer with one sector more than it counted: as a GPU the model misjudges.
        ProbeMeasurement m =
            ProbeMeasurement::fromProbeResult(result, answers.gpu, QDateTime::currentDateTime());
        m.counters["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] += 1;
        window->measurements()->put(window->document()->pattern(), m);
        QApplication::processEvents();
        EXPECT_EQ(gpuMeasured(*window, "Sectors (32 B)"), QStringLiteral("6  ≠ 5"));
        EXPECT_GE(window->metricsPanel()->summaryModel()->mismatchCount(), 1);
        EXPECT_TRUE(
            window->metricsPanel()->measurementLabel()->text().contains(QStringLiteral("differ")));
        const MeasurementMark mark = window->warpView()->measurementMark();
        EXPECT_TRUE(mark.mismatch);
        EXPECT_TRUE(mark.text.contains(QStringLiteral("sectors 6 measured, 5 predicted")))
            << qPrintable(mark.text);
        // The badge and the frame are drawn in the warning colour.
        EXPECT_GT(pixelsOf(window->warpView(), warning), warningBefore + 500);
        return;
    }
    FAIL() << "the recorded answers have no readsegment-offset-11";
}

// Kernel-only accesses (constant, local, texture, cp.async) have no single-warp measurement: the
// warp view's GPU badge says so and where the kernel's measurement is, instead of nothing.
TEST_F(WindowTest, KernelOnlyAccessesSayWhereTheirMeasurementIs) {
    for (const char* id : {"kernel:constant-divergent", "kernel:local-lane-index",
                           "kernel:texture-tiles", "kernel:copyasync-width"}) {
        ASSERT_TRUE(window->loadPresetById(QString::fromLatin1(id))) << id;
        QApplication::processEvents();
        ASSERT_TRUE(window->document()->evaluation()) << id;
        ASSERT_TRUE(measuredPerKernelOnly(window->document()->evaluation()->access.kind)) << id;
        const MeasurementMark mark = window->warpView()->measurementMark();
        EXPECT_TRUE(mark.text.startsWith(QStringLiteral("No single-warp GPU run: "))) << id;
        EXPECT_TRUE(mark.text.contains(QStringLiteral("measured per kernel: Run the Sweep on the "
                                                      "GPU (Shift+F5)")))
            << id << " " << qPrintable(mark.text);
        EXPECT_EQ(mark.shortText, QStringLiteral("per kernel: Shift+F5")) << id;
        EXPECT_FALSE(mark.mismatch) << id;
    }
    EXPECT_TRUE(
        window->warpView()->measurementMark().text.contains(QStringLiteral("asynchronous copies")));
    // A global load is measured by Run itself: no badge until it is.
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("stride-2")));
    QApplication::processEvents();
    EXPECT_TRUE(window->warpView()->measurementMark().isEmpty());
    AccessKind global;
    EXPECT_FALSE(measuredPerKernelOnly(global));
    EXPECT_TRUE(kernelOnlyMark(global).isEmpty());
}

} // namespace
} // namespace warpscope::app::test
