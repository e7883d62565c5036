// ZoomableView: zoom state, tracking the scroll area's viewport size, Ctrl+wheel.
#include "views/zoomableview.h"

#include "views/fitwhole.h"

#include <QAbstractScrollArea>
#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QVariant>
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

namespace {

// Dynamic properties: the fit-whole state belongs to the lecture's views only.
constexpr char kFitWholeProperty[] = "warpscopeFitWhole";
constexpr char kContentScaleProperty[] = "warpscopeContentScale";

} // namespace

void setFitWhole(QWidget* view, bool fit) {
    if (fitsWhole(view) == fit) {
        return;
    }
    view->setProperty(kFitWholeProperty, fit);
    if (auto* zoomable = qobject_cast<ZoomableView*>(view)) {
        zoomable->relayout();
    }
}

bool fitsWhole(const QWidget* view) {
    return view->property(kFitWholeProperty).toBool();
}

qreal contentScale(const QWidget* view) {
    const QVariant scale = view->property(kContentScaleProperty);
    return scale.isValid() ? scale.toDouble() : 1.0;
}

QRect contentRect(const QWidget* view) {
    const qreal scale = contentScale(view);
    return QRect(0, 0, qCeil(view->width() / scale), qCeil(view->height() / scale));
}

void ZoomableView::relayout() {
    if (m_inRelayout) {
        return;
    }
    m_inRelayout = true;
    const QSize before = size();
    const qreal scaleBefore = contentScale(this);
    const QSize visible = visibleSize();
    qreal width = std::max(200.0, visible.width() * m_zoom);
    QSizeF needed = computeLayout(width);
    qreal scale = 1.0;
    if (fitsWhole(this) && m_watchedViewport != nullptr && qFuzzyCompare(m_zoom, 1.0) &&
        !visible.isEmpty() && !needed.isEmpty() &&
        (needed.width() > visible.width() || needed.height() > visible.height())) {
        // Too large for the viewport: lay out wider by the shortfall (the content keeps its
        // proportions) and draw it scaled down, so that all of it shows without a scroll bar.
        const auto fitScale = [&visible](const QSizeF& size) {
            return std::min(
                {1.0, visible.width() / size.width(), visible.height() / size.height()});
        };
        width = std::max(200.0, visible.width() / fitScale(needed));
        needed = computeLayout(width);
        scale = fitScale(needed);
        needed = QSizeF(std::min<qreal>(visible.width(), needed.width() * scale),
                        std::min<qreal>(visible.height(), needed.height() * scale));
    }
    if (!qFuzzyCompare(scaleBefore, scale)) {
        setProperty(kContentScaleProperty, scale);
    }
    if (m_watchedViewport != nullptr) {
        // As wide as the viewport (content is centred in it), but only as tall as the content:
        // the viewport's own background (the same Base colour) fills the rest, so an edit
        // repaints and flushes only the pixels that can change.
        // A scaled content is rounded down: a pixel more than the viewport would scroll.
        const auto round = [scale](qreal length) {
            return scale < 1.0 ? qFloor(length) : qCeil(length);
        };
        const QSize target(std::max(visible.width(), round(needed.width())),
                           round(needed.height()));
        if (target != size()) {
            resize(target);
        }
    }
    m_inRelayout = false;
    layoutApplied(size() != before || !qFuzzyCompare(scaleBefore, scale));
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
    case QEvent::MouseMove:
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonRelease:
    case QEvent::MouseButtonDblClick:
        if (const qreal scale = contentScale(this); scale < 1.0) {
            // The views' hit tests work in content coordinates: hand them the unscaled point.
            auto* mouse = static_cast<QMouseEvent*>(event);
            QMouseEvent scaled(mouse->type(), mouse->position() / scale, mouse->scenePosition(),
                               mouse->globalPosition(), mouse->button(), mouse->buttons(),
                               mouse->modifiers(), mouse->pointingDevice());
            scaled.setAccepted(mouse->isAccepted());
            const bool handled = QWidget::event(&scaled);
            event->setAccepted(scaled.isAccepted());
            return handled;
        }
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
