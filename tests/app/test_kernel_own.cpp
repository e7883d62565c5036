// A user's own kernel in the app: what the grid model finds wrong with the whole launch is shown
// in the kernel panel, numbered as its access list numbers (from 1), styled as an error; grid and
// block are edited in one place; the metrics dock's "Kernel (whole grid)" section gives the grid
// model's totals for any kernel, and never a measurement of another kernel.
#include "windowfixture.h"

#include "document/kernelprediction.h"
#include "panels/kernelmetrics.h"
#include "panels/kernelpanel.h"
#include "panels/metricspanel.h"
#include "panels/patterneditor.h"
#include "views/theme.h"

#include <warpscope/kernel.h>

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>

#ifndef WARPSCOPE_TEST_DATA_DIR
#error "WARPSCOPE_TEST_DATA_DIR must point at tests/data"
#endif

namespace warpscope::app::test {

namespace {

// The kernel's prediction and table follow a change on a worker: a loaded machine (the sanitizers,
// CI's under-load step) can take several seconds; waiting returns as soon as they are there.
constexpr int kKernelOwnWaitMs = 30000;

constexpr const char* kH100 = "NVIDIA H100 80GB HBM3";

/// The visible labels of `widget` whose text contains `needle`.
QList<QLabel*> visibleLabelsWith(QWidget* widget, const QString& needle) {
    QList<QLabel*> out;
    for (QLabel* label : widget->findChildren<QLabel*>()) {
        if (label->isVisible() && label->text().contains(needle)) {
            out << label;
        }
    }
    return out;
}

/// The row of `table` whose first cell starts with `name`, or -1.
int rowOf(const QTableWidget* table, const QString& name) {
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0) != nullptr && table->item(r, 0)->text().startsWith(name)) {
            return r;
        }
    }
    return -1;
}

/// A kernel with no parameters: 4 blocks of 128 threads, each reading one float of `in`
/// (coalesced) and writing one of `out` with a stride of 2 floats.
Kernel kernelWithoutParameters() {
    Kernel kernel;
    kernel.name = "plainCopy";
    kernel.launch.grid = {"4", "1", "1"};
    kernel.launch.block = {"128", "1", "1"};
    kernel.buffers = {KernelBuffer{"in", "2048"}, KernelBuffer{"out", "4096"}};
    KernelAccess load;
    load.kind.space = MemorySpace::Global;
    load.kind.op = AccessOp::Load;
    load.kind.widthBytes = 4;
    load.buffer = "in";
    load.addressExpression = "4 * gid";
    load.label = "load in";
    KernelAccess store = load;
    store.kind.op = AccessOp::Store;
    store.buffer = "out";
    store.addressExpression = "8 * gid";
    store.label = "store out";
    kernel.accesses = {load, store};
    return kernel;
}

} // namespace

// Outside the anonymous namespace: GoogleTest's test classes derive from it (GCC's
// -Wsubobject-linkage in unity builds).
class KernelOwnTest : public WindowTest {
protected:
    KernelPanel& panel() { return *window->editor()->kernelPanel(); }
    KernelMetricsSection& section() { return *window->metricsPanel()->kernelSection(); }
};

