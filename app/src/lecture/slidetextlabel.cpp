// SlideTextLabel: pictures of the text made by QLabel's own paint, kept and copied.
#include "lecture/slidetextlabel.h"

#include <QEvent>
#include <QPaintEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace warpscope::app {

SlideTextLabel::SlideTextLabel(QWidget* parent) : QLabel(parent), m_twin(new QLabel(this)) {
    m_twin->setObjectName(QStringLiteral("slideTextTwin"));
    m_twin->hide();
}

QSize SlideTextLabel::sizeFor(const QString& text, int width, int minimumHeight) const {
    m_twin->setFont(font());
    m_twin->setTextFormat(textFormat());
    m_twin->setWordWrap(wordWrap());
    m_twin->setAlignment(alignment());
    m_twin->setMargin(margin());
    m_twin->setIndent(indent());
    m_twin->setContentsMargins(contentsMargins());
    m_twin->setText(text);
    const int height = wordWrap() ? m_twin->heightForWidth(width) : m_twin->sizeHint().height();
    return QSize(width, std::max(height, minimumHeight));
}

bool SlideTextLabel::canKeepPictures() const {
    // A picture stands for QLabel's paint when that depends on nothing but the text, the size,
    // the type, the colours and the device pixel ratio, and what lies under the label is one
    // plain colour.
    // At a fractional ratio a widget's edge falls between device pixels: paint as QLabel does.
    const QWidget* parent = parentWidget();
    const qreal ratio = devicePixelRatioF();
    if (parent == nullptr || !parent->autoFillBackground() || frameWidth() != 0 ||
        textFormat() != Qt::PlainText || ratio != std::floor(ratio)) {
        return false;
    }
    const QBrush& background = parent->palette().brush(parent->backgroundRole());
    return background.style() == Qt::SolidPattern && background.color().alpha() == 255;
}

QColor SlideTextLabel::background() const {
    return parentWidget()->palette().color(parentWidget()->backgroundRole());
}

const SlideTextLabel::Picture* SlideTextLabel::find(const QString& text, QSize size) const {
    const qreal ratio = devicePixelRatioF();
    const QColor under = background();
    for (const Picture& picture : m_pictures) {
        if (picture.size == size && picture.devicePixelRatio == ratio &&
            picture.background == under && picture.text == text) {
            return &picture;
        }
    }
    return nullptr;
}

bool SlideTextLabel::isPrepared(const QString& text, QSize size) const {
    return canKeepPictures() && find(text, size) != nullptr;
}

const SlideTextLabel::Picture& SlideTextLabel::make(const QString& text, QSize size) {
    const qreal ratio = devicePixelRatioF();
    QPixmap pixmap(size * ratio);
    pixmap.setDevicePixelRatio(ratio);
    const QColor under = background();
    pixmap.fill(under);
    // The twin paints with QLabel's own code, with this label's type, colours and flags, at the
    // same place relative to the device pixels as this label (its origin on a whole pixel), so
    // the picture is what QLabel would have painted here.
    sizeFor(text, size.width());
    m_twin->setPalette(palette());
    m_twin->setForegroundRole(foregroundRole());
    m_twin->setLayoutDirection(layoutDirection());
    m_twin->resize(size);
    m_twin->render(&pixmap, QPoint(), QRegion(), QWidget::RenderFlags());
    ++m_picturesMade;
    while (!m_pictures.empty() && m_pictures.size() >= std::max<std::size_t>(1, m_picturesKept)) {
        m_pictures.erase(m_pictures.begin());
    }
    m_pictures.push_back(Picture{text, size, ratio, under, pixmap});
    return m_pictures.back();
}

void SlideTextLabel::prepare(const QString& text, QSize size) {
    if (text.isEmpty() || size.isEmpty() || !canKeepPictures() || find(text, size) != nullptr) {
        return;
    }
    make(text, size);
}

void SlideTextLabel::paintEvent(QPaintEvent* event) {
    if (text().isEmpty() || !canKeepPictures()) {
        QLabel::paintEvent(event);
        return;
    }
    const Picture* picture = find(text(), size());
    if (picture == nullptr) {
        picture = &make(text(), size());
    }
    QPainter painter(this);
    painter.drawPixmap(QPoint(0, 0), picture->pixmap);
}

void SlideTextLabel::changeEvent(QEvent* event) {
    switch (event->type()) {
    case QEvent::FontChange:
    case QEvent::PaletteChange:
    case QEvent::StyleChange:
    case QEvent::LayoutDirectionChange:
    case QEvent::EnabledChange:
        m_pictures.clear(); // drawn in the old type or colours
        break;
    default:
        break;
    }
    QLabel::changeEvent(event);
}

} // namespace warpscope::app
