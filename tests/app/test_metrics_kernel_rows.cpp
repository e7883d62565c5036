// The metrics dock's summary table for the accesses the probe measures as whole kernels (issue
// 19): a constant load's LDC requests, rounds, constant-cache requests and requests beyond a
// broadcast from the core's ConstantPrediction; an async copy's shared side; a texture read's
// global-load equivalent named as such; and, when a kernel measurement of the preset at the
// current point exists (recorded on the H100, or from the fake probe), "Kernel:" rows with the
// grid model's totals beside the GPU's counters.
#include "probefixture.h"
#include "windowfixture.h"

#include "gpu/kernelmeasurement.h"
#include "panels/kernelmetrics.h"
#include "panels/metricspanel.h"
#include "panels/metricstablemodel.h"
#include "views/kernelsweepview.h"
#include "views/sweepplot.h"

#include <warpscope/model.h>

#include <gtest/gtest.h>

#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTest>

namespace warpscope::app::test {
namespace {

MetricsTableModel& summary(MainWindow& window) {
    return *window.metricsPanel()->summaryModel();
}

QString modern(MainWindow& window, const char* quantity) {
    return summary(window).text(QString::fromUtf8(quantity), MetricsTableModel::ModernColumn);
}

QString textbook(MainWindow& window, const char* quantity) {
    return summary(window).text(QString::fromUtf8(quantity), MetricsTableModel::TextbookColumn);
}

QString kernelRowMeasured(MainWindow& window, const char* quantity) {
    return summary(window).text(QString::fromUtf8(quantity), MetricsTableModel::MeasuredColumn);
}

/// The quantity column, in order.
QStringList quantities(MainWindow& window) {
    QStringList list;
    MetricsTableModel& model = summary(window);
    for (int r = 0; r < model.rowCount(); ++r) {
        list << model.data(model.index(r, MetricsTableModel::QuantityColumn)).toString();
    }
    return list;
}

/// Set the current kernel's parameter `name` (an edit through the document, as a slider does).
void setParameter(PatternDocument& document, const std::string& name, std::int64_t value) {
    Pattern pattern = document.pattern();
    for (Parameter& p : pattern.source->parameters) {
        if (p.name == name) {
            p.value = value;
        }
    }
    document.editPattern(pattern, QStringLiteral("parameter"));
    QApplication::processEvents();
}

/// A measure_kernel answer as the fake probe gives it: the document's kernel at its current point,
/// with `predicted` as the grid model's totals and `counters` as the GPU's.
KernelMeasurement handMade(const PatternDocument& document,
                           const std::map<std::string, double>& predicted,
                           const std::map<std::string, double>& counters) {
    KernelMeasurement m;
    m.kernelName = document.kernel()->name;
    for (const Parameter& p : document.kernel()->parameters) {
        m.parameters[p.name] = p.value;
    }
    for (const KernelAccess& a : document.kernel()->accesses) {
        KernelAccessMeasurement access;
        access.label = a.label;
        access.space = toString(a.kind.space);
        access.op = toString(a.kind.op);
        access.width = a.kind.widthBytes;
        m.accesses.push_back(access);
    }
    m.predicted = predicted;
    m.counters = counters;
    m.countersMeasured = true;
    m.kernelMs = protocol::Stats{0.25, 0.25, 0.25, 1};
    m.gpuName = QStringLiteral("warpscope fake GPU");
    return m;
}

TEST_F(WindowTest, AConstantLoadFillsTheSummaryTableWithoutAGpu) {
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:constant-divergent")));
    QApplication::processEvents();
    ASSERT_TRUE(document().evaluation());
    const ConstantPrediction& c = *document().evaluation()->modern.constant;
    ASSERT_EQ(c.distinctAddresses, 32);
    // Not an empty table: the constant cache's numbers under the names docs/metrics.md gives.
    EXPECT_EQ(quantities(*window), (QStringList{QStringLiteral("LDC requests"),
                                                QStringLiteral("Rounds (distinct addresses)"),
                                                QStringLiteral("Constant-cache requests"),
                                                QStringLiteral("Requests beyond a broadcast"),
                                                QStringLiteral("Bytes requested")}));
    EXPECT_EQ(modern(*window, "LDC requests"), QStringLiteral("1"));
    EXPECT_EQ(modern(*window, "Rounds (distinct addresses)"), QStringLiteral("32"));
    // The notes' rule: one pass per distinct address.
    EXPECT_EQ(textbook(*window, "Rounds (distinct addresses)"), QStringLiteral("32"));
    EXPECT_EQ(modern(*window, "Constant-cache requests"), QStringLiteral("32"));
    EXPECT_EQ(modern(*window, "Requests beyond a broadcast"), QStringLiteral("31"));
    EXPECT_EQ(modern(*window, "Bytes requested"), QStringLiteral("128"));
    // No measurement: it says so, and where one would come from.
    EXPECT_EQ(kernelRowMeasured(*window, "Requests beyond a broadcast"),
              MetricsTableModel::noMeasurementText());
    EXPECT_TRUE(
        window->metricsPanel()->measurementLabel()->text().contains(QStringLiteral("whole kernel")))
        << qPrintable(window->metricsPanel()->measurementLabel()->text());

    // One address for the warp: a broadcast, nothing beyond it.
    setParameter(document(), "distinct", 1);
    EXPECT_EQ(modern(*window, "Rounds (distinct addresses)"), QStringLiteral("1"));
    EXPECT_EQ(modern(*window, "Constant-cache requests"), QStringLiteral("1"));
    EXPECT_EQ(modern(*window, "Requests beyond a broadcast"), QStringLiteral("0"));
}

TEST_F(WindowTest, AWideConstantLoadCountsEachLdcInstruction) {
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:constant-divergent")));
    QApplication::processEvents();
    Pattern pattern = document().pattern();
    pattern.kind.widthBytes = 8;
    pattern.source->addressExpression = "(lane % 4) * 8";
    document().editPattern(pattern, QStringLiteral("8 bytes"));
    QApplication::processEvents();
    ASSERT_FALSE(document().error()) << document().error()->describe();
    // Two 32-bit LDCs, each serving the 4 addresses in turn.
    EXPECT_EQ(modern(*window, "LDC requests"), QStringLiteral("2"));
    EXPECT_EQ(modern(*window, "Rounds (distinct addresses)"), QStringLiteral("4"));
    EXPECT_EQ(modern(*window, "Constant-cache requests"), QStringLiteral("8"));
    EXPECT_EQ(modern(*window, "Requests beyond a broadcast"), QStringLiteral("6"));
}

// The H100's recorded constant sweep (tests/data/constant_sweep_h100.jsonl, measure_kernel at
// distinct = 1..32): the table shows the point's counters beside the grid model's totals. No GPU
// name is given (as --kernel-measurements gives none): the answers' own device names it.
// The preset first and the file after, as `warpscope --preset ... --kernel-measurements FILE`.
TEST_F(WindowTest, RecordedConstantCountersStandBesideTheModel) {
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:constant-divergent")));
    QApplication::processEvents();
    ASSERT_TRUE(window->importKernelMeasurements(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/constant_sweep_h100.jsonl"), {}));
    QApplication::processEvents();
    const KernelMeasurement* m = summary(*window).kernelMeasurement();
    ASSERT_NE(m, nullptr);
    EXPECT_TRUE(m->recorded);
    EXPECT_EQ(m->parameters.at("distinct"), 32);
    // 16,777,216 threads = 524,288 warps, each 31 requests beyond its broadcast.
    const QString extra = QLocale().toString(31.0 * 524288, 'f', 0);
    EXPECT_EQ(modern(*window, "Kernel: beyond a broadcast"), extra);
    EXPECT_EQ(kernelRowMeasured(*window, "Kernel: beyond a broadcast"),
              extra + QStringLiteral("  ✓"));
    EXPECT_EQ(modern(*window, "Kernel: cache requests"), QLocale().toString(32.0 * 524288, 'f', 0));
    // The GPU's LDC count includes the parameter loads: shown, not compared.
    EXPECT_EQ(
        kernelRowMeasured(*window, "Kernel: LDC requests"),
        QLocale().toString(m->counters.at("smsp__inst_executed_op_ldc_pred_on_any.sum"), 'f', 0));
    EXPECT_FALSE(kernelRowMeasured(*window, "Kernel: time").isEmpty());
    EXPECT_EQ(summary(*window).mismatchCount(), 0);
    // The per-warp rows stay the model's; the label names where the numbers come from.
    EXPECT_EQ(modern(*window, "Requests beyond a broadcast"), QStringLiteral("31"));
    const QString label = window->metricsPanel()->measurementLabel()->text();
    EXPECT_TRUE(label.contains(QStringLiteral("Recorded</b> as a whole kernel on NVIDIA H100")))
        << qPrintable(label);
    EXPECT_TRUE(label.contains(QStringLiteral("agree"))) << qPrintable(label);
    // The per-warp metric list does not say "no GPU measurement yet" beside a recorded kernel.
    QTableWidget* list = window->metricsPanel()->metricList();
    ASSERT_GT(list->rowCount(), 0);
    for (int r = 0; r < list->rowCount(); ++r) {
        EXPECT_EQ(list->item(r, 2)->text(), QStringLiteral("—"))
            << qPrintable(list->item(r, 0)->text());
    }
    // The dock's kernel section below shows the same measurement, the constant counters in it.
    const auto sectionRow = [&](const char* name) -> QStringList {
        QTableWidget* table = window->metricsPanel()->kernelSection()->table();
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 0)->text() == QLatin1String(name)) {
                QStringList cells;
                for (int c = 1; c < table->columnCount(); ++c) {
                    cells << table->item(r, c)->text();
                }
                return cells;
            }
        }
        return {};
    };
    const QString total = QLocale::c().toString(qlonglong{31} * 524288);
    EXPECT_EQ(sectionRow("warpscope__constant_extra_requests"),
              (QStringList{total, total, QStringLiteral("✓")}));
    EXPECT_EQ(sectionRow("idc__requests.sum").value(0), QStringLiteral("—"));
    // Its access row counts LDC and constant-cache requests, not sectors a constant load has none
    // of.
    EXPECT_EQ(sectionRow("load coef[(lane % distinct) * stride] (constant load, 4 B): LDC "
                         "requests / constant-cache requests")
                  .value(0),
              QStringLiteral("524288 / 16777216"));
    EXPECT_TRUE(window->metricsPanel()->kernelSection()->titleLabel()->text().contains(
        QStringLiteral("distinct=32")));

