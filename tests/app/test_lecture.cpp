// Lecture mode on the shipped course deck: the keys a clicker sends step through the slides, Space
// steps through a slide's transactions and wavefronts with their lanes highlighted, the type is
// large and the theme high-contrast, the main window opens and leaves it unchanged, and bad decks
// are reported with the place in the file. What is drawn ahead is tested in
// test_lecture_views_ahead.cpp and test_lecture_texts_ahead.cpp, the experiment slides in
// test_lecture_experiments.cpp.
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

TEST_F(LectureTest, ClickerKeysStepThroughTheSlides) {
    EXPECT_EQ(lecture->slideIndex(), 0);
    EXPECT_EQ(label("lectureCounter"), QStringLiteral("1 / %1").arg(deck.slides.size()));
    EXPECT_EQ(label("lectureTitle"), QString::fromStdString(deck.slides[0].title));
    press(Qt::Key_Right);
    EXPECT_EQ(lecture->slideIndex(), 1);
    press(Qt::Key_PageDown);
    EXPECT_EQ(lecture->slideIndex(), 2);
    press(Qt::Key_Down);
    press(Qt::Key_N);
    EXPECT_EQ(lecture->slideIndex(), 4);
    press(Qt::Key_Left);
    EXPECT_EQ(lecture->slideIndex(), 3);
    press(Qt::Key_PageUp);
    press(Qt::Key_Up);
    press(Qt::Key_P);
    EXPECT_EQ(lecture->slideIndex(), 0);
    press(Qt::Key_PageUp);
    EXPECT_EQ(lecture->slideIndex(), 0) << "the first slide stays the first";
    press(Qt::Key_End);
    const int last = static_cast<int>(deck.slides.size()) - 1;
    EXPECT_EQ(lecture->slideIndex(), last);
    EXPECT_EQ(label("lectureTitle"), QString::fromStdString(deck.slides.back().title));
    EXPECT_EQ(label("lectureCaption"), QString::fromStdString(deck.slides.back().caption));
    EXPECT_EQ(label("lectureCounter"), QStringLiteral("%1 / %1").arg(deck.slides.size()));
    press(Qt::Key_PageDown);
    EXPECT_EQ(lecture->slideIndex(), last) << "the last slide stays the last";
    press(Qt::Key_Home);
    EXPECT_EQ(lecture->slideIndex(), 0);
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

TEST_F(LectureTest, EverySlideShowsItsViewsOnItsOwnDocument) {
    for (int i = 0; i < lecture->slideCount(); ++i) {
        lecture->setSlide(i);
        SCOPED_TRACE(deck.slides[static_cast<std::size_t>(i)].presetId);
        ASSERT_TRUE(lecture->document()->evaluation().has_value());
        EXPECT_FALSE(lecture->document()->error().has_value());
        const QStringList views = lecture->shownViews();
        EXPECT_EQ(lecture->warpView() != nullptr, views.contains(QStringLiteral("warp")));
        EXPECT_EQ(lecture->bankView() != nullptr, views.contains(QStringLiteral("bank")));
        // Slides of the warp or bank view, the notes charts and the streams step through their
        // items; a chart or heat map alone (transfers, the L2 window, a whole grid beside the
        // numbers) has nothing to step through: Space goes on to the next slide.
        bool steps = false;
        for (const char* view : {"warp", "bank", "notes", "streams"}) {
            steps = steps || views.contains(QLatin1String(view));
        }
        if (!steps) {
            EXPECT_EQ(lecture->stepCount(), 0);
        } else {
            EXPECT_GT(lecture->stepCount(), 0)
                << "a slide with a warp, bank, notes or streams view steps";
        }
        EXPECT_EQ(lecture->revealedSteps(), 0);
    }
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

TEST_F(LectureTest, EveryViewOfTheDeckIsMadeWhenLectureModeOpensAndLaidOutAhead) {
    // Made when the window opens, hidden until a slide places them: no step makes a view.
    const int widgetsAtOpen = static_cast<int>(lecture->findChildren<QWidget*>().size());
    const auto notes = lecture->findChildren<NotesView*>();
    const auto grids = lecture->findChildren<GridView*>();
    ASSERT_EQ(notes.size(), 1);
    ASSERT_EQ(grids.size(), 1);
    EXPECT_FALSE(notes.front()->isVisible());
    EXPECT_FALSE(grids.front()->isVisible());
    const auto settle = [] {
        for (int pass = 0; pass < 8; ++pass) {
            QApplication::processEvents();
        }
    };
    int changes = 0;
    int notesChecked = 0;
    for (int slide = 1; slide < lecture->slideCount(); ++slide) {
        const auto& views = deck.slides[static_cast<std::size_t>(slide)].views;
        if (views == deck.slides[static_cast<std::size_t>(slide - 1)].views ||
            std::find(views.begin(), views.end(), "grid") != views.end()) {
            continue; // the same views stay; the grid view computes on a worker
        }
        SCOPED_TRACE(deck.slides[static_cast<std::size_t>(slide)].presetId);
        ++changes;
        lecture->setSlide(slide - 1);
        settle(); // the frame, then the window idle: the next slide's views laid out ahead
        NotesView* chart = notes.front();
        const bool notesNext = std::find(views.begin(), views.end(), "notes") != views.end();
        const QSize notesAhead = chart->size();
        lecture->nextSlide();
        settle();
        EXPECT_EQ(static_cast<int>(lecture->findChildren<QWidget*>().size()), widgetsAtOpen);
        if (notesNext) {
            ++notesChecked;
            EXPECT_EQ(notesAhead, chart->size()) << "the notes chart was not laid out ahead";
        }
        // The same picture as a window that shows the slide straight away.
        LectureWindow fresh(deck);
        fresh.present(lecture->size());
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&fresh));
        fresh.setSlide(slide);
        settle();
        EXPECT_EQ(lecture->grab().toImage(), fresh.grab().toImage());
    }
    EXPECT_GE(changes, 4);
    EXPECT_GE(notesChecked, 2);
    EXPECT_EQ(static_cast<int>(lecture->findChildren<QWidget*>().size()), widgetsAtOpen);
}

