// A traced instruction in the views beyond the warp: the Grid tab's trace grid (the model's value
// of every traced warp, untraced warps marked, hover naming block, warp and value), the source
// panel (the line highlighted, a missing file said and located), figure exports of a traced warp,
// and File ▸ Open taking a trace by its magic, a truncated one refused with the window usable.
#include "document/tracedocument.h"
#include "export/figureexport.h"
#include "panels/messagebar.h"
#include "panels/sourcepanel.h"
#include "panels/tracepanel.h"
#include "shell/tracewindow.h"
#include "views/gridview.h"
#include "views/tracegridview.h"
#include "windowfixture.h"

#include <warpscope/model.h>
#include <warpscope/trace_file.h>

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QUndoStack>

#include <set>

namespace warpscope::app::test {
namespace {

QString viewsTracePath(const char* name) {
    return QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/traces/") + QString::fromLatin1(name);
}

/// What core's model gives one traced warp: sectors per request, or wavefronts for shared.
double coreValue(const TraceInstruction& instruction, const TraceRecord& record) {
    auto pattern = tracedPattern(instruction, record);
    EXPECT_TRUE(pattern.ok());
    auto access = resolve(pattern.value());
    EXPECT_TRUE(access.ok());
    const ModernPrediction prediction = predictModern(access.value());
    if (prediction.shared) {
        return static_cast<double>(prediction.shared->wavefronts);
    }
    return static_cast<double>(prediction.global->sectors) /
           static_cast<double>(prediction.global->requests);
}

bool copyBytes(const QString& from, const QString& to, qsizetype keep = -1) {
    QFile in(from);
    QFile out(to);
    if (!in.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly)) {
        return false;
    }
    const QByteArray bytes = in.readAll();
    return out.write(keep < 0 ? bytes : bytes.left(keep)) >= 0;
}

using TraceViewsTest = WindowTest;

QTabWidget* tabsOf(MainWindow& window) {
    for (QTabWidget* each : window.findChildren<QTabWidget*>()) {
        if (each->indexOf(window.gridView()) >= 0) {
            return each;
        }
    }
    return nullptr;
}

/// Opens `name` in the Grid tab and checks every traced warp of the instruction shown against
/// core: the value, its colour and the hover text. Returns the cells (block * warps + warp)
/// traced.
std::set<std::uint64_t> checkTracedCells(MainWindow& window, const char* name) {
    std::set<std::uint64_t> cells;
    EXPECT_TRUE(window.openTrace(viewsTracePath(name)))
        << window.messageBar()->text().toStdString();
    QTabWidget* tabs = tabsOf(window);
    EXPECT_NE(tabs, nullptr);
    tabs->setCurrentWidget(window.gridView());
    QApplication::processEvents();
    TraceGridView* grid = traceGridViewOf(window);
    EXPECT_NE(grid, nullptr);
    if (grid == nullptr) {
        return cells;
    }
    EXPECT_TRUE(grid->isVisible());
    EXPECT_EQ(grid->geometry(), window.gridView()->rect()); // covers the Grid tab's page

    const auto reader = TraceReader::open(viewsTracePath(name).toStdString());
    EXPECT_TRUE(reader.ok());
    const auto instruction = window.tracePanel()->currentInstruction();
    EXPECT_TRUE(instruction.has_value());
    const TraceInstruction& traced = reader.value().header().instructions[*instruction];
    const TraceGridData& data = grid->data();
    EXPECT_EQ(data.instruction, *instruction);
    EXPECT_EQ(data.warps.size(), traced.recordCount);
    EXPECT_TRUE(data.title.contains(QString::fromStdString(traced.sass)));
    const QString unit = traced.space == MemorySpace::Shared ? QStringLiteral("wavefronts/request")
                                                             : QStringLiteral("sectors/request");

    const QImage picture = grid->grab().toImage();
    const double scale = picture.devicePixelRatio();
    for (const TracedWarpValue& warp : data.warps) {
        const TraceRecord record = reader.value().readRecord(warp.record).value();
        EXPECT_EQ(warp.block, record.block);
        EXPECT_EQ(warp.warp, record.warp);
        EXPECT_TRUE(warp.counted);
        EXPECT_DOUBLE_EQ(warp.perRequest, coreValue(traced, record)) << "record " << warp.record;
        const std::uint64_t block = record.block[0]; // one-dimensional grids
        cells.insert(block * grid->warpsPerBlock() + record.warp);
        const QRectF cell = grid->cellRect(block, record.warp);
        EXPECT_EQ(picture.pixelColor((cell.center() * scale).toPoint()),
                  TraceGridView::valueColour(warp.perRequest, grid->maxValue()));
        EXPECT_EQ(grid->cellText(cell.center().toPoint()),
                  QStringLiteral("block (%1, 0, 0) warp %2: %3 %4")
                      .arg(block)
                      .arg(record.warp)
                      .arg(QString::number(warp.perRequest, 'f', 2), unit));
    }
    EXPECT_TRUE(grid->legendRect().isValid());
    EXPECT_TRUE(grid->cellText(QPoint(1, 1)).isEmpty()); // outside the cells
    return cells;
}

TEST_F(TraceViewsTest, TheGridTabShowsEveryTracedWarpsValue) {
    const std::set<std::uint64_t> cells = checkTracedCells(*window, "torch_transpose.wstrace");
    TraceGridView* grid = traceGridViewOf(*window);
    ASSERT_NE(grid, nullptr);
    EXPECT_EQ(grid->warpsPerBlock(), 4u); // 128 threads
    EXPECT_EQ(cells.size(), 96u);         // sample:64 over 96 warps traced them all
    EXPECT_TRUE(grid->data().title.contains(QStringLiteral("elementwise_kernel")));

    // Another pattern gives the Grid tab back to the pattern's grid.
    loadPreset("readsegment-offset-11");
    EXPECT_FALSE(grid->isVisible());
    // Choosing a traced warp again covers it.
    window->tracePanel()->selectWarp(1);
    EXPECT_TRUE(grid->isVisible());
}

TEST_F(TraceViewsTest, TheGridTabMarksTheWarpsNotTraced) {
    // A full record buffer: 8 of the launch's 128 warps were recorded.
    const std::set<std::uint64_t> cells = checkTracedCells(*window, "sample_full.wstrace");
    TraceGridView* grid = traceGridViewOf(*window);
    ASSERT_NE(grid, nullptr);
    const std::uint64_t allWarps = 32 * grid->warpsPerBlock();
    ASSERT_EQ(cells.size(), 8u);
    const QImage picture = grid->grab().toImage();
    const double scale = picture.devicePixelRatio();
    for (std::uint64_t index = 0; index < allWarps; ++index) {
        if (cells.count(index) > 0) {
            continue;
        }
        const std::uint64_t block = index / grid->warpsPerBlock();
        const auto warp = static_cast<std::uint32_t>(index % grid->warpsPerBlock());
        const QRectF cell = grid->cellRect(block, warp);
        EXPECT_EQ(grid->cellText(cell.center().toPoint()),
                  QStringLiteral("block (%1, 0, 0) warp %2: not traced").arg(block).arg(warp));
        // Drawn in no colour of the value scale: grey, hatched.
        const QColor colour = picture.pixelColor((cell.center() * scale).toPoint());
        for (int value = 1; value <= 32; ++value) {
            EXPECT_NE(colour, TraceGridView::valueColour(value, 32)) << "cell " << index;
        }
    }
}

/// A trace of one launch with two instructions whose line info names `file` (lines 17 and 5).
QString writeTraceWithLines(const QTemporaryDir& dir, const QString& name, const QString& file) {
    TraceWriter writer("lines");
    TraceLaunch launch;
    launch.kernel = "scale(float*)";
    launch.grid = Dim3{2, 1, 1};
    launch.block = Dim3{64, 1, 1};
    writer.addLaunch(launch);
    for (const int line : {17, 5}) {
        TraceInstruction load;
        load.sass = "LDG.E R3, desc[UR4][R2.64]";
        load.pcOffset = line * 16;
        load.sourceFile = file.toStdString();
        load.sourceLine = line;
        const auto index = static_cast<std::uint32_t>(writer.addInstruction(load));
        TraceRecord record;
        record.instruction = index;
        record.activeMask = 0xFFFFFFFFu;
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
            record.addresses[lane] = 0x10000 + 4 * lane * static_cast<std::uint32_t>(line);
        }
        writer.addRecord(record);
    }
    const QString path = dir.filePath(name);
    EXPECT_TRUE(writer.write(path.toStdString()).ok());
    return path;
}