// Add sizes the buffer "data" for the launch of that moment; a larger grid then reads past its
// end. The kernel panel says so, in the access list's numbering, bold in the error colour, with
// the size that would do; no 0-based JSON pointer reaches the user.
TEST_F(KernelOwnTest, ALaunchThatOutgrewItsBufferIsAnErrorInTheKernelPanel) {
    loadPreset("readsegment-offset-11");
    ASSERT_FALSE(document().kernel().has_value());
    panel().addAccessButton()->click();
    QApplication::processEvents();
    ASSERT_TRUE(document().kernel().has_value());
    const Kernel& made = *document().kernel();
    ASSERT_FALSE(made.buffers.empty());
    // Sized as a plain number for the launch of one block.
    bool number = false;
    QString::fromStdString(made.buffers.front().bytesExpression).toLongLong(&number);
    ASSERT_TRUE(number) << made.buffers.front().bytesExpression;
    ASSERT_TRUE(QTest::qWaitFor([&] { return !KernelPrediction::of(&document())->isBusy(); },
                                kKernelOwnWaitMs));
    EXPECT_TRUE(visibleLabelsWith(&panel(), QStringLiteral("past the end")).isEmpty());

    // The launch grows to 4096 blocks (the preset has 2048), typed in the launch's grid.x field.
    QLineEdit* gridX = panel().launchEdit(0);
    ASSERT_NE(gridX, nullptr);
    ASSERT_TRUE(gridX->isVisible());
    gridX->setFocus();
    gridX->selectAll();
    QTest::keyClicks(gridX, QStringLiteral("4096"));
    QApplication::processEvents();
    ASSERT_EQ(document().kernel()->launch.grid[0], "4096");

    // What the core's grid model says, for the expectation.
    auto resolved = resolveKernel(*document().kernel());
    ASSERT_TRUE(resolved.ok());
    auto grid = predictGrid(resolved.value());
    ASSERT_FALSE(grid.ok());
    ASSERT_EQ(grid.error().code, ErrorCode::OutOfBounds);
    auto extent = gridAddressExtent(resolved.value(), 0);
    ASSERT_TRUE(extent.ok());
    const std::string& where = grid.error().where; // "/accesses/0/address, block (…), thread (…)"
    const std::size_t block = where.find("block (");
    ASSERT_NE(block, std::string::npos) << where;
    const QString place = QString::fromStdString(where.substr(block));

    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return !visibleLabelsWith(&panel(), QStringLiteral("past the end")).isEmpty(); },
        kKernelOwnWaitMs));
    const QList<QLabel*> shown = visibleLabelsWith(&panel(), QStringLiteral("past the end"));
    ASSERT_EQ(shown.size(), 1);
    const QString text = shown.front()->text();
    // The editor's numbering (the list says "1. …"), the core's block and thread.
    EXPECT_TRUE(text.contains(QStringLiteral("Access 1"))) << text.toStdString();
    EXPECT_TRUE(text.contains(place)) << text.toStdString() << " lacks " << where;
    EXPECT_FALSE(text.contains(QStringLiteral("/accesses/"))) << text.toStdString();
    EXPECT_TRUE(panel().accessList()->item(0)->text().startsWith(QStringLiteral("1. ")));
    // What size would do: the grid's extent, as the core computes it.
    QLocale grouped = QLocale::c();
    grouped.setNumberOptions(QLocale::DefaultNumberOptions); // "8,236"
    EXPECT_TRUE(text.contains(grouped.toString(static_cast<qlonglong>(extent.value()))))
        << text.toStdString() << " lacks " << extent.value();
    // Styled as an error.
    EXPECT_TRUE(shown.front()->font().bold());
    EXPECT_EQ(shown.front()->palette().color(QPalette::WindowText),
              ViewColors::fromPalette(shown.front()->palette()).warning);
    // The access in trouble is marked in the list.
    EXPECT_FALSE(panel().accessList()->item(0)->icon().isNull());

    // Sized as the message says, the error goes.
    ASSERT_FALSE(document().setBufferSize(0, QString::number(extent.value())).has_value());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return visibleLabelsWith(&panel(), QStringLiteral("past the end")).isEmpty(); },
        kKernelOwnWaitMs));
    EXPECT_TRUE(panel().accessList()->item(0)->icon().isNull());
}

