// Tests of the whole window as a user drives it: typing expressions, undo, presets, sessions,
// the message bar and autosave recovery. Expectations come from the course notes' figures
// (seed 002, readSegment offset 11: 5 sectors, 80 %) and from the session format's contract.
#include "windowfixture.h"

#include "document/autosaver.h"
#include "document/sessionfile.h"
#include "panels/expressionedit.h"
#include "panels/lanetablemodel.h"
#include "panels/messagebar.h"
#include "panels/metricspanel.h"
#include "panels/metricstablemodel.h"
#include "panels/parameterpanel.h"
#include "panels/patterneditor.h"
#include "views/warpview.h"

#include <warpscope/matrix_access.h>

#include <QFile>
#include <QSet>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>

namespace warpscope::app::test {
namespace {

QString mainModernValue(MainWindow& window, const char* quantity) {
    return window.metricsPanel()->summaryModel()->text(QString::fromUtf8(quantity),
                                                       MetricsTableModel::ModernColumn);
}

void typeMainExpression(ExpressionEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
    QApplication::processEvents();
}

TEST_F(WindowTest, EditingTheExpressionUpdatesTheMetrics) {
    loadPreset("readsegment-offset-11");
    // Seed 002, readSegment offset 11: the warp straddles two lines, 5 sectors, 80 %.
    EXPECT_EQ(mainModernValue(*window, "Sectors (32 B)"), QStringLiteral("5"));
    EXPECT_EQ(mainModernValue(*window, "Efficiency"), QStringLiteral("80.0 %"));

    typeMainExpression(window->editor()->addressEdit(), QStringLiteral("gid * 4"));
    EXPECT_FALSE(document().error().has_value());
    // Aligned and coalesced: one line, four sectors, 100 %.
    EXPECT_EQ(mainModernValue(*window, "Sectors (32 B)"), QStringLiteral("4"));
    EXPECT_EQ(mainModernValue(*window, "Lines (128 B)"), QStringLiteral("1"));
    EXPECT_EQ(mainModernValue(*window, "Efficiency"), QStringLiteral("100.0 %"));
    EXPECT_EQ(window->metricsPanel()->summaryModel()->text(QStringLiteral("Sectors (32 B)"),
                                                           MetricsTableModel::MeasuredColumn),
              MetricsTableModel::noMeasurementText());
}

TEST_F(WindowTest, ABrokenExpressionShowsItsErrorAndKeepsTheLastPicture) {
    loadPreset("readsegment-offset-11");
    const Pattern valid = document().evaluation()->pattern;
    const std::size_t lines = window->warpView()->currentLayout().lines.size();
    ASSERT_EQ(lines, 2u);

    // "foo" is not a known name: the error points at column 14, where it starts.
    typeMainExpression(window->editor()->addressEdit(), QStringLiteral("(gid + 11) * foo"));
    ASSERT_TRUE(document().error().has_value());
    EXPECT_EQ(document().error()->column, 14);
    EXPECT_EQ(window->editor()->addressEdit()->errorColumn(), 14);
    EXPECT_TRUE(window->editor()->addressErrorText().contains(QStringLiteral("column 14")))
        << window->editor()->addressErrorText().toStdString();
    // The picture and the numbers are still those of the last valid pattern.
    EXPECT_EQ(document().evaluation()->pattern, valid);
    EXPECT_EQ(window->warpView()->currentLayout().lines.size(), lines);
    EXPECT_EQ(mainModernValue(*window, "Sectors (32 B)"), QStringLiteral("5"));
    const WarpContent drawn = window->warpView()->content();
    EXPECT_TRUE(drawn.summary.contains(QStringLiteral("5 sector(s) in 2 line(s)")))
        << drawn.summary.toStdString();
    EXPECT_TRUE(drawn.noteIsWarning);
    EXPECT_TRUE(drawn.note.contains(QStringLiteral("foo"))) << drawn.note.toStdString();

    // Fixing the text clears the error marker.
    typeMainExpression(window->editor()->addressEdit(), QStringLiteral("(gid + 11) * 4"));
    EXPECT_FALSE(document().error().has_value());
    EXPECT_EQ(window->editor()->addressEdit()->errorColumn(), 0);
    EXPECT_TRUE(window->editor()->addressErrorText().isEmpty());
}

/// Distinct colours in an image, counted up to 64.
int distinctColours(const QImage& image) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    QSet<QRgb> colours;
    for (int y = 0; y < rgb.height() && colours.size() < 64; y += 2) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width() && colours.size() < 64; x += 2) {
            colours.insert(row[x]);
        }
    }
    return static_cast<int>(colours.size());
}

