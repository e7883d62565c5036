// Tests of the document layer without windows: edits and merging, error keeping, sessions checked
// before they replace anything, and session files written atomically.
#include "document/patterndocument.h"
#include "document/sessionfile.h"

#include <warpscope/preset.h>

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>
#include <QUndoStack>

namespace warpscope::app::test {
namespace {

Pattern withExpression(const Pattern& base, const char* text) {
    Pattern p = base;
    p.source->addressExpression = text;
    return p;
}

TEST(PatternDocument, KeepsTheLastValidEvaluationWhileTheTextIsWrong) {
    PatternDocument document;
    ASSERT_TRUE(document.evaluation().has_value());
    const Pattern valid = document.pattern();
    document.editPattern(withExpression(valid, "4 * gid +"), QStringLiteral("edit"));
    ASSERT_TRUE(document.error().has_value());
    EXPECT_EQ(document.error()->code, ErrorCode::Syntax);
    EXPECT_EQ(document.evaluation()->pattern, valid);
    document.editPattern(withExpression(valid, "8 * gid"), QStringLiteral("edit"));
    EXPECT_FALSE(document.error().has_value());
    EXPECT_EQ(document.evaluation()->pattern.source->addressExpression, "8 * gid");
}

TEST(PatternDocument, ConsecutiveEditsWithOneMergeIdAreOneUndoStep) {
    PatternDocument document;
    const Pattern start = document.pattern();
    const int merge = static_cast<int>(EditMerge::AddressExpression);
    document.editPattern(withExpression(start, "4 * gid + 4"), QStringLiteral("t"), merge);
    document.editPattern(withExpression(start, "4 * gid + 8"), QStringLiteral("t"), merge);
    EXPECT_EQ(document.undoStack()->count(), 1);
    document.editPattern(withExpression(start, "4 * gid + 12"), QStringLiteral("t"));
    EXPECT_EQ(document.undoStack()->count(), 2);
    document.undoStack()->undo();
    document.undoStack()->undo();
    EXPECT_EQ(document.pattern(), start);
    EXPECT_FALSE(document.isModified());
}

TEST(PatternDocument, RefusesInconsistentSessionsAndChangesNothing) {
    PatternDocument document;
    const Session before = document.toSession();
    Session empty;
    EXPECT_TRUE(document.loadSession(empty).has_value());
    Session badEntry = before;
    badEntry.currentEntry = 5;
    auto error = document.loadSession(badEntry);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->where, "/currentEntry");
    Session badModel = before;
    badModel.model = "quantum";
    EXPECT_TRUE(document.loadSession(badModel).has_value());
    Session badBanks = before;
    badBanks.viewSettings["textbook.bankModeBytes"] = "6";
    EXPECT_TRUE(document.loadSession(badBanks).has_value());
    EXPECT_EQ(document.toSession(), before);
}

TEST(PatternDocument, TextbookOptionsTravelWithTheSession) {
    PatternDocument document;
    TextbookOptions options;
    options.bankMode = SharedBankMode::EightByte;
    options.defaultLoadsCached = false;
    document.setTextbookOptions(options);
    EXPECT_TRUE(document.isModified());
    PatternDocument other;
    ASSERT_FALSE(other.loadSession(document.toSession()).has_value());
    EXPECT_EQ(other.textbookOptions().bankMode, SharedBankMode::EightByte);
    EXPECT_FALSE(other.textbookOptions().defaultLoadsCached);
    EXPECT_EQ(other.toSession(), document.toSession());
}

TEST(SessionFile, RoundTripsAndReportsUnreadableFiles) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    PatternDocument document;
    if (const Preset* preset = findPreset("readsegment-offset-11")) {
        document.loadPreset(*preset);
    }
    const QString path = dir.filePath(QStringLiteral("a.warpscope"));
    EXPECT_FALSE(writeSessionFile(path, document.toSession()).has_value());
    auto read = readSessionFile(path);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_EQ(read.value(), document.toSession());

    auto missing = readSessionFile(dir.filePath(QStringLiteral("nope.warpscope")));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::Io);
    // A directory that does not exist cannot be written to; the error names the path.
    auto error = writeSessionFile(dir.filePath(QStringLiteral("no/such/dir/a.warpscope")),
                                  document.toSession());
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->where.find("no/such/dir"), std::string::npos);
}

} // namespace
} // namespace warpscope::app::test
