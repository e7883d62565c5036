// A newcomer's first edits: a preset's heading and caption last only while the pattern is the
// preset's (views, the export dialog and saved sessions then say what is on screen), Ctrl+Z in a
// focused spin box undoes the document's last edit, a merged step is named by its final value,
// and the export dialog offers only what a single view or a global pattern can show.
#include "export/figureexportdialog.h"
#include "panels/expressionedit.h"
#include "panels/parameterpanel.h"
#include "panels/patterneditor.h"
#include "views/warpview.h"
#include "windowfixture.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>

namespace warpscope::app::test {
namespace {

QSpinBox* offsetBox(MainWindow& window) {
    return window.editor()->parameterPanel()->spinBox(0);
}

std::int64_t offset(MainWindow& window) {
    return window.document()->pattern().source->parameters.at(0).value;
}

TEST_F(WindowTest, NewcomerParameterEditReplacesThePresetsHeading) {
    loadPreset("readsegment-offset-11");
    const Preset& preset = requirePreset("readsegment-offset-11");
    ASSERT_EQ(document().current().title, preset.title);
    QSpinBox* box = offsetBox(*window);
    ASSERT_NE(box, nullptr);
    box->setValue(32);
    QApplication::processEvents();
    // Not "offset 11 ... straddles two lines" above an aligned picture.
    EXPECT_NE(document().current().title, preset.title);
    EXPECT_NE(document().current().caption, preset.caption);
    EXPECT_NE(document().current().title.find("offset = 32"), std::string::npos)
        << document().current().title;
    const WarpContent content = window->warpView()->content();
    EXPECT_FALSE(content.title.contains(QString::fromStdString(preset.title)));
    EXPECT_FALSE(content.note.contains(QString::fromStdString(preset.caption)));
    // Saved sessions carry what is on screen.
    const Session session = window->currentSession();
    EXPECT_NE(session.entries.at(0).pattern.title, preset.title);
    // The export dialog's title and caption too.
    FigureExportDialog dialog(session, QStringLiteral("figure"), false);
    EXPECT_FALSE(dialog.titleEdit()->text().contains(QString::fromStdString(preset.title)));
    EXPECT_NE(dialog.captionEdit()->text(), QString::fromStdString(preset.caption));
    // Back to the preset's pattern: its own words are true again.
    box->setValue(11);
    QApplication::processEvents();
    EXPECT_EQ(document().current().title, preset.title);
    EXPECT_EQ(document().current().caption, preset.caption);
}

TEST_F(WindowTest, NewcomerTypedExpressionReplacesThePresetsHeading) {
    loadPreset("cached-aligned-coalesced");
    const Preset& preset = requirePreset("cached-aligned-coalesced");
    Pattern pattern = document().pattern();
    pattern.source->addressExpression = "lane * 12";
    document().editPattern(pattern, QStringLiteral("Edit the address expression"),
                           static_cast<int>(EditMerge::AddressExpression));
    QApplication::processEvents();
    EXPECT_EQ(document().current().title, "Edited: lane * 12");
    EXPECT_TRUE(document().current().caption.empty());
    const WarpContent content = window->warpView()->content();
    EXPECT_FALSE(content.title.contains(QString::fromStdString(preset.title)))
        << qPrintable(content.title);
    EXPECT_FALSE(content.note.contains(QStringLiteral("100 %"))) << qPrintable(content.note);
    // Undo brings the preset and its words back.
    document().undoStack()->undo();
    EXPECT_EQ(document().current().title, preset.title);
}

TEST_F(WindowTest, NewcomerMergedStepIsNamedByItsFinalValue) {
    loadPreset("readsegment-offset-11");
    QSpinBox* box = offsetBox(*window);
    ASSERT_NE(box, nullptr);
    box->setValue(3); // typing "3", then "2": one merged step
    box->setValue(32);
    QApplication::processEvents();
    EXPECT_EQ(document().undoStack()->undoText(), QStringLiteral("Set offset to 32"));
}

TEST_F(WindowTest, NewcomerCtrlZInASpinBoxUndoesTheDocument) {
    loadPreset("readsegment-offset-11");
    window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window.get()));
    QSpinBox* box = offsetBox(*window);
    ASSERT_NE(box, nullptr);
    box->setFocus();
    box->setValue(32);
    QApplication::processEvents();
    ASSERT_EQ(offset(*window), 32);
    QTest::keyClick(box, Qt::Key_Z, Qt::ControlModifier);
    QApplication::processEvents();
    EXPECT_EQ(offset(*window), 11) << "Ctrl+Z in the spin box must undo the edit";
    EXPECT_EQ(box->value(), 11);
    QTest::keyClick(box, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QApplication::processEvents();
    EXPECT_EQ(offset(*window), 32) << "Ctrl+Shift+Z redoes it";
}

TEST_F(WindowTest, NewcomerSingleViewExportDisablesViewsTitleAndCaption) {
    loadPreset("cached-aligned-coalesced");
    FigureExportDialog dialog(window->currentSession(), QStringLiteral("warp"), false);
    EXPECT_FALSE(dialog.titleEdit()->isEnabled());
    EXPECT_FALSE(dialog.captionEdit()->isEnabled());
    for (QCheckBox* box : dialog.figureViewBoxes()) {
        EXPECT_FALSE(box->isEnabled()) << qPrintable(box->objectName());
    }
    // Their row labels too: an enabled "Views:" beside disabled ticks read as a choice.
    int labels = 0;
    for (QLabel* label : dialog.findChildren<QLabel*>()) {
        const QString text = label->text();
        if (text == QLatin1String("Views:") || text == QLatin1String("&Title:") ||
            text == QLatin1String("&Caption:")) {
            EXPECT_FALSE(label->isEnabled()) << qPrintable(text);
            ++labels;
        }
    }
    EXPECT_EQ(labels, 3);
    dialog.viewBox()->setCurrentIndex(dialog.viewBox()->findData(QStringLiteral("figure")));
    EXPECT_TRUE(dialog.titleEdit()->isEnabled());
    EXPECT_TRUE(dialog.captionEdit()->isEnabled());
}

TEST_F(WindowTest, NewcomerARememberedBankTickGivesNoEmptyPanelOnAGlobalPattern) {
    QTemporaryDir settingsDir;
    ASSERT_TRUE(settingsDir.isValid());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    {
        QSettings settings;
        settings.setValue(QStringLiteral("figureExport/figureViews"),
                          QStringList{QStringLiteral("bank")});
    }
    loadPreset("cached-aligned-coalesced");
    FigureExportDialog dialog(window->currentSession(), QStringLiteral("figure"), true);
    const FigureSpec spec = dialog.spec();
    EXPECT_FALSE(spec.views.contains(QStringLiteral("bank")))
        << qPrintable(spec.views.join(QLatin1Char(',')));
    EXPECT_TRUE(spec.views.contains(QStringLiteral("warp")))
        << qPrintable(spec.views.join(QLatin1Char(',')));
    for (QCheckBox* box : dialog.figureViewBoxes()) {
        if (box->objectName() == QLatin1String("bank")) {
            EXPECT_FALSE(box->isEnabled());
            EXPECT_FALSE(box->isChecked());
        }
    }
    QSettings().remove(QStringLiteral("figureExport"));
    QSettings::setDefaultFormat(QSettings::NativeFormat);
}

} // namespace
} // namespace warpscope::app::test
