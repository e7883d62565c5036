// File ▸ Open Trace with the traces recorded on an H200 (tests/data/traces): the Trace dock's
// launches and instruction table equal core's summaries, a traced warp becomes the current
// pattern and is counted as core counts it, "Open as pattern" gives an affine or a literal
// pattern, incomplete traces say so, and hostile files are refused without losing the session.
#include "coreexpectations.h"
#include "document/tracedocument.h"
#include "document/tracepattern.h"
#include "panels/messagebar.h"
#include "panels/metricspanel.h"
#include "panels/metricstablemodel.h"
#include "panels/tracepanel.h"
#include "shell/commandline.h"
#include "windowfixture.h"

#include <warpscope/trace_file.h>

#include <QComboBox>
#include <QDeadlineTimer>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>

namespace warpscope::app::test {
namespace {

QString appTracePath(const char* name) {
    return QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/traces/") + QString::fromLatin1(name);
}

TraceReader readTrace(const char* name) {
    auto reader = TraceReader::open(appTracePath(name).toStdString());
    EXPECT_TRUE(reader.ok()) << (reader.ok() ? std::string() : reader.error().describe());
    return std::move(reader).value();
}

QString traceModernValue(MainWindow& window, const char* quantity) {
    return window.metricsPanel()->summaryModel()->text(QString::fromUtf8(quantity),
                                                       MetricsTableModel::ModernColumn);
}

QString cellText(TracePanel* panel, int row, int column) {
    return panel->instructionModel()->index(row, column).data().toString();
}

using TraceWindowTest = WindowTest;

TEST_F(TraceWindowTest, TheInstructionListIsCoresSummaryWorstFirst) {
    ASSERT_TRUE(window->openTrace(appTracePath("sample_transpose.wstrace")))
        << window->messageBar()->text().toStdString();
    TracePanel* panel = window->tracePanel();
    EXPECT_TRUE(window->traceDock()->isVisible());
    EXPECT_EQ(panel->launchPicker()->count(), 1);
    EXPECT_TRUE(panel->launchPicker()->currentText().contains(QStringLiteral("transpose")));
    EXPECT_TRUE(panel->launchPicker()->currentText().contains(QStringLiteral("grid (2, 2, 1)")));
    EXPECT_EQ(panel->launchStatus()->text(), QStringLiteral("complete"));

    const TraceReader reader = readTrace("sample_transpose.wstrace");
    const auto summaries = summarizeTraceLaunch(reader, 0);
    ASSERT_TRUE(summaries.ok());
    ASSERT_EQ(panel->instructionModel()->rowCount(), static_cast<int>(summaries.value().size()));
    ASSERT_EQ(summaries.value().size(), 16u);
    for (int row = 0; row < panel->instructionModel()->rowCount(); ++row) {
        const TraceInstructionSummary& summary = summaries.value()[static_cast<std::size_t>(row)];
        const TraceInstruction& instruction = reader.header().instructions[summary.instruction];
        ASSERT_EQ(panel->instructionOfRow(row), summary.instruction) << "row " << row;
        EXPECT_EQ(cellText(panel, row, TracePanel::Sass), QString::fromStdString(instruction.sass));
        EXPECT_EQ(cellText(panel, row, TracePanel::Source),
                  QStringLiteral("trace_sample.cu:%1").arg(instruction.sourceLine));
        EXPECT_EQ(cellText(panel, row, TracePanel::Warps), QString::number(summary.warps));
        EXPECT_EQ(cellText(panel, row, TracePanel::PerRequest),
                  QString::number(summary.ratio, 'f', 2));
        EXPECT_EQ(cellText(panel, row, TracePanel::Counter),
                  QString::fromStdString(summary.ratioName));
    }
    // Worst first: the table's first row has the largest ratio of its kind, and differs from PC
    // order (the transpose's strided global stores come before its first loads).
    EXPECT_GE(summaries.value().front().ratio, summaries.value().back().ratio);
    EXPECT_NE(panel->instructionOfRow(0), 0u);

    // Sortable: by PC, the instructions come in the header's order.
    panel->instructionTable()->sortByColumn(TracePanel::Pc, Qt::AscendingOrder);
    for (int row = 0; row < panel->instructionModel()->rowCount(); ++row) {
        EXPECT_EQ(panel->instructionOfRow(row), static_cast<std::size_t>(row));
    }
}

TEST_F(TraceWindowTest, ATracedWarpIsTheCurrentPatternCountedAsCoreCountsIt) {
    ASSERT_TRUE(window->openTrace(appTracePath("sample_transpose.wstrace")));
    TracePanel* panel = window->tracePanel();
    const TraceReader reader = readTrace("sample_transpose.wstrace");
    // A shared store of the tile (STS [R9+-0x800]) and a warp other than the first.
    const std::size_t instruction = 4;
    ASSERT_EQ(reader.header().instructions[instruction].sass, "@P0 STS [R9+-0x800], R4");
    ASSERT_TRUE(panel->selectInstruction(instruction));
    ASSERT_GT(panel->warpPicker()->count(), 5);
    panel->selectWarp(5);
    QApplication::processEvents();
    const std::uint64_t record = reader.header().instructions[instruction].firstRecord + 5;
    ASSERT_EQ(panel->currentRecord(), record);

    const auto traced =
        tracedPattern(reader.header().instructions[instruction], reader.readRecord(record).value());
    ASSERT_TRUE(traced.ok());
    EXPECT_EQ(document().pattern(), traced.value());
    const QString title = QString::fromStdString(document().current().title);
    EXPECT_TRUE(title.startsWith(QStringLiteral("Traced transpose: @P0 STS")))
        << title.toStdString();
    const TraceRecord warp = reader.readRecord(record).value();
    EXPECT_TRUE(title.endsWith(tracedWarpName(warp.block, warp.warp))) << title.toStdString();

    // Counted as core counts the same pattern, in the document and the metrics dock.
    const CorePrediction core = predictFromCore(traced.value(), document().textbookOptions());
    ASSERT_TRUE(core.modern.shared.has_value());
    ASSERT_TRUE(document().evaluation().has_value());
    EXPECT_EQ(document().evaluation()->access.addresses, core.access.addresses);
    EXPECT_EQ(traceModernValue(*window, "Wavefronts"),
              QString::number(core.modern.shared->wavefronts));
    EXPECT_EQ(traceModernValue(*window, "Bank conflicts"),
              QString::number(core.modern.shared->bankConflicts));

    // A global one: sectors and requests as core gives them.
    ASSERT_TRUE(panel->selectInstruction(12)); // STG.E desc[UR6][R2.64], R11
    const auto global =
        tracedPattern(reader.header().instructions[12],
                      reader.readRecord(reader.header().instructions[12].firstRecord).value());
    ASSERT_TRUE(global.ok());
    const CorePrediction coreGlobal = predictFromCore(global.value(), document().textbookOptions());
    ASSERT_TRUE(coreGlobal.modern.global.has_value());
    EXPECT_EQ(document().pattern(), global.value());
    EXPECT_EQ(traceModernValue(*window, "Sectors (32 B)"),
              QString::number(coreGlobal.modern.global->sectors));
    EXPECT_EQ(traceModernValue(*window, "Requests"),
              QString::number(coreGlobal.modern.global->requests));

    // Each warp shown is one undo step; undo goes back to the one before.
    document().undoStack()->undo();
    EXPECT_EQ(document().pattern(), traced.value());
}

TEST_F(TraceWindowTest, OpenAsPatternGivesAnAffineExpressionWhenTheLanesFitOne) {
    ASSERT_TRUE(window->openTrace(appTracePath("sample_coalesced.wstrace")));
    TracePanel* panel = window->tracePanel();
    ASSERT_TRUE(panel->selectInstruction(0)); // LDG.E: in[gid]
    const Pattern traced = document().pattern();
    ASSERT_FALSE(traced.source.has_value());
    const int undoBefore = document().undoStack()->count();
    panel->openAsPattern();
    QApplication::processEvents();
    ASSERT_TRUE(document().pattern().source.has_value());
    const PatternSource& source = *document().pattern().source;
    EXPECT_TRUE(
        QString::fromStdString(source.addressExpression).endsWith(QStringLiteral(" + 4 * lane")))
        << source.addressExpression;
    EXPECT_EQ(source.activeExpression, "1");
    EXPECT_EQ(document().evaluation()->access.addresses, resolve(traced).value().addresses);
    EXPECT_TRUE(QString::fromStdString(document().current().title)
                    .endsWith(QStringLiteral("(as a pattern)")));
    EXPECT_EQ(document().undoStack()->count(), undoBefore + 1);
    document().undoStack()->undo();
    EXPECT_EQ(document().pattern(), traced);
}

/// A trace written here: one launch, one global load whose lanes are scattered (record 0) or
/// affine with a partial mask (record 1).
QString writeHandMadeTrace(const QTemporaryDir& dir) {
    TraceWriter writer("hand-made");
    TraceLaunch launch;
    launch.kernel = "void gather<float, 4>(float const*, int const*, float*)";
    launch.block = Dim3{64, 1, 1};
    writer.addLaunch(launch);
    TraceInstruction load;
    load.sass = "LDG.E R3, desc[UR4][R2.64]";
    writer.addInstruction(load);
    TraceRecord scattered;
    scattered.activeMask = 0xFFFFFFFFu;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        scattered.addresses[lane] = 0x10000 + ((lane * 7) % 32) * 4 + (lane % 3) * 256;
    }
    writer.addRecord(scattered);
    TraceRecord partial;
    partial.warp = 1;
    partial.activeMask = 0x00FF00F0u;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        partial.addresses[lane] = (partial.activeMask >> lane) & 1u ? 0x20000 + 8 * lane : 0;
    }
    writer.addRecord(partial);
    const QString path = dir.filePath(QStringLiteral("gather.wstrace"));
    EXPECT_TRUE(writer.write(path.toStdString()).ok());
    return path;
}

