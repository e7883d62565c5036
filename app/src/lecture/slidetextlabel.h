// SlideTextLabel: a lecture slide's title or caption, drawn from a picture made once. At 4K (or
// at a device pixel ratio of 2) their glyphs are over 64 device pixels high, the size above which
// Qt's raster engine keeps no glyph cache and fills every glyph as a path on every paint: 20–30 ms
// for a caption on the 2-core machine (docs/benchmarks.md, "The whole window at 60 Hz"). This
// label paints its text once into a pixmap made at its device pixel ratio with QLabel's own paint
// (on the parent's plain background), and then only copies it, one device pixel to one pixel.
// prepare() makes the picture of another text ahead of time (the next slide's), so that a slide
// change only copies pixels. (The raster engine antialiases a path-filled glyph's edge a little
// differently at another place on the device: on a 4K slide 0-17 pixels differ from text drawn in
// place, by at most 4 of 255.)
#pragma once

#include <QColor>
#include <QLabel>
#include <QPixmap>

#include <vector>

namespace warpscope::app {

class SlideTextLabel : public QLabel {
    Q_OBJECT
public:
    explicit SlideTextLabel(QWidget* parent = nullptr);

    /// The size this label would have with `text` in a layout that gives it `width`: as wide,
    /// and as high as QLabel's height for that width (at least `minimumHeight`).
    QSize sizeFor(const QString& text, int width, int minimumHeight = 0) const;
    /// Make the picture of `text` at `size` now, so that a later paint with that text and size
    /// copies it. Does nothing when it is made already or when the label cannot keep pictures.
    void prepare(const QString& text, QSize size);
    /// Whether the picture of `text` at `size` (at the label's device pixel ratio) is made.
    bool isPrepared(const QString& text, QSize size) const;
    /// How many pictures were made so far (each a full paint of the text): tests count them.
    int picturesMade() const { return m_picturesMade; }
    /// How many pictures are kept (the newest; 4 unless set): a label that prepares several
    /// texts ahead (the step line's next reveals and the next slide's line) keeps more.
    void setPicturesKept(int count) { m_picturesKept = static_cast<std::size_t>(count); }

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Picture {
        QString text;
        QSize size;
        qreal devicePixelRatio = 1;
        QColor background; // the parent's, filled beneath the text
        QPixmap pixmap;
    };
    /// Whether this label's set-up is one the pictures reproduce exactly: plain text, no frame,
    /// on a parent that fills its background with one colour.
    bool canKeepPictures() const;
    QColor background() const;
    const Picture* find(const QString& text, QSize size) const;
    const Picture& make(const QString& text, QSize size);

    /// A hidden label with this one's font, palette and flags that paints other texts (and
    /// tells their height) without touching this label's text, size or layout.
    QLabel* m_twin;
    std::vector<Picture> m_pictures; // the newest last; a few (this slide's, the next, the last)
    int m_picturesMade = 0;
    std::size_t m_picturesKept = 4;
};

} // namespace warpscope::app