TEST_F(LectureTest, SpaceRevealsTransactionsWithTheirLanes) {
    const int slide = slideOf(deck, "cached-misaligned");
    lecture->setSlide(slide);
    WarpView* view = lecture->warpView();
    ASSERT_NE(view, nullptr);
    const Evaluation& evaluation = *lecture->document()->evaluation();
    // One word past a line boundary: two lines (modern), two 128-byte transactions (textbook).
    ASSERT_EQ(evaluation.modern.global->lineList.size(), 2u);
    ASSERT_EQ(evaluation.textbook.transactions.size(), 2u);
    EXPECT_EQ(lecture->stepCount(), 4);
    EXPECT_EQ(view->revealCount(), 0);
    EXPECT_EQ(lecture->laneHighlight()->selectedLanes(), 0u);

    press(Qt::Key_Space);
    EXPECT_EQ(lecture->revealedSteps(), 1);
    EXPECT_EQ(view->revealCount(), 1);
    EXPECT_EQ(lecture->laneHighlight()->selectedLanes(),
              evaluation.modern.global->lineList[0].laneMask);
    EXPECT_TRUE(label("lectureStep").startsWith(QStringLiteral("Line 1 of 2")))
        << label("lectureStep").toStdString();

    press(Qt::Key_Space);
    press(Qt::Key_Space);
    press(Qt::Key_Space);
    EXPECT_EQ(lecture->revealedSteps(), 4);
    EXPECT_EQ(view->revealCount(), 4);
    EXPECT_EQ(lecture->laneHighlight()->selectedLanes(),
              evaluation.textbook.transactions[1].laneMask);
    EXPECT_TRUE(label("lectureStep").startsWith(QStringLiteral("Transaction 2 of 2")))
        << label("lectureStep").toStdString();

    press(Qt::Key_Backspace);
    EXPECT_EQ(lecture->revealedSteps(), 3);
    press(Qt::Key_Space, Qt::ShiftModifier);
    EXPECT_EQ(lecture->revealedSteps(), 2);
    press(Qt::Key_Return);
    EXPECT_EQ(lecture->revealedSteps(), 4);
    EXPECT_EQ(lecture->laneHighlight()->selectedLanes(), 0u) << "the whole figure, no lanes";

    press(Qt::Key_Space);
    EXPECT_EQ(lecture->slideIndex(), slide + 1) << "all shown: Space goes on";
    EXPECT_EQ(lecture->revealedSteps(), 0);
    press(Qt::Key_Backspace);
    EXPECT_EQ(lecture->slideIndex(), slide) << "none shown: Backspace goes back";
    EXPECT_EQ(lecture->revealedSteps(), 4) << "to the previous slide as it was left: complete";
}

TEST_F(LectureTest, SpaceRevealsWavefrontsInTheBankView) {
    lecture->setSlide(slideOf(deck, "bank-offset-32"));
    BankView* view = lecture->bankView();
    ASSERT_NE(view, nullptr);
    const auto& wavefronts = lecture->document()->evaluation()->modern.shared->wavefrontList;
    ASSERT_EQ(wavefronts.size(), 32u) << "offset 32: a 32-way conflict";
    EXPECT_EQ(lecture->stepCount(), 32);
    EXPECT_EQ(view->revealCount(), 0);
    press(Qt::Key_Space);
    press(Qt::Key_Space);
    EXPECT_EQ(view->revealCount(), 2);
    EXPECT_EQ(lecture->laneHighlight()->selectedLanes(), wavefronts[1].laneMask);
    EXPECT_TRUE(label("lectureStep").startsWith(QStringLiteral("Wavefront 2 of 32")))
        << label("lectureStep").toStdString();
}

