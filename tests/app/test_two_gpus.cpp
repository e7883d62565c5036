// Two GPUs in one session, played by the fake probe with WARPSCOPE_FAKE_DEVICES=2 (its device 1
// has half the copy bandwidth, so the same kernel takes twice as long there): the probe lists
// both, GPU ▸ Device picks one, each measurement keeps its GPU's identity, the metrics dock shows
// the prediction beside one column per GPU, and a saved session carries both to a window with no
// GPU at all.
#include "probefixture.h"
#include "windowfixture.h"

#include "gpu/kernelmeasurement.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"
#include "gpu/probesettingsdialog.h"
#include "panels/kernelmetrics.h"
#include "panels/messagebar.h"
#include "panels/metricspanel.h"
#include "views/notesview.h"
#include "views/theme.h"

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProcess>
#include <QTableWidget>
#include <QTemporaryDir>

namespace warpscope::app::test {
namespace {

constexpr int kTwoGpusWaitMs = 30000;

/// WARPSCOPE_FAKE_DEVICES for the probes started while it lives.
class FakeTwoGpuDevices {
public:
    explicit FakeTwoGpuDevices(const char* count) { qputenv("WARPSCOPE_FAKE_DEVICES", count); }
    ~FakeTwoGpuDevices() { qunsetenv("WARPSCOPE_FAKE_DEVICES"); }
};

bool waitReady(ProbeClient& client) {
    return QTest::qWaitFor([&] { return client.state() == ProbeClient::State::Ready; },
                           kTwoGpusWaitMs);
}

TEST(TwoGpus, TheProbeListsBothAndMeasuresOnTheOneChosen) {
    REQUIRE_FAKE_PROBE();
    FakeTwoGpuDevices two("2");
    ProbeClient client;
    client.setCommand(fakeProbe());
    client.start();
    ASSERT_TRUE(waitReady(client));
    ASSERT_EQ(client.devices().size(), 2u);
    EXPECT_EQ(client.devices()[0].name, QStringLiteral("warpscope fake GPU"));
    EXPECT_EQ(client.devices()[1].name, QStringLiteral("warpscope fake GPU 1"));
    EXPECT_NE(client.devices()[0].uuid, client.devices()[1].uuid);
    EXPECT_FALSE(client.devices()[1].busId.isEmpty());
    EXPECT_EQ(client.gpu().index, 0);

    client.setDevice(1);
    ASSERT_TRUE(waitReady(client));
    EXPECT_EQ(client.gpu().index, 1);
    EXPECT_EQ(client.gpu().name, QStringLiteral("warpscope fake GPU 1"));
    EXPECT_DOUBLE_EQ(client.gpu().measuredCopyBandwidthGBs, 25.0);

    // A measurement keeps the identity of the GPU it was measured on.
    std::optional<ProbeMeasurement> measured;
    QObject::connect(&client, &ProbeClient::measured,
                     [&](int, const ProbeMeasurement& m) { measured = m; });
    const Preset& preset = requirePreset("stride-2");
    client.measure(NamedPattern(preset.title, preset.caption, preset.pattern),
                   ProbeMeasureOptions{});
    ASSERT_TRUE(QTest::qWaitFor([&] { return measured.has_value(); }, kTwoGpusWaitMs));
    EXPECT_EQ(measured->gpuName, QStringLiteral("warpscope fake GPU 1"));
    EXPECT_EQ(measured->gpuUuid, client.devices()[1].uuid);
    EXPECT_FALSE(measured->probeVersion.isEmpty());
    const RecordedMeasurement recorded = measured->toRecorded();
    EXPECT_EQ(recorded.gpuUuid, client.devices()[1].uuid.toStdString());
    EXPECT_EQ(ProbeMeasurement::fromRecorded(recorded).probeVersion, measured->probeVersion);
}

TEST(TwoGpus, ADeviceTheMachineDoesNotHaveFallsBackToTheFirstAndSaysSo) {
    REQUIRE_FAKE_PROBE();
    FakeTwoGpuDevices two("2");
    ProbeClient client;
    client.setCommand(fakeProbe());
    client.setDevice(5); // remembered from a machine with more GPUs
    client.start();
    ASSERT_TRUE(waitReady(client));
    EXPECT_EQ(client.device(), 0);
    EXPECT_EQ(client.gpu().index, 0);
    EXPECT_TRUE(client.deviceNote().contains(QStringLiteral("GPU 5")))
        << qPrintable(client.deviceNote());
}

TEST(TwoGpus, TheDeviceIsRememberedPerProbeCommand) {
    ProbeSettings a;
    a.command = QStringLiteral("ssh lab-server warpscope-probe");
    ProbeSettings b;
    b.argumentList = {QStringLiteral("ssh"), QStringLiteral("lab-server"),
                      QStringLiteral("warpscope-probe")};
    ProbeSettings c;
    c.command = QStringLiteral("ssh other-server warpscope-probe");
    EXPECT_EQ(a.commandKey(), b.commandKey()); // the same words, however given
    ProbeSettings::rememberDevice(a.commandKey(), 1);
    ProbeSettings::rememberDevice(c.commandKey(), 0);
    EXPECT_EQ(ProbeSettings::rememberedDevice(b.commandKey()), 1);
    EXPECT_EQ(ProbeSettings::rememberedDevice(c.commandKey()), 0);
    ProbeSettings::rememberDevice(a.commandKey(), 0);
}

QStringList headers(const QTableWidget* table) {
    QStringList names;
    for (int c = 0; c < table->columnCount(); ++c) {
        names << table->horizontalHeaderItem(c)->text();
    }
    return names;
}

TEST(TwoGpus, OneSessionHoldsTheSameKernelOnBothAndCarriesThemToAMachineWithoutAGpu) {
    REQUIRE_FAKE_PROBE();
    FakeTwoGpuDevices two("2");
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("readsegment")));
    window->probeClient()->start();
    ASSERT_TRUE(waitReady(*window->probeClient()));
    // GPU ▸ Device lists both.
    QMenu* devices = window->deviceMenu();
    ASSERT_NE(devices, nullptr);
    ASSERT_EQ(devices->actions().size(), 2);
    EXPECT_TRUE(devices->actions()[0]->isChecked());
    EXPECT_TRUE(devices->actions()[1]->text().contains(QStringLiteral("warpscope fake GPU 1")));

