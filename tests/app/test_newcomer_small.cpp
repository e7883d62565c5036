// A newcomer's smaller stumbles: `lane * 100000` on shared memory says what the SM's capacity
// means, the CLI's --help lists all five spaces, docs/app.md covers the Grid, Notes and Streams
// tabs, Help links to the guide, "no GPU measurement yet" is readable in the dark theme, F1's Keys
// column is whole, and a preset is found by typing a word of it.
#include "panels/patterneditor.h"
#include "panels/presetsearch.h"
#include "panels/sharedcapacity.h"
#include "views/predictiontext.h"
#include "views/theme.h"
#include "views/warpview.h"
#include "windowfixture.h"

#include <QAction>
#include <QCompleter>
#include <QDialog>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTableWidget>

#include <cmath>

namespace warpscope::app::test {
namespace {

double luminance(const QColor& color) {
    auto channel = [](double c) {
        return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) +
           0.0722 * channel(color.blueF());
}

double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QStringList visibleLabelTexts(QWidget* root) {
    QStringList texts;
    for (QLabel* label : root->findChildren<QLabel*>()) {
        if (label->isVisibleTo(root) && !label->text().isEmpty()) {
            texts << label->text();
        }
    }
    return texts;
}

TEST_F(WindowTest, NewcomerSharedAddressPastTheBlocksCapacityIsExplained) {
    loadPreset("bank-offset-1");
    Pattern pattern = document().pattern();
    pattern.source->addressExpression = "lane * 100000";
    document().editPattern(pattern, QStringLiteral("Edit the address expression"));
    QApplication::processEvents();
    ASSERT_FALSE(document().error().has_value());
    const QString all = visibleLabelTexts(window->editor()).join(QLatin1Char('\n'));
    EXPECT_TRUE(all.contains(QStringLiteral("228 KB"))) << qPrintable(all);
    EXPECT_TRUE(all.contains(QStringLiteral("48 KB"))) << qPrintable(all);
    EXPECT_TRUE(all.contains(QStringLiteral("Lane 31"))) << qPrintable(all);
    // Within 48 KB: not a word.
    pattern.source->addressExpression = "lane * 4";
    document().editPattern(pattern, QStringLiteral("Edit the address expression"));
    QApplication::processEvents();
    EXPECT_FALSE(visibleLabelTexts(window->editor())
                     .join(QLatin1Char('\n'))
                     .contains(QStringLiteral("228 KB")));
    // Between the default and the opt-in limit: the milder sentence.
    WarpAccess access;
    access.kind.space = MemorySpace::Shared;
    access.kind.widthBytes = 4;
    access.addresses[0] = 60 * 1024;
    EXPECT_TRUE(sharedCapacityWarning(access).contains(QStringLiteral("past the 48 KB")));
    access.kind.space = MemorySpace::Global;
    EXPECT_TRUE(sharedCapacityWarning(access).isEmpty());
}

TEST(NewcomerWords, ErrorsNameTheFieldInWords) {
    Error error;
    error.where = "addressExpression, lane 5";
    error.message = "unknown name 'laen'";
    error.column = 1;
    const QString text = describeError(error);
    EXPECT_FALSE(text.contains(QStringLiteral("addressExpression"))) << qPrintable(text);
    EXPECT_TRUE(text.startsWith(QStringLiteral("the address expression, lane 5: unknown name")))
        << qPrintable(text);
    error.where = "sharedAddressExpression";
    EXPECT_TRUE(describeError(error).startsWith(QStringLiteral("the shared address expression")));
}

TEST_F(WindowTest, NewcomerTheWarpViewsErrorNoteSaysTheFieldInWords) {
    loadPreset("cached-aligned-coalesced");
    Pattern pattern = document().pattern();
    pattern.source->addressExpression = "laen * 4";
    document().editPattern(pattern, QStringLiteral("Edit the address expression"));
    QApplication::processEvents();
    ASSERT_TRUE(document().error().has_value());
    const QString note = window->warpView()->content().note;
    EXPECT_FALSE(note.contains(QStringLiteral("addressExpression"))) << qPrintable(note);
}

TEST(NewcomerSmall, CliHelpListsAllFiveSpaces) {
    QProcess cli;
    cli.start(QStringLiteral(WARPSCOPE_CLI_BINARY), {QStringLiteral("--help")});
    ASSERT_TRUE(cli.waitForFinished(20000));
    const QString help =
        QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError());
    const qsizetype at = help.indexOf(QStringLiteral("--space"));
    ASSERT_GE(at, 0) << qPrintable(help);
    const QString line = help.mid(at, help.indexOf(QLatin1Char('\n'), at) - at);
    for (const char* space : {"global", "shared", "constant", "local", "texture"}) {
        EXPECT_TRUE(line.contains(QString::fromLatin1(space))) << space << ": " << qPrintable(line);
    }
}

TEST(NewcomerSmall, AppDocCoversTheGridNotesAndStreamsTabs) {
    QFile doc(QStringLiteral(WARPSCOPE_SOURCE_DIR "/docs/app.md"));
    ASSERT_TRUE(doc.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(doc.readAll());
    for (const char* tab : {"| **Grid** tab", "| **Notes vs This GPU** tab", "| **Streams** tab"}) {
        EXPECT_TRUE(text.contains(QString::fromUtf8(tab))) << tab;
    }
}

TEST_F(WindowTest, NewcomerHelpLinksToTheGuide) {
    auto* guide = window->findChild<QAction*>(QStringLiteral("userGuideAction"));
    ASSERT_NE(guide, nullptr) << "Help > User Guide";
    const QString path = userGuidePath();
    ASSERT_FALSE(path.isEmpty());
    EXPECT_TRUE(path.endsWith(QStringLiteral("guide/index.md"))) << qPrintable(path);
}

TEST(NewcomerSmall, NoMeasurementYetIsReadableInTheDarkTheme) {
    const QPalette dark = themePalette(Theme::Dark);
    const QColor muted = dark.color(QPalette::Disabled, QPalette::Text);
    EXPECT_GE(contrast(muted, dark.color(QPalette::Base)), 4.5);
    EXPECT_GE(contrast(muted, dark.color(QPalette::AlternateBase)), 4.5);
}

TEST_F(WindowTest, NewcomerShortcutKeysColumnIsWhole) {
    QAction* shortcuts = nullptr;
    for (QAction* action : window->findChildren<QAction*>()) {
        if (action->shortcut() == QKeySequence(QKeySequence::HelpContents)) {
            shortcuts = action;
        }
    }
    ASSERT_NE(shortcuts, nullptr);
    shortcuts->trigger();
    QApplication::processEvents();
    auto* table = window->findChild<QTableWidget*>(QStringLiteral("shortcutTable"));
    ASSERT_NE(table, nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(table->window()));
    QApplication::processEvents();
    EXPECT_GE(table->columnWidth(1),
              static_cast<const QAbstractItemView*>(table)->sizeHintForColumn(1));
    EXPECT_LE(table->horizontalHeader()->length(), table->viewport()->width());
    table->window()->close();
}

TEST_F(WindowTest, NewcomerPresetSearchFindsAPresetAsYouType) {
    auto* search = window->findChild<PresetSearch*>(QStringLiteral("presetSearch"));
    ASSERT_NE(search, nullptr);
    const QStringList ids = search->matchingIds(QStringLiteral("OFFSET 11"));
    EXPECT_TRUE(ids.contains(QStringLiteral("readsegment-offset-11")))
        << qPrintable(ids.join(QLatin1Char(',')));
    EXPECT_FALSE(ids.contains(QStringLiteral("cached-aligned-coalesced")));
    QCompleter* completer = search->presetCompleter();
    completer->setCompletionPrefix(QStringLiteral("permuted inside one"));
    ASSERT_GT(completer->completionCount(), 0);
    QSignalSpy chosen(search, &PresetSearch::presetChosen);
    emit completer->activated(completer->completionModel()->index(0, 0));
    ASSERT_EQ(chosen.size(), 1);
    QApplication::processEvents();
    EXPECT_EQ(chosen.front().front().toString(), QStringLiteral("cached-permuted"));
    EXPECT_EQ(document().presetId(), QStringLiteral("cached-permuted"));
}

} // namespace
} // namespace warpscope::app::test
