// ZoomableView: zoom state, tracking the scroll area's viewport size, Ctrl+wheel.
#include "views/zoomableview.h"

#include <QAbstractScrollArea>
#include <QEvent>
#include <QPainter>
#include <QWheelEvent>
#include <QtMath>

#include <algorithm>

namespace warpscope::app {

ZoomableView::ZoomableView(QWidget* parent) : QWidget(parent) {
    setAutoFillBackground(false);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void ZoomableView::setZoom(qreal zoom) {
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    if (qFuzzyCompare(zoom, m_zoom)) {
        return;
    }
    m_zoom = zoom;
    relayout();
    emit zoomChanged(m_zoom);
}

void ZoomableView::zoomIn() {
    setZoom(m_zoom * 1.25);
}

void ZoomableView::zoomOut() {
    setZoom(m_zoom / 1.25);
}

void ZoomableView::fitToWindow() {
    setZoom(1.0);
}

QSize ZoomableView::visibleSize() const {
    // Inside a QScrollArea the parent is its viewport: lay out for what is visible there.
    if (m_watchedViewport != nullptr) {
        return m_watchedViewport->size();
    }
    return size();
}

void ZoomableView::setFitHeight(bool fit) {
    if (fit == m_fitHeight) {
        return;
    }
    m_fitHeight = fit;
    relayout();
}

qreal ZoomableView::heightToFit() const {
    return m_fitHeight ? std::max(1, visibleSize().height()) : 0.0;
}

void ZoomableView::relayout() {
    if (m_inRelayout) {
        return;
    }
    m_inRelayout = true;
    const QSize before = size();
    const QSize visible = visibleSize();
    const qreal width = std::max(200.0, visible.width() * m_zoom);
    const QSizeF needed = computeLayout(width);
    if (m_watchedViewport != nullptr) {
        // As wide as the viewport (content is centred in it), but only as tall as the content:
        // the viewport's own background (the same Base colour) fills the rest, so an edit
        // repaints and flushes only the pixels that can change.
        const QSize target(std::max(visible.width(), qCeil(needed.width())),
                           qCeil(needed.height()));
        if (target != size()) {
            resize(target);
        }
    }
    m_inRelayout = false;
    layoutApplied(size() != before);
}

void ZoomableView::layoutApplied(bool /*resized*/) {
    update();
}

bool ZoomableView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_watchedViewport) {
        if (event->type() == QEvent::Resize) {
            relayout();
        } else if (event->type() == QEvent::Wheel) {
            // Ctrl+wheel below the content (the bare viewport) zooms as well.
            auto* wheel = static_cast<QWheelEvent*>(event);
            if (wheel->modifiers().testFlag(Qt::ControlModifier)) {
                wheelEvent(wheel);
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool ZoomableView::event(QEvent* event) {
    switch (event->type()) {
    case QEvent::ParentChange:
        if (m_watchedViewport != nullptr) {
            m_watchedViewport->removeEventFilter(this);
        }
        m_watchedViewport = nullptr;
        if (QWidget* parent = parentWidget();
            parent != nullptr &&
            qobject_cast<QAbstractScrollArea*>(parent->parentWidget()) != nullptr) {
            m_watchedViewport = parent;
        }
        if (m_watchedViewport != nullptr) {
            m_watchedViewport->installEventFilter(this);
        }
        relayout();
        break;
    case QEvent::Resize:
        if (m_watchedViewport == nullptr && !m_inRelayout) {
            relayout();
        }
        break;
    case QEvent::FontChange:
    case QEvent::PaletteChange:
        relayout();
        break;
    default:
        break;
    }
    return QWidget::event(event);
}

void ZoomableView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers().testFlag(Qt::ControlModifier)) {
        const int steps = event->angleDelta().y();
        if (steps > 0) {
            zoomIn();
        } else if (steps < 0) {
            zoomOut();
        }
        event->accept();
        return;
    }
    QWidget::wheelEvent(event);
}

void ZoomableView::adoptPicture(const QPixmap& picture, std::size_t key) {
    m_picture = picture;
    m_pictureKey = key;
}

void ZoomableView::dropPicture() {
    m_picture = QPixmap();
}

bool ZoomableView::paintAdoptedPicture(std::size_t currentKey) {
    if (!m_picture.isNull() && m_picture.devicePixelRatio() == devicePixelRatioF() &&
        m_picture.size() == (QSizeF(size()) * devicePixelRatioF()).toSize() &&
        m_pictureKey == currentKey) {
        // Drawn ahead for this very look: copy it (the event's region clips the copy).
        QPainter painter(this);
        painter.setCompositionMode(QPainter::CompositionMode_Source);
        painter.drawPixmap(0, 0, m_picture);
        ++m_picturePaints;
        return true;
    }
    ++m_drawnPaints;
    return false;
}

QPixmap ZoomableView::blankPicture(qreal devicePixelRatio) const {
    QPixmap picture((QSizeF(size()) * devicePixelRatio).toSize());
    picture.setDevicePixelRatio(devicePixelRatio);
    picture.fill(Qt::transparent);
    return picture;
}

} // namespace warpscope::app
