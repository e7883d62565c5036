// The course deck lecture mode ships (resources/decks/course.json): it reads as a deck, every
// slide is a built-in preset that resolves and is predicted, shows a view that fits its memory
// space, has its words, and the slides follow the course notes' chapter in order.
#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"
#include "warpscope/model.h"
#include "warpscope/preset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace warpscope {
namespace {

Deck courseDeck() {
    const auto text = readTextFile(WARPSCOPE_COURSE_DECK);
    if (!text) {
        ADD_FAILURE() << text.error().describe();
        return {};
    }
    auto deck = deckFromJsonText(text.value());
    if (!deck) {
        ADD_FAILURE() << deck.error().describe();
        return {};
    }
    return deck.value();
}

bool shows(const DeckSlide& slide, const std::string& view) {
    return std::find(slide.views.begin(), slide.views.end(), view) != slide.views.end();
}

TEST(CourseDeck, EverySlideResolvesAndIsPredicted) {
    const Deck deck = courseDeck();
    EXPECT_FALSE(deck.title.empty());
    ASSERT_GE(deck.slides.size(), 25u);
    for (std::size_t i = 0; i < deck.slides.size(); ++i) {
        const DeckSlide& slide = deck.slides[i];
        SCOPED_TRACE("slide " + std::to_string(i + 1) + " (" + slide.presetId +
                     slide.kernelPresetId + ")");
        if (slide.kernelPresetId.empty()) {
            ASSERT_NE(findPreset(slide.presetId), nullptr)
                << "the course deck uses built-in presets";
        } else {
            ASSERT_NE(findKernelPreset(slide.kernelPresetId), nullptr)
                << "the kernel slides use kernel presets";
        }
        EXPECT_FALSE(slide.title.empty());
        EXPECT_GE(slide.caption.size(), 40u) << "a caption that explains the figure";
        const auto access = resolve(slide.pattern.pattern);
        ASSERT_TRUE(access.ok()) << access.error().describe();
        const ModernPrediction modern = predictModern(access.value());
        const TextbookPrediction textbook = predictTextbook(access.value());
        if (shows(slide, "transfers")) {
            // The Transfers chart (the notes' Figure 4-3, then this machine's curves): alone.
            EXPECT_EQ(slide.views.size(), 1u);
        } else if (shows(slide, "notes")) {
            // The notes' bar chart of a kernel experiment: the table to chart, nothing else.
            EXPECT_FALSE(slide.notesExperiment.empty());
            EXPECT_FALSE(slide.kernelPresetId.empty());
        } else if (shows(slide, "streams")) {
            // The streams timeline: copies and kernels over streams, no warp's access drawn.
            EXPECT_EQ(slide.views.size(), 1u);
        } else if (shows(slide, "l2-persistence")) {
            // The L2 window's model chart: alone (beside a warp its plot was a few lines high).
            EXPECT_EQ(slide.views.size(), 1u);
        } else if (shows(slide, "grid") && !shows(slide, "warp")) {
            // A whole grid (the heat map and histogram), with at most the metrics beside it: the
            // warp it sums is drawn on a slide of its own.
            EXPECT_LE(slide.views.size(), 2u);
        } else if (usesSectors(access.value().kind.space)) {
            // Global, local (interleaved) and texture (its global-load equivalent) slides.
            ASSERT_TRUE(modern.global.has_value());
            EXPECT_GT(modern.global->sectorList.size(), 0u);
            if (access.value().kind.space == MemorySpace::Global) {
                EXPECT_GT(textbook.transactions.size(), 0u);
            }
            EXPECT_TRUE(shows(slide, "warp")) << "global memory is drawn in the warp view";
            if (access.value().kind.op == AccessOp::CopyAsync) {
                // An async copy's shared side is drawn in the bank view too.
                ASSERT_TRUE(modern.shared.has_value());
                EXPECT_GT(modern.shared->wavefrontList.size(), 0u);
                EXPECT_TRUE(shows(slide, "bank"));
            } else {
                EXPECT_FALSE(shows(slide, "bank"));
            }
        } else if (access.value().kind.space == MemorySpace::Constant) {
            // The constant cache's rounds, one per distinct address, drawn in the warp view.
            ASSERT_TRUE(modern.constant.has_value());
            EXPECT_GT(modern.constant->rounds.size(), 0u);
            EXPECT_TRUE(shows(slide, "warp")) << "constant memory is drawn in the warp view";
        } else {
            ASSERT_TRUE(modern.shared.has_value());
            EXPECT_GT(modern.shared->wavefrontList.size(), 0u);
            EXPECT_TRUE(shows(slide, "bank")) << "shared memory is drawn in the bank view";
        }
    }
}

TEST(CourseDeck, ShowsTheHostAndDeviceTransfers) {
    // The first half of the notes (Figure 4-3, pinned and pageable copies, zero-copy, managed
    // memory) has one slide: the Transfers chart, as resources/decks/transfers.json shows it.
    const Deck deck = courseDeck();
    const auto count =
        std::count_if(deck.slides.begin(), deck.slides.end(),
                      [](const DeckSlide& slide) { return shows(slide, "transfers"); });
    EXPECT_EQ(count, 1);
}

TEST(CourseDeck, FollowsTheChapter) {
    // The notes' order (seed 002, then the shared-memory sections of seeds 003 and 004).
    const std::vector<std::string> chapter = {"cached-aligned-coalesced",
                                              "cached-misaligned",
                                              "cached-scattered",
                                              "uncached-aligned-coalesced",
                                              "uncached-misaligned",
                                              "uncached-scattered",
                                              "readsegment-offset-11",
                                              "store-coalesced",
                                              "store-three-segments",
                                              "store-64-bytes",
                                              "writesegment-offset-11",
                                              "aos-read-x",
                                              "soa-read-x",
                                              "transpose-row-read",
                                              "transpose-column-write",
                                              "transpose-column-read",
                                              "transpose-row-write",
                                              "bank-offset-1",
                                              "bank-offset-0",
                                              "bank-offset-32",
                                              "shared-tile-column",
                                              "shared-tile-column-padded",
                                              "shared-tile-column-swizzled"};
    const Deck deck = courseDeck();
    std::size_t next = 0;
    for (const std::string& id : chapter) {
        auto it =
            std::find_if(deck.slides.begin() + static_cast<std::ptrdiff_t>(next), deck.slides.end(),
                         [&](const DeckSlide& slide) { return slide.presetId == id; });
        ASSERT_NE(it, deck.slides.end()) << id << " missing or out of the chapter's order";
        next = static_cast<std::size_t>(it - deck.slides.begin()) + 1;
    }
}

} // namespace
} // namespace warpscope
