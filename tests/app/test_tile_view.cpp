// The tile view against core: each chunk a TMA load writes holds the box row and column core's
// TMA layout says (layTmaTile, checked on the H200 against dumped shared memory), each lane of the
// access sits in the chunk its address starts in, and the chunks framed as conflicts are exactly
// those of lanes whose bank the modern model serves more than once in their phase. Exports (SVG,
// PNG, TikZ) carry the same labels.
#include "document/patterndocument.h"
#include "export/figureexport.h"
#include "export/tiletikz.h"
#include "views/lanehighlight.h"
#include "views/tilepanel.h"
#include "views/tileview.h"

#include <warpscope/matrix_access.h>
#include <warpscope/preset.h>

#include <QApplication>
#include <QComboBox>
#include <QSpinBox>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

namespace warpscope::app {
namespace {

struct TileFixture {
    explicit TileFixture(const char* presetId) {
        const Preset* preset = findPreset(presetId);
        if (preset == nullptr) {
            ADD_FAILURE() << "resources/presets.json lacks " << presetId;
            return;
        }
        document.loadPreset(*preset);
        view.resize(1200, 900);
        view.relayout();
    }
    PatternDocument document;
    LaneHighlight highlight;
    TileView view{&document, &highlight};
};

/// Every lane's row is in the cell holding its address, and only there.
void expectLanesWhereCoreResolvesThem(const TileFixture& f) {
    const WarpAccess& access = f.document.evaluation()->access;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        int cells = 0;
        for (const TileCell& cell : f.view.cells()) {
            cells += (cell.lanes >> lane) & 1u;
        }
        if (!address) {
            EXPECT_EQ(cells, 0) << "lane " << lane;
            continue;
        }
        EXPECT_EQ(cells, 1) << "lane " << lane;
        const TileCell* cell = f.view.cellAt(*address);
        ASSERT_NE(cell, nullptr) << "lane " << lane;
        EXPECT_TRUE((cell->lanes >> lane) & 1u) << "lane " << lane;
        EXPECT_EQ(cell->chunk, static_cast<int>((*address / 16) % 8)) << "lane " << lane;
        EXPECT_EQ(cell->line, *address / 128) << "lane " << lane;
    }
}

std::uint32_t conflictedLanes(const TileView& view) {
    std::uint32_t lanes = 0;
    for (const TileCell& cell : view.cells()) {
        EXPECT_EQ(cell.conflicted & ~cell.lanes, 0u);
        lanes |= cell.conflicted;
    }
    return lanes;
}

TEST(TileView, TheTma128BBoxIsLaidOutAsCoreSaysAndTheLdmatrixReadsItWithoutConflict) {
    TileFixture f("ldmatrix-tma-128b");
    ASSERT_TRUE(f.view.tmaLoad().has_value()) << "the preset comes with its TMA box";
    const TmaTileLoad load = *f.view.tmaLoad();
    EXPECT_EQ(load.swizzle, TmaSwizzle::Span128);
    auto layout = layTmaTile(load);
    ASSERT_TRUE(layout.ok()) << layout.error().describe();
    int written = 0;
    for (std::size_t i = 0; i < layout->chunks.size(); ++i) {
        const std::int64_t address = load.smemOffset + 16 * static_cast<std::int64_t>(i);
        const TileCell* cell = f.view.cellAt(address);
        ASSERT_NE(cell, nullptr) << address;
        ASSERT_EQ(cell->source.has_value(), layout->chunks[i].has_value()) << address;
        if (cell->source) {
            ++written;
            EXPECT_EQ(cell->source->row, layout->chunks[i]->row) << address;
            EXPECT_EQ(cell->source->byteInRow, layout->chunks[i]->byteInRow) << address;
            EXPECT_TRUE(cell->label.startsWith(
                QStringLiteral("r%1 c%2").arg(cell->source->row).arg(cell->source->byteInRow / 16)))
                << cell->label.toStdString();
        }
    }
    EXPECT_EQ(written, 64 * 2 * 16 / 16) << "a 64x16 box of 2-byte elements is 128 chunks";
    // The swizzle moves chunks: line 1 holds row 1 with its columns XORed with 1.
    const TileCell* second = f.view.cellAt(load.smemOffset + 128);
    ASSERT_NE(second, nullptr);
    ASSERT_TRUE(second->source.has_value());
    EXPECT_EQ(second->source->row, 1);
    EXPECT_EQ(second->source->byteInRow, 16);
    // Each ldmatrix row lands in the chunk holding its box row's columns 16-31 (chunks 2 and 3),
    // exactly where the swizzle put them.
    const WarpAccess& access = f.document.evaluation()->access;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const TileCell* cell = f.view.cellAt(*access.addresses[static_cast<std::size_t>(lane)]);
        ASSERT_NE(cell, nullptr);
        ASSERT_TRUE(cell->source.has_value()) << "lane " << lane;
        EXPECT_EQ(cell->source->row, lane % 16) << "lane " << lane;
        EXPECT_EQ(cell->source->byteInRow, 16 * (2 + lane / 16)) << "lane " << lane;
    }
    expectLanesWhereCoreResolvesThem(f);
    EXPECT_EQ(conflictedLanes(f.view), 0u);
    EXPECT_EQ(f.document.evaluation()->modern.shared->bankConflicts, 0);

    f.view.setXorLine(load.smemOffset / 128 + 5);
    const TileContent content = f.view.content();
    EXPECT_TRUE(content.xorText.contains(QStringLiteral("Swizzle<3,4,3>")))
        << content.xorText.toStdString();
    EXPECT_TRUE(content.xorText.endsWith(QStringLiteral("chunk c ^ 5")))
        << content.xorText.toStdString();
}