TEST_F(TraceWindowTest, OpenAsPatternListsLiteralAddressesWhenNoExpressionFits) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ASSERT_TRUE(window->openTrace(writeHandMadeTrace(dir)));
    TracePanel* panel = window->tracePanel();
    EXPECT_EQ(panel->launchPicker()->currentText().left(10), QStringLiteral("gather<…> "));
    EXPECT_EQ(panel->sourceLabel()->text(),
              QStringLiteral("No source line (build the program with -lineinfo)"));
    ASSERT_EQ(panel->warpPicker()->count(), 2);

    panel->selectWarp(0);
    const Pattern traced = document().pattern();
    panel->openAsPattern();
    EXPECT_FALSE(document().pattern().source.has_value());
    EXPECT_EQ(document().pattern().addresses, traced.addresses);
    EXPECT_TRUE(QString::fromStdString(document().current().title)
                    .endsWith(QStringLiteral("(as a pattern)")));

    // Affine over a partial mask: the mask becomes the active-lane expression.
    panel->selectWarp(1);
    const Pattern partial = document().pattern();
    panel->openAsPattern();
    ASSERT_TRUE(document().pattern().source.has_value());
    EXPECT_EQ(document().pattern().source->addressExpression, "131072 + 8 * lane");
    EXPECT_EQ(document().pattern().source->activeExpression, "(0x00ff00f0 >> lane) & 1");
    EXPECT_EQ(document().evaluation()->access.addresses, resolve(partial).value().addresses);
}