QString writeSource(const QString& path) {
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    for (int line = 1; line <= 60; ++line) {
        file.write(QStringLiteral("int line%1 = %1;\n").arg(line).toUtf8());
    }
    return path;
}

TEST_F(TraceViewsTest, TheSourcePanelHighlightsTheInstructionsLine) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString source = writeSource(dir.filePath(QStringLiteral("scale.cu")));
    ASSERT_TRUE(
        window->openTrace(writeTraceWithLines(dir, QStringLiteral("lines.wstrace"), source)));
    TracePanel* panel = window->tracePanel();
    SourcePanel* sources = panel->sourcePanel();
    ASSERT_TRUE(panel->selectInstruction(0));
    EXPECT_TRUE(sources->isVisible());
    EXPECT_EQ(sources->shownPath(), QFileInfo(source).absoluteFilePath());
    EXPECT_EQ(sources->highlightedLine(), 17);
    EXPECT_EQ(sources->text()->textCursor().blockNumber(), 16);
    EXPECT_TRUE(
        sources->text()->textCursor().block().text().startsWith(QStringLiteral("int line17 ")));
    ASSERT_EQ(sources->text()->extraSelections().size(), 1);
    EXPECT_EQ(sources->text()->extraSelections().front().cursor.blockNumber(), 16);
    EXPECT_FALSE(sources->locateButton()->isVisible());
    EXPECT_TRUE(sources->statusLabel()->text().contains(QStringLiteral("line 17")));

    ASSERT_TRUE(panel->selectInstruction(1));
    EXPECT_EQ(sources->highlightedLine(), 5);
    EXPECT_EQ(sources->text()->textCursor().blockNumber(), 4);
}