// A problem in an access that is not selected, in a block the views do not show: only the grid
// model sees it, and the panel names that access by its number in the list.
TEST_F(KernelOwnTest, AMisalignedAccessElsewhereInTheGridIsNamedByItsListNumber) {
    Kernel kernel = kernelWithoutParameters();
    kernel.accesses[1].addressExpression = "bid.x == 3 ? 8 * gid + 2 : 8 * gid";
    loadPreset("readsegment-offset-11");
    document().editKernel(kernel, QStringLiteral("a kernel"), -1, 0);
    QApplication::processEvents();
    ASSERT_EQ(document().selectedAccess(), 0);
    ASSERT_FALSE(document().error().has_value());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return !visibleLabelsWith(&panel(), QStringLiteral("not a multiple")).isEmpty(); },
        kKernelOwnWaitMs));
    const QString text =
        visibleLabelsWith(&panel(), QStringLiteral("not a multiple")).front()->text();
    EXPECT_TRUE(text.contains(QStringLiteral("Access 2 (store out), block (3, 0, 0)")))
        << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("/accesses/"))) << text.toStdString();
}

// Grid and block have one place to edit them for a kernel: the Kernel section's launch fields.
// The pattern editor's grid and block boxes show the launch read-only there, and edit it for a
// plain pattern (which has no launch fields).
TEST_F(KernelOwnTest, GridAndBlockAreEditedInOnePlace) {
    QSpinBox* gridX = window->editor()->findChild<QSpinBox*>(QStringLiteral("gridX"));
    QSpinBox* blockX = window->editor()->findChild<QSpinBox*>(QStringLiteral("blockX"));
    ASSERT_NE(gridX, nullptr);
    ASSERT_NE(blockX, nullptr);

    loadPreset("readsegment-offset-11");
    EXPECT_FALSE(panel().launchEdit(0)->isVisible()); // a plain pattern: no launch fields
    EXPECT_FALSE(gridX->isReadOnly());
    EXPECT_FALSE(blockX->isReadOnly());

    ASSERT_TRUE(window->showKernelPreset(QStringLiteral("transpose-naivecol")));
    QApplication::processEvents();
    ASSERT_TRUE(document().kernel().has_value());
    const KernelLaunch before = document().kernel()->launch;
    EXPECT_TRUE(panel().launchEdit(0)->isVisible());
    EXPECT_TRUE(gridX->isReadOnly());
    EXPECT_TRUE(blockX->isReadOnly());
    EXPECT_TRUE(gridX->toolTip().contains(QStringLiteral("Launch grid")));
    // Keys on the read-only boxes change nothing.
    for (QSpinBox* box : {gridX, blockX}) {
        box->setFocus();
        QTest::keyClick(box, Qt::Key_Up);
        QTest::keyClick(box, Qt::Key_PageUp);
        QApplication::processEvents();
    }
    EXPECT_EQ(document().kernel()->launch, before);
    // The boxes show what the launch fields give.
    auto resolved = resolveKernel(*document().kernel());
    ASSERT_TRUE(resolved.ok());
    EXPECT_EQ(gridX->value(), resolved.value().grid.x);
    EXPECT_EQ(blockX->value(), resolved.value().block.x);
    // The launch field edits, and the boxes follow.
    QLineEdit* blockField = panel().launchEdit(3);
    blockField->setFocus();
    blockField->selectAll();
    QTest::keyClicks(blockField, QStringLiteral("32"));
    QApplication::processEvents();
    EXPECT_EQ(document().kernel()->launch.block[0], "32");
    EXPECT_EQ(blockX->value(), 32);
}

