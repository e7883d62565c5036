// ldmatrix and stmatrix in the pattern editor: the operation box offers them with .x1/.x2/.x4 and
// .trans, each choice is one undoable edit, the expression form is refused with the reason, and
// a session holding them is saved and read back unchanged.
#include "document/patterndocument.h"
#include "document/sessionfile.h"
#include "panels/patterneditor.h"
#include "panels/presetsearch.h"

#include <warpscope/matrix_access.h>
#include <warpscope/preset.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QTemporaryDir>
#include <QUndoStack>

#include <gtest/gtest.h>

namespace warpscope::app {
namespace {

/// An explicit pattern: 32 lanes on 16-byte rows 144 bytes apart, as a 16-byte shared load.
Pattern explicitRows() {
    Pattern pattern;
    pattern.kind = AccessKind{MemorySpace::Shared, AccessOp::Load, 16, CachePath::Default};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        pattern.addresses[static_cast<std::size_t>(lane)] = lane * 144;
    }
    return pattern;
}

void choose(QComboBox* box, const QVariant& data) {
    const int index = box->findData(data);
    ASSERT_GE(index, 0) << "the box offers no " << data.toString().toStdString();
    box->setCurrentIndex(index);
    emit box->activated(index);
    QApplication::processEvents();
}

TEST(MatrixEditor, OffersLdmatrixAndStmatrixWithTheirCountsAndTranspose) {
    PatternDocument document;
    PatternEditor editor(&document);
    EXPECT_GE(editor.opBox()->findData(QStringLiteral("ldmatrix")), 0);
    EXPECT_GE(editor.opBox()->findData(QStringLiteral("stmatrix")), 0);
    for (int count : {1, 2, 4}) {
        EXPECT_GE(editor.matricesBox()->findData(count), 0) << ".x" << count;
    }
    EXPECT_EQ(editor.matricesBox()->findData(3), -1);
    ASSERT_NE(editor.transposeBox(), nullptr);
}

TEST(MatrixEditor, ChoosingLdmatrixIsOneUndoableEditThatKeepsTheRows) {
    PatternDocument document;
    document.editPattern(explicitRows(), QStringLiteral("rows"));
    PatternEditor editor(&document);
    const int undoBefore = document.undoStack()->count();

    choose(editor.opBox(), QStringLiteral("ldmatrix"));
    ASSERT_FALSE(document.error().has_value()) << document.error()->describe();
    EXPECT_EQ(document.undoStack()->count(), undoBefore + 1);
    const AccessKind& kind = document.pattern().kind;
    EXPECT_TRUE(isMatrixAccess(kind));
    EXPECT_EQ(kind.op, AccessOp::Load);
    EXPECT_EQ(kind.matrices, 4); // the box's default: .x4
    EXPECT_FALSE(kind.transpose);
    EXPECT_EQ(document.pattern().addresses, explicitRows().addresses);
    EXPECT_TRUE(editor.kindErrorText().isEmpty());
    EXPECT_FALSE(editor.widthBox()->isEnabled()) << "an ldmatrix row is always 16 bytes";

    // .x1: only lanes 0-7 give rows, the others are switched off (validateMatrix needs that).
    choose(editor.matricesBox(), 1);
    ASSERT_FALSE(document.error().has_value()) << document.error()->describe();
    EXPECT_EQ(document.pattern().kind.matrices, 1);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        EXPECT_EQ(document.pattern().addresses[static_cast<std::size_t>(lane)].has_value(),
                  lane < 8)
            << "lane " << lane;
    }
    // Back to .x4: the row lanes that were off get rows following lane 7's.
    choose(editor.matricesBox(), 4);
    EXPECT_EQ(document.pattern().addresses[8], std::optional<std::int64_t>(7 * 144 + 16));
    EXPECT_EQ(document.pattern().addresses[31], std::optional<std::int64_t>(7 * 144 + 24 * 16));

    editor.transposeBox()->setChecked(true);
    QApplication::processEvents();
    EXPECT_TRUE(document.pattern().kind.transpose);
    choose(editor.opBox(), QStringLiteral("stmatrix"));
    EXPECT_EQ(document.pattern().kind.op, AccessOp::Store);
    EXPECT_TRUE(isMatrixAccess(document.pattern().kind));

    // Undo walks back through each edit to the plain 16-byte load.
    while (document.undoStack()->index() > undoBefore) {
        document.undoStack()->undo();
    }
    QApplication::processEvents();
    EXPECT_EQ(document.pattern(), explicitRows());
    EXPECT_EQ(editor.opBox()->currentData().toString(), QStringLiteral("load"));
    EXPECT_TRUE(editor.widthBox()->isEnabled());
    document.undoStack()->redo();
    QApplication::processEvents();
    EXPECT_EQ(editor.opBox()->currentData().toString(), QStringLiteral("ldmatrix"));

