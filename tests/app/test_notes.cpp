// The notes beside this GPU: the notes' experiments against the kernel presets' references, the
// view with no measurement (the notes' bars, never an empty chart), with the H100's recorded
// measurements (tests/data/kernel_tables_h100.jsonl), its computed finding, and a run through the
// fake probe's measure_kernel from the preset picker (pick, Run, look).
#include "gpu/kernelmeasurement.h"
#include "gpu/notesexperiment.h"
#include "gpu/notesrunner.h"
#include "gpu/probeclient.h"
#include "panels/kernelmetrics.h"
#include "panels/messagebar.h"
#include "panels/metricspanel.h"
#include "panels/patterneditor.h"
#include "panels/presetpicker.h"
#include "probefixture.h"
#include "views/notesview.h"
#include "windowfixture.h"

#include <warpscope/kernel_preset.h>

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

#include <memory>
#include <vector>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

namespace warpscope::app::test {
namespace {

const QString kH100 = QStringLiteral("NVIDIA H100 80GB HBM3");

QByteArray readTestData(const char* name) {
    QFile file(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/") + QString::fromLatin1(name));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << name;
    return file.readAll();
}

std::vector<double> notesColumn(const NotesComparison& comparison) {
    std::vector<double> values;
    for (const NotesComparisonRow& row : comparison.rows) {
        values.push_back(row.notes.value_or(-1));
    }
    return values;
}

// Table 4-11 of seed 002, in the notes' order: NaiveCol, L1 off, nine block shapes.
TEST(NotesExperiments, Table411HasTheNotesNineBlockShapes) {
    const NotesExperiment* table = findNotesExperiment("table-4-11");
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->rows.size(), 9u);
    EXPECT_EQ(table->rows[0].label, QStringLiteral("(32, 32)"));
    EXPECT_EQ(table->rows[8].label, QStringLiteral("(8, 8)"));
    KernelMeasurementStore empty;
    const NotesComparison comparison = compareWithNotes(*table, empty);
    // (16, 16) is 80.27 GB/s in Table 4-11, not Table 4-6's 47.13.
    EXPECT_EQ(notesColumn(comparison), (std::vector<double>{38.13, 51.46, 54.82, 73.42, 80.27,
                                                            70.34, 102.76, 82.64, 59.59}));
    EXPECT_EQ(comparison.measuredRows, 0);
}

TEST(NotesExperiments, OffsetsAndTiledTransposeAreThere) {
    const NotesExperiment* read = findNotesExperiment("readsegment");
    ASSERT_NE(read, nullptr);
    KernelMeasurementStore empty;
    EXPECT_EQ(notesColumn(compareWithNotes(*read, empty)), (std::vector<double>{100, 49.81, 100}));
    const NotesExperiment* tiled = findNotesExperiment("transpose-tiled");
    ASSERT_NE(tiled, nullptr);
    ASSERT_EQ(tiled->rows.size(), 2u);
    EXPECT_EQ(tiled->rows[0].point, (KernelPoint{{"pad", 0}}));
    EXPECT_EQ(tiled->rows[1].point, (KernelPoint{{"pad", 1}}));
    // Every experiment the picker lists has rows, and one request per preset.
    for (const NotesExperiment& experiment : notesExperiments()) {
        EXPECT_FALSE(experiment.rows.empty()) << experiment.id;
    }
    const auto requests = notesRequests(*findNotesExperiment("table-4-13"));
    EXPECT_EQ(requests.size(), 5u);
}

TEST(NotesExperiments, RecordedH100AnswersFillTable411) {
    KernelMeasurementStore store;
    int points = 0;
    const auto error =
        store.importJsonLines(readTestData("kernel_tables_h100.jsonl"), kH100, &points);
    ASSERT_FALSE(error.has_value()) << qPrintable(*error);
    EXPECT_GT(points, 30);
    const NotesComparison comparison = compareWithNotes(*findNotesExperiment("table-4-11"), store);
    ASSERT_EQ(comparison.measuredRows, 9);
    EXPECT_EQ(comparison.measuredGpu, kH100);
    // The median of the five runs (tests/data/kernel_tables_h100.txt: 778.5 and 1719.0 GB/s).
    EXPECT_NEAR(*comparison.rows[8].measured, 778.5, 0.1);
    EXPECT_NEAR(*comparison.rows[4].measured, 1719.0, 0.1);
    EXPECT_TRUE(comparison.rows[8].recorded);
    EXPECT_EQ(comparison.finding.toStdString(),
              std::string("In the notes (8, 32) is best and (32, 32) worst, 2.69× apart; here "
                          "(16, 16) is best and (8, 8) worst, 2.21× apart."));
}

// The sentence follows the numbers: change one and it changes.
TEST(NotesExperiments, FindingIsComputedFromTheNumbers) {
    const NotesExperiment* read = findNotesExperiment("readsegment");
    ASSERT_NE(read, nullptr);
    std::vector<NotesComparisonRow> rows(3);
    rows[0] = {QStringLiteral("offset 0"), 100.0, 100.0, std::nullopt, 1600.0, 0.0076, 55.0, false};
    rows[1] = {QStringLiteral("offset 11"), 49.81, 80.0, std::nullopt, 1580.0, 0.0077, 54.0, false};
    rows[2] = {
        QStringLiteral("offset 128"), 100.0, 100.0, std::nullopt, 1600.0, 0.0076, 55.0, false};
    EXPECT_EQ(notesFinding(*read, rows).toStdString(),
              std::string("Against offset 0, offset 11 costs 50 % of the global load "
                          "efficiency in the notes and costs 20 % here; this GPU's bandwidth there "
                          "costs 1.3 % against offset 0."));
    rows[1].bandwidthGBs = 800.0;
    EXPECT_NE(notesFinding(*read, rows).indexOf(QStringLiteral("costs 50 % against offset 0")), -1)
        << qPrintable(notesFinding(*read, rows));
    const NotesExperiment* tiled = findNotesExperiment("transpose-tiled");
    // Without the notes' numbers or a GPU: the model's count per warp, never nothing.
    KernelMeasurementStore empty;
    const NotesComparison modelOnly = compareWithNotes(*tiled, empty);
    ASSERT_EQ(modelOnly.rows.size(), 2u);
    EXPECT_EQ(modelOnly.rows[0].model, 32.0); // a tile column: one bank, 32 wavefronts
    EXPECT_EQ(modelOnly.rows[1].model, 1.0);  // padded: 32 banks, one wavefront
    EXPECT_EQ(modelOnly.finding.toStdString(),
              "Not measured yet; the model gives one warp of [32][32] 32 against 1 for [32][33].");
    std::vector<NotesComparisonRow> two(2);
    two[0] = {QStringLiteral("[32][32]"), std::nullopt, 1034.1, 32.0, 1034.1, 0.0324, 34.9, true};
    two[1] = {QStringLiteral("[32][33]"), std::nullopt, 1736.1, 1.0, 1736.1, 0.0193, 58.6, true};
    EXPECT_EQ(notesFinding(*tiled, two).toStdString(),
              std::string("Against [32][32], [32][33] gains 68 % of the effective bandwidth "
                          "here (1736 against 1034 GB/s); the notes give no number for it."));
}

TEST(NotesExperiments, BadRecordedLinesAreRefusedByLine) {
    KernelMeasurementStore store;
    auto error = store.importJsonLines("{\"id\": \"transpose-copyrow\", \"point\": {}, "
                                       "\"effectiveBandwidthGBs\": 10}\n{nope\n",
                                       kH100);
    ASSERT_TRUE(error.has_value());
    EXPECT_TRUE(error->startsWith(QStringLiteral("line 2 "))) << qPrintable(*error);
    error = store.importJsonLines("{\"id\": \"no-such-kernel\", \"point\": {}}\n", kH100);
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->indexOf(QStringLiteral("no-such-kernel")), -1);
}

TEST(NotesExperiments, StoreRoundTripsThroughJson) {
    KernelMeasurementStore store;
    ASSERT_FALSE(store.importJsonLines(readTestData("kernel_check_h100.jsonl"), kH100));
    ASSERT_GT(store.size(), 20);
    KernelMeasurementStore copy;
    copy.takeJson(store.toJson());
    EXPECT_EQ(copy.size(), store.size());
    const KernelMeasurement* a = store.find(QStringLiteral("readsegment"), {{"offset", 0}});
    const KernelMeasurement* b = copy.find(QStringLiteral("readsegment"), {{"offset", 0}});
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(a->counters, b->counters);
    EXPECT_EQ(a->effectiveBandwidthGBs, b->effectiveBandwidthGBs);
    ASSERT_TRUE(b->globalEfficiencyPct(true).has_value());
    // readSegment at offset 0 on the H100: every load sector is used.
    EXPECT_NEAR(*b->globalEfficiencyPct(true), 100.0, 0.01);
}

TEST(KernelMetrics, AgreementIsATickOrTheDifference) {
    EXPECT_EQ(KernelMetricsSection::agreement(1048576, 1048576), QStringLiteral("✓"));
    EXPECT_EQ(KernelMetricsSection::agreement(1000, 1032), QStringLiteral("+32 (+3.2 %)"));
    EXPECT_EQ(KernelMetricsSection::agreement(1000, 800), QStringLiteral("-200 (-20 %)"));
}

class NotesWindowTest : public WindowTest {};

// The notes chart as a figure: SVG (vector, with the table's title and the rows' labels), PDF and
// PNG at the asked size; an unknown suffix is refused by name.
TEST_F(NotesWindowTest, ExportsTheChartAsSvgPdfAndPng) {
    ASSERT_TRUE(window->importKernelMeasurements(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl"), kH100));
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("table-4-11")));
    QTemporaryDir dir;
    QString error;
    NotesView* view = window->notesView();
    const QString svg = dir.filePath(QStringLiteral("t.svg"));
    ASSERT_TRUE(view->exportFigure(svg, QSize(1280, 720), &error)) << qPrintable(error);
    QFile svgFile(svg);
    ASSERT_TRUE(svgFile.open(QIODevice::ReadOnly));
    const QByteArray text = svgFile.readAll();
    EXPECT_TRUE(text.contains("Table 4-11: NaiveCol block shapes"));
    if (view->chart() != nullptr) {
        EXPECT_TRUE(text.contains("(8, 32)")); // a tick label, drawn as text, not pixels
        EXPECT_FALSE(text.contains("<image")); // the bars are vectors
    }
    const QString png = dir.filePath(QStringLiteral("t.png"));
    ASSERT_TRUE(view->exportFigure(png, QSize(1280, 720), &error)) << qPrintable(error);
    EXPECT_EQ(QImage(png).size(), QSize(1280, 720));
    const QString pdf = dir.filePath(QStringLiteral("t.pdf"));
    ASSERT_TRUE(view->exportFigure(pdf, QSize(1280, 720), &error)) << qPrintable(error);
    QFile pdfFile(pdf);
    ASSERT_TRUE(pdfFile.open(QIODevice::ReadOnly));
    EXPECT_TRUE(pdfFile.read(5) == "%PDF-");
    EXPECT_FALSE(view->exportFigure(dir.filePath(QStringLiteral("t.bmpx")), QSize(10, 10), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("bmpx"))) << qPrintable(error);
}

// Headless: `warpscope --preset notes:ID --export FILE` writes the chart without a window.
TEST(NotesExport, HeadlessExportWritesTheChart) {
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("t411.svg"));
    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(WARPSCOPE_APP_BINARY),
              {QStringLiteral("--preset"), QStringLiteral("notes:table-4-11"),
               QStringLiteral("--kernel-measurements"),
               QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl"),
               QStringLiteral("--export"), svg, QStringLiteral("--size"),
               QStringLiteral("1280x720")});
    ASSERT_TRUE(app.waitForFinished(60000));
    EXPECT_EQ(app.exitCode(), 0) << app.readAllStandardError().toStdString();
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    EXPECT_TRUE(text.contains("NVIDIA H100 80GB HBM3")); // this GPU's series, named
    EXPECT_TRUE(text.contains("Table 4-11"));
    app.start(QStringLiteral(WARPSCOPE_APP_BINARY),
              {QStringLiteral("--preset"), QStringLiteral("notes:table-99"),
               QStringLiteral("--export"), svg});
    ASSERT_TRUE(app.waitForFinished(60000));
    EXPECT_EQ(app.exitCode(), 2);
    EXPECT_TRUE(app.readAllStandardError().contains("table-99"));
}