TEST_F(TraceViewsTest, ARecordedTracesSourceIsFoundInTheCheckoutItIsKeptIn) {
    // Recorded as /work/wt/trace/scripts/gpu/trace_sample.cu on the GPU machine; the trace lies
    // in tests/data/traces of a checkout that has scripts/gpu/trace_sample.cu.
    ASSERT_TRUE(window->openTrace(viewsTracePath("sample_transpose.wstrace")));
    const auto reader = TraceReader::open(viewsTracePath("sample_transpose.wstrace").toStdString());
    ASSERT_TRUE(reader.ok());
    const TraceInstruction& traced =
        reader.value().header().instructions[*window->tracePanel()->currentInstruction()];
    ASSERT_GT(traced.sourceLine, 0);
    SourcePanel* sources = window->tracePanel()->sourcePanel();
    EXPECT_TRUE(sources->shownPath().endsWith(QStringLiteral("scripts/gpu/trace_sample.cu")))
        << sources->statusLabel()->text().toStdString();
    EXPECT_EQ(sources->highlightedLine(), traced.sourceLine);
    EXPECT_EQ(sources->text()->textCursor().blockNumber(), traced.sourceLine - 1);
}

TEST_F(TraceViewsTest, ASourceFileNotOnThisMachineIsSaidAndCanBeLocated) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString recorded = QStringLiteral("/nonexistent-build-host/src/scale.cu");
    ASSERT_TRUE(
        window->openTrace(writeTraceWithLines(dir, QStringLiteral("elsewhere.wstrace"), recorded)));
    TracePanel* panel = window->tracePanel();
    SourcePanel* sources = panel->sourcePanel();
    ASSERT_TRUE(panel->selectInstruction(0));
    EXPECT_TRUE(sources->shownPath().isEmpty());
    EXPECT_TRUE(sources->statusLabel()->text().contains(recorded))
        << sources->statusLabel()->text().toStdString();
    EXPECT_TRUE(sources->statusLabel()->text().contains(QStringLiteral("not on this machine")));
    EXPECT_TRUE(sources->text()->placeholderText().contains(recorded)); // never an empty panel
    EXPECT_TRUE(sources->locateButton()->isVisible());

    // Located elsewhere: shown with its line; the trace's other instructions of that folder are
    // found there too.
    QTemporaryDir elsewhere;
    const QString located = writeSource(elsewhere.filePath(QStringLiteral("scale.cu")));
    EXPECT_FALSE(sources->locate(elsewhere.filePath(QStringLiteral("missing.cu"))));
    EXPECT_TRUE(sources->statusLabel()->text().contains(QStringLiteral("missing.cu")));
    ASSERT_TRUE(sources->locate(located));
    EXPECT_EQ(sources->highlightedLine(), 17);
    EXPECT_FALSE(sources->locateButton()->isVisible());
    ASSERT_TRUE(panel->selectInstruction(1));
    EXPECT_EQ(sources->shownPath(), QFileInfo(located).absoluteFilePath());
    EXPECT_EQ(sources->highlightedLine(), 5);
}

TEST_F(TraceViewsTest, WithoutLineInfoThePanelSaysHowToGetIt) {
    QTemporaryDir dir;
    ASSERT_TRUE(
        window->openTrace(writeTraceWithLines(dir, QStringLiteral("nolines.wstrace"), QString())));
    SourcePanel* sources = window->tracePanel()->sourcePanel();
    EXPECT_TRUE(sources->text()->placeholderText().contains(QStringLiteral("-lineinfo")));
    EXPECT_FALSE(sources->locateButton()->isVisible());
}