TEST_F(WindowTest, EveryPresetLoadsAndRendersWithoutAQtWarning) {
    ASSERT_FALSE(builtinPresets().empty()) << "the build has no presets";
    clearRecordedQtWarnings();
    for (const Preset& preset : builtinPresets()) {
        SCOPED_TRACE(preset.id);
        ASSERT_TRUE(window->loadPresetById(QString::fromStdString(preset.id)));
        EXPECT_FALSE(document().error().has_value()) << document().error()->describe();
        EXPECT_EQ(document().presetId(), QString::fromStdString(preset.id));
        for (auto view : {MainWindow::View::Warp, MainWindow::View::Bank, MainWindow::View::Block,
                          MainWindow::View::Sweep}) {
            window->showView(view);
            QApplication::processEvents();
            // Not blank: a drawn view has text, frames and fills (a blank one has one colour).
            const QImage picture = window->viewTabs()->currentWidget()->grab().toImage();
            EXPECT_GE(distinctColours(picture), 8) << "view " << static_cast<int>(view);
        }
    }
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

TEST_F(WindowTest, UndoRestoresThePreviousPatternAndSliderDragsAreOneStep) {
    loadPreset("readsegment-offset-11");
    const Pattern before = document().pattern();
    const int steps = document().undoStack()->count();
    QSlider* slider = window->editor()->parameterPanel()->slider(0);
    ASSERT_NE(slider, nullptr);
    for (int value : {12, 13, 14, 20}) {
        slider->setValue(value); // a drag: many moves
    }
    ASSERT_EQ(document().pattern().source->parameters.front().value, 20);
    EXPECT_EQ(document().undoStack()->count(), steps + 1);

    window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window.get()));
    QTest::keySequence(window.get(), QKeySequence::Undo);
    EXPECT_EQ(document().pattern(), before);
    EXPECT_EQ(slider->value(), 11);
    QTest::keySequence(window.get(), QKeySequence(QStringLiteral("Ctrl+Shift+Z")));
    EXPECT_EQ(document().pattern().source->parameters.front().value, 20);

    // Typing an expression and undoing it restores the text in the field too.
    typeMainExpression(window->editor()->addressEdit(), QStringLiteral("gid * 8"));
    document().undoStack()->undo();
    EXPECT_EQ(window->editor()->addressEdit()->text(),
              QString::fromStdString(before.source->addressExpression));
}

TEST_F(WindowTest, ASessionSavedAndReopenedIsIdentical) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    loadPreset("readsegment-offset-11");
    typeMainExpression(window->editor()->addressEdit(), QStringLiteral("(gid + offset) * 4 + 128"));
    document().setModel(ModelChoice::Textbook);
    window->showView(MainWindow::View::Bank);
    const QString path = dir.filePath(QStringLiteral("explore.warpscope"));
    ASSERT_TRUE(window->saveSession(path)) << window->messageBar()->text().toStdString();
    EXPECT_FALSE(document().isModified());
    const Session saved = window->currentSession();

    MainWindow other(quietOptions());
    ASSERT_TRUE(other.openSession(path)) << other.messageBar()->text().toStdString();
    EXPECT_EQ(other.currentSession(), saved);
    EXPECT_EQ(other.document()->pattern(), document().pattern());
    EXPECT_EQ(other.document()->model(), ModelChoice::Textbook);
    EXPECT_EQ(other.currentView(), MainWindow::View::Bank);
    EXPECT_FALSE(other.document()->isModified());

    // Saved again, the file is byte for byte the same.
    const QString again = dir.filePath(QStringLiteral("again.warpscope"));
    ASSERT_TRUE(other.saveSession(again));
    QFile a(path);
    QFile b(again);
    ASSERT_TRUE(a.open(QIODevice::ReadOnly));
    ASSERT_TRUE(b.open(QIODevice::ReadOnly));
    EXPECT_EQ(a.readAll(), b.readAll());
}