// Sessions keep the kernel measurements: saved, opened in a fresh window without a GPU, shown.
TEST_F(NotesWindowTest, SessionsKeepKernelMeasurements) {
    ASSERT_TRUE(window->importKernelMeasurements(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl"), kH100));
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("table-4-11")));
    EXPECT_TRUE(document().isModified());
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("kernels.warpscope"));
    ASSERT_TRUE(window->saveSession(path));
    const int stored = window->kernelMeasurements()->size();
    MainWindow reopened(quietOptions());
    ASSERT_TRUE(reopened.openSession(path));
    EXPECT_EQ(reopened.kernelMeasurements()->size(), stored);
    EXPECT_FALSE(reopened.document()->isModified());
    EXPECT_EQ(reopened.notesView()->experimentId(), "table-4-11");
    EXPECT_EQ(reopened.notesView()->table()->item(8, 2)->text(), QStringLiteral("778.5"));
    EXPECT_TRUE(reopened.notesView()->comparison().rows[8].recorded);
    // A session without kernel measurements (today's) opens with none.
    MainWindow plain(quietOptions());
    const QString plainPath = dir.filePath(QStringLiteral("plain.warpscope"));
    ASSERT_TRUE(plain.saveSession(plainPath));
    ASSERT_TRUE(reopened.openSession(plainPath));
    EXPECT_EQ(reopened.kernelMeasurements()->size(), 0);
}

