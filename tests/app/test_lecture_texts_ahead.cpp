// Lecture mode's texts drawn ahead: the title, caption and step line are pictures made before the
// key, pixel for pixel what QLabel paints (but for antialiasing), never another slide's.
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

/// What QLabel itself paints for `text` at `size`, set up as `label` (its type and colours).
QImage plainLabelPicture(const QLabel& label, const QString& text, QSize size) {
    QLabel plain(label.parentWidget());
    plain.setFont(label.font());
    plain.setPalette(label.palette());
    plain.setWordWrap(label.wordWrap());
    plain.setTextFormat(Qt::PlainText);
    plain.setText(text);
    plain.resize(size);
    return plain.grab().toImage();
}

/// Whether two pictures of text are the same but for antialiasing: the same size, and at most
/// one pixel in a thousand differs by more than a quarter of the range in a channel. (At 4K the
/// glyphs are filled as paths, and Qt 6.4's raster engine does not antialias a glyph's edge the
/// same way every time: two paints of one label at one place differ in thousands of edge pixels
/// by up to about 30 of 255. Another text differs in a tenth of the pixels, by up to 255.)
bool sameButForAntialiasing(const QImage& a, const QImage& b) {
    if (a.size() != b.size()) {
        return false;
    }
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    qint64 far = 0;
    for (int row = 0; row < x.height(); ++row) {
        const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
        const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
        for (int column = 0; column < x.width(); ++column) {
            const int worst = std::max({std::abs(qRed(p[column]) - qRed(q[column])),
                                        std::abs(qGreen(p[column]) - qGreen(q[column])),
                                        std::abs(qBlue(p[column]) - qBlue(q[column]))});
            far += worst > 64 ? 1 : 0;
        }
    }
    return far * 1000 <= qint64{x.width()} * x.height();
}

/// The title and caption show the slide the window is on, pixel for pixel as QLabel paints its
/// text (with glyphs filled as paths, but for antialiasing), so no picture drawn ahead for
/// another slide, size or type is ever shown.
void expectTextsOfTheShownSlide(LectureWindow& lecture, const Deck& deck, const char* when,
                                bool glyphsAsPaths = false) {
    SCOPED_TRACE(when);
    lecture.layout()->activate();
    lecture.repaint();
    const DeckSlide& slide = deck.slides[static_cast<std::size_t>(lecture.slideIndex())];
    auto* title = lecture.findChild<SlideTextLabel*>(QStringLiteral("lectureTitle"));
    auto* caption = lecture.findChild<SlideTextLabel*>(QStringLiteral("lectureCaption"));
    ASSERT_NE(title, nullptr);
    ASSERT_NE(caption, nullptr);
    const QString titleText =
        QString::fromStdString(slide.title.empty() ? slide.pattern.title : slide.title);
    EXPECT_EQ(title->text(), titleText);
    const auto same = [glyphsAsPaths](const QImage& shown, const QImage& qlabels) {
        return glyphsAsPaths ? sameButForAntialiasing(shown, qlabels) : shown == qlabels;
    };
    EXPECT_TRUE(same(title->grab().toImage(), plainLabelPicture(*title, titleText, title->size())))
        << "slide " << lecture.slideIndex() << ": the title is not \"" << titleText.toStdString()
        << "\" as QLabel paints it at " << title->width() << "×" << title->height();
    const QString captionText = QString::fromStdString(slide.caption);
    EXPECT_EQ(caption->text(), captionText);
    if (!captionText.isEmpty()) {
        EXPECT_TRUE(same(caption->grab().toImage(),
                         plainLabelPicture(*caption, captionText, caption->size())))
            << "slide " << lecture.slideIndex() << ": the caption is not the slide's as QLabel "
            << "paints it at " << caption->width() << "×" << caption->height();
    }
}

