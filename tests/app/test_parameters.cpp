// Tests of the pattern editor's declarations and launch shape as a user drives them: parameters
// declared, renamed, re-ranged and removed through the table (each one undo step, each one a
// slider at once), refused declarations, the grid shape and block index moving gid, and labels
// whose mnemonics must not show as a literal '&'. Expected addresses follow from the pattern
// language's definition of gid (docs/pattern-language.md): gid = linear block index × threads per
// block + the thread's index in the block.
#include "windowfixture.h"

#include "panels/expressionedit.h"
#include "panels/parameterpanel.h"
#include "panels/parametertablemodel.h"
#include "panels/patterneditor.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenuBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>

#include <map>

namespace warpscope::app::test {
namespace {

const std::vector<Parameter>& declared(PatternDocument& document) {
    static const std::vector<Parameter> none;
    return document.pattern().source ? document.pattern().source->parameters : none;
}

std::optional<std::int64_t> laneAddress(PatternDocument& document, int lane) {
    return document.evaluation()->access.addresses[static_cast<std::size_t>(lane)];
}

/// Type `text` into cell (row, column) of the declarations table through its editor, as a user
/// does (double-click, type, Enter).
void typeInCell(QTableView* table, int row, int column, const QString& text) {
    const QModelIndex index = table->model()->index(row, column);
    ASSERT_TRUE(index.isValid());
    table->setCurrentIndex(index);
    table->edit(index);
    QApplication::processEvents();
    auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    ASSERT_NE(editor, nullptr) << "no line edit opened on the cell";
    editor->selectAll();
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
    QApplication::processEvents();
}

void typeParameterExpression(ExpressionEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
    QApplication::processEvents();
}

class ParameterTest : public WindowTest {
protected:
    void SetUp() override {
        WindowTest::SetUp();
        window->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(window.get()));
        editor = window->editor();
        table = editor->parameterTable();
        model = editor->parameterTableModel();
    }
    PatternEditor* editor = nullptr;
    QTableView* table = nullptr;
    ParameterTableModel* model = nullptr;
};

TEST_F(ParameterTest, TheDeclarationsTableIsAWellBehavedModel) {
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    loadPreset("readsegment-offset-11");
    ASSERT_EQ(model->rowCount(), 1);
    EXPECT_EQ(model->data(model->index(0, ParameterTableModel::NameColumn)).toString(),
              QStringLiteral("offset"));
    model->addParameter();
    model->removeParameter(0);
    document().undoStack()->undo();
    loadPreset("shared-tile-column-padded");
}

TEST_F(ParameterTest, AParameterDeclaredInTheTableBecomesASliderThatDrivesTheExpression) {
    loadPreset("readsegment-offset-11"); // (gid + offset) * 4, offset = 11
    ParameterPanel* panel = editor->parameterPanel();
    ASSERT_EQ(panel->rowCount(), 1);
    const int steps = document().undoStack()->count();

    QTest::mouseClick(editor->addParameterButton(), Qt::LeftButton);
    ASSERT_EQ(declared(document()).size(), 2u);
    EXPECT_EQ(declared(document())[1].name, "p");
    EXPECT_EQ(panel->rowCount(), 2) << "the new parameter has no slider";
    // Add leaves the name cell open for typing: name it as a user would.
    auto* nameEditor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    ASSERT_NE(nameEditor, nullptr) << "Add did not open the name for editing";
    nameEditor->selectAll();
    QTest::keyClicks(nameEditor, QStringLiteral("stride"));
    QTest::keyClick(nameEditor, Qt::Key_Return);
    QApplication::processEvents();
    ASSERT_EQ(declared(document())[1].name, "stride");
    ASSERT_NE(panel->slider(1), nullptr);
    EXPECT_EQ(panel->slider(1)->objectName(), QStringLiteral("parameterSlider_stride"));

    // Range 1 ... 8: the value and the default (0) move inside it.
    typeInCell(table, 1, ParameterTableModel::MaximumColumn, QStringLiteral("8"));
    typeInCell(table, 1, ParameterTableModel::MinimumColumn, QStringLiteral("1"));
    EXPECT_EQ(declared(document())[1].minimum, 1);
    EXPECT_EQ(declared(document())[1].maximum, 8);
    EXPECT_EQ(declared(document())[1].value, 1);
    EXPECT_EQ(declared(document())[1].defaultValue, 1);
    EXPECT_EQ(panel->slider(1)->minimum(), 1);
    EXPECT_EQ(panel->slider(1)->maximum(), 8);
    EXPECT_EQ(document().undoStack()->count(), steps + 4); // add, rename, max, min

    // The expression may use it now, and its slider drives the picture.
    typeParameterExpression(editor->addressEdit(), QStringLiteral("(gid + offset) * 4 * stride"));
    ASSERT_FALSE(document().error().has_value()) << document().error()->describe();
    EXPECT_EQ(laneAddress(document(), 0), std::optional<std::int64_t>(44)); // (0 + 11) * 4 * 1
    panel->slider(1)->setValue(2);
    EXPECT_EQ(declared(document())[1].value, 2);
    EXPECT_EQ(laneAddress(document(), 0), std::optional<std::int64_t>(88)); // (0 + 11) * 4 * 2
    EXPECT_EQ(laneAddress(document(), 5), std::optional<std::int64_t>(128));

    // Undo walks back: the slider, the expression, the range, the name, the declaration.
    QUndoStack* undo = document().undoStack();
    undo->undo(); // slider
    EXPECT_EQ(laneAddress(document(), 0), std::optional<std::int64_t>(44));
    undo->undo(); // expression
    undo->undo(); // min
    undo->undo(); // max
    undo->undo(); // rename
    EXPECT_EQ(declared(document())[1].name, "p");
    EXPECT_EQ(panel->slider(1)->objectName(), QStringLiteral("parameterSlider_p"));
    undo->undo(); // the declaration itself
    EXPECT_EQ(declared(document()).size(), 1u);
    EXPECT_EQ(panel->rowCount(), 1) << "undo left the removed parameter's slider behind";
    EXPECT_EQ(model->rowCount(), 1);
    undo->redo();
    EXPECT_EQ(panel->rowCount(), 2);
}

TEST_F(ParameterTest, RenamingAParameterTheExpressionUsesShowsUnknownNameInline) {
    loadPreset("readsegment-offset-11");
    const Pattern valid = document().pattern();
    typeInCell(table, 0, ParameterTableModel::NameColumn, QStringLiteral("shift"));
    ASSERT_EQ(declared(document())[0].name, "shift");
    EXPECT_EQ(editor->parameterPanel()->slider(0)->objectName(),
              QStringLiteral("parameterSlider_shift"));
    // "(gid + offset) * 4": offset is unknown now, at column 8.
    ASSERT_TRUE(document().error().has_value());
    EXPECT_EQ(document().error()->code, ErrorCode::UnknownName);
    EXPECT_EQ(document().error()->column, 8);
    EXPECT_EQ(editor->addressEdit()->errorColumn(), 8);
    EXPECT_TRUE(editor->addressErrorText().contains(QStringLiteral("offset")))
        << editor->addressErrorText().toStdString();
    EXPECT_EQ(document().evaluation()->pattern, valid) << "the last valid picture must stay";

    document().undoStack()->undo();
    EXPECT_FALSE(document().error().has_value());
    EXPECT_TRUE(editor->addressErrorText().isEmpty());
}

TEST_F(ParameterTest, RemovingADeclarationIsUndoable) {
    loadPreset("readsegment-offset-11");
    const Pattern before = document().pattern();
    table->setCurrentIndex(model->index(0, ParameterTableModel::NameColumn));
    QTest::mouseClick(editor->removeParameterButton(), Qt::LeftButton);
    EXPECT_TRUE(declared(document()).empty());
    EXPECT_EQ(editor->parameterPanel()->rowCount(), 0);
    ASSERT_TRUE(document().error().has_value());
    EXPECT_EQ(document().error()->code, ErrorCode::UnknownName);
    EXPECT_FALSE(editor->removeParameterButton()->isEnabled());
    document().undoStack()->undo();
    EXPECT_EQ(document().pattern(), before);
    EXPECT_EQ(editor->parameterPanel()->rowCount(), 1);
}

TEST_F(ParameterTest, InvalidDeclarationsAreRefusedWithAMessageAndChangeNothing) {
    loadPreset("readsegment-offset-11"); // offset: 0 ... 256, default 11
    model->addParameter();               // p: 0 ... 32
    struct Case {
        const char* why; // the rule, as parameterDeclarationProblem() states it
        int row;
        int column;
        const char* text;
        const char* messagePart;
    };
    const Case cases[] = {
        {"a built-in name (isValidParameterName)", 1, ParameterTableModel::NameColumn, "gid",
         "cannot be a parameter name"},
        {"not a C identifier (isValidParameterName)", 1, ParameterTableModel::NameColumn, "2x",
         "cannot be a parameter name"},
        {"a dotted name (isValidParameterName)", 1, ParameterTableModel::NameColumn, "tid.x",
         "cannot be a parameter name"},
        {"an empty name", 1, ParameterTableModel::NameColumn, "", "needs a name"},
        {"a name declared twice", 1, ParameterTableModel::NameColumn, "offset", "twice"},
        {"a default above max", 0, ParameterTableModel::DefaultColumn, "300", "default"},
        {"a default below min", 0, ParameterTableModel::DefaultColumn, "-1", "default"},
        {"min above max", 0, ParameterTableModel::MinimumColumn, "257", "must not be above"},
        {"max below min", 1, ParameterTableModel::MaximumColumn, "-5", "must not be above"},
        {"not a number", 0, ParameterTableModel::MaximumColumn, "lots", "whole number"},
    };
    const Pattern before = document().pattern();
    const int steps = document().undoStack()->count();
    for (const Case& c : cases) {
        SCOPED_TRACE(c.why);
        EXPECT_FALSE(
            model->setData(model->index(c.row, c.column), QString::fromUtf8(c.text), Qt::EditRole));
        EXPECT_EQ(document().pattern(), before);
        EXPECT_EQ(document().undoStack()->count(), steps);
        EXPECT_TRUE(editor->parameterErrorText().contains(QString::fromUtf8(c.messagePart)))
            << editor->parameterErrorText().toStdString();
    }
    // An accepted change clears the message.
    EXPECT_TRUE(model->setData(model->index(0, ParameterTableModel::DefaultColumn),
                               QStringLiteral("12"), Qt::EditRole));
    EXPECT_EQ(declared(document())[0].defaultValue, 12);
    EXPECT_TRUE(editor->parameterErrorText().isEmpty());
}

TEST_F(ParameterTest, ExplicitPatternsHaveNoDeclarationsToEdit) {
    loadPreset("readsegment-offset-11");
    document().setLaneAddress(0, 4096); // the pattern becomes an explicit list
    ASSERT_FALSE(document().pattern().source.has_value());
    EXPECT_EQ(model->rowCount(), 0);
    EXPECT_FALSE(editor->addParameterButton()->isEnabled());
    EXPECT_EQ(model->addParameter(), -1);
    EXPECT_FALSE(editor->gridBox(0)->isEnabled());
}

TEST_F(ParameterTest, GridShapeAndBlockIndexMoveGidBasedAddresses) {
    loadPreset("readsegment-offset-11"); // (gid + offset) * 4, 512 threads per block
    ASSERT_EQ(document().pattern().source->blockDim, (Dim3{512, 1, 1}));
    ASSERT_EQ(document().pattern().source->gridDim, (Dim3{2048, 1, 1})); // resources/presets.json
    EXPECT_EQ(laneAddress(document(), 0), std::optional<std::int64_t>(44));
    QSpinBox* gridX = editor->gridBox(0);
    QSpinBox* bidX = editor->blockIndexBox(0);
    ASSERT_NE(gridX, nullptr);
    ASSERT_NE(bidX, nullptr);
    EXPECT_EQ(gridX->value(), 2048);
    EXPECT_EQ(bidX->maximum(), 2047) << "the block index box must span the grid";

    gridX->setValue(4);
    EXPECT_EQ(document().pattern().source->gridDim, (Dim3{4, 1, 1}));
    EXPECT_EQ(bidX->maximum(), 3);
    bidX->setValue(2);
    EXPECT_EQ(document().pattern().source->blockIdx, (Dim3{2, 0, 0}));
    // gid of lane 0 = 2 × 512 + 0, so its address is (1024 + 11) × 4.
    EXPECT_EQ(laneAddress(document(), 0), std::optional<std::int64_t>(4140));
    EXPECT_EQ(laneAddress(document(), 31), std::optional<std::int64_t>((1024 + 31 + 11) * 4));

    // A y dimension of the grid: block (2, 1) of a 4 × 3 grid is linear block 2 + 4 × 1 = 6.
    editor->gridBox(1)->setValue(3);
    editor->blockIndexBox(1)->setValue(1);
    EXPECT_EQ(laneAddress(document(), 0), std::optional<std::int64_t>((6 * 512 + 11) * 4));

    // Shrinking the grid keeps the block inside it instead of failing.
    gridX->setValue(2);
    EXPECT_EQ(document().pattern().source->blockIdx.x, 1);
    EXPECT_FALSE(document().error().has_value());

    // Each is undoable: back to the grid of 4 x 3, then block (2, 0), ...
    QUndoStack* undo = document().undoStack();
    undo->undo();
    EXPECT_EQ(document().pattern().source->gridDim, (Dim3{4, 3, 1}));
    EXPECT_EQ(document().pattern().source->blockIdx, (Dim3{2, 1, 0}));
    undo->undo(); // bid.y
    undo->undo(); // gdim.y
    undo->undo(); // bid.x
    EXPECT_EQ(laneAddress(document(), 0), std::optional<std::int64_t>(44));
    EXPECT_EQ(bidX->value(), 0);
    undo->undo(); // gdim.x
    EXPECT_EQ(gridX->value(), 2048);
    EXPECT_EQ(document().pattern().source->gridDim, (Dim3{2048, 1, 1}));
}

/// Every label with a mnemonic must have a buddy (otherwise Qt draws the '&' literally, as
/// "Wa&rp:" once did), and no two visible mnemonics may share a key.
void checkMnemonics(QWidget* root) {
    std::map<QChar, QStringList> owners;
    auto mnemonicOf = [](const QString& text) -> QChar {
        for (qsizetype i = 0; i + 1 < text.size(); ++i) {
            if (text[i] == QLatin1Char('&')) {
                if (text[i + 1] == QLatin1Char('&')) {
                    ++i; // "&&" is a literal ampersand
                    continue;
                }
                return text[i + 1].toLower();
            }
        }
        return QChar();
    };
    for (QLabel* label : root->findChildren<QLabel*>()) {
        const QChar key = mnemonicOf(label->text());
        if (key.isNull() || !label->isVisibleTo(root)) {
            continue;
        }
        EXPECT_NE(label->buddy(), nullptr)
            << "label \"" << label->text().toStdString() << "\" would show a literal '&'";
        owners[key] << label->text();
    }
    for (QTabWidget* tabs : root->findChildren<QTabWidget*>()) {
        for (int i = 0; i < tabs->count(); ++i) {
            const QChar key = mnemonicOf(tabs->tabText(i));
            if (!key.isNull()) {
                owners[key] << tabs->tabText(i);
            }
        }
    }
    if (auto* window = qobject_cast<QMainWindow*>(root)) {
        for (QAction* menu : window->menuBar()->actions()) {
            const QChar key = mnemonicOf(menu->text());
            if (!key.isNull()) {
                owners[key] << menu->text();
            }
        }
    }
    for (const auto& [key, texts] : owners) {
        EXPECT_EQ(texts.size(), 1) << "Alt+" << QString(key).toStdString() << " is shared by "
                                   << texts.join(QStringLiteral(", ")).toStdString();
    }
}

TEST_F(ParameterTest, LabelsShowNoLiteralAmpersandAndMnemonicsAreUnique) {
    loadPreset("readsegment-offset-11");
    // The warp row's label: its mnemonic reaches the warp index box.
    QLabel* warpLabel = nullptr;
    for (QLabel* label : window->findChildren<QLabel*>()) {
        if (label->buddy() == editor->warpIndexBox()) {
            warpLabel = label;
        }
    }
    ASSERT_NE(warpLabel, nullptr) << "the warp index box has no label pointing at it";
    EXPECT_EQ(warpLabel->text(), QStringLiteral("Wa&rp:"));
    for (auto view : {MainWindow::View::Warp, MainWindow::View::Sweep}) {
        SCOPED_TRACE(static_cast<int>(view));
        window->showView(view);
        QApplication::processEvents();
        checkMnemonics(window.get());
    }
}

} // namespace
} // namespace warpscope::app::test