    ASSERT_TRUE(measureNotesAndWait(*window));
    devices->actions()[1]->trigger();
    EXPECT_EQ(window->probeClient()->device(), 1);
    ASSERT_TRUE(measureNotesAndWait(*window));
    EXPECT_EQ(window->gpuStatusText().contains(QStringLiteral("warpscope fake GPU 1")), true)
        << qPrintable(window->gpuStatusText());

    const KernelMeasurementStore* store = window->kernelMeasurements();
    const auto both = store->findAll(QStringLiteral("readsegment"), {{"offset", 0}});
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[0]->gpuLabel(), QStringLiteral("GPU 0 · warpscope fake GPU"));
    EXPECT_EQ(both[1]->gpuLabel(), QStringLiteral("GPU 1 · warpscope fake GPU 1"));
    EXPECT_NE(both[0]->gpuUuid, both[1]->gpuUuid);
    ASSERT_TRUE(both[0]->effectiveBandwidthGBs && both[1]->effectiveBandwidthGBs);
    EXPECT_NEAR(*both[0]->effectiveBandwidthGBs, 2 * *both[1]->effectiveBandwidthGBs, 1e-6);

    // The metrics dock: the prediction beside one column per GPU, named by its GPU.
    window->notesView()->table()->setCurrentCell(0, 0);
    QApplication::processEvents();
    const QTableWidget* table = window->metricsPanel()->kernelSection()->table();
    EXPECT_EQ(headers(table),
              (QStringList{QStringLiteral("Kernel (whole grid)"), QStringLiteral("Predicted"),
                           QStringLiteral("GPU 0\nwarpscope fake GPU"),
                           QStringLiteral("GPU 1\nwarpscope fake GPU 1")}));
    bool sawTime = false;
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0)->text().startsWith(QStringLiteral("effective bandwidth"))) {
            sawTime = true;
            EXPECT_NE(table->item(r, 2)->text(), table->item(r, 3)->text());
        }
    }
    EXPECT_TRUE(sawTime);

    // Saved, and opened where the probe finds no GPU: both GPUs' columns are still there.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two-gpus.warpscope"));
    ASSERT_TRUE(window->saveSession(path)) << qPrintable(window->messageBar()->text());
    const QString secondUuid = both[1]->gpuUuid; // the store goes with the window
    window.reset();
    qputenv("WARPSCOPE_FAKE_PROBE", "no_device");
    auto laptop = windowWithProbe(fakeProbe());
    qunsetenv("WARPSCOPE_FAKE_PROBE");
    ASSERT_TRUE(laptop->openSession(path)) << qPrintable(laptop->messageBar()->text());
    const auto carried =
        laptop->kernelMeasurements()->findAll(QStringLiteral("readsegment"), {{"offset", 0}});
    ASSERT_EQ(carried.size(), 2u);
    EXPECT_EQ(carried[1]->gpuLabel(), QStringLiteral("GPU 1 · warpscope fake GPU 1"));
    EXPECT_EQ(carried[1]->gpuUuid, secondUuid);
    EXPECT_FALSE(carried[1]->probeVersion.isEmpty());
    EXPECT_TRUE(carried[1]->recorded);
    ASSERT_TRUE(laptop->showNotesExperiment(QStringLiteral("readsegment")));
    laptop->notesView()->table()->setCurrentCell(0, 0);
    QApplication::processEvents();
    EXPECT_EQ(laptop->metricsPanel()->kernelSection()->table()->columnCount(), 4);
}

} // namespace
} // namespace warpscope::app::test