TEST(TracePattern, ActiveLaneExpressionsAndAffineFits) {
    EXPECT_EQ(activeLaneExpression(0xFFFFFFFFu), "1");
    EXPECT_EQ(activeLaneExpression(0x000FFFFFu), "lane < 20");
    EXPECT_EQ(activeLaneExpression(0xFFFFFFF0u), "lane >= 4");
    EXPECT_EQ(activeLaneExpression(0x00000FF0u), "lane >= 4 && lane < 12");
    EXPECT_EQ(activeLaneExpression(0x55555555u), "(0x55555555 >> lane) & 1");
    LaneAddresses lanes{};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        lanes[static_cast<std::size_t>(lane)] = 4096 - 4 * lane;
    }
    const auto down = fitAffineLanes(lanes);
    ASSERT_TRUE(down.has_value());
    EXPECT_EQ(affineExpression(*down), "4096 - 4 * lane");
    lanes[31] = 0; // one lane off the line
    EXPECT_FALSE(fitAffineLanes(lanes).has_value());
    LaneAddresses one{};
    one[3] = std::int64_t{0x7f0000000000};
    ASSERT_TRUE(fitAffineLanes(one).has_value());
    EXPECT_EQ(affineExpression(*fitAffineLanes(one)), "0x7f0000000000");
    EXPECT_FALSE(fitAffineLanes(LaneAddresses{}).has_value());
}

