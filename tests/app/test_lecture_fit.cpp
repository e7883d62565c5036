// Lecture slides fit their slide, checked by widget geometry (lectureGeometry(), the report
// scripts/lecture-check.sh judges): every slide of the course deck at 1920x1080 with no view
// clipped, no scroll bar and nothing outside the slide, in the slide's own type (no view drawn
// scaled down to fit); the metrics table shows the two models only; the notes chart's labels are
// projector-sized. Also: the warp view's legend wraps inside the view at 1366x768, and the
// message bar never shows a raw probe protocol code.
#include "lecture/lecturegeometry.h"
#include "lecturefixture.h"
#include "panels/messagebar.h"
#include "panels/metricstablemodel.h"
#include "panels/protocolwords.h"
#include "probefixture.h"
#include "views/bankview.h"
#include "views/notesview.h"
#include "views/warplayout.h"
#include "views/warplegend.h"
#include "views/warpview.h"
#include "windowfixture.h"

#include <warpscope/experiments/transfers.h>

#include <QAbstractScrollArea>
#include <QFontInfo>
#include <QFontMetrics>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QTableView>

#include <qcustomplot.h>

namespace warpscope::app::test {
namespace {

constexpr int kGridWaitMs = 30000;

/// Slide `index` shown and settled (its grid computed).
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
        // With every step revealed too (the step line at its longest).
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

TEST(LectureFit, TheWhySwizzleBankHeadersStayInsideTheView) {
    // The four "why swizzle" slides: the textbook line ran past the bank view's right edge
    // ("... came with the te"). Its text wraps now, so the view's right margin beside the header
    // lines is bare background.
    const Deck deck = shippedDeck();
    auto lecture = lectureAt(deck, QSize(1920, 1080));
    int checked = 0;
    for (int index = 0; index < lecture->slideCount(); ++index) {
        if (!QString::fromStdString(deck.slides[static_cast<std::size_t>(index)].title)
                 .startsWith(QStringLiteral("Why swizzle"))) {
            continue;
        }
        showSlide(*lecture, index);
        BankView* bank = lecture->bankView();
        ASSERT_NE(bank, nullptr);
        const QImage image = bank->grab().toImage().convertToFormat(QImage::Format_RGB32);
        const qreal ratio = image.devicePixelRatio();
        const int lineHeight = QFontMetrics(bank->font()).height();
        const QRgb background = image.pixel(image.width() - 1, 1);
        int inked = 0;
        for (int y = 0; y < qRound(3 * lineHeight * ratio); ++y) {
            for (int x = image.width() - qRound(8 * ratio); x < image.width(); ++x) {
                inked += image.pixel(x, y) != background ? 1 : 0;
            }
        }
        EXPECT_EQ(inked, 0) << "slide " << index + 1 << ": a header line reaches the right edge";
        ++checked;
    }
    EXPECT_EQ(checked, 4);
}

TEST(LectureFit, TheMetricsTableShowsTheModelsOnly) {
    // A slide shows the two models' numbers: the Measured column, hidden before the table had a
    // model, came back empty and took a third of the table's width.
    const Deck deck = shippedDeck();
    auto lecture = lectureAt(deck, QSize(1920, 1080));
    int slide = -1;
    for (int index = 0; index < lecture->slideCount() && slide < 0; ++index) {
        if (deck.slides[static_cast<std::size_t>(index)].views ==
            std::vector<std::string>{"warp", "metrics"}) {
            slide = index;
        }
    }
    ASSERT_GE(slide, 0) << "the deck has no slide with a warp view and the metrics";
    showSlide(*lecture, slide);
    auto* table = lecture->findChild<QTableView*>(QStringLiteral("lectureMetrics"));
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(table->isColumnHidden(MetricsTableModel::MeasuredColumn));
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

TEST(MessageBarWords, TheBarShowsAnyTextWithoutACode) {
    MessageBar bar;
    bar.showMessage(MessageBar::Level::Warning,
                    QStringLiteral("No GPU measurement: the driver reports 0 CUDA devices "
                                   "(no_device). The model views work as before."));
    EXPECT_FALSE(bar.text().contains(QStringLiteral("no_device"))) << qPrintable(bar.text());
    EXPECT_TRUE(bar.text().contains(QStringLiteral("0 CUDA devices"))) << qPrintable(bar.text());
}

TEST(MessageBarWords, TheNoDriverAnswerReachesTheBarInWords) {
    REQUIRE_FAKE_PROBE();
    FakeScript script("no_driver");
    auto window = windowWithProbe(fakeProbe());
    window->experimentTab(experiments::TransfersExperiment::key)
        ->run(); // a job the no-driver answer fails
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window->messageBar()->text().isEmpty(); }, 20000));
    QTest::qWait(100);
    const QString shown = window->messageBar()->text();
    EXPECT_FALSE(shown.contains(QStringLiteral("no_driver"))) << qPrintable(shown);
    EXPECT_TRUE(shown.contains(QStringLiteral("libcuda.so.1 cannot be loaded")))
        << qPrintable(shown);
}

} // namespace
} // namespace warpscope::app::test