TEST(TileView, TheRowMajorTileFramesEveryLaneAsConflictedAndTheSwizzledNone) {
    for (const auto& [id, conflicts] :
         {std::pair{"ldmatrix-rowmajor", 0xFFFFFFFFu}, std::pair{"ldmatrix-swizzled", 0u},
          std::pair{"ldmatrix-swizzle-wrong-span", 0xFFFFFFFFu}}) {
        SCOPED_TRACE(id);
        TileFixture f(id);
        EXPECT_FALSE(f.view.tmaLoad().has_value());
        expectLanesWhereCoreResolvesThem(f);
        EXPECT_EQ(conflictedLanes(f.view), conflicts);
        EXPECT_EQ(f.document.evaluation()->modern.shared->bankConflicts > 0, conflicts != 0);
    }
}

TEST(TileView, The128BAtomModesAreRefusedWithCoresReason) {
    TileFixture f("ldmatrix-swizzled");
    TmaTileLoad load;
    load.swizzle = TmaSwizzle::Span128Atom32;
    f.view.setTmaLoad(load);
    const TileContent content = f.view.content();
    EXPECT_TRUE(content.tmaRefused);
    EXPECT_TRUE(content.tmaText.contains(QStringLiteral("9.0"))) << content.tmaText.toStdString();
    for (const TileCell& cell : f.view.cells()) {
        EXPECT_FALSE(cell.source.has_value());
    }
    // An offset that is not 128-byte aligned: refused too, naming the offset.
    load.swizzle = TmaSwizzle::Span128;
    load.smemOffset = 64;
    f.view.setTmaLoad(load);
    EXPECT_TRUE(f.view.content().tmaRefused);
    EXPECT_TRUE(f.view.content().tmaText.contains(QStringLiteral("128")))
        << f.view.content().tmaText.toStdString();
}

TEST(TileView, ThePanelsSwizzleBoxSetsTheLoad) {
    PatternDocument document;
    document.loadPreset(*findPreset("ldmatrix-swizzled"));
    LaneHighlight highlight;
    TilePanel panel(&document, &highlight);
    EXPECT_FALSE(panel.tileView()->tmaLoad().has_value());
    const int index = panel.swizzleBox()->findData(QStringLiteral("64B"));
    ASSERT_GE(index, 0);
    panel.swizzleBox()->setCurrentIndex(index);
    emit panel.swizzleBox()->activated(index);
    ASSERT_TRUE(panel.tileView()->tmaLoad().has_value());
    EXPECT_EQ(panel.tileView()->tmaLoad()->swizzle, TmaSwizzle::Span64);
    // Loading the TMA preset puts its box in the fields.
    document.loadPreset(*findPreset("ldmatrix-tma-128b"));
    QApplication::processEvents();
    EXPECT_EQ(panel.swizzleBox()->currentData().toString(), QStringLiteral("128B"));
    EXPECT_EQ(panel.offsetBox()->value(), 1024);
}

QStringList tileSvgTexts(const QByteArray& svg) {
    QStringList texts;
    QXmlStreamReader reader(svg);
    while (!reader.atEnd()) {
        if (reader.readNext() == QXmlStreamReader::StartElement &&
            reader.name() == QLatin1String("text")) {
            texts << reader.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
        }
    }
    return texts;
}

TEST(TileView, ExportsCarryTheTilesLabels) {
    const Preset* preset = findPreset("ldmatrix-tma-128b");
    ASSERT_NE(preset, nullptr);
    const FigureRenderer renderer(
        sessionForPattern(NamedPattern{preset->title, preset->caption, preset->pattern}));
    FigureSpec spec;
    spec.views = QStringList{QStringLiteral("tile")};
    QString error;
    const QByteArray svg = renderer.render(spec, FigureFormat::Svg, &error);
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    const QString all = tileSvgTexts(svg).join(u'|');
    // The chunk holding lane 0's row: box row 0, column 2 (bytes 32-47), and the line labels.
    EXPECT_TRUE(all.contains(QStringLiteral("r0 c2"))) << all.left(600).toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("r5 c2"))) << "line 5 holds row 5's chunk 2 at 7";
    EXPECT_TRUE(all.contains(QStringLiteral("0x400")));
    EXPECT_TRUE(all.contains(QStringLiteral("banks 28–31")));
    const QByteArray png = renderer.render(spec, FigureFormat::Png, &error);
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    EXPECT_TRUE(png.startsWith("\x89PNG"));
    const QString tex = QString::fromUtf8(renderer.render(spec, FigureFormat::Tex, &error));
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    EXPECT_TRUE(tex.contains(QStringLiteral("\\begin{tikzpicture}")));
    EXPECT_TRUE(tex.contains(QStringLiteral("r0 c2\\\\L0"))) << "lane 0 over its chunk";
    EXPECT_TRUE(tex.contains(QStringLiteral("swizzle 128B")));
    EXPECT_FALSE(tex.contains(QStringLiteral("ws conflict]"))) << "no chunk is conflicted";
    // The row-major tile's TikZ frames its conflicts.
    const Preset* rowMajor = findPreset("ldmatrix-rowmajor");
    ASSERT_NE(rowMajor, nullptr);
    const FigureRenderer conflicted(
        sessionForPattern(NamedPattern{rowMajor->title, rowMajor->caption, rowMajor->pattern}));
    const QString conflictedTex =
        QString::fromUtf8(conflicted.render(spec, FigureFormat::Tex, &error));
    EXPECT_EQ(conflictedTex.count(QStringLiteral(", ws conflict]")), 32);
}

} // namespace
} // namespace warpscope::app
