// Lecture mode's bank view drawn ahead: in the pause after a slide appears, the next slide's bank
// view is drawn whole on a hidden twin and its picture handed to the slide's bank view, so the
// step onto it copies pixels instead of drawing cells, labels and hatching at 4K. The picture must
// be what a fresh window paints there, and any other look (a reveal, a hover, another size) must
// be drawn as before.
#include "document/patterndocument.h"
#include "lecture/lecturewindow.h"
#include "views/bankview.h"
#include "views/lanehighlight.h"
#include "views/viewscrollarea.h"
#include "views/warpview.h"
#include "windowfixture.h"

#include <warpscope/preset.h>

#include <QApplication>
#include <QImage>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

namespace warpscope::app::test {
namespace {

void settlePictures() {
    for (int pass = 0; pass < 8; ++pass) {
        QApplication::processEvents();
    }
}

bool picturesShows(const DeckSlide& slide, const char* view) {
    return std::find(slide.views.begin(), slide.views.end(), view) != slide.views.end();
}

class LecturePictureTest : public ::testing::Test {
protected:
    void SetUp() override {
        clearRecordedQtWarnings();
        auto loaded = loadDeckFile(builtinDeckPath());
        ASSERT_TRUE(loaded) << loaded.error().describe();
        deck = loaded.value();
        lecture = std::make_unique<LectureWindow>(deck);
        lecture->present(QSize(1600, 900));
        ASSERT_TRUE(QTest::qWaitForWindowExposed(lecture.get()));
    }
    void TearDown() override { lecture.reset(); }

    Deck deck;
    std::unique_ptr<LectureWindow> lecture;
};

/// The part of `window`'s grab where `view` is (what the window shows of it).
QImage grabOf(QWidget& window, QWidget& view) {
    const QImage image = window.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const qreal dpr = image.devicePixelRatio();
    const QPoint at = view.mapTo(&window, QPoint(0, 0));
    EXPECT_EQ(QPoint(), view.visibleRegion().boundingRect().topLeft());
    const QRect place((QPointF(at) * dpr).toPoint(),
                      (QSizeF(view.visibleRegion().boundingRect().size()) * dpr).toSize());
    return image.copy(place);
}

TEST_F(LecturePictureTest, BankViewsAreDrawnAheadSoTheStepCopiesAPicture) {
    const auto views = lecture->findChildren<BankView*>();
    ASSERT_EQ(views.size(), 1);
    BankView* view = views.front();
    for (const QSize size : {QSize(1600, 900), QSize(3840, 2160)}) {
        SCOPED_TRACE(QStringLiteral("%1 x %2").arg(size.width()).arg(size.height()).toStdString());
        lecture->resize(size);
        settlePictures();
        int checked = 0;
        int bankToBank = 0;
        int besideWarp = 0;
        int compared = 0;
        for (int slide = 1; slide < lecture->slideCount(); ++slide) {
            const DeckSlide& shown = deck.slides[static_cast<std::size_t>(slide)];
            if (!picturesShows(shown, "bank")) {
                continue;
            }
            SCOPED_TRACE(QStringLiteral("slide %1 (%2)")
                             .arg(slide)
                             .arg(QString::fromStdString(shown.title))
                             .toStdString());
            ++checked;
            bankToBank +=
                picturesShows(deck.slides[static_cast<std::size_t>(slide - 1)], "bank") ? 1 : 0;
            besideWarp += picturesShows(shown, "warp") ? 1 : 0;
            lecture->setSlide(slide - 1);
            settlePictures(); // the frame, then the window idle: the next slide's bank view drawn
                              // ahead
            ASSERT_TRUE(view->hasPicture()) << "nothing drawn ahead";
            const QImage ahead = view->picture().toImage().convertToFormat(QImage::Format_RGB32);
            const int drawn = view->drawnPaints();
            const int copied = view->picturePaints();
            lecture->nextSlide();
            settlePictures();
            ASSERT_EQ(lecture->bankView(), view);
            EXPECT_GT(view->picturePaints(), copied) << "the step did not copy the picture";
            EXPECT_EQ(view->drawnPaints(), drawn) << "the step drew the bank view";
            // The picture is what a window that shows the slide straight away paints there.
            if (size == QSize(1600, 900) || compared < 2 || picturesShows(shown, "warp")) {
                ++compared;
                LectureWindow fresh(deck);
                fresh.present(lecture->size());
                ASSERT_TRUE(QTest::qWaitForWindowExposed(&fresh));
                fresh.setSlide(slide);
                settlePictures();
                BankView* freshView = fresh.bankView();
                ASSERT_NE(freshView, nullptr);
                EXPECT_EQ(freshView->picturePaints(), 0);
                const QImage window = grabOf(fresh, *freshView);
                ASSERT_FALSE(window.isNull());
                EXPECT_EQ(ahead.copy(QRect(QPoint(), window.size())), window);
                if (picturesShows(shown, "warp")) {
                    // Beside it the warp view, drawn ahead too: the sizes guessed for both held.
                    WarpView* warp = lecture->warpView();
                    ASSERT_NE(warp, nullptr);
                    EXPECT_GT(warp->picturePaints(), 0) << "the warp view beside it was drawn";
                }
            }
            // A reveal is drawn, not copied: the picture shows none.
            if (lecture->stepCount() > 0 && view->revealCount() == 0) {
                const int drawnBefore = view->drawnPaints();
                lecture->revealNext();
                settlePictures();
                EXPECT_GT(view->drawnPaints(), drawnBefore) << "a reveal showed the picture";
            }
        }
        EXPECT_GE(checked, 9);
        EXPECT_GE(bankToBank, 7);
        EXPECT_GE(besideWarp, 1);
    }
}

/// Counts the frames a window gets (its UpdateRequest events).
class FrameCounter : public QObject {
public:
    explicit FrameCounter(QWidget* window) : m_window(window) { window->installEventFilter(this); }
    ~FrameCounter() override { m_window->removeEventFilter(this); }
    int frames = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == m_window && event->type() == QEvent::UpdateRequest) {
            ++frames;
        }
        return false;
    }

private:
    QWidget* m_window;
};

