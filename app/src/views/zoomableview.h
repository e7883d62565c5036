// ZoomableView: the base of the custom views that live in a QScrollArea. At zoom 1 ("fit") a view
// lays itself out for the scroll area's visible width; zooming lays it out wider and the area
// scrolls. Ctrl+wheel zooms; the window's actions call zoomIn(), zoomOut() and fitToWindow().
#pragma once

#include <QPixmap>
#include <QSizeF>
#include <QWidget>

#include <cstddef>

namespace warpscope::app {

class ZoomableView : public QWidget {
    Q_OBJECT
public:
    explicit ZoomableView(QWidget* parent = nullptr);

    qreal zoom() const { return m_zoom; }
    void setZoom(qreal zoom);
    void zoomIn();
    void zoomOut();
    void fitToWindow();

    /// Lay the view out again for the current visible width and zoom, and resize to the result.
    void relayout();

    /// On a lecture slide: lay out for the visible height too. The view keeps its type and fits
    /// its rows and lists into that height (rows packed closer, a long list cut short with a line
    /// saying how many more there are) instead of growing taller than its frame and scrolling.
    void setFitHeight(bool fit);
    bool fitsHeight() const { return m_fitHeight; }

    /// A picture of the whole view drawn ahead (a twin's renderPicture()) with the key of the look
    /// it shows (the view's pictureKey()): while the view's key, size and device pixel ratio are
    /// the picture's, a paint copies it instead of drawing. One picture at most is kept.
    void adoptPicture(const QPixmap& picture, std::size_t key);
    void dropPicture();
    bool hasPicture() const { return !m_picture.isNull(); }
    const QPixmap& picture() const { return m_picture; }
    /// Paint events that copied the picture, and paint events that drew the view (for tests).
    int picturePaints() const { return m_picturePaints; }
    int drawnPaints() const { return m_drawnPaints; }

    static constexpr qreal kMinZoom = 1.0;
    static constexpr qreal kMaxZoom = 16.0;

signals:
    void zoomChanged(qreal zoom);

protected:
    /// Lay the content out for `width` logical pixels; return the size it needs.
    virtual QSizeF computeLayout(qreal width) = 0;
    /// The height computeLayout() should fit into (setFitHeight()): the visible height; 0 when
    /// the view may grow as tall as its content.
    qreal heightToFit() const;
    /// After relayout(): repaint what the new layout changed (`resized`: the view's size did).
    /// All of the view by default.
    virtual void layoutApplied(bool resized);

    /// In a paint event: copy the adopted picture when it shows the look `currentKey` at the
    /// view's size and ratio (true), else count a drawn paint (false: the view draws itself).
    bool paintAdoptedPicture(std::size_t currentKey);
    /// An empty, transparent pixmap of the view's size at `devicePixelRatio`, to draw a picture on.
    QPixmap blankPicture(qreal devicePixelRatio) const;

    bool eventFilter(QObject* watched, QEvent* event) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    QSize visibleSize() const;

    qreal m_zoom = 1.0;
    QWidget* m_watchedViewport = nullptr;
    bool m_inRelayout = false;
    bool m_fitHeight = false;
    QPixmap m_picture; // drawn ahead (adoptPicture()), or none
    std::size_t m_pictureKey = 0;
    int m_picturePaints = 0;
    int m_drawnPaints = 0;
};

} // namespace warpscope::app