TEST_F(TraceWindowTest, AnIncompleteTraceIsLabelledSo) {
    ASSERT_TRUE(window->openTrace(appTracePath("sample_full.wstrace")));
    EXPECT_EQ(window->tracePanel()->launchStatus()->text(),
              QStringLiteral("incomplete: 248 records dropped"));
    EXPECT_EQ(window->tracePanel()->instructionModel()->rowCount(), 1);

    // A kernel that faulted before any record came out: the launch, no instructions.
    const Pattern before = document().pattern();
    ASSERT_TRUE(window->openTrace(appTracePath("sample_fault.wstrace")));
    EXPECT_TRUE(
        window->tracePanel()->launchStatus()->text().startsWith(QStringLiteral("incomplete")));
    EXPECT_EQ(window->tracePanel()->instructionModel()->rowCount(), 0);
    EXPECT_EQ(document().pattern(), before);
}

TEST_F(TraceWindowTest, HostileTraceFilesAreRefusedAndTheSessionIsKept) {
    loadPreset("readsegment-offset-11");
    ASSERT_TRUE(window->openTrace(appTracePath("sample_coalesced.wstrace")));
    document().undoStack()->clear();
    const NamedPattern current = document().current();
    const int entries = document().entryCount();

    QFile good(appTracePath("sample_coalesced.wstrace"));
    ASSERT_TRUE(good.open(QIODevice::ReadOnly));
    const QByteArray bytes = good.readAll();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    struct Case {
        const char* name;
        QByteArray bytes;
        const char* expected; // in the message
    };
    QByteArray lying = bytes;
    lying[23] = '\x7f'; // the header length's top byte: far beyond the file
    const std::vector<Case> cases = {
        {"truncated.wstrace", bytes.left(static_cast<qsizetype>(bytes.size() - 100)), "byte"},
        {"short.wstrace", bytes.left(10), "byte 0"},
        {"garbage.wstrace", QByteArray(4096, '\xa5'), "byte 0"},
        {"lying.wstrace", lying, "byte 16"},
        {"empty.wstrace", QByteArray(), "byte 0"},
    };
    for (const Case& each : cases) {
        const QString path = dir.filePath(QString::fromLatin1(each.name));
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(each.bytes);
        file.close();
        EXPECT_FALSE(window->openTrace(path)) << each.name;
        const QString message = window->messageBar()->text();
        EXPECT_TRUE(message.contains(QString::fromLatin1(each.name))) << message.toStdString();
        EXPECT_TRUE(message.contains(QString::fromLatin1(each.expected)))
            << each.name << ": " << message.toStdString();
        // Nothing of the session or the open trace is lost.
        EXPECT_EQ(document().current(), current);
        EXPECT_EQ(document().entryCount(), entries);
        EXPECT_EQ(document().undoStack()->count(), 0);
        EXPECT_TRUE(
            window->traceDocument()->path().endsWith(QStringLiteral("sample_coalesced.wstrace")));
        EXPECT_EQ(window->tracePanel()->instructionModel()->rowCount(), 2);
    }
    EXPECT_FALSE(window->openTrace(dir.filePath(QStringLiteral("missing.wstrace"))));
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("missing.wstrace")));
}

