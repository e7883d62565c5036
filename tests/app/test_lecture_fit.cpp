// Lecture slides fit their slide, checked by widget geometry (lectureGeometry(), the report
// scripts/lecture-check.sh judges): every slide of the course deck at 1920x1080 with no view
// clipped, no scroll bar and nothing outside the slide; a drawing beside the metrics table fills
// its frame instead of leaving half of it empty; the table shows the two models only. Also: the
// warp view's legend wraps inside the view at 1366x768, and the message bar never shows a raw
// probe protocol code.
#include "document/patterndocument.h"
#include "lecture/lecturegeometry.h"
#include "lecture/lecturewindow_helpers.h"
#include "lecturefixture.h"
#include "panels/messagebar.h"
#include "panels/metricstablemodel.h"
#include "panels/protocolwords.h"
#include "probefixture.h"
#include "views/fitwhole.h"
#include "views/notesview.h"
#include "views/warplayout.h"
#include "views/warplegend.h"
#include "views/warpview.h"

#include <QAbstractScrollArea>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QJsonArray>
#include <QJsonObject>
#include <QTableView>

#include <qcustomplot.h>

#include <algorithm>

namespace warpscope::app::test {
namespace {

constexpr int kGridWaitMs = 30000;

/// A lecture window on the shipped deck at `size`, slide `index` shown and settled.
void showSlide(LectureWindow& lecture, int index) {
    lecture.setSlide(index);
    waitForSlideViews(lecture, kGridWaitMs);
    QTest::qWait(30);
}

std::unique_ptr<LectureWindow> lectureAt(const Deck& deck, QSize size) {
    auto lecture = std::make_unique<LectureWindow>(deck);
    lecture->present(size);
    EXPECT_TRUE(QTest::qWaitForWindowExposed(lecture.get()));
    return lecture;
}

TEST(LectureFit, EverySlideShowsItsViewsWholeAt1080p) {
    const Deck deck = shippedDeck();
    auto lecture = lectureAt(deck, QSize(1920, 1080));
    int twoViewSlides = 0;
    for (int index = 0; index < lecture->slideCount(); ++index) {
        showSlide(*lecture, index);
        const QJsonObject report = lectureGeometry(*lecture);
        EXPECT_EQ(report.value(QStringLiteral("slide")).toInt(), index + 1);
        const QStringList problems = lectureGeometryProblems(report);
        EXPECT_TRUE(problems.isEmpty())
            << "slide " << index + 1 << " \"" << qPrintable(lecture->titleText())
            << "\": " << qPrintable(problems.join(QStringLiteral("; ")));
        twoViewSlides += lecture->shownViews().size() >= 2 ? 1 : 0;
        // With every step revealed too (the list rows and transactions all drawn).
        lecture->revealAll();
        QTest::qWait(10);
        const QStringList revealed = lectureGeometryProblems(lectureGeometry(*lecture));
        EXPECT_TRUE(revealed.isEmpty())
            << "slide " << index + 1
            << " all revealed: " << qPrintable(revealed.join(QStringLiteral("; ")));
    }
    EXPECT_GE(twoViewSlides, 5) << "the deck's two-view slides: nothing tested";
}

TEST(LectureFit, TheReportSeesAClippedView) {
    // The check is not vacuous: a frame squeezed below what its drawing needs is reported.
    const Deck deck = shippedDeck();
    auto lecture = lectureAt(deck, QSize(1920, 1080));
    int warpSlide = -1;
    for (int index = 0; index < lecture->slideCount() && warpSlide < 0; ++index) {
        if (deck.slides[static_cast<std::size_t>(index)].views ==
            std::vector<std::string>{"warp"}) {
            warpSlide = index;
        }
    }
    ASSERT_GE(warpSlide, 0);
    showSlide(*lecture, warpSlide);
    setFitWhole(lecture->warpView(), false);
    QTest::qWait(30);
    auto* frame =
        qobject_cast<QAbstractScrollArea*>(lecture->warpView()->parentWidget()->parentWidget());
    ASSERT_NE(frame, nullptr);
    frame->setFixedHeight(200);
    QTest::qWait(30);
    const QStringList problems = lectureGeometryProblems(lectureGeometry(*lecture));
    EXPECT_FALSE(problems.isEmpty());
    EXPECT_TRUE(problems.join(QLatin1Char(' ')).contains(QStringLiteral("warp: needs")))
        << qPrintable(problems.join(QStringLiteral("; ")));
}

TEST(LectureFit, AWarpViewBesideTheMetricsFillsItsFrame) {
    // The half-empty slide: "readSegment: offset 11" showed its warp view in the top half of
    // its frame, in type scaled down below the slide's, and the metrics table's empty Measured
    // column beside it.
    const Deck deck = shippedDeck();
    auto lecture = lectureAt(deck, QSize(1920, 1080));
    int slide = -1;
    for (int index = 0; index < lecture->slideCount(); ++index) {
        const DeckSlide& candidate = deck.slides[static_cast<std::size_t>(index)];
        if (candidate.views == std::vector<std::string>{"warp", "metrics"}) {
            slide = index;
            break;
        }
    }
    ASSERT_GE(slide, 0) << "the deck has no slide with a warp view and the metrics";
    showSlide(*lecture, slide);
    WarpView* warp = lecture->warpView();
    ASSERT_NE(warp, nullptr);
    QWidget* frame = warp->parentWidget()->parentWidget(); // its scroll area
    ASSERT_NE(qobject_cast<QAbstractScrollArea*>(frame), nullptr);
    EXPECT_GE(QFontInfo(warp->font()).pixelSize(), 20) << "the figure's labels at 1080p";
    const double filled = std::max(static_cast<double>(warp->height()) / frame->height(),
                                   contentScale(warp) < 1.0 ? 1.0 : 0.0);
    EXPECT_GE(filled, 0.75) << "the warp view is " << warp->height() << " px high in a frame of "
                            << frame->height();
    auto* table = lecture->findChild<QTableView*>(QStringLiteral("lectureMetrics"));
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(table->isColumnHidden(MetricsTableModel::MeasuredColumn))
        << "a slide shows the models' numbers, not an empty Measured column";
}

TEST(LectureFit, ADrawingBesideAnotherViewIsLegibleAtHalfASlide) {
    // The exported deck (--export-deck, a 1280 x 720 canvas) and a 1080p slide give a view
    // beside another about half the width. NaiveCol's warp (16 lines 8 KiB apart) needs about
    // four times that: beside the whole grid it was drawn at a quarter of its size, illegible.
    // Every warp view that shares a slide must fit half a slide at two thirds of its size or more.
    const Deck deck = shippedDeck();
    constexpr qreal kHalfSlide = 640;
    int checked = 0;
    for (const DeckSlide& slide : deck.slides) {
        if (slide.views.size() < 2 ||
            std::find(slide.views.begin(), slide.views.end(), "warp") == slide.views.end()) {
            continue;
        }
        PatternDocument document;
        ASSERT_FALSE(document.loadSession(lecture::slideSession(slide)).has_value()) << slide.title;
        ASSERT_TRUE(document.evaluation().has_value()) << slide.title;
        const WarpLayout layout =
            WarpLayout::compute(*document.evaluation(), kHalfSlide, QFontMetricsF(QFont()), true);
        EXPECT_GE(kHalfSlide / layout.size.width(), 2.0 / 3.0)
            << "slide \"" << slide.title << "\": its warp drawing needs " << layout.size.width()
            << " px of a half slide's " << kHalfSlide;
        ++checked;
    }
    EXPECT_GE(checked, 5);
}

TEST(LectureFit, TheNotesChartsAxisLabelsAreProjectorSized) {
    const Deck deck = shippedDeck();
    auto lecture = lectureAt(deck, QSize(1920, 1080));
    int slide = -1;
    for (int index = 0; index < lecture->slideCount() && slide < 0; ++index) {
        if (!deck.slides[static_cast<std::size_t>(index)].notesExperiment.empty()) {
            slide = index;
        }
    }
    ASSERT_GE(slide, 0);
    showSlide(*lecture, slide);
    NotesView* notes = lecture->notesView();
    ASSERT_NE(notes, nullptr);
    auto* plot = notes->findChild<QCustomPlot*>();
    ASSERT_NE(plot, nullptr);
    // At least 18 px at 1080p: read from the back of a room, as the views' own labels are.
    EXPECT_GE(QFontInfo(plot->xAxis->tickLabelFont()).pixelSize(), 18);
    EXPECT_GE(QFontInfo(plot->yAxis->tickLabelFont()).pixelSize(), 18);
    EXPECT_GE(QFontInfo(plot->yAxis->labelFont()).pixelSize(), 18);
}

TEST_F(WindowTest, TheWarpLegendWrapsInsideTheViewAt1366x768) {
    window->resize(1366, 768);
    window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    QTest::qWait(50);
    WarpView* warp = window->warpView();
    ASSERT_NE(warp, nullptr);
    ASSERT_TRUE(warp->isVisible());
    auto* area = qobject_cast<QAbstractScrollArea*>(warp->parentWidget()->parentWidget());
    ASSERT_NE(area, nullptr);
    const int visibleWidth = area->viewport()->width();
    const WarpLayout& layout = warp->currentLayout();
    const std::vector<WarpLegendItem> items = warpLegendItems(layout, QFontMetricsF(warp->font()));
    ASSERT_GE(items.size(), 4u) << "a global load's legend";
    for (const WarpLegendItem& item : items) {
        EXPECT_LE(item.textRect.right(), visibleWidth)
            << qPrintable(item.text) << " runs past the view's visible width " << visibleWidth;
        EXPECT_GE(item.swatchRect.left(), 0);
    }
    EXPECT_LE(items.back().textRect.bottom(), layout.legendRect.bottom() + 0.5);
    EXPECT_LE(layout.legendRect.bottom(), layout.listTop) << "the legend overlaps the list";
}

TEST(MessageBarWords, ARawProtocolCodeIsSaidInWords) {
    const QString text = sayProtocolCodesInWords(
        QStringLiteral("No GPU measurement: libcuda.so.1 cannot be loaded (no_driver). The model "
                       "views work as before."));
    EXPECT_FALSE(text.contains(QStringLiteral("no_driver"))) << qPrintable(text);
    EXPECT_TRUE(
        text.startsWith(QStringLiteral("No GPU measurement: libcuda.so.1 cannot be loaded. ")))
        << qPrintable(text);
    const QString bare =
        sayProtocolCodesInWords(QStringLiteral("warpscope-probe answered the error compile_error"));
    EXPECT_FALSE(bare.contains(QStringLiteral("compile_error"))) << qPrintable(bare);
    EXPECT_TRUE(bare.contains(QStringLiteral("did not compile"))) << qPrintable(bare);
    // Plain words stay plain words.
    EXPECT_EQ(sayProtocolCodesInWords(QStringLiteral("The run was cancelled after a timeout.")),
              QStringLiteral("The run was cancelled after a timeout."));
}

TEST(MessageBarWords, TheNoDriverAnswerReachesTheBarInWords) {
    REQUIRE_FAKE_PROBE();
    FakeScript script("no_driver");
    auto window = windowWithProbe(fakeProbe());
    window->runTransfersOnGpu(); // a job the no-driver answer fails
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window->messageBar()->text().isEmpty(); }, 20000));
    QTest::qWait(100);
    const QString shown = window->messageBar()->text();
    EXPECT_FALSE(shown.contains(QStringLiteral("no_driver"))) << qPrintable(shown);
    EXPECT_FALSE(shown.contains(QStringLiteral("_"))) << qPrintable(shown);
}

} // namespace
} // namespace warpscope::app::test