// The metrics dock's kernel section: the H100's recorded readOffset answer, predicted beside
// measured (tests/data/kernel_check_h100.jsonl: model = probe for the global counters).
TEST_F(NotesWindowTest, KernelSectionShowsPredictedBesideMeasured) {
    ASSERT_TRUE(window->importKernelMeasurements(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_check_h100.jsonl"), kH100));
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("readoffset")));
    QTableWidget* table = window->metricsPanel()->kernelSection()->table();
    const auto rowOf = [&](const QString& name) {
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 0)->text().startsWith(name)) {
                return r;
            }
        }
        return -1;
    };
    const int ld = rowOf(QStringLiteral("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
    ASSERT_GE(ld, 0);
    EXPECT_EQ(table->item(ld, 1)->text(), QStringLiteral("1048576"));
    EXPECT_EQ(table->item(ld, 2)->text(), QStringLiteral("1048576"));
    EXPECT_EQ(table->item(ld, 3)->text(), QStringLiteral("✓"));
    const int dram = rowOf(QStringLiteral("DRAM bytes read"));
    ASSERT_GE(dram, 0);
    EXPECT_EQ(table->item(dram, 1)->text(), QStringLiteral("134217728"));
    EXPECT_TRUE(table->item(dram, 3)->text().endsWith(QStringLiteral("% of the prediction")));
    EXPECT_GE(rowOf(QStringLiteral("share of the measured copy bandwidth")), 0);
    EXPECT_TRUE(window->metricsPanel()->kernelSection()->titleLabel()->text().contains(kH100));
}

TEST_F(NotesWindowTest, PickerListsExperimentsAndKernelPresetsGrouped) {
    PresetPicker* picker = window->editor()->presetPicker();
    EXPECT_EQ(picker->experimentCount(), static_cast<int>(notesExperiments().size()));
    EXPECT_EQ(picker->kernelPresetCount(), static_cast<int>(builtinKernelPresets().size()));
    const int index = picker->findText(QStringLiteral("    Table 4-11: NaiveCol block shapes"));
    ASSERT_GE(index, 0);
    picker->setCurrentIndex(index); // as a user picks it
    QApplication::processEvents();
    EXPECT_EQ(window->viewTabs()->currentWidget(), static_cast<QWidget*>(window->notesView()));
    EXPECT_EQ(window->notesView()->experimentId(), "table-4-11");
    // Without a measurement the chart has the notes' nine bars, not nothing.
    if (window->notesView()->chart() != nullptr) {
        EXPECT_EQ(window->notesView()->notesBarCount(), 9);
        EXPECT_EQ(window->notesView()->measuredBarCount(), 0);
    }
    EXPECT_EQ(window->notesView()->table()->rowCount(), 9);
    EXPECT_EQ(window->notesView()->table()->item(6, 1)->text(), QStringLiteral("102.8"));
    // The single-warp views explain the first row: NaiveCol's load at block (32, 32).
    ASSERT_TRUE(document().current().pattern.source.has_value());
    EXPECT_EQ(document().current().pattern.source->blockDim, (Dim3{32, 32, 1}));
}

TEST_F(NotesWindowTest, RecordedMeasurementsShowBesideTheNotes) {
    ASSERT_TRUE(window->importKernelMeasurements(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl"), kH100));
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("table-4-11")));
    NotesView* view = window->notesView();
    if (view->chart() != nullptr) {
        EXPECT_EQ(view->measuredBarCount(), 9);
    }
    EXPECT_EQ(view->table()->item(8, 2)->text(), QStringLiteral("778.5"));
    EXPECT_TRUE(view->statusLabel()->text().contains(kH100))
        << qPrintable(view->statusLabel()->text());
    EXPECT_TRUE(view->findingLabel()->text().contains(QStringLiteral("(8, 8) worst")));
    EXPECT_FALSE(window->showNotesExperiment(QStringLiteral("table-99")));
}

// Pick, Run, look: the probe's measure_kernel answers (the fake backend's, whose bandwidth is
// its copy bandwidth) land beside the notes' nine bars.
TEST(NotesRun, PickRunLookThroughTheProbe) {
    if (fakeProbe().isEmpty()) {
        GTEST_SKIP() << "this build has no warpscope-probe-fake (the probe needs CUDA at build "
                        "time)";
    }
    auto window = windowWithProbe(fakeProbe());
    PresetPicker* picker = window->editor()->presetPicker();
    picker->setCurrentIndex(
        picker->findText(QStringLiteral("    Table 4-11: NaiveCol block shapes")));
    QApplication::processEvents();
    QSignalSpy finished(window->notesRunner(), &NotesRunner::finished);
    window->runOnGpu(); // F5 on the notes tab
    ASSERT_TRUE(finished.wait(60000));
    NotesView* view = window->notesView();
    EXPECT_EQ(view->comparison().measuredRows, 9);
    if (view->chart() != nullptr) {
        EXPECT_EQ(view->notesBarCount(), 9);
        EXPECT_EQ(view->measuredBarCount(), 9);
    }
    const KernelMeasurement* m = window->kernelMeasurements()->find(
        QStringLiteral("transpose-naivecol-cg"), {{"bx", 8}, {"by", 8}});
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->parameters.at("bx"), 8);
    EXPECT_EQ(m->gpuName, window->probeClient()->gpu().name);
    ASSERT_TRUE(m->effectiveBandwidthGBs.has_value());
    EXPECT_NEAR(*m->effectiveBandwidthGBs, window->probeClient()->gpu().measuredCopyBandwidthGBs,
                1e-6 * *m->effectiveBandwidthGBs);
    // The fake's counters for the whole grid: 2048 x 2048 floats loaded, 4 bytes each.
    EXPECT_TRUE(m->countersMeasured);
    EXPECT_EQ(m->counters.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
              2048.0 * 2048.0 / 32.0);
    EXPECT_TRUE(window->document()->isModified());
}