TEST_F(LecturePictureTest, AStepShowsTheSlideInOneFrameScrollBarsAndTableColumnsIncluded) {
    // A drawing laid out again for the next slide's content (the warp and bank views fit their
    // rows and lists to the frame's height, so their size changes from slide to slide), the
    // metrics table's columns fitted to the next slide's numbers: laid out in the step, not in a
    // second frame after it.
    // Slides whose views draw later by design are left out: the grid view (computed on a worker)
    // and the measured charts (streams, transfers, L2 window).
    for (const QSize size : {QSize(1600, 900), QSize(3840, 2160)}) {
        SCOPED_TRACE(QStringLiteral("%1 x %2").arg(size.width()).arg(size.height()).toStdString());
        lecture->resize(size);
        settlePictures();
        int checked = 0;
        int drawingsResized = 0;
        QStringList twice;
        for (int slide = 1; slide < lecture->slideCount(); ++slide) {
            const DeckSlide& shown = deck.slides[static_cast<std::size_t>(slide)];
            const DeckSlide& before = deck.slides[static_cast<std::size_t>(slide - 1)];
            bool later = false;
            for (const char* view : {"grid", "streams", "transfers", "l2-persistence"}) {
                later = later || picturesShows(shown, view) || picturesShows(before, view);
            }
            if (later) {
                continue;
            }
            ++checked;
            lecture->setSlide(slide - 1);
            settlePictures();
            const auto drawingSizes = [&] {
                std::vector<QSize> sizes;
                for (QWidget* view : {static_cast<QWidget*>(lecture->warpView()),
                                      static_cast<QWidget*>(lecture->bankView())}) {
                    sizes.push_back(view != nullptr ? view->size() : QSize());
                }
                return sizes;
            };
            const std::vector<QSize> sizesBefore = drawingSizes();
            FrameCounter counter(lecture.get());
            lecture->nextSlide();
            settlePictures();
            const std::vector<QSize> sizesAfter = drawingSizes();
            for (std::size_t i = 0; i < sizesAfter.size(); ++i) {
                drawingsResized += sizesAfter[i].isValid() && sizesBefore[i].isValid() &&
                                           sizesAfter[i] != sizesBefore[i]
                                       ? 1
                                       : 0;
            }
            if (counter.frames > 1) {
                twice << QStringLiteral("%1 (%2 frames)").arg(slide).arg(counter.frames);
            }
        }
        EXPECT_GE(checked, 30);
        EXPECT_GE(drawingsResized, 3) << "no step laid a drawing out again: nothing tested";
        EXPECT_TRUE(twice.isEmpty())
            << "steps onto slides " << twice.join(QStringLiteral(", ")).toStdString()
            << " took more than one frame";
    }
}

TEST_F(LecturePictureTest, ABankPictureIsShownOnlyForTheLookItWasDrawnFor) {
    // Two views of the same access in frames of the same size: a picture of one is what the
    // other paints; a highlight, a reveal or another size draws as before.
    const Preset* preset = findPreset("bank-offset-32");
    ASSERT_NE(preset, nullptr);
    PatternDocument document;
    document.loadPreset(*preset);
    LaneHighlight highlight;
    QWidget host;
    host.resize(900, 700);
    auto* twin = new BankView(&document, &highlight);
    QScrollArea* twinFrame = wrapInScrollArea(twin, &host);
    twinFrame->setGeometry(0, 0, 440, 700);
    auto* view = new BankView(&document, &highlight);
    QScrollArea* frame = wrapInScrollArea(view, &host);
    frame->setGeometry(450, 0, 440, 700);
    host.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&host));
    settlePictures();
    ASSERT_EQ(twin->size(), view->size());
    const QImage drawn = view->grab().toImage().convertToFormat(QImage::Format_RGB32);

    view->adoptPicture(twin->renderPicture(view->devicePixelRatioF()), twin->pictureKey());
    const int copied = view->picturePaints();
    EXPECT_EQ(view->grab().toImage().convertToFormat(QImage::Format_RGB32), drawn);
    EXPECT_EQ(view->picturePaints(), copied + 1) << "the same look: copied";

    const auto drawsAgain = [&](const char* what) {
        const int before = view->drawnPaints();
        view->grab();
        EXPECT_EQ(view->drawnPaints(), before + 1) << what;
    };
    highlight.setHoveredLane(3);
    drawsAgain("a hovered lane");
    highlight.setHoveredLane(-1);
    view->setRevealCount(1);
    drawsAgain("a reveal");
    view->setRevealCount(-1);
    frame->setGeometry(450, 0, 400, 700);
    settlePictures();
    drawsAgain("another width");
    frame->setGeometry(450, 0, 440, 700);
    settlePictures();
    const int before = view->picturePaints();
    EXPECT_EQ(view->grab().toImage().convertToFormat(QImage::Format_RGB32), drawn);
    EXPECT_EQ(view->picturePaints(), before + 1) << "the same look again: copied again";
    view->dropPicture();
    EXPECT_FALSE(view->hasPicture());
}

} // namespace
} // namespace warpscope::app::test