TEST_F(WindowTest, ACorruptSessionFileIsRefusedWithAMessage) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    loadPreset("readsegment-offset-11");
    const Session before = window->currentSession();
    struct Case {
        const char* name;
        QByteArray bytes;
    };
    const Case cases[] = {
        {"truncated.warpscope",
         QByteArray("{\"format\": \"warpscope-session\", \"version\": 1, \"ent")},
        {"not-json.warpscope", QByteArray("this is not JSON")},
        {"wrong-format.warpscope",
         QByteArray("{\"format\": \"warpscope-pattern\", \"version\": 1}")},
        {"empty.warpscope", QByteArray()},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const QString path = dir.filePath(QString::fromLatin1(c.name));
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(c.bytes);
        file.close();
        window->messageBar()->dismiss();
        EXPECT_FALSE(window->openSession(path));
        const QString message = window->messageBar()->text();
        EXPECT_TRUE(message.contains(QString::fromLatin1(c.name))) << message.toStdString();
        EXPECT_EQ(window->messageBar()->level(), MessageBar::Level::Error);
        EXPECT_EQ(window->currentSession(), before);
    }
    EXPECT_FALSE(window->openSession(dir.filePath(QStringLiteral("missing.warpscope"))));
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("missing.warpscope")));
}

TEST_F(WindowTest, AnUnknownPresetIdIsReportedNotIgnored) {
    EXPECT_FALSE(window->loadPresetById(QStringLiteral("no-such-preset")));
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("no-such-preset")));
}

TEST_F(WindowTest, TypingALaneAddressMakesThePatternExplicit) {
    loadPreset("readsegment-offset-11");
    LaneTableModel* model = window->laneTableModel();
    const QModelIndex lane3 = model->index(3, LaneTableModel::AddressColumn);
    ASSERT_TRUE(model->flags(lane3).testFlag(Qt::ItemIsEditable));
    EXPECT_TRUE(model->setData(lane3, QStringLiteral("0x400")));
    ASSERT_FALSE(document().pattern().source.has_value());
    EXPECT_EQ(document().pattern().addresses[3], std::optional<std::int64_t>(1024));
    EXPECT_EQ(document().pattern().addresses[4], std::optional<std::int64_t>((4 + 11) * 4));
    EXPECT_FALSE(model->setData(lane3, QStringLiteral("twelve")));
    EXPECT_TRUE(model->setData(model->index(5, LaneTableModel::AddressColumn), QString()));
    EXPECT_FALSE(document().pattern().addresses[5].has_value());
    document().undoStack()->undo();
    document().undoStack()->undo();
    EXPECT_TRUE(document().pattern().source.has_value());
}

TEST_F(WindowTest, AutosaveIsOfferedForRecoveryAfterACrash) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    MainWindowOptions options = quietOptions();
    options.autosave = true;
    options.autosaveDirectory = dir.path();
    options.autosaveIntervalMs = 60000;
    Pattern edited;
    {
        auto first = std::make_unique<MainWindow>(options);
        ASSERT_TRUE(first->autosaver()->isActive());
        EXPECT_FALSE(first->autosaver()->hasRecoveryFile());
        ASSERT_TRUE(first->loadPresetById(QStringLiteral("readsegment-offset-11")));
        ASSERT_TRUE(first->autosaver()->saveNow());
        edited = first->document()->pattern();
        EXPECT_TRUE(QFile::exists(first->autosaver()->filePath()));
        // A crash: the window goes away without a close event.
    }
    MainWindow second(options);
    ASSERT_TRUE(second.autosaver()->hasRecoveryFile());
    EXPECT_TRUE(second.messageBar()->text().contains(QStringLiteral("did not close cleanly")));
    ASSERT_TRUE(second.messageBar()->trigger(QStringLiteral("Restore")));
    EXPECT_EQ(second.document()->pattern(), edited);
    EXPECT_TRUE(second.document()->isModified());
    // A clean close removes the autosave.
    second.close();
    EXPECT_FALSE(QFile::exists(second.autosaver()->filePath()));
}

// An ldmatrix.x4 requests 32 rows of 16 bytes; the notes' GPUs had no ldmatrix, so the textbook
// column has nothing to say (not zeros).
TEST_F(WindowTest, AnLdmatrixsMetricsCountItsRowsAndLeaveTheTextbookColumnEmpty) {
    loadPreset("ldmatrix-rowmajor");
    ASSERT_TRUE(document().evaluation().has_value());
    ASSERT_TRUE(isMatrixAccess(document().evaluation()->access.kind));
    EXPECT_EQ(mainModernValue(*window, "Bytes requested"), QStringLiteral("512"));
    for (const char* quantity : {"Wavefronts", "Conflict degree (n-way)", "Bytes requested"}) {
        EXPECT_EQ(window->metricsPanel()->summaryModel()->text(QString::fromUtf8(quantity),
                                                               MetricsTableModel::TextbookColumn),
                  QStringLiteral("—"))
            << quantity;
    }
}

} // namespace
} // namespace warpscope::app::test