TEST(NotesRun, NoGpuShowsTheNotesAndSaysSo) {
    if (fakeProbe().isEmpty()) {
        GTEST_SKIP() << "this build has no warpscope-probe-fake";
    }
    qputenv("WARPSCOPE_FAKE_PROBE", "no_device");
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("readsegment")));
    window->runOnGpu();
    const bool told = QTest::qWaitFor([&] { return !window->notesRunner()->isRunning(); }, 20000);
    qunsetenv("WARPSCOPE_FAKE_PROBE");
    ASSERT_TRUE(told);
    NotesView* view = window->notesView();
    EXPECT_TRUE(view->statusLabel()->text().contains(QStringLiteral("No GPU on this machine")))
        << qPrintable(view->statusLabel()->text());
    if (view->chart() != nullptr) {
        EXPECT_EQ(view->notesBarCount(), 3);
        EXPECT_EQ(view->measuredBarCount(), 0);
    }
}

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
// A notes slide change in lecture mode fills the chart up to three times (the experiment, the GPU
// line, the bars revealed) and resizes it as the labels above it wrap; a replot of the chart takes
// 4–32 ms at 3840 × 2160. It is replotted once, in the next pass of the event loop, at its final
// size and with the final bars.
TEST(NotesChart, FilledAndResizedInOnePassReplotsOnce) {
    KernelMeasurementStore store;
    NotesView view(&store);
    ASSERT_NE(view.chart(), nullptr);
    view.resize(1200, 800);
    view.show();
    for (int pass = 0; pass < 5; ++pass) {
        QCoreApplication::processEvents();
    }
    int replots = 0;
    QSize replottedAt;
    QObject::connect(view.chart(), &QCustomPlot::afterReplot, &view, [&] {
        ++replots;
        replottedAt = view.chart()->size();
    });
    const QSize before = view.chart()->size();
    ASSERT_TRUE(view.setExperiment(notesExperiments().back().id));
    view.setGpuStatus(QStringLiteral("This GPU: not measured."));
    view.setRevealedSeries(1);
    view.resize(1200, 900); // the chart is resized in the same pass
    ASSERT_NE(view.chart()->size(), before);
    for (int pass = 0; pass < 5; ++pass) {
        QCoreApplication::processEvents();
    }
    EXPECT_EQ(replots, 1);
    EXPECT_EQ(replottedAt, view.chart()->size());
    // Nothing changed since: nothing more is replotted.
    for (int pass = 0; pass < 5; ++pass) {
        QCoreApplication::processEvents();
    }
    EXPECT_EQ(replots, 1);
}