    // Leaving ldmatrix for a plain load drops the matrix fields.
    choose(editor.opBox(), QStringLiteral("load"));
    EXPECT_FALSE(isMatrixAccess(document.pattern().kind));
    EXPECT_FALSE(document.pattern().kind.transpose);
}

TEST(MatrixEditor, TheExpressionFormIsRefusedWithTheReason) {
    PatternDocument document;
    const Preset* preset = findPreset("shared-float4-two-apart");
    ASSERT_NE(preset, nullptr);
    document.loadPreset(*preset);
    ASSERT_TRUE(document.pattern().source.has_value());
    PatternEditor editor(&document);
    const Pattern before = document.pattern();
    const int undoBefore = document.undoStack()->count();

    choose(editor.opBox(), QStringLiteral("ldmatrix"));
    EXPECT_EQ(document.pattern(), before) << "nothing is edited";
    EXPECT_EQ(document.undoStack()->count(), undoBefore);
    const QString message = editor.kindErrorText();
    EXPECT_TRUE(message.contains(QStringLiteral("16-byte row"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("not the address of its own element")))
        << message.toStdString();
    EXPECT_EQ(editor.opBox()->currentData().toString(), QStringLiteral("load"))
        << "the box shows what the document holds";

    // A plain choice afterwards clears the message.
    choose(editor.opBox(), QStringLiteral("store"));
    EXPECT_TRUE(editor.kindErrorText().isEmpty());
}

TEST(MatrixEditor, SessionsSaveAndLoadMatrixAccesses) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    PatternDocument document;
    const Preset* preset = findPreset("ldmatrix-swizzled-trans");
    ASSERT_NE(preset, nullptr) << "resources/presets.json lacks the swizzled .trans preset";
    document.loadPreset(*preset);
    Pattern stored = document.pattern();
    stored.kind.op = AccessOp::Store; // an stmatrix.x2.trans as a second flavour
    stored.kind.matrices = 2;
    for (int lane = 16; lane < kWarpSize; ++lane) {
        stored.addresses[static_cast<std::size_t>(lane)].reset();
    }
    document.editPattern(stored, QStringLiteral("stmatrix.x2.trans"));
    ASSERT_FALSE(document.error().has_value()) << document.error()->describe();

    const QString path = dir.filePath(QStringLiteral("matrix.warpscope.json"));
    ASSERT_FALSE(writeSessionFile(path, document.toSession()).has_value());
    auto read = readSessionFile(path);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    PatternDocument loaded;
    ASSERT_FALSE(loaded.loadSession(read.value()).has_value());
    EXPECT_EQ(loaded.pattern(), stored);
    EXPECT_EQ(loaded.pattern().kind.matrices, 2);
    EXPECT_TRUE(loaded.pattern().kind.transpose);
    EXPECT_EQ(loaded.pattern().kind.op, AccessOp::Store);
    ASSERT_TRUE(loaded.evaluation().has_value());
    EXPECT_EQ(loaded.evaluation()->modern.shared->wavefronts,
              document.evaluation()->modern.shared->wavefronts);
}

// The new presets are found by the words a user types in the preset search.
TEST(MatrixEditor, ThePresetSearchFindsTheSwizzlePresets) {
    PresetSearch search;
    const QStringList swizzled = search.matchingIds(QStringLiteral("swizzle"));
    for (const char* id : {"ldmatrix-swizzled", "ldmatrix-swizzled-trans", "ldmatrix-tma-128b",
                           "ldmatrix-swizzle-343-atom", "ldmatrix-swizzle-wrong-span"}) {
        EXPECT_TRUE(swizzled.contains(QLatin1String(id))) << id;
    }
    const QStringList ldmatrix = search.matchingIds(QStringLiteral("ldmatrix.x4.trans"));
    for (const char* id :
         {"ldmatrix-rowmajor-trans", "ldmatrix-padded-trans", "ldmatrix-swizzled-trans"}) {
        EXPECT_TRUE(ldmatrix.contains(QLatin1String(id))) << id;
    }
    EXPECT_FALSE(ldmatrix.contains(QStringLiteral("ldmatrix-padded")));
    EXPECT_TRUE(search.matchingIds(QStringLiteral("TMA 128B"))
                    .contains(QStringLiteral("ldmatrix-tma-128b")));
}

} // namespace
} // namespace warpscope::app