TEST_F(LectureTest, RevealingChangesWhatTheViewDraws) {
    lecture->setSlide(slideOf(deck, "readsegment-offset-11"));
    WarpView* view = lecture->warpView();
    ASSERT_NE(view, nullptr);
    const QImage hidden = view->grab().toImage();
    press(Qt::Key_Return);
    const QImage shown = view->grab().toImage();
    ASSERT_EQ(hidden.size(), shown.size());
    EXPECT_NE(hidden, shown) << "the lines and transactions appear when revealed";
    view->setRevealCount(0);
    EXPECT_EQ(view->grab().toImage(), hidden) << "and hiding them again restores the picture";
}

TEST_F(LectureTest, AClickStepsOn) {
    lecture->setSlide(slideOf(deck, "cached-misaligned"));
    ASSERT_NE(lecture->warpView(), nullptr);
    QTest::mouseClick(lecture->warpView(), Qt::LeftButton, Qt::NoModifier, QPoint(40, 40));
    EXPECT_EQ(lecture->revealedSteps(), 1);
    QTest::mouseClick(lecture.get(), Qt::RightButton, Qt::NoModifier, QPoint(5, 5));
    EXPECT_EQ(lecture->revealedSteps(), 0);
}

TEST_F(LectureTest, TypeIsLargeAndTheThemeHighContrast) {
    lecture->resize(1920, 1080);
    QApplication::processEvents();
    auto* caption = lecture->findChild<QLabel*>(QStringLiteral("lectureCaption"));
    auto* title = lecture->findChild<QLabel*>(QStringLiteral("lectureTitle"));
    ASSERT_NE(caption, nullptr);
    ASSERT_NE(title, nullptr);
    EXPECT_GE(QFontInfo(caption->font()).pixelSize(), 28) << "body text at 1080p";
    EXPECT_GE(QFontInfo(title->font()).pixelSize(), 48);
    ASSERT_NE(lecture->warpView(), nullptr);
    EXPECT_GE(QFontInfo(lecture->warpView()->font()).pixelSize(), 18) << "the figure's labels";

    const QImage image = lecture->grab().toImage();
    EXPECT_EQ(image.pixelColor(2, 2), QColor(Qt::black));
    EXPECT_EQ(caption->palette().color(QPalette::WindowText), QColor(Qt::white));
    const ViewColors colors = ViewColors::fromPalette(lecture->warpView()->palette());
    EXPECT_TRUE(colors.highContrast);
    EXPECT_EQ(colors.background, QColor(Qt::black));
    EXPECT_EQ(colors.text, QColor(Qt::white));
}

TEST_F(LectureTest, EscapeAndF11Leave) {
    QSignalSpy finished(lecture.get(), &LectureWindow::finished);
    press(Qt::Key_End);
    press(Qt::Key_Escape);
    ASSERT_EQ(finished.count(), 1);
    EXPECT_EQ(finished.at(0).at(0).toInt(), lecture->slideCount() - 1);
    EXPECT_FALSE(lecture->isVisible());

    auto again = std::make_unique<LectureWindow>(deck);
    again->present(QSize(800, 600));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(again.get()));
    QSignalSpy leftAgain(again.get(), &LectureWindow::finished);
    QTest::keyClick(again.get(), Qt::Key_F11);
    EXPECT_EQ(leftAgain.count(), 1);
}

// ---- From the main window ----------------------------------------------------------------------

