// PictureChart: the chart (QCustomPlot) of the notes view and of the experiment views, which
// replots at most once per pass of the event loop and paints from pictures drawn ahead on a twin
// view. Only the views' own sources use it (notesview*.cpp, experimentview.cpp).
#pragma once

#include "views/chartpicture.h"

#include <QImage>
#include <QPainter>
#include <QString>
#include <QTimer>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

#include <algorithm>
#include <utility>
#include <vector>

namespace warpscope::app {

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
/// The chart. It replots once in the next pass of the event loop, however often it was filled or
/// resized before then, and before the repaint that asks for it (posted at a higher priority);
/// hidden, it is not replotted until it is shown. QCustomPlot itself replots at once on every
/// resize, hidden or not, and its queued replot runs even when the chart has been replotted
/// since: in lecture mode one slide change or reveal fills a chart up to three times and resizes
/// it two or three times as the labels above it wrap, and each replot takes 4–32 ms at
/// 3840 × 2160 (the streams slide's step replotted its two charts three times, 110 ms).
/// It also keeps a few pictures of itself drawn ahead on a twin view: when what it comes to show
/// (its key) and its size are a picture's, it is not replotted and its paint copies the picture,
/// pixel for pixel what its own paint would draw.
class PictureChart : public QCustomPlot {
public:
    explicit PictureChart(QWidget* parent) : QCustomPlot(parent) {
        connect(this, &QCustomPlot::afterReplot, this, [this] {
            m_replotPending = false;
            m_layoutPassesWaited = 0;
            m_buffersStale = false;
        });
    }

    /// What the chart shows: its data, labels, colours and type (empty: no pictures are used).
    void setKey(const QString& key) { m_key = key; }
    const QString& key() const { return m_key; }

    void requestReplot() {
        if (!isVisible()) {
            // Hidden (a lecture slide without the chart, another tab): replotted when shown.
            m_buffersStale = true;
            return;
        }
        if (showPicture() || m_replotPending) {
            return;
        }
        m_replotPending = true;
        postReplot();
    }

    /// QCustomPlot's paint (its background, then its layers' buffers) into one picture.
    QImage compose() {
        if (mBackgroundBrush.style() != Qt::SolidPattern || !mBackgroundBrush.isOpaque()) {
            return {}; // what lies beneath would show through
        }
        const qreal dpr = devicePixelRatioF();
        QImage image((QSizeF(size()) * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        QCPPainter painter(&image);
        painter.fillRect(mViewport, mBackgroundBrush);
        drawBackground(&painter);
        for (const QSharedPointer<QCPAbstractPaintBuffer>& buffer : mPaintBuffers) {
            buffer->draw(&painter);
        }
        return image;
    }

    /// Keep `picture` (the last few): whenever the chart comes to show what it shows, at its size
    /// and ratio, its paint copies it and the chart is not replotted.
    void adopt(ChartPicture picture) {
        if (picture.key.isEmpty() || picture.image.isNull()) {
            return;
        }
        std::erase_if(m_pictures, [&](const ChartPicture& kept) {
            return kept.key == picture.key && kept.image.size() == picture.image.size();
        });
        m_pictures.insert(m_pictures.begin(), std::move(picture));
        if (m_pictures.size() > kPicturesKept) {
            m_pictures.pop_back();
        }
        if (isVisible() && m_replotPending) {
            showPicture(); // the replot still to come is of this picture
        }
    }

    bool paintedFromPicture() const { return m_paintedFromPicture; }

    /// Whether a kept picture shows `key` at `pixels`.
    bool holds(const QString& key, QSize pixels) const {
        return std::any_of(m_pictures.begin(), m_pictures.end(), [&](const ChartPicture& p) {
            return p.key == key && p.image.size() == pixels;
        });
    }

protected:
    void resizeEvent(QResizeEvent* event) override {
        Q_UNUSED(event);
        setViewport(rect());
        requestReplot();
    }

    void showEvent(QShowEvent* event) override {
        QCustomPlot::showEvent(event);
        if (m_buffersStale) {
            requestReplot(); // before the paint that shows it (posted at a higher priority)
        }
    }

    void mouseMoveEvent(QMouseEvent* event) override {
        if (m_buffersStale) {
            // Shown from a picture: the axes' pixel positions (hover texts) are the last
            // replot's; lay the chart out at its size first (the paint still copies the picture).
            replot(QCustomPlot::rpQueuedRefresh);
        }
        QCustomPlot::mouseMoveEvent(event);
    }

    void paintEvent(QPaintEvent* event) override {
        if (const QImage* picture = pictureForNow()) {
            QPainter painter(this);
            painter.setCompositionMode(QPainter::CompositionMode_Source);
            painter.drawImage(QPoint(0, 0), *picture);
            m_paintedFromPicture = true;
            return;
        }
        m_paintedFromPicture = false;
        if (m_buffersStale) {
            // Hidden or shown from a picture until now: the layers hold what was before.
            replot(QCustomPlot::rpQueuedRefresh);
        }
        QCustomPlot::paintEvent(event);
    }

private:
    // At 3840 × 2160 a notes picture is about 23 MB (a notes slide's two reveals, the next
    // slide's and the one after it), the streams timeline's about 10 MB (the streams slide's four
    // stream counts: the slide, then its three reveals).
    static constexpr std::size_t kPicturesKept = 4;

    void postReplot() {
        QTimer::singleShot(0, this, [this] {
            if (!m_replotPending || showPicture()) {
                return; // replotted since, or a picture shows what the chart shows now
            }
            // A picture of this key at another size: the window's layout (posted after this
            // request, in the same step) is likely to give the chart that size; look again after
            // it, for two passes (a reveal or the view's title changes the height of the text
            // above, then the window's step line may wrap anew).
            if (m_layoutPassesWaited < 2 && hasPictureOfKey()) {
                ++m_layoutPassesWaited;
                postReplot();
                return;
            }
            replot();
        });
    }

    bool hasPictureOfKey() const {
        return !m_key.isEmpty() &&
               std::any_of(m_pictures.begin(), m_pictures.end(),
                           [this](const ChartPicture& p) { return p.key == m_key; });
    }

    /// The kept picture of what the chart shows now, at its size and ratio, or nullptr.
    const QImage* pictureForNow() const {
        if (m_key.isEmpty()) {
            return nullptr;
        }
        const QSize pixels = (QSizeF(size()) * devicePixelRatioF()).toSize();
        for (const ChartPicture& picture : m_pictures) {
            if (picture.key == m_key && picture.image.size() == pixels &&
                picture.image.devicePixelRatio() == devicePixelRatioF()) {
                return &picture.image;
            }
        }
        return nullptr;
    }

    /// With a picture of what the chart shows now: no replot, the paint copies it.
    bool showPicture() {
        if (pictureForNow() == nullptr) {
            return false;
        }
        m_replotPending = false;
        m_layoutPassesWaited = 0;
        m_buffersStale = true;
        update();
        return true;
    }

    QString m_key;
    std::vector<ChartPicture> m_pictures;
    bool m_replotPending = false;
    int m_layoutPassesWaited = 0; // passes the pending replot has waited for the layout
    bool m_buffersStale = false;
    bool m_paintedFromPicture = false;
};
#endif

} // namespace warpscope::app
