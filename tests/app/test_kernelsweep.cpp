// Sweeps on whole kernels (the sweep tab on a kernel preset or a notes experiment): the points
// a block-shape or parameter sweep runs, its errors, the grid model at each point, a run through
// the fake probe's measure_kernel as one batch with progress and cancel, the model alone without
// a GPU, and the session keeping what was measured. Also the notes' three tables from a fresh
// window in three actions (pick the preset, F5, look).
#include "document/kernelsweepdata.h"
#include "gpu/kernelmeasurement.h"
#include "gpu/notesrunner.h"
#include "gpu/probeclient.h"
#include "panels/patterneditor.h"
#include "panels/presetpicker.h"
#include "probefixture.h"
#include "views/kernelsweepview.h"
#include "views/notesview.h"
#include "views/sweepplot.h"
#include "windowfixture.h"

#include <warpscope/kernel_preset.h>

#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cmath>

namespace warpscope::app::test {
namespace {

constexpr int kSweepWaitMs = 60000;

const Kernel& presetKernel(const char* id) {
    const KernelPreset* preset = findKernelPreset(id);
    if (preset == nullptr) {
        ADD_FAILURE() << "no kernel preset " << id;
        static const Kernel none{};
        return none;
    }
    return preset->kernel;
}

const std::vector<KernelSweep>& presetSweeps(const char* id) {
    static const std::vector<KernelSweep> none;
    const KernelPreset* preset = findKernelPreset(id);
    return preset != nullptr ? preset->sweeps : none;
}

Kernel withParameter(Kernel kernel, const std::string& name, std::int64_t value) {
    return kernelAtPoint(kernel, {{name, value}});
}

// Table 4-11's nine block shapes are the preset's block-shape sweep, in the notes' order.
TEST(KernelSweepData, BlockShapeOfTable411IsTheNineShapes) {
    const Kernel& kernel = presetKernel("transpose-naivecol-cg");
    const std::vector<KernelSweepAxis> axes = kernelSweepAxes(kernel);
    ASSERT_FALSE(axes.empty());
    EXPECT_TRUE(axes.front().blockShape);
    EXPECT_EQ(axes.size(), kernel.parameters.size() + 1);
    const QString values =
        defaultKernelSweepValues(kernel, presetSweeps("transpose-naivecol-cg"), axes.front());
    EXPECT_EQ(values, QStringLiteral("32x32, 32x16, 32x8, 16x32, 16x16, 16x8, 8x32, 8x16, 8x8"));
    QString error;
    const auto plan = planKernelSweep(kernel, axes.front(), values, &error);
    ASSERT_TRUE(plan.has_value()) << qPrintable(error);
    ASSERT_EQ(plan->points.size(), 9u);
    EXPECT_EQ(plan->labels.front(), QStringLiteral("(32, 32)"));
    EXPECT_EQ(plan->labels.back(), QStringLiteral("(8, 8)"));
    EXPECT_EQ(plan->points[2].at("bx"), 32);
    EXPECT_EQ(plan->points[2].at("by"), 8);
    EXPECT_EQ(plan->points[2].at("nx"), 2048); // the other parameters as they are
}

TEST(KernelSweepData, ParameterSweepStartsFromTheNotesValues) {
    const Kernel& kernel = presetKernel("readsegment");
    const KernelSweepAxis offset{false, "offset"};
    EXPECT_EQ(defaultKernelSweepValues(kernel, presetSweeps("readsegment"), offset),
              QStringLiteral("0, 11, 128"));
    // One-dimensional blocks: the usual block sizes.
    EXPECT_EQ(defaultKernelSweepValues(kernel, {}, KernelSweepAxis{true, {}}),
              QStringLiteral("128, 256, 512, 1024"));
    // The tiled transpose's square t by t block.
    EXPECT_EQ(
        defaultKernelSweepValues(presetKernel("transpose-tiled"), {}, KernelSweepAxis{true, {}}),
        QStringLiteral("32x32, 16x16, 8x8"));
}

// Bad values are refused with the item that is wrong and why.
TEST(KernelSweepData, BadValuesNameTheItem) {
    const Kernel& transpose = presetKernel("transpose-naivecol-cg");
    const KernelSweepAxis block{true, {}};
    QString error;
    EXPECT_FALSE(planKernelSweep(transpose, block, QStringLiteral("32x32, 32"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("value 2 (\"32\")"))) << qPrintable(error);
    EXPECT_FALSE(planKernelSweep(transpose, block, QStringLiteral("32xq"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("\"q\" is not a positive integer")))
        << qPrintable(error);
    EXPECT_FALSE(planKernelSweep(transpose, block, QStringLiteral("64x32"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("2048 threads"))) << qPrintable(error);
    EXPECT_FALSE(planKernelSweep(transpose, block, QString(), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("No values"))) << qPrintable(error);
    EXPECT_FALSE(
        planKernelSweep(presetKernel("transpose-tiled"), block, QStringLiteral("16x32"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("must be equal"))) << qPrintable(error);
    EXPECT_FALSE(planKernelSweep(presetKernel("readsegment"), KernelSweepAxis{false, "offset"},
                                 QStringLiteral("0, 11, eleven"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("value 3 (\"eleven\") is not an integer")))
        << qPrintable(error);
    EXPECT_FALSE(planKernelSweep(presetKernel("readsegment"), KernelSweepAxis{false, "nope"},
                                 QStringLiteral("1"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("no parameter \"nope\""))) << qPrintable(error);
    QString many;
    for (int i = 0; i <= kMaxKernelSweepPoints; ++i) {
        many += QStringLiteral("%1, ").arg(i);
    }
    EXPECT_FALSE(planKernelSweep(presetKernel("readsegment"), KernelSweepAxis{false, "offset"},
                                 many, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("at most"))) << qPrintable(error);
}

// The grid model at each point: a misaligned offset costs sectors, an address past the buffer
// makes the point invalid (and says where), the others are still computed.
TEST(KernelSweepData, GridModelAtEveryPoint) {
    const Kernel kernel = withParameter(presetKernel("readsegment"), "n", 4096);
    QString error;
    const auto plan = planKernelSweep(kernel, KernelSweepAxis{false, "offset"},
                                      QStringLiteral("0, 11, 128"), &error);
    ASSERT_TRUE(plan.has_value()) << qPrintable(error);
    const KernelSweepData data = computeKernelSweep(kernel, *plan);
    ASSERT_EQ(data.modelSectors.size(), 3);
    EXPECT_FALSE(data.hasShared);
    EXPECT_GT(data.modelSectors[0], 0);
    EXPECT_GT(data.modelSectors[1], data.modelSectors[0]);
    EXPECT_TRUE(data.errors[0].isEmpty()) << qPrintable(data.errors[0]);

    // Padding changes the tiled transpose's shared wavefronts, not its global sectors.
    const Kernel tiled =
        withParameter(withParameter(presetKernel("transpose-tiled"), "nx", 256), "ny", 256);
    const auto pads =
        planKernelSweep(tiled, KernelSweepAxis{false, "pad"}, QStringLiteral("0, 1"), &error);
    ASSERT_TRUE(pads.has_value()) << qPrintable(error);
    const KernelSweepData padded = computeKernelSweep(tiled, *pads);
    ASSERT_TRUE(padded.hasShared);
    ASSERT_EQ(padded.modelWavefronts.size(), 2);
    EXPECT_GT(padded.modelWavefronts[0], padded.modelWavefronts[1]);
    EXPECT_EQ(padded.modelSectors[0], padded.modelSectors[1]);

    std::atomic<bool> cancelled{true};
    EXPECT_TRUE(computeKernelSweep(kernel, *plan, &cancelled).modelSectors.isEmpty());
}

/// The sweep tab on Table 4-11, with its model computed. The matrix is 512 x 512 instead of the
/// notes' 2048 x 2048 (an edit of the pattern's nx and ny, which the kernel follows), so that the
/// grid model and the fake probe's run take seconds in a debug build.
KernelSweepView* showTable411Sweep(MainWindow& window) {
    EXPECT_TRUE(window.showNotesExperiment(QStringLiteral("table-4-11")));
    Pattern smaller = window.document()->pattern();
    for (Parameter& p : smaller.source->parameters) {
        if (p.name == "nx" || p.name == "ny") {
            p.value = 512;
        }
    }
    window.document()->editPattern(smaller, QStringLiteral("smaller matrix"));
    window.showView(MainWindow::View::Sweep);
    SweepPlot* sweep = window.sweepPlot();
    EXPECT_TRUE(sweep->kernelMode());
    KernelSweepView* view = sweep->kernelSweepView();
    EXPECT_TRUE(QTest::qWaitFor([&] { return !view->isModelBusy(); }, kSweepWaitMs));
    return view;
}

// Table 4-11's preset in the sweep tab: the block shape, nine points, the model at each, then
// the GPU's bandwidth at each from one measure_kernel batch; saved and opened again, the
// session still has them.
TEST(KernelSweep, BlockShapeOfTable411RunsNinePointsAndTheSessionKeepsThem) {
    REQUIRE_FAKE_PROBE();
    auto window = windowWithProbe(fakeProbe());
    KernelSweepView* view = showTable411Sweep(*window);
    EXPECT_EQ(view->presetId(), QStringLiteral("transpose-naivecol-cg"));
    EXPECT_TRUE(view->axis().blockShape);
    ASSERT_TRUE(view->plan().has_value());
    EXPECT_EQ(view->plan()->points.size(), 9u);
    EXPECT_EQ(view->data().modelSectors.size(), 9);
    if (SweepPlot::plotAvailable()) {
        EXPECT_EQ(view->modelPointCount(), 9);
        EXPECT_EQ(view->bandwidthBarCount(), 0);
    }
    // The column-wise reads of NaiveCol: a narrower block needs fewer sectors per warp.
    EXPECT_GT(view->data().modelSectors[0], view->data().modelSectors[8]);
    EXPECT_EQ(window->sweepPlot()->gpuRunButton(), view->runButton());

    window->runSweepOnGpu(); // Shift+F5
    EXPECT_FALSE(view->runButton()->isEnabled());
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->runButton()->isEnabled(); }, kSweepWaitMs));
    EXPECT_EQ(view->measuredPointCount(), 9);
    if (SweepPlot::plotAvailable()) {
        EXPECT_EQ(view->bandwidthBarCount(), 9);
    }
    EXPECT_TRUE(view->gpuStatusLabel()->text().contains(window->probeClient()->gpu().name))
        << qPrintable(view->gpuStatusLabel()->text());
    EXPECT_FALSE(view->progressBar()->isVisible());
    EXPECT_TRUE(window->document()->isModified());
    // Recorded with the kernel measurements the notes tab reads, at the 512 x 512 points.
    EXPECT_EQ(window->kernelMeasurements()->size(), 9);
    EXPECT_EQ(view->measurements().front()->parameters.at("nx"), 512);

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("sweep.warpscope"));
    ASSERT_TRUE(window->saveSession(path));
    MainWindow reopened(quietOptions());
    reopened.resize(1600, 1000);
    reopened.show();
    ASSERT_TRUE(reopened.openSession(path));
    reopened.showView(MainWindow::View::Sweep);
    ASSERT_TRUE(reopened.sweepPlot()->kernelMode());
    KernelSweepView* again = reopened.sweepPlot()->kernelSweepView();
    EXPECT_EQ(again->presetId(), QStringLiteral("transpose-naivecol-cg"));
    EXPECT_TRUE(again->axis().blockShape);
    ASSERT_TRUE(again->plan().has_value());
    EXPECT_EQ(again->plan()->points.size(), 9u);
    EXPECT_EQ(again->measuredPointCount(), 9);
    const KernelMeasurement* first = again->measurements().front();
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->gpuName, window->probeClient()->gpu().name);
    EXPECT_TRUE(QTest::qWaitFor([&] { return !again->isModelBusy(); }, kSweepWaitMs));
    if (SweepPlot::plotAvailable()) {
        EXPECT_EQ(again->bandwidthBarCount(), 9);
    }
    // A pattern preset sweeps the current access again.
    ASSERT_TRUE(reopened.loadPresetById(QStringLiteral("stride-2")));
    EXPECT_FALSE(reopened.sweepPlot()->kernelMode());
}

// Cancel stops the batch: nothing is recorded, the controls come back, and the next run ends.
TEST(KernelSweep, CancelStopsTheBatch) {
    REQUIRE_FAKE_PROBE();
    // From the fourth kernel on, the batch waits for the gate: it is still under way when Cancel
    // is pressed, however long the GUI stalls.
    FakeGate gate;
    FakeScript script("gated");
    auto window = windowWithProbe(fakeProbe());
    KernelSweepView* view = showTable411Sweep(*window);
    // Many points, so the batch is still under way when Cancel is pressed.
    QStringList shapes;
    for (int i = 0; i < 6; ++i) {
        shapes << QStringLiteral("32x32, 32x16, 32x8, 16x32, 16x16, 16x8, 8x32, 8x16, 8x8");
    }
    view->setSweep(KernelSweepAxis{true, {}}, shapes.join(QStringLiteral(", ")));
    ASSERT_TRUE(view->plan().has_value());
    view->runButton()->click();
    ASSERT_TRUE(view->cancelButton()->isVisible());
    ASSERT_TRUE(view->progressBar()->isVisible());
    // Under way on the probe's side: some kernels measured, most still to come.
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->progressBar()->value() > 0; }, kSweepWaitMs));
    ASSERT_LT(view->progressBar()->value(), 54);
    view->cancelButton()->click();
    EXPECT_TRUE(view->runButton()->isEnabled());
    EXPECT_FALSE(view->cancelButton()->isVisible());
    EXPECT_TRUE(view->gpuStatusLabel()->text().contains(QStringLiteral("cancelled")))
        << qPrintable(view->gpuStatusLabel()->text());
    EXPECT_EQ(window->kernelMeasurements()->size(), 0);
    EXPECT_EQ(view->measuredPointCount(), 0);
    gate.open(); // whatever the cancelled batch still sends comes before the next batch's answer