// A picture of the chart made on another view (chartPicture()) is shown in place of a replot
// when the chart comes to show the same data at the same size, and it is what QCustomPlot's own
// paint of that chart draws; a picture of other data or at another size is not used.
TEST(NotesChart, APictureOfTheSameChartIsShownInsteadOfAReplot) {
    KernelMeasurementStore store;
    const auto makeView = [&store] {
        auto view = std::make_unique<NotesView>(&store);
        view->setPresentation(true);
        view->resize(1200, 800);
        view->show();
        return view;
    };
    const auto settle = [] {
        for (int pass = 0; pass < 5; ++pass) {
            QCoreApplication::processEvents();
        }
    };
    const std::string first = notesExperiments().front().id;
    const std::string last = notesExperiments().back().id;
    ASSERT_NE(first, last);
    // Drawn on one view, the picture of `last` with nothing revealed.
    auto twin = makeView();
    ASSERT_TRUE(twin->setExperiment(last));
    twin->setRevealedSeries(0);
    settle();
    NotesView::ChartPicture picture = twin->chartPicture();
    ASSERT_FALSE(picture.image.isNull());
    ASSERT_FALSE(picture.key.isEmpty());

    auto view = makeView();
    ASSERT_TRUE(view->setExperiment(first));
    settle();
    int replots = 0;
    QObject::connect(view->chart(), &QCustomPlot::afterReplot, view.get(), [&] { ++replots; });
    view->adoptChartPicture(picture);
    ASSERT_TRUE(view->setExperiment(last));
    view->setRevealedSeries(0);
    settle();
    EXPECT_EQ(replots, 0);
    const QImage copied = view->chart()->grab().toImage();
    EXPECT_TRUE(view->chartPaintedFromPicture());
    // QCustomPlot's own paint of the same chart on a third view: the same pixels.
    auto plain = makeView();
    ASSERT_TRUE(plain->setExperiment(last));
    plain->setRevealedSeries(0);
    settle();
    EXPECT_EQ(copied, plain->chart()->grab().toImage());
    EXPECT_FALSE(plain->chartPaintedFromPicture());

    // Other bars: replotted, not the picture.
    view->setRevealedSeries(1);
    settle();
    EXPECT_EQ(replots, 1);
    (void)view->chart()->grab();
    EXPECT_FALSE(view->chartPaintedFromPicture());
    // The same data again: the picture again, with no replot.
    view->setRevealedSeries(0);
    settle();
    EXPECT_EQ(replots, 1);
    (void)view->chart()->grab();
    EXPECT_TRUE(view->chartPaintedFromPicture());
    // Another size: replotted at that size.
    view->resize(1200, 760);
    settle();
    EXPECT_EQ(replots, 2);
    (void)view->chart()->grab();
    EXPECT_FALSE(view->chartPaintedFromPicture());
}