TEST_F(TraceWindowTest, ATraceWithALargeHeaderIsReadOffTheGuiThread) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    TraceWriter writer("a header of over a megabyte");
    TraceLaunch launch;
    launch.kernel = "many_instructions";
    writer.addLaunch(launch);
    constexpr std::uint32_t kInstructions = 8000;
    for (std::uint32_t i = 0; i < kInstructions; ++i) {
        TraceInstruction instruction;
        instruction.pcOffset = 16 * i;
        instruction.sass = "LDG.E R2, desc[UR4][R2.64] // " + std::string(120, 'x');
        writer.addInstruction(instruction);
        TraceRecord record;
        record.instruction = i;
        record.activeMask = 1;
        record.addresses[0] = 4 * i;
        writer.addRecord(record);
    }
    const QString path = dir.filePath(QStringLiteral("large.wstrace"));
    ASSERT_TRUE(writer.write(path.toStdString()).ok());
    const NamedPattern before = document().current();

    ASSERT_TRUE(window->openTrace(path)) << window->messageBar()->text().toStdString();
    // Read on a worker: nothing has changed when openTrace returns.
    EXPECT_FALSE(window->traceDocument()->hasTrace());
    EXPECT_EQ(document().current(), before);
    const QDeadlineTimer deadline(60000);
    while (!window->traceDocument()->hasTrace() && !deadline.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
    ASSERT_TRUE(window->traceDocument()->hasTrace());
    EXPECT_EQ(window->tracePanel()->instructionModel()->rowCount(),
              static_cast<int>(kInstructions));
}

TEST(TraceCommandLine, ATraceIsToldByItsSuffixOrItsMagic) {
    CommandLine byName;
    ASSERT_FALSE(
        CommandLine::parse({QStringLiteral("warpscope"), appTracePath("torch_mul.wstrace")}, byName)
            .has_value());
    EXPECT_EQ(byName.traceFile, appTracePath("torch_mul.wstrace"));
    EXPECT_TRUE(byName.sessionFile.isEmpty());

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString renamed = dir.filePath(QStringLiteral("trace.bin"));
    ASSERT_TRUE(QFile::copy(appTracePath("torch_mul.wstrace"), renamed));
    CommandLine byMagic;
    ASSERT_FALSE(CommandLine::parse({QStringLiteral("warpscope"), renamed}, byMagic).has_value());
    EXPECT_EQ(byMagic.traceFile, renamed);

    CommandLine session;
    ASSERT_FALSE(
        CommandLine::parse(
            {QStringLiteral("warpscope"), dir.filePath(QStringLiteral("a.warpscope"))}, session)
            .has_value());
    EXPECT_TRUE(session.traceFile.isEmpty());
    EXPECT_FALSE(session.sessionFile.isEmpty());
}

TEST(TraceCommandLine, TracePcIsHexOrDecimal) {
    CommandLine hex;
    ASSERT_FALSE(
        CommandLine::parse({QStringLiteral("warpscope"), QStringLiteral("--trace-pc"),
                            QStringLiteral("0x2a0"), appTracePath("triton_softmax.wstrace")},
                           hex)
            .has_value());
    EXPECT_EQ(hex.tracePc, 672);
    CommandLine bad;
    const auto error = CommandLine::parse(
        {QStringLiteral("warpscope"), QStringLiteral("--trace-pc"), QStringLiteral("0xzz")}, bad);
    ASSERT_TRUE(error.has_value());
    EXPECT_TRUE(error->contains(QStringLiteral("0xzz"))) << error->toStdString();
}

TEST_F(TraceWindowTest, AnInstructionIsChosenByItsPc) {
    ASSERT_TRUE(window->openTrace(appTracePath("triton_softmax.wstrace")));
    ASSERT_TRUE(window->showTracedInstruction(560)); // @!P2 LDS R12, [R4]
    EXPECT_EQ(window->tracePanel()->currentInstruction(), 2u);
    EXPECT_EQ(document().pattern().kind.space, MemorySpace::Shared);
    EXPECT_FALSE(window->showTracedInstruction(4));
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("0x230")))
        << window->messageBar()->text().toStdString();
}

TEST(TraceNames, KernelNamesAreShortenedForTitles) {
    EXPECT_EQ(shortKernelName("coalesced(float const*, float*, int)"), QStringLiteral("coalesced"));
    EXPECT_EQ(shortKernelName("void at::native::elementwise_kernel<128, 2, F<(int)1>>(int, F)"),
              QStringLiteral("at::native::elementwise_kernel<…>"));
    EXPECT_EQ(shortKernelName("row_softmax"), QStringLiteral("row_softmax"));
    EXPECT_EQ(shortKernelName("void at::native::(anonymous namespace)::copy<float>(float*)"),
              QStringLiteral("at::native::(anonymous namespace)::copy<…>"));
}

} // namespace
} // namespace warpscope::app::test