    // Another recorded point follows the parameter.
    setParameter(document(), "distinct", 5);
    EXPECT_EQ(kernelRowMeasured(*window, "Kernel: beyond a broadcast"),
              QLocale().toString(4.0 * 524288, 'f', 0) + QStringLiteral("  ✓"));
    // A point never measured: no Kernel rows, and the label says how to measure it.
    setParameter(document(), "n", 8192);
    EXPECT_EQ(summary(*window).kernelMeasurement(), nullptr);
    EXPECT_FALSE(quantities(*window).contains(QStringLiteral("Kernel: beyond a broadcast")));
    EXPECT_EQ(kernelRowMeasured(*window, "Requests beyond a broadcast"),
              MetricsTableModel::noMeasurementText());
    // The kernel section shows the grid model's prediction for the point, nothing measured.
    const QTableWidget* section = window->metricsPanel()->kernelSection()->table();
    for (int r = 0; r < section->rowCount(); ++r) {
        EXPECT_EQ(section->item(r, 2)->text(), QStringLiteral("—"))
            << qPrintable(section->item(r, 0)->text());
    }
}

// The fake probe's measure_kernel (counters equal to the grid model) through the sweep tab.
TEST(MetricsKernelRows, TheFakeProbesConstantSweepFillsTheKernelRows) {
    REQUIRE_FAKE_PROBE();
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:constant-divergent")));
    setParameter(*window->document(), "n", 8192);
    window->showView(MainWindow::View::Sweep);
    KernelSweepView* view = window->sweepPlot()->kernelSweepView();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !view->isModelBusy(); }, 60000));
    window->runSweepOnGpu();
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->runButton()->isEnabled(); }, 60000));
    ASSERT_EQ(view->measuredPointCount(), 32);
    // The document stays at distinct = 32: 256 warps, 31 each beyond the broadcast.
    ASSERT_NE(summary(*window).kernelMeasurement(), nullptr);
    EXPECT_FALSE(summary(*window).kernelMeasurement()->recorded);
    EXPECT_EQ(kernelRowMeasured(*window, "Kernel: beyond a broadcast"),
              QLocale().toString(31.0 * 256, 'f', 0) + QStringLiteral("  ✓"));
    // The fake counts no parameter loads: its LDCs are the model's.
    EXPECT_EQ(kernelRowMeasured(*window, "Kernel: LDC requests"), QStringLiteral("256"));
    EXPECT_TRUE(window->metricsPanel()->measurementLabel()->text().contains(
        QStringLiteral("Measured</b> as a whole kernel")));
}

