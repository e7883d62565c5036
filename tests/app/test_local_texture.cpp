// Issue 19 in the window: a local access's warp view draws the interleaved addresses the
// hardware touches (consecutive lanes' same word side by side), a texture read draws its
// global-load equivalent with the texture counts beside it, and both say the notes' statements
// with no GPU at all (model-only: never an empty view).
#include "views/predictiontext.h"
#include "views/warpview.h"
#include "windowfixture.h"

#include <warpscope/kernel_preset.h>

#include <gtest/gtest.h>

namespace warpscope::app::test {
namespace {

class LocalTextureTest : public WindowTest {
protected:
    void loadKernelPreset(const char* id) {
        ASSERT_NE(findKernelPreset(id), nullptr) << id;
        ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:") + QLatin1String(id)));
        QApplication::processEvents();
        ASSERT_TRUE(document().evaluation().has_value());
    }
    int fetchedSectors() {
        int fetched = 0;
        for (const WarpLayout::Sector& sector : window->warpView()->currentLayout().sectors) {
            fetched += sector.sectorIndex >= 0 ? 1 : 0;
        }
        return fetched;
    }
};

TEST_F(LocalTextureTest, TheWarpViewDrawsLocalMemoryInterleaved) {
    loadKernelPreset("local-lane-index");
    const Evaluation& evaluation = *document().evaluation();
    ASSERT_EQ(evaluation.access.kind.space, MemorySpace::Local);
    // Lane l's a[l] (offset 4 l) sits at l x 128 + l x 4: one line and one sector per lane.
    EXPECT_EQ(evaluation.access.addresses[1], 132);
    EXPECT_EQ(evaluation.access.addresses[31], 31 * 128 + 31 * 4);
    const WarpLayout& layout = window->warpView()->currentLayout();
    EXPECT_TRUE(layout.global);
    EXPECT_FALSE(layout.showTextbook) << "the notes give local memory no transaction rule";
    EXPECT_EQ(layout.lines.size(), 32u);
    EXPECT_EQ(fetchedSectors(), 32);
    const auto span = layout.byteSpan(132, 136);
    ASSERT_TRUE(span.has_value());
    EXPECT_LT(span->first, span->second);
    const QString summary = modernSummary(evaluation);
    EXPECT_TRUE(summary.contains(QStringLiteral("Local memory"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("32 sector(s)"))) << summary.toStdString();

    // Typing a lane's address in the table (interleaved, as shown) keeps the other lanes where
    // they were: the pattern stores the threads' own offsets.
    document().setLaneAddress(2, 0);
    QApplication::processEvents();
    EXPECT_EQ(document().pattern().addresses[2], 0);
    EXPECT_EQ(document().pattern().addresses[3], 12);
    EXPECT_EQ(document().evaluation()->access.addresses[2], 8);
    EXPECT_EQ(document().evaluation()->access.addresses[3], 3 * 128 + 12);

    // Every thread the same element: a warp's a[5] is one line (640 to 767), 4 sectors.
    loadKernelPreset("local-same-index");
    const Evaluation& same = *document().evaluation();
    EXPECT_EQ(same.access.addresses[0], 5 * 128);
    EXPECT_EQ(same.access.addresses[31], 5 * 128 + 124);
    EXPECT_EQ(window->warpView()->currentLayout().lines.size(), 1u);
    EXPECT_EQ(fetchedSectors(), 4);
}

TEST_F(LocalTextureTest, ATextureReadShowsItsCountsBesideItsGlobalLoadEquivalent) {
    loadKernelPreset("texture-tiles");
    const Evaluation& evaluation = *document().evaluation();
    ASSERT_TRUE(evaluation.modern.texture.has_value());
    EXPECT_EQ(evaluation.modern.texture->requests, 8);
    EXPECT_EQ(evaluation.modern.texture->sectors, 8);
    // The warp view draws what a global load of the same 8 x 4 texels would fetch: 4 sectors.
    EXPECT_TRUE(window->warpView()->currentLayout().global);
    EXPECT_EQ(fetchedSectors(), 4);
    const QString summary = modernSummary(evaluation);
    EXPECT_TRUE(summary.contains(QStringLiteral("8 sector(s)"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("as global loads: 4 sector(s)")))
        << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("not coherent"))) << summary.toStdString();
    EXPECT_TRUE(describeAccess(evaluation.access).startsWith(QStringLiteral("Texture read")));
}

} // namespace
} // namespace warpscope::app::test