TEST_F(TraceViewsTest, ATracedWarpExportsWithTheKernelPcAndSassInItsTitle) {
    ASSERT_TRUE(window->openTrace(viewsTracePath("sample_transpose.wstrace")));
    const auto reader = TraceReader::open(viewsTracePath("sample_transpose.wstrace").toStdString());
    ASSERT_TRUE(reader.ok());
    const TraceInstruction& traced =
        reader.value().header().instructions[*window->tracePanel()->currentInstruction()];
    const QString pc = QStringLiteral("PC 0x%1").arg(traced.pcOffset, 4, 16, QLatin1Char('0'));
    const FigureRenderer renderer(window->currentSession());
    for (const char* view : {"warp", "bank"}) {
        FigureSpec spec;
        spec.views = {QString::fromLatin1(view)};
        QString error;
        const QByteArray svg = renderer.render(spec, FigureFormat::Svg, &error);
        ASSERT_FALSE(svg.isEmpty()) << view << ": " << error.toStdString();
        const QString text = QString::fromUtf8(svg);
        EXPECT_TRUE(text.contains(QStringLiteral("Traced transpose"))) << view;
        EXPECT_TRUE(text.contains(pc)) << view << " lacks " << pc.toStdString();
        EXPECT_TRUE(text.contains(QString::fromStdString(traced.sass).toHtmlEscaped())) << view;
        const QImage png = renderer.renderImage(spec);
        EXPECT_FALSE(png.isNull()) << view;
    }
}

TEST_F(TraceViewsTest, ASavedSessionReopensToTheTracedInstructionOrSaysTheTraceMoved) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString trace = dir.filePath(QStringLiteral("transpose.wstrace"));
    ASSERT_TRUE(copyBytes(viewsTracePath("sample_transpose.wstrace"), trace));
    ASSERT_TRUE(window->openTrace(trace));
    TracePanel* panel = window->tracePanel();
    ASSERT_TRUE(panel->selectInstruction(5));
    panel->selectWarp(3);
    const NamedPattern shown = document().current();
    const auto record = panel->currentRecord();
    ASSERT_TRUE(record.has_value());
    const QString session = dir.filePath(QStringLiteral("traced.warpscope"));
    ASSERT_TRUE(window->saveSession(session));

    ASSERT_TRUE(window->openTrace(viewsTracePath("torch_transpose.wstrace")));
    loadPreset("readsegment-offset-11");
    ASSERT_TRUE(window->openSession(session)) << window->messageBar()->text().toStdString();
    EXPECT_EQ(window->traceDocument()->path(), QFileInfo(trace).absoluteFilePath());
    EXPECT_EQ(panel->currentInstruction(), 5u);
    EXPECT_EQ(panel->currentRecord(), record);
    EXPECT_EQ(document().current().pattern, shown.pattern);
    EXPECT_FALSE(document().isModified());
    EXPECT_EQ(traceGridViewOf(*window)->data().instruction, 5u);

    // The trace moved: the warp is still shown (as the pattern the session holds), and the
    // message says where the trace was.
    ASSERT_TRUE(QFile::rename(trace, dir.filePath(QStringLiteral("moved.wstrace"))));
    loadPreset("readsegment-offset-11");
    ASSERT_TRUE(window->openSession(session));
    EXPECT_EQ(document().current().pattern, shown.pattern);
    const QString message = window->messageBar()->text();
    EXPECT_TRUE(message.contains(QStringLiteral("not there any more"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QDir::toNativeSeparators(QFileInfo(trace).absoluteFilePath())))
        << message.toStdString();
}

TEST_F(TraceViewsTest, FileOpenTakesATraceByItsMagicAndRefusesATruncatedOne) {
    loadPreset("readsegment-offset-11");
    document().undoStack()->clear();
    const NamedPattern before = document().current();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // A truncated copy of a recorded trace, under a name that is no trace's.
    const QString truncated = dir.filePath(QStringLiteral("cut-short.bin"));
    ASSERT_TRUE(copyBytes(viewsTracePath("torch_transpose.wstrace"), truncated, 3000));
    EXPECT_FALSE(window->openSession(truncated));
    const QString message = window->messageBar()->text();
    EXPECT_TRUE(message.contains(QStringLiteral("Cannot open trace cut-short.bin")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("byte"))) << message.toStdString();
    EXPECT_EQ(document().current(), before);
    EXPECT_EQ(document().undoStack()->count(), 0);
    EXPECT_FALSE(window->traceDocument()->hasTrace());

    // The window is still usable: the whole trace, under another name, opens through File ▸ Open.
    const QString renamed = dir.filePath(QStringLiteral("transpose.data"));
    ASSERT_TRUE(copyBytes(viewsTracePath("torch_transpose.wstrace"), renamed));
    EXPECT_TRUE(window->openSession(renamed)) << window->messageBar()->text().toStdString();
    EXPECT_TRUE(window->traceDock()->isVisible());
    EXPECT_TRUE(window->traceDocument()->path().endsWith(QStringLiteral("transpose.data")));
    EXPECT_GT(window->tracePanel()->instructionModel()->rowCount(), 0);
    EXPECT_TRUE(
        QString::fromStdString(document().current().title).startsWith(QStringLiteral("Traced ")));
}

} // namespace
} // namespace warpscope::app::test