TEST_F(WindowTest, AConstantCounterThatDiffersIsFlagged) {
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:constant-broadcast")));
    QApplication::processEvents();
    window->kernelMeasurements()->put(QStringLiteral("constant-broadcast"),
                                      handMade(document(),
                                               {{"warpscope__constant_extra_requests", 0}},
                                               {{"warpscope__constant_extra_requests", 7}}));
    QApplication::processEvents();
    EXPECT_EQ(kernelRowMeasured(*window, "Kernel: beyond a broadcast"), QStringLiteral("7  ≠ 0"));
    EXPECT_EQ(summary(*window).mismatchCount(), 1);
    EXPECT_TRUE(window->metricsPanel()->measurementLabel()->text().contains(
        QStringLiteral("1 whole-kernel counter(s) differ")))
        << qPrintable(window->metricsPanel()->measurementLabel()->text());
    // An edited kernel (another width) is not what was measured: no Kernel rows.
    Pattern pattern = document().pattern();
    pattern.kind.widthBytes = 8;
    document().editPattern(pattern, QStringLiteral("8 bytes"));
    QApplication::processEvents();
    ASSERT_FALSE(document().error()) << document().error()->describe();
    EXPECT_EQ(summary(*window).kernelMeasurement(), nullptr);
    EXPECT_TRUE(kernelRowMeasured(*window, "Kernel: beyond a broadcast").isEmpty());
}