void deleteClosedWindows() {
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

TEST_F(WindowTest, LectureModeOpensOverTheWindowAndLeavesItUnchanged) {
    loadPreset("store-64-bytes");
    const QString presetBefore = document().presetId();
    const std::string titleBefore = document().current().title;
    const auto undoBefore = document().undoStack()->count();
    const bool modifiedBefore = document().isModified();

    LectureWindow* lecture = window->startLecture({}, QSize(1280, 720));
    ASSERT_NE(lecture, nullptr);
    EXPECT_EQ(window->lectureWindow(), lecture);
    EXPECT_EQ(window->deckPath(), builtinDeckPath());
    ASSERT_TRUE(QTest::qWaitForWindowExposed(lecture));
    EXPECT_EQ(lecture->slideIndex(), 0);
    QTest::keyClick(lecture, Qt::Key_PageDown);
    QTest::keyClick(lecture, Qt::Key_Space);
    EXPECT_EQ(document().presetId(), presetBefore) << "slides live on their own document";
    QTest::keyClick(lecture, Qt::Key_Escape);
    deleteClosedWindows();
    EXPECT_EQ(window->lectureWindow(), nullptr);
    EXPECT_EQ(document().presetId(), presetBefore);
    EXPECT_EQ(document().current().title, titleBefore);
    EXPECT_EQ(document().undoStack()->count(), undoBefore);
    EXPECT_EQ(document().isModified(), modifiedBefore);
}

TEST_F(WindowTest, F11StartsLectureMode) {
    QTest::keyClick(window.get(), Qt::Key_F11);
    LectureWindow* lecture = window->lectureWindow();
    ASSERT_NE(lecture, nullptr);
    EXPECT_TRUE(lecture->isVisible());
    EXPECT_TRUE(lecture->isFullScreen());
    lecture->close();
    deleteClosedWindows();
    EXPECT_EQ(window->lectureWindow(), nullptr);
}

TEST_F(WindowTest, BadDecksAreReportedWithThePlace) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString badPreset = dir.filePath(QStringLiteral("bad-preset.json"));
    {
        QFile file(badPreset);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "warpscope-deck", "version": 1, "slides": [
            {"preset": "cached-misaligned"}, {"preset": "store-64-bytes"},
            {"preset": "bank-offset-1"}, {"preset": "no-such-preset"}]})");
    }
    EXPECT_EQ(window->startLecture(badPreset, QSize(800, 600)), nullptr);
    EXPECT_EQ(window->lectureWindow(), nullptr);
    EXPECT_EQ(window->messageBar()->level(), MessageBar::Level::Error);
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("bad-preset.json")))
        << window->messageBar()->text().toStdString();
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("/slides/3/preset")))
        << window->messageBar()->text().toStdString();

    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    EXPECT_EQ(window->startLecture(missing, QSize(800, 600)), nullptr);
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("missing.json")))
        << window->messageBar()->text().toStdString();

    const QString notJson = dir.filePath(QStringLiteral("notes.txt"));
    {
        QFile file(notJson);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("slide 1: cached loads\n");
    }
    EXPECT_EQ(window->startLecture(notJson, QSize(800, 600)), nullptr);
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("notes.txt")));
    EXPECT_EQ(window->deckPath(), QString()) << "a refused deck does not become the current one";
}

TEST(LectureSettings, TheLastDeckAndSlideAreRemembered) {
    QSettings().remove(QStringLiteral("lecture"));
    MainWindowOptions options = quietOptions();
    options.useSettings = true;
    {
        MainWindow window(options);
        LectureWindow* lecture = window.startLecture({}, QSize(800, 600));
        ASSERT_NE(lecture, nullptr);
        lecture->setSlide(5);
        lecture->close();
        deleteClosedWindows();
    }
    {
        MainWindow window(options);
        EXPECT_EQ(window.deckPath(), builtinDeckPath());
        LectureWindow* lecture = window.startLecture({}, QSize(800, 600));
        ASSERT_NE(lecture, nullptr);
        EXPECT_EQ(lecture->slideIndex(), 5);
        lecture->close();
        deleteClosedWindows();
    }
    QSettings().remove(QStringLiteral("lecture"));
}

TEST(LectureCommandLine, LectureTakesADeckInsteadOfASession) {
    CommandLine options;
    EXPECT_FALSE(CommandLine::parse(
        {QStringLiteral("warpscope"), QStringLiteral("--lecture"), QStringLiteral("slides.json")},
        options));
    EXPECT_TRUE(options.lecture);
    EXPECT_EQ(options.lectureDeck, QStringLiteral("slides.json"));
    EXPECT_TRUE(options.sessionFile.isEmpty());
    EXPECT_FALSE(options.noSettings);

    CommandLine scripted;
    EXPECT_FALSE(
        CommandLine::parse({QStringLiteral("warpscope"), QStringLiteral("--lecture-script"),
                            QStringLiteral("Right,Shift+Space,capture:a.png,Esc")},
                           scripted));
    EXPECT_TRUE(scripted.lecture);
    EXPECT_TRUE(scripted.noSettings) << "scripts stay reproducible";
    EXPECT_TRUE(scripted.lectureDeck.isEmpty());

    for (const char* bad : {"Right,Sideways", "capture:", ","}) {
        CommandLine refused;
        const auto error =
            CommandLine::parse({QStringLiteral("warpscope"), QStringLiteral("--lecture-script"),
                                QString::fromLatin1(bad)},
                               refused);
        ASSERT_TRUE(error.has_value()) << bad;
        EXPECT_TRUE(error->contains(QStringLiteral("--lecture-script"))) << error->toStdString();
    }
}

} // namespace
} // namespace warpscope::app::test