    // The probe takes the next batch and finishes it; by then anything of the cancelled batch
    // has arrived (the probe answers in order), and none of it was recorded.
    view->setSweep(KernelSweepAxis{true, {}}, QStringLiteral("32x8, 8x32"));
    view->runButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->measuredPointCount() == 2; }, kSweepWaitMs));
    EXPECT_FALSE(view->cancelButton()->isVisible());
    EXPECT_TRUE(view->runButton()->isEnabled());
    EXPECT_EQ(window->kernelMeasurements()->size(), 2);
}

// Without a GPU: the model's axis alone, and a clear message.
TEST(KernelSweep, WithoutAGpuTheModelStandsAloneAndSaysSo) {
    REQUIRE_FAKE_PROBE();
    FakeScript script("no_device");
    auto window = windowWithProbe(fakeProbe());
    KernelSweepView* view = showTable411Sweep(*window);
    view->runButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->runButton()->isEnabled(); }, kSweepWaitMs));
    EXPECT_TRUE(view->gpuStatusLabel()->text().contains(QStringLiteral("none present")))
        << qPrintable(view->gpuStatusLabel()->text());
    EXPECT_TRUE(view->gpuStatusLabel()->text().contains(QStringLiteral("grid model alone")));
    EXPECT_EQ(view->measuredPointCount(), 0);
    EXPECT_EQ(view->data().modelSectors.size(), 9);
    if (SweepPlot::plotAvailable()) {
        EXPECT_EQ(view->modelPointCount(), 9);
        EXPECT_EQ(view->bandwidthBarCount(), 0);
    }
}