/// The names in `plot`'s legend, in order.
QStringList legendNames(QCustomPlot* plot) {
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i))) {
            names << item->plottable()->name();
        }
    }
    return names;
}

// A series with no bars is not in the legend, and this GPU's axis is not drawn without this
// GPU's bars (the lecture's readSegment slide listed "this GPU: not measured" under three notes'
// bars, and its Table 4-11 and tiled transpose slides had a "this GPU, GB/s" axis from 0 to 1
// scaling nothing). With the bars, both are back; the picture's key tells the two charts apart.
TEST(NotesChart, ASeriesWithoutBarsIsNotInTheLegendNorGetsAnAxis) {
    KernelMeasurementStore empty;
    KernelMeasurementStore recorded;
    ASSERT_FALSE(
        recorded.importJsonLines(readTestData("kernel_tables_h100.jsonl"), kH100).has_value());
    const auto makeView = [](KernelMeasurementStore* store, const std::string& id) {
        auto view = std::make_unique<NotesView>(store);
        view->setPresentation(true);
        view->resize(1200, 800);
        EXPECT_TRUE(view->setExperiment(id));
        view->show();
        for (int pass = 0; pass < 5; ++pass) {
            QCoreApplication::processEvents();
        }
        return view;
    };
    // Efficiencies share one axis; bandwidths have the notes' and this GPU's; the tiled
    // transpose draws the model's count for one warp where the notes publish no number.
    for (const char* name : {"readsegment", "table-4-11", "transpose-tiled"}) {
        const std::string id = name;
        SCOPED_TRACE(id);
        auto unmeasured = makeView(&empty, id);
        ASSERT_EQ(unmeasured->measuredBarCount(), 0);
        ASSERT_GT(unmeasured->notesBarCount(), 0);
        const QStringList names = legendNames(unmeasured->chart());
        ASSERT_EQ(names.size(), 1) << names.join(QLatin1Char('|')).toStdString();
        EXPECT_FALSE(names.front().contains(QStringLiteral("this GPU")));
        EXPECT_FALSE(unmeasured->chart()->yAxis2->visible());
        // Every series is still there (a reveal shows or hides it), only not in the legend.
        EXPECT_EQ(unmeasured->chart()->plottableCount(), 2);

        auto measured = makeView(&recorded, id);
        const QString picturedKey = unmeasured->chartPicture().key;
        EXPECT_NE(measured->chartPicture().key, picturedKey);
        if (measured->measuredBarCount() == 0) {
            // The H100's lines hold bandwidths without counters: no load efficiency, no bars.
            EXPECT_EQ(id, "readsegment");
            EXPECT_EQ(legendNames(measured->chart()).size(), 1);
            continue;
        }
        EXPECT_EQ(legendNames(measured->chart()).size(), 2);
        EXPECT_TRUE(legendNames(measured->chart()).back().contains(kH100));
        EXPECT_TRUE(measured->chart()->yAxis2->visible());
    }
}
#endif

} // namespace
} // namespace warpscope::app::test