TEST_F(LectureTest, TheNextSlidesTitleAndCaptionAreDrawnAheadAsQLabelDrawsThem) {
    // Every slide change in the deck: once the slide before has been painted (and the window
    // had a pass of its event loop to itself), the new slide's title and caption are pictures
    // made at the size the layout gives them, so the change only copies pixels.
    auto* caption = lecture->findChild<SlideTextLabel*>(QStringLiteral("lectureCaption"));
    auto* title = lecture->findChild<SlideTextLabel*>(QStringLiteral("lectureTitle"));
    ASSERT_NE(caption, nullptr);
    ASSERT_NE(title, nullptr);
    const auto settle = [] {
        // The frames, then the window idle for two passes: the next slide's texts drawn.
        for (int pass = 0; pass < 8; ++pass) {
            QApplication::processEvents();
        }
    };
    press(Qt::Key_Home);
    settle();
    int captionsChecked = 0;
    for (int slide = 1; slide < lecture->slideCount(); ++slide) {
        lecture->nextSlide();
        lecture->layout()->activate(); // the sizes the next paint will see
        EXPECT_TRUE(title->isPrepared(title->text(), title->size()))
            << "slide " << slide << ": title \"" << title->text().toStdString() << "\" at "
            << title->width() << "×" << title->height();
        if (!caption->text().isEmpty()) {
            ++captionsChecked;
            EXPECT_TRUE(caption->isPrepared(caption->text(), caption->size()))
                << "slide " << slide << ": caption at " << caption->width() << "×"
                << caption->height();
        }
        const int made = caption->picturesMade() + title->picturesMade();
        lecture->repaint();
        EXPECT_EQ(caption->picturesMade() + title->picturesMade(), made)
            << "slide " << slide << ": the paint drew the text instead of copying it";
        settle();
    }
    EXPECT_GT(captionsChecked, 10);

    // The picture is what QLabel itself paints there: the same label set up the same way.
    ASSERT_FALSE(caption->text().isEmpty());
    EXPECT_EQ(caption->grab().toImage(),
              plainLabelPicture(*caption, caption->text(), caption->size()));
    // ... and a picture of other text is not: the comparison can fail.
    EXPECT_NE(caption->grab().toImage(),
              plainLabelPicture(*caption, caption->text() + QStringLiteral("."), caption->size()));
}

TEST_F(LectureTest, TextsDrawnAheadAt4KAreQLabelsButForAntialiasing) {
    // At 3840×2160 the title's and caption's glyphs are over Qt's 64-pixel glyph cache limit and
    // are filled as paths: the pictures drawn ahead must still be QLabel's paint of the slide's
    // texts, on every slide.
    lecture->present(QSize(3840, 2160));
    auto* caption = lecture->findChild<SlideTextLabel*>(QStringLiteral("lectureCaption"));
    auto* title = lecture->findChild<SlideTextLabel*>(QStringLiteral("lectureTitle"));
    ASSERT_NE(caption, nullptr);
    ASSERT_NE(title, nullptr);
    ASSERT_GT(QFontInfo(caption->font()).pixelSize(), 64);
    lecture->setSlide(0);
    int prepared = 0;
    for (int slide = 1; slide < lecture->slideCount(); ++slide) {
        for (int pass = 0; pass < 8; ++pass) {
            QApplication::processEvents();
        }
        lecture->nextSlide();
        lecture->layout()->activate();
        prepared += title->isPrepared(title->text(), title->size()) ? 1 : 0;
        expectTextsOfTheShownSlide(*lecture, deck, "stepping through the deck at 4K", true);
    }
    // Most slides' texts were drawn ahead (where a slide's views want more height than the
    // layout had, the caption gets less than its guess and is drawn in the paint).
    EXPECT_GT(prepared, lecture->slideCount() / 2);
    // The comparison can fail: another slide's title is not the same but for antialiasing.
    EXPECT_FALSE(sameButForAntialiasing(
        title->grab().toImage(),
        plainLabelPicture(*title, QString::fromStdString(deck.slides[1].title), title->size())));
}