// A parameter sweep of the readSegment kernel (the notes' offsets), and values typed in.
TEST(KernelSweep, ParameterSweepOfReadSegmentOffsets) {
    REQUIRE_FAKE_PROBE();
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("readsegment")));
    window->showView(MainWindow::View::Sweep);
    KernelSweepView* view = window->sweepPlot()->kernelSweepView();
    ASSERT_TRUE(window->sweepPlot()->kernelMode());
    EXPECT_EQ(view->axis().parameter, "offset");
    EXPECT_EQ(view->valuesText(), QStringLiteral("0, 11, 128"));
    view->valuesEdit()->setText(QStringLiteral("0, 1, 2, x"));
    emit view->valuesEdit()->editingFinished();
    EXPECT_FALSE(view->plan().has_value());
    EXPECT_TRUE(view->statusLabel()->text().contains(QStringLiteral("value 4 (\"x\")")))
        << qPrintable(view->statusLabel()->text());
    view->valuesEdit()->setText(QStringLiteral("0, 4, 11, 32"));
    emit view->valuesEdit()->editingFinished();
    ASSERT_TRUE(view->plan().has_value());
    view->runButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->measuredPointCount() == 4; }, kSweepWaitMs));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !view->isModelBusy(); }, kSweepWaitMs));
    EXPECT_EQ(view->data().modelSectors.size(), 4);
}