TEST_F(WindowTest, LocalTextureAndCopyAccessesShowTheirKernelCounters) {
    // Local memory: the interleaved addresses' requests and sectors, and the kernel's local
    // counters beside the grid model's.
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:local-lane-index")));
    QApplication::processEvents();
    ASSERT_EQ(document().pattern().kind.space, MemorySpace::Local);
    EXPECT_FALSE(modern(*window, "Requests").isEmpty());
    EXPECT_FALSE(modern(*window, "Sectors (32 B)").isEmpty());
    const AccessCounters local = nsightCountersFor(document().pattern().kind);
    window->kernelMeasurements()->put(QStringLiteral("local-lane-index"),
                                      handMade(document(),
                                               {{local.first, 32768}, {local.second, 1048576}},
                                               {{local.first, 32768}, {local.second, 1048576}}));
    QApplication::processEvents();
    EXPECT_EQ(kernelRowMeasured(*window, "Kernel: requests"),
              QLocale().toString(32768.0, 'f', 0) + QStringLiteral("  ✓"));
    EXPECT_EQ(kernelRowMeasured(*window, "Kernel: sectors"),
              QLocale().toString(1048576.0, 'f', 0) + QStringLiteral("  ✓"));

    // Texture: its own requests and sectors; the global-load equivalent's lines, bytes and
    // efficiency named as such, not as the texture's.
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:texture-tiles")));
    QApplication::processEvents();
    ASSERT_EQ(document().pattern().kind.space, MemorySpace::Texture);
    const TexturePrediction& texture = *document().evaluation()->modern.texture;
    EXPECT_EQ(modern(*window, "Sectors (32 B)"), QString::number(texture.sectors));
    const QStringList rows = quantities(*window);
    EXPECT_TRUE(rows.contains(QStringLiteral("Bytes moved as global loads")));
    EXPECT_TRUE(rows.contains(QStringLiteral("Efficiency as global loads")));
    EXPECT_FALSE(rows.contains(QStringLiteral("Bytes moved")));
    // The notes give textures no transaction rule: no row of dashes alone.
    EXPECT_FALSE(rows.contains(QStringLiteral("Transactions")));
    const std::vector<std::string>& tex = textureCounterNames();
    window->kernelMeasurements()->put(
        QStringLiteral("texture-tiles"),
        handMade(document(),
                 {{tex[0], 1048576},
                  {tex[1], 1048576},
                  {"warpscope__texture_global_equivalent_sectors", 1048576}},
                 {{tex[0], 1048576}, {tex[1], 1048577}}));
    QApplication::processEvents();
    EXPECT_EQ(kernelRowMeasured(*window, "Kernel: requests"),
              QLocale().toString(1048576.0, 'f', 0) + QStringLiteral("  ✓"));
    EXPECT_EQ(kernelRowMeasured(*window, "Kernel: sectors"),
              QLocale().toString(1048577.0, 'f', 0) + QStringLiteral("  ≠ ") +
                  QLocale().toString(1048576.0, 'f', 0));
    EXPECT_EQ(summary(*window).mismatchCount(), 1);
    EXPECT_EQ(modern(*window, "Kernel: sectors as global loads"),
              QLocale().toString(1048576.0, 'f', 0));

    // An async copy: the global side and now its shared side (the bank view's wavefronts) too.
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:copyasync-width")));
    QApplication::processEvents();
    ASSERT_EQ(document().pattern().kind.op, AccessOp::CopyAsync);
    const SharedPrediction& shared = *document().evaluation()->modern.shared;
    EXPECT_EQ(modern(*window, "Shared wavefronts"), QString::number(shared.wavefronts));
    EXPECT_EQ(modern(*window, "Bank conflicts"), QString::number(shared.bankConflicts));
    EXPECT_FALSE(modern(*window, "Sectors (32 B)").isEmpty());
    const std::vector<std::string>& copy = copyAsyncCounterNames();
    window->kernelMeasurements()->put(
        QStringLiteral("copyasync-width"),
        handMade(document(), {{copy[0], 10}, {copy[1], 40}, {copy[2], 20}, {copy[3], 0}},
                 {{copy[0], 10}, {copy[1], 40}, {copy[2], 20}, {copy[3], 0}}));
    QApplication::processEvents();
    for (const char* row : {"Kernel: requests (LDGSTS)", "Kernel: sectors (LDGSTS)",
                            "Kernel: shared wavefronts", "Kernel: bank conflicts"}) {
        EXPECT_TRUE(kernelRowMeasured(*window, row).endsWith(QStringLiteral("✓")))
            << row << ": " << qPrintable(kernelRowMeasured(*window, row));
    }
    EXPECT_EQ(summary(*window).mismatchCount(), 0);
}

} // namespace
} // namespace warpscope::app::test
