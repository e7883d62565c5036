// Lecture mode's grid slides and the texts every step changes, drawn or computed ahead in the
// pause before the next key: a grid slide's heat map is computed before the step and shown in
// its first frame (not the last grid shown, then "Computing the grid…"), the step line's and the
// counter's next texts are pictures made ahead, and a slide stepped onto looks as it does in a
// window opened on it.
#include "lecture/lecturewindow.h"
#include "lecture/slidetextlabel.h"
#include "views/gridview.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace warpscope::app::test {
namespace {

Deck courseDeck() {
    auto deck = loadDeckFile(builtinDeckPath());
    if (!deck) {
        ADD_FAILURE() << deck.error().describe();
        return {};
    }
    return deck.value();
}

bool aheadShows(const DeckSlide& slide, const char* view) {
    return std::find(slide.views.begin(), slide.views.end(), view) != slide.views.end();
}

/// The window's frame, then the window idle long enough for what it draws ahead.
void settleAhead() {
    for (int pass = 0; pass < 8; ++pass) {
        QApplication::processEvents();
    }
}

/// A lecture window of the course deck at `size`, shown.
std::unique_ptr<LectureWindow> openLecture(const Deck& deck, QSize size, int slide = -1) {
    auto window = std::make_unique<LectureWindow>(deck);
    if (slide >= 0) {
        window->setSlide(slide); // as the main window opens it: before it is shown
    }
    window->present(size);
    EXPECT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    return window;
}

/// Wait until `window`'s grid view shows a computed heat map (none when the slide has no grid).
/// Returns once the grid view's pause for more edits (a 30 ms single-shot timer), if one was
/// started, has run out and its handler has run: a timer of ours started after it with a longer
/// interval fires after it, however loaded the machine (Qt fires timers in deadline order).
void pastTheViewsPause() {
    bool fired = false;
    QTimer::singleShot(100, [&fired] { fired = true; });
    EXPECT_TRUE(QTest::qWaitFor([&fired] { return fired; }, 60000));
}

void waitForTheGrid(LectureWindow& window) {
    GridView* grid = window.gridView();
    if (grid == nullptr) {
        return;
    }
    const auto shown = [grid] {
        return grid->result().has_value() && !grid->isComputing() && !grid->computation()->isBusy();
    };
    // Shown, and still shown after the view's pause for more edits (a window just opened may
    // ask again once it is shown).
    for (int round = 0; round < 5; ++round) {
        EXPECT_TRUE(QTest::qWaitFor(shown, 60000));
        pastTheViewsPause();
        settleAhead();
        if (shown()) {
            return;
        }
    }
    ADD_FAILURE() << "the grid view keeps computing";
}

/// The frame a key's step paints: the layout it asked for, then the paint.
void paintTheStep(LectureWindow& window) {
    QApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    window.repaint();
}

QImage grabOf(LectureWindow& window) {
    return window.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

/// Where two pictures of one size differ (an empty rectangle when they do not).
QRect differingBox(const QImage& a, const QImage& b) {
    QRect box;
    for (int y = 0; y < std::min(a.height(), b.height()); ++y) {
        for (int x = 0; x < std::min(a.width(), b.width()); ++x) {
            if (a.pixel(x, y) != b.pixel(x, y)) {
                box |= QRect(x, y, 1, 1);
            }
        }
    }
    return box;
}

/// Expect `stepped` and `opened` to show the same pixels; say where they differ.
void expectSamePixels(LectureWindow& stepped, LectureWindow& opened) {
    const QImage a = grabOf(stepped);
    const QImage b = grabOf(opened);
    ASSERT_EQ(a.size(), b.size());
    const QRect box = differingBox(a, b);
    EXPECT_TRUE(box.isEmpty()) << "the window stepped onto slide " << stepped.slideIndex()
                               << " differs from one opened on it in (" << box.x() << ", "
                               << box.y() << ") " << box.width() << " x " << box.height();
}

// The step onto a grid slide shows that slide's heat map in its first frame: computed ahead off
// the GUI thread in the pause before the key, nothing computed in the step, and the window is
// what a window opened on the slide shows once it has computed its grid. (Before, the step showed
// the last grid shown, another slide's, then "Computing the grid…" and its progress.)
TEST(LectureAhead, GridSlidesShowTheirHeatMapInTheStep) {
    const Deck deck = courseDeck();
    auto lecture = openLecture(deck, QSize(1600, 900));
    int checked = 0;
    for (int slide = 1; slide < lecture->slideCount(); ++slide) {
        if (!aheadShows(deck.slides[static_cast<std::size_t>(slide)], "grid")) {
            continue;
        }
        SCOPED_TRACE(deck.slides[static_cast<std::size_t>(slide)].title);
        ++checked;
        lecture->setSlide(slide - 1);
        settleAhead(); // the frame, then the idle pass: the next slide's grid asked for ahead
        auto grids = lecture->findChildren<GridView*>();
        ASSERT_EQ(grids.size(), 1);
        GridView* grid = grids.front();
        ASSERT_TRUE(QTest::qWaitFor([grid] { return !grid->isPreparing(); }, 60000));
        const int computed = grid->computationsRequested();
        lecture->nextSlide();
        // In the step's own frame: the heat map, no progress.
        paintTheStep(*lecture);
        ASSERT_TRUE(grid->result().has_value()) << "the step shows no heat map";
        EXPECT_FALSE(grid->isComputing()) << "the step shows \"Computing the grid…\"";
        settleAhead();
        pastTheViewsPause(); // the view's pause for more edits: it would compute then
        settleAhead();
        EXPECT_EQ(grid->computationsRequested(), computed) << "the step computed the grid";
        auto fresh = openLecture(deck, lecture->size(), slide);
        waitForTheGrid(*fresh);
        ASSERT_TRUE(fresh->gridView()->result().has_value());
        EXPECT_EQ(grid->result()->totalWarps, fresh->gridView()->result()->totalWarps);
        EXPECT_EQ(grid->result()->values, fresh->gridView()->result()->values);
        EXPECT_EQ(grid->statusText(), fresh->gridView()->statusText());
        expectSamePixels(*lecture, *fresh);
    }
    EXPECT_GE(checked, 3);
}

// A slide stepped onto from the one before looks as a window opened on it does: the title, the
// caption (two lines on the notes slides), the step line and the counter in the same places,
// pixel for pixel at 1600 × 900, and laid out alike at 1920 × 1080 and 3840 × 2160 (where glyphs
// are filled as paths and their antialiasing varies from paint to paint), for every slide from
// the first grid slide to the streams slide (grid, notes, grid, notes).
TEST(LectureAhead, ASlideSteppedOntoLooksAsInAWindowOpenedOnIt) {
    const Deck deck = courseDeck();
    int first = -1;
    for (std::size_t i = 0; i < deck.slides.size() && first < 0; ++i) {
        first = aheadShows(deck.slides[i], "grid") ? static_cast<int>(i) : -1;
    }
    ASSERT_GE(first, 1);
    int notes = 0;
    for (const QSize size : {QSize(1600, 900), QSize(1920, 1080), QSize(3840, 2160)}) {
        SCOPED_TRACE(QStringLiteral("%1 x %2").arg(size.width()).arg(size.height()).toStdString());
        auto lecture = openLecture(deck, size);
        for (int slide = first; slide < std::min(first + 5, lecture->slideCount()); ++slide) {
            const DeckSlide& shown = deck.slides[static_cast<std::size_t>(slide)];
            SCOPED_TRACE(shown.title);
            notes += shown.notesExperiment.empty() ? 0 : 1;
            lecture->setSlide(slide - 1);
            settleAhead();
            // Through the slide before's reveals, as a presenter pressing Space.
            while (lecture->slideIndex() == slide - 1) {
                lecture->revealNext();
                settleAhead();
            }
            waitForTheGrid(*lecture);
            auto fresh = openLecture(deck, size, slide);
            settleAhead();
            waitForTheGrid(*fresh);
            for (const char* name :
                 {"lectureTitle", "lectureCaption", "lectureStep", "lectureCounter"}) {
                const auto* stepped = lecture->findChild<QLabel*>(QString::fromLatin1(name));
                const auto* opened = fresh->findChild<QLabel*>(QString::fromLatin1(name));
                ASSERT_NE(stepped, nullptr);
                ASSERT_NE(opened, nullptr);
                EXPECT_EQ(stepped->geometry(), opened->geometry()) << name;
                EXPECT_EQ(stepped->isVisible(), opened->isVisible()) << name;
                EXPECT_EQ(stepped->text(), opened->text()) << name;
            }
            if (size == QSize(1600, 900)) {
                expectSamePixels(*lecture, *fresh);
            }
        }
    }
    EXPECT_GE(notes, 3 * 2);
}

// The step line's next texts and the counter's are pictures made ahead: after the pause, a
// reveal and the step onto the next slide paint the step line and the counter from a picture
// made before the key, and they show what a QLabel shows (the pictures are QLabel's own paint).
TEST(LectureAhead, TheStepLineAndCounterAreDrawnAhead) {
    const Deck deck = courseDeck();
    for (const QSize size : {QSize(1600, 900), QSize(3840, 2160)}) {
        SCOPED_TRACE(QStringLiteral("%1 x %2").arg(size.width()).arg(size.height()).toStdString());
        auto lecture = openLecture(deck, size);
        auto* step = lecture->findChild<SlideTextLabel*>(QStringLiteral("lectureStep"));
        auto* counter = lecture->findChild<SlideTextLabel*>(QStringLiteral("lectureCounter"));
        ASSERT_NE(step, nullptr) << "the step line is not drawn from pictures";
        ASSERT_NE(counter, nullptr) << "the counter is not drawn from pictures";
        int reveals = 0;
        int slides = 0;
        for (int slide = 0; slide + 1 < lecture->slideCount(); ++slide) {
            const DeckSlide& next = deck.slides[static_cast<std::size_t>(slide + 1)];
            // Every slide's first step line is told ahead but a notes slide's (it depends on the
            // measurements).
            const bool toldAhead = !aheadShows(next, "notes");
            lecture->setSlide(slide);
            settleAhead();
            if (lecture->stepCount() >= 2 && reveals < 6) {
                lecture->revealNext();
                settleAhead(); // the pause after a reveal: the next one's line drawn ahead
                const int made = step->picturesMade();
                lecture->revealNext();
                paintTheStep(*lecture);
                EXPECT_EQ(step->picturesMade(), made)
                    << "slide " << slide << ": the reveal drew its step line";
                ++reveals;
                lecture->setSlide(slide);
                settleAhead();
            }
            if (!toldAhead) {
                continue;
            }
            const int stepMade = step->picturesMade();
            const int counterMade = counter->picturesMade();
            lecture->nextSlide();
            paintTheStep(*lecture);
            EXPECT_EQ(step->picturesMade(), stepMade)
                << "slide " << slide + 1 << ": the step drew the step line \""
                << lecture->stepText().toStdString() << "\"";
            EXPECT_EQ(counter->picturesMade(), counterMade)
                << "slide " << slide + 1 << ": the step drew the counter";
            ++slides;
        }
        EXPECT_GE(reveals, 6);
        EXPECT_GE(slides, 20);
    }
}

} // namespace
} // namespace warpscope::app::test
