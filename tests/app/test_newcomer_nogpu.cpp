// A newcomer without a GPU: the status bar says something true before the first Run, the probe's
// no-GPU answer disables every Run and Measure action and button with a tooltip saying why (and
// a later answer with a GPU would enable them), the status bar does not stay at "Measuring …"
// after a failure, and the recorded measurements open from File > Open Measurements…, labelled
// with the GPU they were recorded on.
#include "experiments/transfersview.h"
#include "gpu/probeclient.h"
#include "probefixture.h"
#include "views/experimentview.h"
#include "views/sweepplot.h"

#include <warpscope/experiments/l2_persistence.h>
#include <warpscope/experiments/streams.h>

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>

#include <string_view>

namespace warpscope::app::test {
namespace {

constexpr int kWaitMs = 20000;

/// Sets WARPSCOPE_GPU_PRESENT while it lives (GpuRunner::localGpuPresent's override).
class GpuPresent {
public:
    explicit GpuPresent(const char* value) { qputenv("WARPSCOPE_GPU_PRESENT", value); }
    ~GpuPresent() { qunsetenv("WARPSCOPE_GPU_PRESENT"); }
    GpuPresent(const GpuPresent&) = delete;
    GpuPresent& operator=(const GpuPresent&) = delete;
};

QString gpuStatus(MainWindow& window) {
    return window.findChild<QLabel*>(QStringLiteral("gpuStatus"))->text();
}

TEST(NewcomerNoGpu, BeforeTheFirstRunTheStatusSaysNoDriverWasFound) {
    const GpuPresent absent("0");
    MainWindow window(quietOptions()); // the probe next to the app: a local one
    EXPECT_EQ(gpuStatus(window), QStringLiteral("No GPU driver found: model only"));
    EXPECT_FALSE(gpuStatus(window).contains(QStringLiteral("not started")));
}

TEST(NewcomerNoGpu, WithADriverTheStatusSaysWhenTheProbeStarts) {
    const GpuPresent present("1");
    MainWindow window(quietOptions());
    EXPECT_FALSE(gpuStatus(window).contains(QStringLiteral("not started")))
        << qPrintable(gpuStatus(window));
    EXPECT_TRUE(gpuStatus(window).contains(QStringLiteral("F5")));
}

TEST(NewcomerNoGpu, TheNoGpuAnswerDisablesRunAndMeasureWithAReason) {
    REQUIRE_FAKE_PROBE();
    FakeScript script("no_device");
    auto window = windowWithProbe(fakeProbe());
    auto* run = window->findChild<QAction*>(QStringLiteral("runOnGpuAction"));
    ASSERT_NE(run, nullptr);
    EXPECT_TRUE(run->isEnabled());
    window->experimentTab(experiments::TransfersExperiment::key)
        ->run(); // a Measure button's job, failing
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window->probeClient()->state() == ProbeClient::State::NoGpu; }, kWaitMs));
    // The actions and the Measure buttons follow the state change (the buttons once the failed
    // measurement has ended): waited for as such, not for a fixed time.
    QPushButton* transfersMeasure =
        window->experimentView<TransfersView>(experiments::TransfersExperiment::key)->runButton();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !run->isEnabled() && !transfersMeasure->isEnabled(); },
                                kWaitMs));
    EXPECT_FALSE(run->isEnabled());
    EXPECT_TRUE(run->toolTip().contains(QStringLiteral("No GPU"))) << qPrintable(run->toolTip());
    for (const char* name : {"runSweepOnGpuAction", "autoRunAction"}) {
        auto* action = window->findChild<QAction*>(QString::fromLatin1(name));
        ASSERT_NE(action, nullptr) << name;
        EXPECT_FALSE(action->isEnabled()) << name;
    }
    QPushButton* measure =
        window->experimentView<TransfersView>(experiments::TransfersExperiment::key)->runButton();
    EXPECT_FALSE(measure->isEnabled());
    EXPECT_TRUE(measure->toolTip().contains(QStringLiteral("No GPU")));
    auto* sweep = window->findChild<QPushButton*>(QStringLiteral("sweepRunGpu"));
    ASSERT_NE(sweep, nullptr);
    EXPECT_FALSE(sweep->isEnabled());
    // Not left saying "Measuring host and device transfers…".
    EXPECT_FALSE(window->statusBar()->currentMessage().startsWith(QStringLiteral("Measuring")))
        << qPrintable(window->statusBar()->currentMessage());
}

TEST_F(WindowTest, NewcomerRecordedMeasurementsOpenFromTheMenuNamingTheirGpu) {
    EXPECT_NE(window->findChild<QAction*>(QStringLiteral("openMeasurementsAction")), nullptr);
    const QString transfers = QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/transfers_h100.json");
    // Each experiment's recorded results are told apart by their keys (the registry's row).
    const std::pair<const char*, std::string_view> recorded[] = {
        {WARPSCOPE_TEST_DATA_DIR "/transfers_h100.json", experiments::TransfersExperiment::key},
        {WARPSCOPE_TEST_DATA_DIR "/streams_h100.json", experiments::StreamsExperiment::key},
        {WARPSCOPE_TEST_DATA_DIR "/l2_persistence_h100.json",
         experiments::L2PersistenceExperiment::key},
    };
    for (const auto& [file, id] : recorded) {
        const AppExperiment* experiment = nullptr;
        EXPECT_EQ(measurementsKind(QString::fromUtf8(file), &experiment),
                  MeasurementsKind::Experiment)
            << file;
        ASSERT_NE(experiment, nullptr) << file;
        EXPECT_EQ(experiment->tableKey(), id) << file;
    }
    EXPECT_EQ(measurementsKind(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl")),
              MeasurementsKind::KernelTables);
    EXPECT_EQ(measurementsKind(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/two_gpus_h200.warpscope")),
              MeasurementsKind::Session);
    ASSERT_TRUE(window->openMeasurements(transfers));
    const QString status =
        window->experimentView<TransfersView>(experiments::TransfersExperiment::key)
            ->statusLabel()
            ->text();
    EXPECT_TRUE(status.contains(QStringLiteral("Recorded on NVIDIA H100"))) << qPrintable(status);
    EXPECT_FALSE(status.contains(QStringLiteral("This GPU"))) << qPrintable(status);
    // Something else is refused with a message naming the file.
    EXPECT_FALSE(
        window->openMeasurements(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/measure_cost_h100.txt")));
}

} // namespace
} // namespace warpscope::app::test