namespace warpscope::app::test {
namespace {

// Recorded on the two H200s of one machine (tests/data/two_gpus_h200.txt), opened here without
// any GPU: both GPUs' columns, each with its own UUID.
TEST(TwoGpus, TheSessionRecordedOnTwoH200sOpensWithoutAGpu) {
    MainWindowOptions options = quietOptions();
    options.probeCommand = QStringLiteral("/nonexistent/warpscope-probe");
    MainWindow window(options);
    window.resize(1600, 1000);
    window.show();
    ASSERT_TRUE(
        window.openSession(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/two_gpus_h200.warpscope")))
        << qPrintable(window.messageBar()->text());
    const auto both =
        window.kernelMeasurements()->findAll(QStringLiteral("readsegment"), {{"offset", 11}});
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[0]->gpuLabel(), QStringLiteral("GPU 0 · NVIDIA H200"));
    EXPECT_EQ(both[1]->gpuLabel(), QStringLiteral("GPU 1 · NVIDIA H200"));
    EXPECT_EQ(both[0]->gpuUuid, QStringLiteral("GPU-b1a92054-4523-b6d1-d21e-b41a069ae948"));
    EXPECT_EQ(both[1]->gpuUuid, QStringLiteral("GPU-80db2997-9f8e-b142-f737-71cdcafbdcac"));
    EXPECT_EQ(both[1]->driverVersion, QStringLiteral("13.0"));
    ASSERT_TRUE(both[0]->effectiveBandwidthGBs && both[1]->effectiveBandwidthGBs);
    EXPECT_NEAR(*both[0]->effectiveBandwidthGBs, 1370.1, 0.1);
    EXPECT_NEAR(*both[1]->effectiveBandwidthGBs, 1355.9, 0.1);
    ASSERT_TRUE(window.showNotesExperiment(QStringLiteral("readsegment")));
    window.notesView()->table()->setCurrentCell(1, 0);
    QApplication::processEvents();
    const QTableWidget* table = window.metricsPanel()->kernelSection()->table();
    ASSERT_EQ(table->columnCount(), 4);
    EXPECT_EQ(table->horizontalHeaderItem(3)->text(), QStringLiteral("GPU 1\nNVIDIA H200"));
}

std::unique_ptr<MainWindow> windowWithTheH200Session() {
    MainWindowOptions options = quietOptions();
    options.probeCommand = QStringLiteral("/nonexistent/warpscope-probe");
    auto window = std::make_unique<MainWindow>(options);
    window->resize(1600, 1000);
    window->show();
    EXPECT_TRUE(
        window->openSession(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/two_gpus_h200.warpscope")))
        << qPrintable(window->messageBar()->text());
    EXPECT_TRUE(window->showNotesExperiment(QStringLiteral("readsegment")));
    QApplication::processEvents();
    return window;
}

int columnOf(const QTableWidget* table, const QString& header) {
    for (int c = 0; c < table->columnCount(); ++c) {
        if (table->horizontalHeaderItem(c)->text() == header) {
            return c;
        }
    }
    return -1;
}

const QString kGpu0 = QStringLiteral("GPU 0 · NVIDIA H200");
const QString kGpu1 = QStringLiteral("GPU 1 · NVIDIA H200");

// The Notes vs GPU tab: the notes' bars first, then one series and one column per GPU, each
// named by its GPU, with the numbers recorded on it.
TEST(TwoGpus, TheNotesViewShowsBothH200sBesideTheNotes) {
    auto window = windowWithTheH200Session();
    const NotesView* view = window->notesView();
    const NotesComparison& comparison = view->comparison();
    EXPECT_EQ(comparison.gpuColumns, (QStringList{kGpu0, kGpu1}));
    ASSERT_EQ(comparison.rows.size(), 3u);
    ASSERT_EQ(comparison.perGpu.size(), 3u);
    ASSERT_EQ(comparison.rows[1].label, QStringLiteral("offset 11"));
    ASSERT_EQ(comparison.perGpu[1].size(), 2u);
    ASSERT_TRUE(comparison.perGpu[1][0].bandwidthGBs && comparison.perGpu[1][1].bandwidthGBs);
    EXPECT_NEAR(*comparison.perGpu[1][0].bandwidthGBs, 1370.1, 0.1);
    EXPECT_NEAR(*comparison.perGpu[1][1].bandwidthGBs, 1355.9, 0.1);
    EXPECT_TRUE(comparison.finding.contains(kGpu0)) << qPrintable(comparison.finding);
    EXPECT_TRUE(view->statusLabel()->text().contains(kGpu1))
        << qPrintable(view->statusLabel()->text());

    // The table: a column per GPU for each number, headed by the GPU.
    const QTableWidget* table = view->table();
    const int bandwidth0 = columnOf(table, kGpu0 + QStringLiteral("\nGB/s"));
    const int bandwidth1 = columnOf(table, kGpu1 + QStringLiteral("\nGB/s"));
    ASSERT_GE(bandwidth0, 0);
    ASSERT_GT(bandwidth1, bandwidth0);
    EXPECT_EQ(table->item(1, bandwidth0)->text(), QStringLiteral("1370.1"));
    EXPECT_EQ(table->item(1, bandwidth1)->text(), QStringLiteral("1355.9"));
    EXPECT_GE(columnOf(table, kGpu1 + QStringLiteral("\n(%)")), 0);
    EXPECT_EQ(columnOf(table, QStringLiteral("this GPU (%)")), -1);
    EXPECT_EQ(table->horizontalHeaderItem(1)->text(), QStringLiteral("notes (%)"));

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    // The chart: the notes' three bars, then three per GPU, in the GPUs' order.
    EXPECT_EQ(view->notesBarCount(), 3);
    EXPECT_EQ(view->measuredBarCount(), 6);
    ASSERT_EQ(view->gpuSeries().size(), 2u);
    EXPECT_EQ(view->gpuSeries()[0].name, kGpu0);
    EXPECT_EQ(view->gpuSeries()[1].name, kGpu1);
    for (std::size_t g = 0; g < 2; ++g) {
        ASSERT_EQ(view->gpuSeries()[g].values.size(), 3);
        ASSERT_TRUE(comparison.perGpu[1][g].measured);
        EXPECT_DOUBLE_EQ(view->gpuSeries()[g].values[1], *comparison.perGpu[1][g].measured);
    }
#endif
}

// The exported figure shows the same series: both GPUs named, and each GPU's bars drawn.
TEST(TwoGpus, TheNotesFigureShowsBothH200s) {
    auto window = windowWithTheH200Session();
    NotesView* view = window->notesView();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("two.svg"));
    QString error;
    ASSERT_TRUE(view->exportFigure(path, QSize(1200, 700), &error)) << qPrintable(error);
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    EXPECT_TRUE(svg.contains(QStringLiteral(">") + kGpu0 + QStringLiteral("</text>")));
    EXPECT_TRUE(svg.contains(QStringLiteral(">") + kGpu1 + QStringLiteral("</text>")));
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    // Each GPU's colour fills its three bars and its legend swatch.
    const ViewColors colors = ViewColors::fromPalette(view->palette());
    for (int g = 1; g <= 2; ++g) {
        const QString fill = QStringLiteral("fill=\"%1\"").arg(colors.group(g).name());
        EXPECT_GE(svg.count(fill), 4) << qPrintable(fill);
    }
#endif

    // Headless, from the saved session: the same two series.
    const QString headless = dir.filePath(QStringLiteral("headless.svg"));
    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(WARPSCOPE_APP_BINARY),
              {QStringLiteral("--preset"), QStringLiteral("notes:readsegment"),
               QStringLiteral("--session"),
               QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/two_gpus_h200.warpscope"),
               QStringLiteral("--probe"), QStringLiteral("/nonexistent/warpscope-probe"),
               QStringLiteral("--export"), headless, QStringLiteral("--size"),
               QStringLiteral("1280x720")});
    ASSERT_TRUE(app.waitForFinished(60000));
    EXPECT_EQ(app.exitCode(), 0) << app.readAllStandardError().toStdString();
    QFile written(headless);
    ASSERT_TRUE(written.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(written.readAll());
    EXPECT_TRUE(text.contains(QStringLiteral(">") + kGpu0 + QStringLiteral("</text>")));
    EXPECT_TRUE(text.contains(QStringLiteral(">") + kGpu1 + QStringLiteral("</text>")));
}

} // namespace
} // namespace warpscope::app::test