// A kernel with no parameters, typed in the app: the whole-grid totals are the grid model's.
TEST_F(KernelOwnTest, AKernelWithoutParametersShowsWholeGridPredictedTotals) {
    const Kernel kernel = kernelWithoutParameters();
    loadPreset("readsegment-offset-11");
    document().editKernel(kernel, QStringLiteral("a kernel"), -1, 0);
    QApplication::processEvents();
    ASSERT_TRUE(document().kernel().has_value());
    ASSERT_TRUE(document().kernel()->parameters.empty());

    auto resolved = resolveKernel(kernel);
    ASSERT_TRUE(resolved.ok());
    auto grid = predictGrid(resolved.value());
    ASSERT_TRUE(grid.ok());
    std::map<std::string, double> expected;
    for (const Metric& metric : grid.value().metrics) {
        expected[metric.name] = metric.value;
    }
    const QString loadRequests = QStringLiteral("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
    const QString storeSectors = QStringLiteral("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    QTableWidget* table = section().table();
    ASSERT_TRUE(QTest::qWaitFor([&] { return rowOf(table, loadRequests) >= 0; }, kKernelOwnWaitMs));
    for (const QString& name : {loadRequests, storeSectors}) {
        const int row = rowOf(table, name);
        ASSERT_GE(row, 0) << name.toStdString();
        EXPECT_EQ(table->item(row, 1)->text(),
                  QLocale::c().toString(static_cast<qlonglong>(expected.at(name.toStdString()))))
            << name.toStdString();
        EXPECT_EQ(table->item(row, 2)->text(), QStringLiteral("—")); // nothing measured
    }
    // 16 warps, one request each; the stride-2 store touches twice the sectors of the load.
    EXPECT_EQ(expected.at(loadRequests.toStdString()), 16);
    EXPECT_EQ(expected.at(storeSectors.toStdString()), 2 * 16 * 4);
    // Per access, numbered as the kernel panel numbers them.
    EXPECT_GE(rowOf(table, QStringLiteral("1. load in")), 0);
    EXPECT_GE(rowOf(table, QStringLiteral("2. store out")), 0);
    EXPECT_TRUE(section().titleLabel()->text().contains(QStringLiteral("predicted")));
}

// The notes tab's NaiveCol row (recorded on an H100) is shown while its experiment is open, and
// not once the user opens another kernel: then the section is that kernel's prediction.
TEST_F(KernelOwnTest, TheKernelSectionNeverShowsAnotherKernelsMeasurement) {
    ASSERT_TRUE(window->importKernelMeasurements(
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl"),
        QString::fromLatin1(kH100)));
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("table-4-11")));
    QApplication::processEvents();
    ASSERT_TRUE(section().titleLabel()->text().contains(QString::fromLatin1(kH100)))
        << section().titleLabel()->text().toStdString();

    const auto measuredCells = [this] {
        QStringList cells;
        QTableWidget* table = section().table();
        for (int r = 0; r < table->rowCount(); ++r) {
            for (int c = 2; c < table->columnCount(); ++c) {
                const QTableWidgetItem* item = table->item(r, c);
                if (item != nullptr && item->text() != QStringLiteral("—") &&
                    !item->text().isEmpty()) {
                    cells << item->text();
                }
            }
        }
        return cells;
    };
    ASSERT_FALSE(measuredCells().isEmpty());

    // Another kernel: its own prediction, no H100 numbers.
    ASSERT_TRUE(window->showKernelPreset(QStringLiteral("aos-testinnerstruct")));
    QApplication::processEvents();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return section().titleLabel()->text().contains(QStringLiteral("testInnerStruct")) ||
                   section().titleLabel()->text().contains(QStringLiteral("AoS"));
        },
        kKernelOwnWaitMs));
    EXPECT_FALSE(section().titleLabel()->text().contains(QString::fromLatin1(kH100)));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return rowOf(section().table(),
                         QStringLiteral("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")) >= 0;
        },
        kKernelOwnWaitMs));
    EXPECT_TRUE(measuredCells().isEmpty()) << measuredCells().join(QLatin1Char(' ')).toStdString();

    // A plain pattern: the same.
    loadPreset("readsegment-offset-11");
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return section().titleLabel()->text().contains(QStringLiteral("predicted")); },
        kKernelOwnWaitMs));
    EXPECT_FALSE(section().titleLabel()->text().contains(QString::fromLatin1(kH100)));
    EXPECT_TRUE(measuredCells().isEmpty());

    // Back to the experiment: its measurement again.
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("table-4-11")));
    QApplication::processEvents();
    EXPECT_TRUE(section().titleLabel()->text().contains(QString::fromLatin1(kH100)));
}

} // namespace warpscope::app::test
