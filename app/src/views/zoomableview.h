// ZoomableView: the base of the custom views that live in a QScrollArea. At zoom 1 ("fit") a view
// lays itself out for the scroll area's visible width; zooming lays it out wider and the area
// scrolls. Ctrl+wheel zooms; the window's actions call zoomIn(), zoomOut() and fitToWindow().
#pragma once

#include <QSizeF>
#include <QWidget>

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

    static constexpr qreal kMinZoom = 1.0;
    static constexpr qreal kMaxZoom = 16.0;

signals:
    void zoomChanged(qreal zoom);

protected:
    /// Lay the content out for `width` logical pixels; return the size it needs.
    virtual QSizeF computeLayout(qreal width) = 0;
    /// After relayout(): repaint what the new layout changed (`resized`: the view's size did).
    /// All of the view by default.
    virtual void layoutApplied(bool resized);

    bool eventFilter(QObject* watched, QEvent* event) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    QSize visibleSize() const;

    qreal m_zoom = 1.0;
    QWidget* m_watchedViewport = nullptr;
    bool m_inRelayout = false;
};

} // namespace warpscope::app