// From a fresh window, three actions reproduce each of the notes' tables on the GPU: pick the
// preset in the picker, press F5, look at the chart (the notes' bars beside this GPU's).
struct ThreeActions {
    const char* pickerText;
    const char* experiment;
    int rows;
};

class NotesInThreeActions : public ::testing::TestWithParam<ThreeActions> {};

TEST_P(NotesInThreeActions, PickRunLook) {
    REQUIRE_FAKE_PROBE();
    const ThreeActions& param = GetParam();
    auto window = windowWithProbe(fakeProbe());
    PresetPicker* picker = window->editor()->presetPicker();
    // 1. Pick the preset.
    const int index = picker->findText(QString::fromUtf8(param.pickerText));
    ASSERT_GE(index, 0) << param.pickerText;
    picker->setCurrentIndex(index);
    QApplication::processEvents();
    ASSERT_EQ(window->viewTabs()->currentWidget(), window->notesView());
    ASSERT_EQ(window->notesView()->experimentId(), param.experiment);
    // 2. Run (F5).
    QSignalSpy finished(window->notesRunner(), &NotesRunner::finished);
    QTest::keyClick(window.get(), Qt::Key_F5);
    ASSERT_TRUE(finished.wait(kSweepWaitMs));
    // 3. Look: every row measured, beside the notes' (or the model's) bars.
    NotesView* view = window->notesView();
    EXPECT_EQ(window->viewTabs()->currentWidget(), view);
    EXPECT_EQ(view->comparison().measuredRows, param.rows);
    if (view->chart() != nullptr) {
        EXPECT_EQ(view->notesBarCount(), param.rows);
        EXPECT_EQ(view->measuredBarCount(), param.rows);
    }
    EXPECT_FALSE(view->findingLabel()->text().isEmpty());
}

INSTANTIATE_TEST_SUITE_P(
    NotesTables, NotesInThreeActions,
    ::testing::Values(
        ThreeActions{"    Table 4-11: NaiveCol block shapes", "table-4-11", 9},
        ThreeActions{"    readSegment offsets, L1 on: load efficiency", "readsegment", 3},
        ThreeActions{"    Tiled transpose: without and with padding", "transpose-tiled", 2}));

} // namespace
} // namespace warpscope::app::test
