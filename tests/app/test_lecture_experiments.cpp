// Lecture mode's experiment slides: the notes' tables revealed bar series by bar series, the grid
// slide, and the experiment views' controls in the slides' type.
#include "document/patterndocument.h"
#include "experimentfixture.h"
#include "experiments/streamsview.h"
#include "gpu/kernelmeasurement.h"
#include "lecture/lecturewindow.h"
#include "lecture/slidetextlabel.h"
#include "lecturefixture.h"
#include "panels/messagebar.h"
#include "shell/commandline.h"
#include "views/bankview.h"
#include "views/experimentview.h"
#include "views/gridview.h"
#include "views/lanehighlight.h"
#include "views/notesview.h"
#include "views/warpview.h"
#include "windowfixture.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFontInfo>
#include <QImage>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <map>
#include <memory>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

namespace warpscope::app::test {
namespace {

int notesSlide(const Deck& deck, const std::string& experiment) {
    for (std::size_t i = 0; i < deck.slides.size(); ++i) {
        if (deck.slides[i].notesExperiment == experiment) {
            return static_cast<int>(i);
        }
    }
    ADD_FAILURE() << "the course deck has no notes slide for " << experiment;
    return 0;
}

// Table 4-11's slide: Space reveals the notes' nine bars, then this GPU's (the recorded H100
// answers where there is no GPU), and the finding only with them; Backspace hides them again.
TEST_F(LectureTest, TheNotesSlideRevealsTheNotesBarsThenThisGpus) {
    KernelMeasurementStore store;
    QFile file(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    ASSERT_FALSE(store.importJsonLines(file.readAll(), {}).has_value());
    lecture->setKernelMeasurements(&store);
    lecture->setSlide(notesSlide(deck, "table-4-11"));
    NotesView* notes = lecture->notesView();
    ASSERT_NE(notes, nullptr);
    EXPECT_EQ(notes->experimentId(), "table-4-11");
    EXPECT_FALSE(notes->table()->isVisible()) << "a slide shows the chart, not the table";
    EXPECT_FALSE(notes->runButton()->isVisible());
    ASSERT_EQ(lecture->stepCount(), 2);
    EXPECT_TRUE(label("lectureStep").contains(QStringLiteral("notes' bars")));
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    QCustomPlot* chart = notes->chart();
    ASSERT_NE(chart, nullptr);
    ASSERT_EQ(chart->plottableCount(), 2);
    const auto shown = [&] {
        return std::make_pair(chart->plottable(0)->visible(), chart->plottable(1)->visible());
    };
    EXPECT_EQ(shown(), std::make_pair(false, false)) << "axes and labels first";
    EXPECT_EQ(notes->notesBarCount(), 9);
    EXPECT_EQ(notes->measuredBarCount(), 9);
#endif
    EXPECT_FALSE(notes->findingLabel()->isVisible());
    press(Qt::Key_Space);
    EXPECT_EQ(lecture->revealedSteps(), 1);
    EXPECT_TRUE(label("lectureStep").contains(QStringLiteral("The notes' numbers")))
        << label("lectureStep").toStdString();
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    EXPECT_EQ(shown(), std::make_pair(true, false));
#endif
    EXPECT_FALSE(notes->findingLabel()->isVisible());
    press(Qt::Key_Space);
    EXPECT_EQ(lecture->revealedSteps(), 2);
    EXPECT_TRUE(label("lectureStep").contains(QStringLiteral("NVIDIA H100 80GB HBM3")))
        << label("lectureStep").toStdString();
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    EXPECT_EQ(shown(), std::make_pair(true, true));
#endif
    EXPECT_TRUE(notes->findingLabel()->isVisible());
    press(Qt::Key_Backspace);
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    EXPECT_EQ(shown(), std::make_pair(true, false));
#endif
    // For looking at: build/<preset>/tests/app/lecture-notes.png.
    press(Qt::Key_Space);
    QApplication::processEvents();
    lecture->grab().save(QCoreApplication::applicationDirPath() +
                         QStringLiteral("/lecture-notes.png"));
    // Without a measurement the second step says so instead of drawing nothing.
    KernelMeasurementStore empty;
    lecture->setKernelMeasurements(&empty);
    ASSERT_NE(lecture->notesView(), nullptr);
    EXPECT_EQ(lecture->notesView()->measuredBarCount(), 0);
    press(Qt::Key_Space);
    press(Qt::Key_Space);
    EXPECT_TRUE(label("lectureStep").contains(QStringLiteral("no measurement")))
        << label("lectureStep").toStdString();
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

// Each notes step's text says what that step draws. The tiled transpose's notes publish no
// number: its first series is the model's count for one warp, and neither the first step nor the
// caption speaks of the notes' bars or bandwidth. With the H100's recorded lines (bandwidths, no
// counters) the readSegment slide draws no bars of this GPU's load efficiency, and its second
// step says so instead of announcing this GPU's numbers.
TEST_F(LectureTest, EachNotesStepSaysWhatItsRevealDraws) {
    const int tiled = notesSlide(deck, "transpose-tiled");
    EXPECT_EQ(deck.slides[static_cast<std::size_t>(tiled)].caption.find("notes' bandwidth"),
              std::string::npos);
    lecture->setSlide(tiled);
    NotesView* notes = lecture->notesView();
    ASSERT_NE(notes, nullptr);
    ASSERT_EQ(lecture->stepCount(), 2);
    EXPECT_EQ(notes->comparison().notesRows, 0);
    EXPECT_FALSE(label("lectureStep").contains(QStringLiteral("notes' bars")))
        << label("lectureStep").toStdString();
    EXPECT_TRUE(label("lectureStep").contains(QStringLiteral("model's count")))
        << label("lectureStep").toStdString();
    press(Qt::Key_Space);
    EXPECT_TRUE(label("lectureStep").contains(QStringLiteral("the model's count per warp")))
        << label("lectureStep").toStdString();
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    ASSERT_EQ(notes->chart()->plottableCount(), 2);
    EXPECT_TRUE(notes->chart()->plottable(0)->visible());
    EXPECT_EQ(notes->chart()->plottable(0)->name(), notes->comparison().modelName);
    EXPECT_EQ(notes->notesBarCount(), 2);
#endif

    KernelMeasurementStore store;
    QFile file(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    ASSERT_FALSE(store.importJsonLines(file.readAll(), {}).has_value());
    lecture->setKernelMeasurements(&store);
    lecture->setSlide(notesSlide(deck, "readsegment"));
    notes = lecture->notesView();
    ASSERT_NE(notes, nullptr);
    ASSERT_EQ(lecture->stepCount(), 2);
    EXPECT_TRUE(label("lectureStep").contains(QStringLiteral("notes' bars")));
    press(Qt::Key_Space);
    // The notes name no GPU: the step does not read as if the numbers were unnamed.
    EXPECT_TRUE(label("lectureStep").contains(QStringLiteral("their GPU: not named")))
        << label("lectureStep").toStdString();
    press(Qt::Key_Space);
    ASSERT_GT(notes->comparison().measuredRows, 0);
    EXPECT_EQ(notes->measuredBarCount(), 0);
    EXPECT_TRUE(label("lectureStep").contains(QStringLiteral("no bars")))
        << label("lectureStep").toStdString();
    EXPECT_FALSE(label("lectureStep").contains(QStringLiteral("This GPU's numbers")));
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

// The grid slide: the whole launch beside the numbers of the warp that explains it (the metrics
// table; the slide before draws that warp, whose 16 scattered lines half a slide cannot show).
TEST_F(LectureTest, TheGridSlideShowsTheWholeLaunch) {
    int slide = -1;
    for (std::size_t i = 0; i < deck.slides.size() && slide < 0; ++i) {
        const auto& views = deck.slides[i].views;
        if (std::find(views.begin(), views.end(), "grid") != views.end()) {
            slide = static_cast<int>(i);
        }
    }
    ASSERT_GE(slide, 0);
    lecture->setSlide(slide);
    GridView* grid = lecture->gridView();
    ASSERT_NE(grid, nullptr);
    EXPECT_TRUE(lecture->shownViews().contains(QStringLiteral("metrics")));
    QSignalSpy computed(grid, &GridView::computed);
    ASSERT_TRUE(computed.wait(60000));
    ASSERT_TRUE(grid->result().has_value());
    EXPECT_EQ(grid->result()->totalWarps, 131072);
    // NaiveCol, block (16, 16): a warp reads 2 rows of 16 columns, a sector per column.
    EXPECT_EQ(grid->result()->prediction.histogram[16], 131072);
    EXPECT_EQ(lecture->stepCount(), 0) << "a heat map and a table: Space goes on";
    lecture->grab().save(QCoreApplication::applicationDirPath() +
                         QStringLiteral("/lecture-grid.png"));
}

// The experiment slides' controls (the streams slide's stream count, the L2 slide's two choices)
// take the slide's large type, and each is as big as that type needs: at 4K the stream count's
// box stayed the size the window's type gave it, its number cut off.
TEST_F(LectureTest, ExperimentControlsFitTheirTypeOnTheSlides) {
    const auto settle = [] {
        for (int pass = 0; pass < 8; ++pass) {
            QApplication::processEvents();
        }
    };
    for (const QSize size : {QSize(1600, 900), QSize(1920, 1080), QSize(3840, 2160)}) {
        SCOPED_TRACE(QStringLiteral("%1 x %2").arg(size.width()).arg(size.height()).toStdString());
        lecture->resize(size);
        settle();
        int checked = 0;
        for (int slide = 0; slide < lecture->slideCount(); ++slide) {
            const auto& views = deck.slides[static_cast<std::size_t>(slide)].views;
            const bool experiment = std::any_of(views.begin(), views.end(), [](const auto& v) {
                return v == "streams" || v == "transfers" || v == "l2-persistence";
            });
            if (!experiment) {
                continue;
            }
            lecture->setSlide(slide);
            settle();
            for (ExperimentView* view : lecture->findChildren<ExperimentView*>()) {
                if (!view->isVisible()) {
                    continue;
                }
                SCOPED_TRACE(view->objectName().toStdString());
                for (QWidget* control : view->findChildren<QWidget*>()) {
                    if (!control->isVisible() ||
                        (qobject_cast<QAbstractSpinBox*>(control) == nullptr &&
                         qobject_cast<QComboBox*>(control) == nullptr &&
                         qobject_cast<QAbstractButton*>(control) == nullptr)) {
                        continue;
                    }
                    ++checked;
                    const QSize hint = control->sizeHint();
                    EXPECT_GE(control->width(), hint.width())
                        << control->objectName().toStdString();
                    EXPECT_GE(control->height(), hint.height())
                        << control->objectName().toStdString();
                }
            }
        }
        EXPECT_GE(checked, 3) << "the stream count and the L2 slide's two choices";
    }
}

} // namespace
} // namespace warpscope::app::test
