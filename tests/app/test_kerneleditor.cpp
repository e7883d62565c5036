// The kernel editor (issue 12): the access list (add, remove, duplicate, reorder, by button and by
// key), buffers and launch, undo and redo of each, sessions and autosaves holding kernels with
// their recorded measurements, today's pattern files and sessions opening unchanged, and bad
// input named where it is.
#include "windowfixture.h"

#include "document/autosaver.h"
#include "document/recentfiles.h"
#include "document/sessionfile.h"
#include "gpu/kernelmeasurement.h"
#include "panels/expressionedit.h"
#include "panels/kernelpanel.h"
#include "panels/patterneditor.h"

#include <warpscope/kernel_preset.h>

#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>

#ifndef WARPSCOPE_TEST_DATA_DIR
#error "WARPSCOPE_TEST_DATA_DIR must point at tests/data"
#endif

namespace warpscope::app::test {

namespace {

constexpr const char* kTranspose = "transpose-naivecol";

QString dataFile(const char* name) {
    return QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/files/") + QLatin1String(name);
}

std::vector<std::string> labels(const Kernel& kernel) {
    std::vector<std::string> out;
    for (const KernelAccess& access : kernel.accesses) {
        out.push_back(access.label);
    }
    return out;
}

} // namespace

// Outside the anonymous namespace: GoogleTest's test classes derive from it (GCC's
// -Wsubobject-linkage in unity builds).
class KernelEditorTest : public WindowTest {
protected:
    KernelPanel& panel() { return *window->editor()->kernelPanel(); }
    void showTranspose() {
        ASSERT_TRUE(window->showKernelPreset(QString::fromLatin1(kTranspose)));
        QApplication::processEvents();
        ASSERT_TRUE(document().kernel().has_value());
    }
    const Kernel& kernel() { return *document().kernel(); }
};

TEST_F(KernelEditorTest, APlainPatternIsOneAccessWithNothingElseToEdit) {
    loadPreset("readsegment-offset-11");
    EXPECT_FALSE(document().kernel().has_value());
    EXPECT_EQ(document().accessCount(), 1);
    EXPECT_EQ(panel().accessList()->count(), 1);
    EXPECT_TRUE(panel().addAccessButton()->isEnabled());
    EXPECT_TRUE(panel().duplicateAccessButton()->isEnabled());
    EXPECT_FALSE(panel().removeAccessButton()->isEnabled());
    EXPECT_FALSE(panel().moveUpButton()->isEnabled());
    EXPECT_FALSE(panel().moveDownButton()->isEnabled());
    // The buffers and the launch belong to kernels only.
    EXPECT_FALSE(panel().bufferTable()->isVisible());
    EXPECT_FALSE(panel().launchEdit(0)->isVisible());
    EXPECT_TRUE(panel().errorText().isEmpty());
}

TEST_F(KernelEditorTest, AKernelPresetLoadsEveryAccessAndSelectingOneShowsItInTheViews) {
    showTranspose();
    EXPECT_EQ(labels(kernel()), (std::vector<std::string>{"load in", "store out"}));
    EXPECT_EQ(panel().accessList()->count(), 2);
    EXPECT_EQ(document().selectedAccess(), 0);
    EXPECT_EQ(document().pattern().kind.op, AccessOp::Load);
    EXPECT_TRUE(panel().bufferTable()->isVisible());
    EXPECT_EQ(panel().bufferTable()->rowCount(), 2);
    EXPECT_EQ(panel().launchEdit(3)->text(), QStringLiteral("bx"));

    const int steps = document().undoStack()->count();
    panel().accessList()->setCurrentRow(1);
    QApplication::processEvents();
    EXPECT_EQ(document().selectedAccess(), 1);
    EXPECT_EQ(document().pattern().kind.op, AccessOp::Store);
    ASSERT_TRUE(document().evaluation().has_value());
    EXPECT_EQ(document().evaluation()->access.kind.op, AccessOp::Store);
    EXPECT_EQ(window->editor()->addressEdit()->text().toStdString(),
              kernel().accesses[1].addressExpression);
    EXPECT_EQ(panel().accessLabelEdit()->text(), QStringLiteral("store out"));
    // The views' heading names the access shown.
    EXPECT_TRUE(document().shownTitle().endsWith(QStringLiteral(": store out")))
        << document().shownTitle().toStdString();
    // Selecting is not an edit.
    EXPECT_EQ(document().undoStack()->count(), steps);
}

TEST_F(KernelEditorTest, AddRemoveDuplicateAndReorderAreEachOneUndoStep) {
    showTranspose();
    const Kernel original = kernel();
    QUndoStack& undo = *document().undoStack();

    panel().addAccessButton()->click();
    ASSERT_EQ(kernel().accesses.size(), 3u);
    EXPECT_EQ(document().selectedAccess(), 1); // after the selected one, and selected
    EXPECT_EQ(kernel().accesses[1].label, "access 3");
    undo.undo();
    EXPECT_EQ(kernel(), original);
    EXPECT_EQ(document().selectedAccess(), 0);
    undo.redo();
    EXPECT_EQ(kernel().accesses.size(), 3u);
    undo.undo();

    panel().accessList()->setCurrentRow(1);
    panel().duplicateAccessButton()->click();
    ASSERT_EQ(kernel().accesses.size(), 3u);
    EXPECT_EQ(labels(kernel()),
              (std::vector<std::string>{"load in", "store out", "store out (copy)"}));
    EXPECT_EQ(document().selectedAccess(), 2);
    const Kernel duplicated = kernel();
    undo.undo();
    EXPECT_EQ(kernel(), original);
    undo.redo();
    EXPECT_EQ(kernel(), duplicated);
    EXPECT_EQ(document().selectedAccess(), 2);
    undo.undo();

    panel().accessList()->setCurrentRow(1);
    panel().moveUpButton()->click();
    EXPECT_EQ(labels(kernel()), (std::vector<std::string>{"store out", "load in"}));
    EXPECT_EQ(document().selectedAccess(), 0);
    EXPECT_EQ(document().pattern().kind.op, AccessOp::Store); // the selection moved with it
    undo.undo();
    EXPECT_EQ(kernel(), original);
    EXPECT_EQ(document().selectedAccess(), 1);
    undo.redo();
    EXPECT_EQ(labels(kernel()), (std::vector<std::string>{"store out", "load in"}));
    EXPECT_EQ(document().selectedAccess(), 0);
    undo.undo();

    panel().removeAccessButton()->click();
    EXPECT_EQ(labels(kernel()), (std::vector<std::string>{"load in"}));
    EXPECT_FALSE(panel().removeAccessButton()->isEnabled()); // the last access stays
    EXPECT_FALSE(document().removeAccess(0));
    undo.undo();
    EXPECT_EQ(kernel(), original);
    undo.redo();
    EXPECT_EQ(kernel().accesses.size(), 1u);
    undo.undo();
    EXPECT_EQ(kernel(), original);
}

TEST_F(KernelEditorTest, KeysWorkInTheAccessList) {
    showTranspose();
    const Kernel original = kernel();
    QListWidget* list = panel().accessList();
    list->setFocus();
    list->setCurrentRow(0);
    QTest::keyClick(list, Qt::Key_Down, Qt::AltModifier);
    EXPECT_EQ(labels(kernel()), (std::vector<std::string>{"store out", "load in"}));
    EXPECT_EQ(document().selectedAccess(), 1);
    QTest::keyClick(list, Qt::Key_Up, Qt::AltModifier);
    EXPECT_EQ(kernel(), original);
    QTest::keyClick(list, Qt::Key_D, Qt::ControlModifier);
    EXPECT_EQ(kernel().accesses.size(), 3u);
    QTest::keyClick(list, Qt::Key_Delete);
    EXPECT_EQ(kernel(), original);
    QTest::keyClick(list, Qt::Key_Insert);
    EXPECT_EQ(kernel().accesses.size(), 3u);
    // Five steps to undo, back to the preset.
    for (int i = 0; i < 5; ++i) {
        document().undoStack()->undo();
    }
    EXPECT_EQ(kernel(), original);
}

TEST_F(KernelEditorTest, TodaysFieldsEditTheSelectedAccessAndSliderDragsMerge) {
    showTranspose();
    const Kernel original = kernel();
    panel().accessList()->setCurrentRow(1);
    QApplication::processEvents();
    const int before = document().undoStack()->count();

    // The expression field edits the selected access only.
    ExpressionEdit* address = window->editor()->addressEdit();
    address->setFocus();
    address->selectAll();
    QTest::keyClick(address, Qt::Key_Delete);
    QTest::keyClicks(address, QStringLiteral("4 * gid"));
    QApplication::processEvents();
    EXPECT_EQ(kernel().accesses[1].addressExpression, "4 * gid");
    EXPECT_EQ(kernel().accesses[0], original.accesses[0]);
    EXPECT_EQ(document().undoStack()->count(), before + 1); // typing is one step

    // The width box too.
    QComboBox* width = window->editor()->widthBox();
    width->setCurrentIndex(width->findData(8));
    emit width->activated(width->currentIndex());
    EXPECT_EQ(kernel().accesses[1].kind.widthBytes, 8);

    // A dragged slider (many edits of one parameter) is one step, and the launch follows it:
    // block.x is "bx".
    const int steps = document().undoStack()->count();
    for (std::int64_t bx : {17, 18, 19, 32}) {
        Pattern pattern = document().pattern();
        pattern.source->parameters[2].value = bx; // bx
        document().editPattern(pattern, QStringLiteral("Set bx"),
                               static_cast<int>(EditMerge::FirstParameter) + 2);
    }
    EXPECT_EQ(document().undoStack()->count(), steps + 1);
    EXPECT_EQ(kernel().parameters[2].value, 32);
    EXPECT_EQ(document().pattern().source->blockDim.x, 32);
    EXPECT_EQ(kernel().launch.block[0], "bx"); // the expression is kept

    for (int i = document().undoStack()->count(); i > before; --i) {
        document().undoStack()->undo();
    }
    EXPECT_EQ(kernel(), original);
}

TEST_F(KernelEditorTest, BuffersAndLaunchAreEditedAndUndone) {
    showTranspose();
    const Kernel original = kernel();
    QTableWidget* table = panel().bufferTable();

    // Renaming a buffer renames it in the accesses that address it.
    table->item(0, 0)->setText(QStringLiteral("src"));
    EXPECT_EQ(kernel().buffers[0].name, "src");
    EXPECT_EQ(kernel().accesses[0].buffer, "src");
    EXPECT_EQ(panel().accessBufferBox()->currentText(), QStringLiteral("src"));
    table->item(1, 1)->setText(QStringLiteral("nx * ny * 8"));
    EXPECT_EQ(kernel().buffers[1].bytesExpression, "nx * ny * 8");

    // Typing a size is one step however many keys it takes.
    const int steps = document().undoStack()->count();
    for (const char* text : {"n", "nx", "nx *", "nx * ny * 8"}) {
        EXPECT_FALSE(document().setBufferSize(1, QString::fromLatin1(text)).has_value());
    }
    EXPECT_EQ(document().undoStack()->count(), steps);

    panel().addBufferButton()->click();
    ASSERT_EQ(kernel().buffers.size(), 3u);
    table->setCurrentCell(2, 0);
    panel().removeBufferButton()->click();
    EXPECT_EQ(kernel().buffers.size(), 2u);

    // The launch: block.x as an expression; the views' block follows.
    QLineEdit* blockX = panel().launchEdit(3);
    blockX->setFocus();
    blockX->selectAll();
    QTest::keyClicks(blockX, QStringLiteral("bx * 2"));
    EXPECT_EQ(kernel().launch.block[0], "bx * 2");
    EXPECT_EQ(document().pattern().source->blockDim.x, 32);
    EXPECT_FALSE(document().error().has_value());

    // Rename, size, add, remove, block.x (typed: one step): five steps back to the preset.
    for (int i = 0; i < 5; ++i) {
        document().undoStack()->undo();
    }
    EXPECT_EQ(kernel(), original);
}

TEST_F(KernelEditorTest, BadInputNamesItsPlaceAndLosesNothing) {
    showTranspose();
    const Kernel original = kernel();
    const Evaluation lastGood = *document().evaluation();
    QTableWidget* table = panel().bufferTable();

    // A broken size expression: kept as typed, the error names the buffer and the problem, the
    // views keep the last valid picture.
    table->item(1, 1)->setText(QStringLiteral("nx * * 4"));
    EXPECT_EQ(kernel().buffers[1].bytesExpression, "nx * * 4");
    EXPECT_EQ(table->item(1, 1)->text(), QStringLiteral("nx * * 4"));
    ASSERT_TRUE(document().error().has_value());
    EXPECT_EQ(document().error()->where, "/buffers/1/bytes");
    const QString message = panel().errorText();
    EXPECT_TRUE(message.contains(QStringLiteral("Buffer \"out\" size"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("column"))) << message.toStdString();
    ASSERT_TRUE(document().evaluation().has_value());
    EXPECT_EQ(document().evaluation()->access.addresses, lastGood.access.addresses);
    // Everything else of the kernel is still there, and editing goes on.
    EXPECT_EQ(kernel().accesses, original.accesses);
    table->item(1, 1)->setText(QStringLiteral("nx * ny * 4"));
    EXPECT_FALSE(document().error().has_value());
    EXPECT_TRUE(panel().errorText().isEmpty());
    EXPECT_EQ(kernel(), original);

    // A size too small for nothing but too large for CUDA's launch: the launch field is named.
    QLineEdit* gridY = panel().launchEdit(1);
    gridY->setFocus();
    gridY->selectAll();
    QTest::keyClicks(gridY, QStringLiteral("70000"));
    ASSERT_TRUE(document().error().has_value());
    EXPECT_TRUE(panel().errorText().contains(QStringLiteral("Launch grid.y")))
        << panel().errorText().toStdString();
    document().undoStack()->undo();
    EXPECT_EQ(kernel(), original);
    EXPECT_FALSE(document().error().has_value());

    // Refused outright (the kernel is unchanged): an empty size, a taken or invalid name, and
    // removing a buffer an access uses.
    table->item(0, 1)->setText(QString());
    EXPECT_EQ(kernel(), original);
    EXPECT_TRUE(panel().errorText().contains(QStringLiteral("buffer \"in\"")))
        << panel().errorText().toStdString();
    EXPECT_EQ(table->item(0, 1)->text(), QStringLiteral("nx * ny * 4"));
    table->item(0, 0)->setText(QStringLiteral("nx"));
    EXPECT_EQ(kernel(), original);
    EXPECT_TRUE(panel().errorText().contains(QStringLiteral("already the name")))
        << panel().errorText().toStdString();
    table->item(0, 0)->setText(QStringLiteral("2in"));
    EXPECT_EQ(kernel(), original);
    EXPECT_TRUE(panel().errorText().contains(QStringLiteral("cannot be a buffer name")));
    table->setCurrentCell(0, 0);
    panel().removeBufferButton()->click();
    EXPECT_EQ(kernel(), original);
    EXPECT_TRUE(panel().errorText().contains(QStringLiteral("access 1 addresses it")))
        << panel().errorText().toStdString();

    // An error in an access that is not selected names that access.
    Kernel broken = original;
    broken.accesses[1].addressExpression = "4 * (gid";
    document().editKernel(broken, QStringLiteral("break the store"));
    ASSERT_TRUE(document().error().has_value());
    EXPECT_TRUE(panel().errorText().contains(QStringLiteral("Access 2 (store out)")))
        << panel().errorText().toStdString();
    // Selecting it moves the message to the address field, with its column.
    panel().accessList()->setCurrentRow(1);
    EXPECT_FALSE(window->editor()->addressErrorText().isEmpty());
    EXPECT_GT(window->editor()->addressEdit()->errorColumn(), 0);
    EXPECT_TRUE(panel().errorText().isEmpty());
}

TEST_F(KernelEditorTest, AVersionOnePatternFileOpensAsBeforeAndBecomesAKernelOnlyWhenAsked) {
    auto text = readTextFile(dataFile("good_pattern_expression.json").toStdString());
    ASSERT_TRUE(text) << text.error().describe();
    auto named = patternFromJsonText(text.value());
    ASSERT_TRUE(named) << named.error().describe();
    ASSERT_FALSE(named.value().kernel.has_value());
    Session session;
    session.entries.push_back(SessionEntry{named.value(), {}});
    ASSERT_FALSE(document().loadSession(session).has_value());
    QApplication::processEvents();
    EXPECT_EQ(document().current(), named.value());
    EXPECT_EQ(document().accessCount(), 1);
    EXPECT_EQ(window->editor()->addressEdit()->text().toStdString(),
              named.value().pattern.source->addressExpression);
    EXPECT_FALSE(document().error().has_value());
    // Saved untouched, it is still a version-1 file.
    EXPECT_EQ(patternToJsonText(document().current()).find("\"kernel\""), std::string::npos);

    // Adding an access makes the kernel: the pattern is its first access; undo gives back the
    // file's pattern exactly.
    panel().addAccessButton()->click();
    ASSERT_TRUE(document().kernel().has_value());
    EXPECT_EQ(document().kernel()->accesses.size(), 2u);
    EXPECT_EQ(document().kernel()->accesses[0].addressExpression,
              named.value().pattern.source->addressExpression);
    document().undoStack()->undo();
    EXPECT_EQ(document().current(), named.value());
    EXPECT_EQ(panel().accessList()->count(), 1);
}

TEST_F(KernelEditorTest, AnOldSessionOpensUnchangedAndSavesAsVersionOne) {
    const QString path = dataFile("good_session.json");
    auto expected = readSessionFile(path);
    ASSERT_TRUE(expected) << expected.error().describe();
    ASSERT_TRUE(window->openSession(path));
    const Session opened = document().toSession();
    EXPECT_EQ(opened.entries, expected.value().entries);
    EXPECT_EQ(opened.currentEntry, expected.value().currentEntry);
    EXPECT_FALSE(document().kernel().has_value());
    EXPECT_EQ(opened.viewSettings.count("kernel.selectedAccess"), 0u);

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString saved = dir.filePath(QStringLiteral("again.warpscope"));
    ASSERT_TRUE(window->saveSession(saved));
    QFile file(saved);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    EXPECT_TRUE(bytes.contains("\"version\": 1")) << bytes.left(200).toStdString();
    EXPECT_FALSE(bytes.contains("\"kernel\""));
}

TEST_F(KernelEditorTest, ASessionHoldsTheEditedKernelAndItsRecordedMeasurement) {
    showTranspose();
    panel().accessList()->setCurrentRow(1);
    panel().duplicateAccessButton()->click();
    ASSERT_EQ(kernel().accesses.size(), 3u);
    const Kernel edited = kernel();
    const Pattern shown = document().pattern();

    KernelMeasurement measured;
    measured.kernelName = "transposeNaiveCol";
    measured.parameters = {{"nx", 2048}, {"ny", 2048}, {"bx", 16}, {"by", 16}};
    measured.counters["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 4194304;
    measured.countersMeasured = true;
    measured.kernelMs = protocol::Stats{0.123, 0.123, 0.123, 1};
    measured.effectiveBandwidthGBs = 272.5;
    measured.gpuName = QStringLiteral("NVIDIA H100 80GB HBM3");
    window->kernelMeasurements()->put(QString::fromLatin1(kTranspose), measured);

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("kernel.warpscope"));
    ASSERT_TRUE(window->saveSession(path));
    EXPECT_TRUE(window->recentFiles()->files().contains(QFileInfo(path).absoluteFilePath()));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    EXPECT_TRUE(bytes.contains("\"version\": 2"));
    EXPECT_TRUE(bytes.contains("\"kernel\""));

    auto other = std::make_unique<MainWindow>(quietOptions());
    ASSERT_TRUE(other->openSession(path));
    PatternDocument& reopened = *other->document();
    ASSERT_TRUE(reopened.kernel().has_value());
    EXPECT_EQ(*reopened.kernel(), edited);
    EXPECT_EQ(reopened.selectedAccess(), 2);
    EXPECT_EQ(reopened.pattern(), shown);
    EXPECT_EQ(other->editor()->kernelPanel()->accessList()->count(), 3);
    const KernelMeasurement* back =
        other->kernelMeasurements()->find(QString::fromLatin1(kTranspose), measured.parameters);
    ASSERT_NE(back, nullptr);
    EXPECT_TRUE(back->recorded);
    EXPECT_EQ(back->gpuName, measured.gpuName);
    ASSERT_TRUE(back->effectiveBandwidthGBs.has_value());
    EXPECT_DOUBLE_EQ(*back->effectiveBandwidthGBs, 272.5);
    EXPECT_EQ(back->counters, measured.counters);
    EXPECT_FALSE(reopened.isModified());
}

TEST_F(KernelEditorTest, TheAutosaveHoldsTheKernel) {
    showTranspose();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    PatternDocument* doc = &document();
    Autosaver saver(
        dir.path(), 60000, [doc] { return doc->toSession(); },
        [doc] { return doc->changeCounter(); });
    ASSERT_TRUE(saver.isActive());
    panel().addAccessButton()->click(); // a change since the saver started
    ASSERT_TRUE(saver.saveNow());
    auto restored = readSessionFile(saver.filePath());
    ASSERT_TRUE(restored) << restored.error().describe();
    const NamedPattern& entry =
        restored.value().entries[static_cast<std::size_t>(restored.value().currentEntry)].pattern;
    ASSERT_TRUE(entry.kernel.has_value());
    EXPECT_EQ(*entry.kernel, kernel());
    EXPECT_EQ(restored.value().viewSettings.at("kernel.selectedAccess"), "1");
}

TEST_F(KernelEditorTest, AnEmptiedAddressFieldIsAnErrorAndTheSessionStaysReadable) {
    showTranspose();
    const Kernel original = kernel();
    ExpressionEdit* address = window->editor()->addressEdit();
    address->setFocus();
    address->selectAll();
    QTest::keyClick(address, Qt::Key_Delete);
    QApplication::processEvents();
    EXPECT_TRUE(address->text().isEmpty());
    ASSERT_TRUE(document().error().has_value());
    EXPECT_FALSE(window->editor()->addressErrorText().isEmpty());
    EXPECT_EQ(kernel().accesses[0].addressExpression, original.accesses[0].addressExpression);

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("emptied.warpscope"));
    ASSERT_TRUE(window->saveSession(path));
    auto reopened = readSessionFile(path);
    ASSERT_TRUE(reopened) << reopened.error().describe();
    const NamedPattern& entry = reopened.value().entries.front().pattern;
    ASSERT_TRUE(entry.kernel.has_value());
    EXPECT_EQ(*entry.kernel, original);
    EXPECT_TRUE(entry.pattern.source->addressExpression.empty());
}

TEST_F(KernelEditorTest, TypingALaneAddressLeavesTheKernelAndUndoReturnsToIt) {
    showTranspose();
    const NamedPattern before = document().current();
    document().setLaneAddress(3, 4096);
    EXPECT_FALSE(document().kernel().has_value());
    EXPECT_FALSE(document().pattern().source.has_value());
    EXPECT_EQ(panel().accessList()->count(), 1);
    document().undoStack()->undo();
    EXPECT_EQ(document().current(), before);
    EXPECT_EQ(panel().accessList()->count(), 2);
}

} // namespace warpscope::app::test