TEST_F(LectureTest, PicturesDrawnAheadNeverShowAnotherSlide) {
    // Stepping faster than the window paints, going back, jumping and resizing: whatever was
    // drawn ahead, the title and caption show the slide the window is on.
    const auto settle = [] {
        // The frames, then the window idle for two passes: the next slide's texts drawn.
        for (int pass = 0; pass < 8; ++pass) {
            QApplication::processEvents();
        }
    };
    press(Qt::Key_Home);
    settle();
    expectTextsOfTheShownSlide(*lecture, deck, "the first slide");
    // Twice within one frame: the picture drawn ahead is the second slide's, the third shows.
    press(Qt::Key_Right);
    press(Qt::Key_Right);
    expectTextsOfTheShownSlide(*lecture, deck, "two steps within one frame");
    settle();
    // Back, while the fourth slide's texts are being drawn ahead.
    press(Qt::Key_Left);
    expectTextsOfTheShownSlide(*lecture, deck, "back");
    settle();
    press(Qt::Key_Right);
    press(Qt::Key_Left);
    press(Qt::Key_Right);
    expectTextsOfTheShownSlide(*lecture, deck, "forward, back and forward within one frame");
    press(Qt::Key_End);
    expectTextsOfTheShownSlide(*lecture, deck, "a jump to the end");
    settle();
    lecture->setSlide(5);
    expectTextsOfTheShownSlide(*lecture, deck, "a jump into the deck");
    settle();
    // A narrower window: the next slide's texts drawn ahead at the old width must not show.
    lecture->resize(1200, 700);
    settle();
    expectTextsOfTheShownSlide(*lecture, deck, "resized");
    press(Qt::Key_Right);
    expectTextsOfTheShownSlide(*lecture, deck, "a step after the resize");
    settle();
    // Backspace at a slide's start: the slide before, all revealed.
    press(Qt::Key_Backspace);
    expectTextsOfTheShownSlide(*lecture, deck, "back by Backspace");
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

TEST(SlideTextLabel, APictureIsUsedOnlyForItsTextSizeTypeAndColours) {
    QWidget parent;
    parent.setAutoFillBackground(true);
    QPalette palette = parent.palette();
    palette.setColor(QPalette::Window, Qt::black);
    palette.setColor(QPalette::WindowText, Qt::white);
    parent.setPalette(palette);
    parent.resize(900, 300);
    auto* label = new SlideTextLabel(&parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    QFont font = label->font();
    font.setPixelSize(40);
    label->setFont(font);
    parent.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&parent));
    const QString first = QStringLiteral("Coalesced loads: one transaction per 128 bytes");
    const QString second = QStringLiteral("Strided loads: one transaction per lane");
    const QSize size = label->sizeFor(first, 800);
    const auto expectQLabels = [&](const char* when) {
        SCOPED_TRACE(when);
        EXPECT_TRUE(label->grab().toImage() ==
                    plainLabelPicture(*label, label->text(), label->size()));
    };

    // Drawn ahead for the text that is then shown: copied, not drawn again.
    label->prepare(first, size);
    EXPECT_TRUE(label->isPrepared(first, size));
    EXPECT_FALSE(label->isPrepared(second, size));
    label->setText(first);
    label->resize(size);
    const int made = label->picturesMade();
    expectQLabels("the text drawn ahead");
    EXPECT_EQ(label->picturesMade(), made);

    // Another text at that size, another size, another type, another colour: drawn anew.
    label->prepare(second, size);
    label->setText(first + QStringLiteral(" (and more)"));
    expectQLabels("another text than the one drawn ahead");
    label->resize(size.width() - 100, size.height());
    label->setText(second);
    expectQLabels("the text drawn ahead at another size");
    label->prepare(first, size);
    font.setPixelSize(44);
    label->setFont(font); // while the picture in the old type may still be drawn
    label->setText(first);
    label->resize(size);
    expectQLabels("another type");
    EXPECT_FALSE(label->isPrepared(first, QSize(800, 10)));
    label->prepare(second, size);
    palette.setColor(QPalette::WindowText, Qt::yellow);
    label->setPalette(palette);
    label->setText(second);
    expectQLabels("another colour");
    EXPECT_GE(label->picturesMade(), made + 4);
}

} // namespace
} // namespace warpscope::app::test
