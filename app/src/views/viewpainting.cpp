// Painting and formatting helpers for the views.
#include "views/viewpainting.h"

#include "views/theme.h"

#include <warpscope/format.h>

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QLineF>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <QToolTip>
#include <QVarLengthArray>
#include <QWidget>

#include <algorithm>

#include <bit>
#include <cmath>

namespace warpscope::app {

QColor blendedOver(const QColor& top, qreal alpha, const QColor& below) {
    const float a = static_cast<float>(std::clamp(alpha, 0.0, 1.0));
    return QColor::fromRgbF(top.redF() * a + below.redF() * (1 - a),
                            top.greenF() * a + below.greenF() * (1 - a),
                            top.blueF() * a + below.blueF() * (1 - a));
}

QColor withAlpha(QColor color, qreal alpha) {
    color.setAlphaF(static_cast<float>(alpha));
    return color;
}

void fillHatched(QPainter& painter, const QRectF& rect, const QColor& color, qreal spacing,
                 qreal width) {
    if (rect.isEmpty() || spacing <= 0) {
        return;
    }
    // Lines at 45 degrees, anchored to multiples of the spacing so neighbouring cells line up.
    // Each line is cut to the rectangle here rather than through a clip region: a fractional
    // clip rectangle under antialiasing sends QPainter down its slow path-clipping route.
    const qreal h = rect.height();
    const qreal start = std::floor((rect.left() - h) / spacing) * spacing;
    QVarLengthArray<QLineF, 64> lines;
    for (qreal x = start; x < rect.right(); x += spacing) {
        // The full line runs from (x, bottom) to (x + h, top).
        const qreal x0 = std::max(x, rect.left());
        const qreal x1 = std::min(x + h, rect.right());
        if (x1 <= x0) {
            continue;
        }
        lines.append(QLineF(x0, rect.bottom() - (x0 - x), x1, rect.bottom() - (x1 - x)));
    }
    painter.save();
    painter.setPen(QPen(color, width, Qt::SolidLine, Qt::FlatCap));
    painter.drawLines(lines.constData(), static_cast<int>(lines.size()));
    painter.restore();
}

void drawRectOutline(QPainter& painter, const QRectF& rect, const QColor& color, qreal width) {
    if (rect.isEmpty() || width <= 0) {
        return;
    }
    const qreal h = width / 2;
    const QRectF outer = rect.adjusted(-h, -h, h, h);
    const QRectF edges[4] = {
        QRectF(outer.left(), outer.top(), outer.width(), width),                      // top
        QRectF(outer.left(), outer.bottom() - width, outer.width(), width),           // bottom
        QRectF(outer.left(), outer.top() + width, width, outer.height() - 2 * width), // left
        QRectF(outer.right() - width, outer.top() + width, width,
               outer.height() - 2 * width), // right
    };
    const QPen pen = painter.pen();
    const QBrush brush = painter.brush();
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawRects(edges, 4);
    painter.setPen(pen);
    painter.setBrush(brush);
}

void drawDashedRectOutline(QPainter& painter, const QRectF& rect, const QColor& color,
                           qreal width) {
    if (rect.isEmpty() || width <= 0) {
        return;
    }
    // Qt::DashLine is 4 widths on, 2 off; square caps add half a width at each end of a dash.
    const qreal dash = 4 * width;
    const qreal period = 6 * width;
    const qreal h = width / 2;
    const QPointF corners[5] = {rect.topLeft(), rect.topRight(), rect.bottomRight(),
                                rect.bottomLeft(), rect.topLeft()};
    QVarLengthArray<QRectF, 128> pieces;
    qreal travelled = 0; // along the outline, where this edge starts
    for (int edge = 0; edge < 4; ++edge) {
        const QPointF a = corners[edge];
        const QPointF b = corners[edge + 1];
        const qreal length = QLineF(a, b).length();
        const QPointF unit = length > 0 ? (b - a) / length : QPointF();
        // The dashes that overlap this edge: [k * period, k * period + dash) in outline length.
        for (qreal start = std::floor(travelled / period) * period; start < travelled + length;
             start += period) {
            const qreal from = std::max(start, travelled) - travelled;
            const qreal to = std::min(start + dash, travelled + length) - travelled;
            if (to <= from) {
                continue;
            }
            const QPointF p0 = a + unit * (from - h);
            const QPointF p1 = a + unit * (to + h);
            // Axis-aligned edges: the piece is the segment thickened by half a width each side.
            pieces.append(QRectF(QPointF(std::min(p0.x(), p1.x()) - (unit.x() == 0 ? h : 0),
                                         std::min(p0.y(), p1.y()) - (unit.y() == 0 ? h : 0)),
                                 QPointF(std::max(p0.x(), p1.x()) + (unit.x() == 0 ? h : 0),
                                         std::max(p0.y(), p1.y()) + (unit.y() == 0 ? h : 0))));
        }
        travelled += length;
    }
    const QPen pen = painter.pen();
    const QBrush brush = painter.brush();
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawRects(pieces.constData(), static_cast<int>(pieces.size()));
    painter.setPen(pen);
    painter.setBrush(brush);
}

const QStaticText& StaticTextCache::text(const QString& string, const QFont& font) {
    auto entry = std::find_if(m_fonts.begin(), m_fonts.end(),
                              [&](const FontTexts& f) { return f.font == font; });
    if (entry == m_fonts.end()) {
        if (m_fonts.size() >= 8) {
            m_fonts.clear(); // the view's fonts changed (zoom, theme, settings)
        }
        m_fonts.push_back(FontTexts{font, {}});
        entry = m_fonts.end() - 1;
    }
    QHash<QString, QStaticText>& texts = entry->texts;
    auto it = texts.find(string);
    if (it == texts.end()) {
        if (texts.size() >= 256) {
            texts.clear();
        }
        QStaticText text(string);
        text.setTextFormat(Qt::PlainText);
        text.setPerformanceHint(QStaticText::AggressiveCaching);
        text.prepare(QTransform(), font);
        it = texts.insert(string, text);
    }
    return *it;
}

void StaticTextCache::draw(QPainter& painter, const QRectF& rect, Qt::Alignment alignment,
                           const QString& string) {
    if (string.isEmpty()) {
        return;
    }
    const QStaticText& staticText = text(string, painter.font());
    const QSizeF size = staticText.size();
    qreal x = rect.left();
    if (alignment.testFlag(Qt::AlignHCenter)) {
        x = rect.center().x() - size.width() / 2;
    } else if (alignment.testFlag(Qt::AlignRight)) {
        x = rect.right() - size.width();
    }
    painter.drawStaticText(QPointF(x, rect.center().y() - size.height() / 2), staticText);
}

QFont fontFitting(const QFont& font, const QString& text, qreal width) {
    const qreal advance = QFontMetricsF(font).horizontalAdvance(text);
    if (width <= 0 || advance <= width) {
        return font;
    }
    // Glyph widths do not scale exactly with the size: shrink a little more, then check.
    QFont fitted = font;
    for (qreal factor = width / advance * 0.98; factor > 0.2; factor *= 0.97) {
        if (font.pixelSize() > 0) {
            fitted.setPixelSize(std::max(1, static_cast<int>(font.pixelSize() * factor)));
        } else {
            fitted.setPointSizeF(std::max(1.0, font.pointSizeF() * factor));
        }
        if (QFontMetricsF(fitted).horizontalAdvance(text) <= width) {
            break;
        }
    }
    return fitted;
}

void drawGroupMarker(QPainter& painter, const QPointF& centre, qreal size, int index,
                     const QColor& fill, const QColor& outline) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(outline, 1.0));
    painter.setBrush(fill);
    const qreal r = size / 2.0;
    switch (((index % 5) + 5) % 5) {
    case 0:
        painter.drawEllipse(centre, r, r);
        break;
    case 1:
        painter.drawRect(QRectF(centre.x() - r * 0.85, centre.y() - r * 0.85, r * 1.7, r * 1.7));
        break;
    case 2:
        painter.drawPolygon(QPolygonF({QPointF(centre.x(), centre.y() - r),
                                       QPointF(centre.x() + r, centre.y() + r * 0.8),
                                       QPointF(centre.x() - r, centre.y() + r * 0.8)}));
        break;
    case 3:
        painter.drawPolygon(
            QPolygonF({QPointF(centre.x(), centre.y() - r), QPointF(centre.x() + r, centre.y()),
                       QPointF(centre.x(), centre.y() + r), QPointF(centre.x() - r, centre.y())}));
        break;
    default: {
        // An inverted triangle.
        painter.drawPolygon(QPolygonF({QPointF(centre.x(), centre.y() + r),
                                       QPointF(centre.x() + r, centre.y() - r * 0.8),
                                       QPointF(centre.x() - r, centre.y() - r * 0.8)}));
        break;
    }
    }
    painter.restore();
}

QString formatBytes(std::int64_t bytes) {
    return QString::fromStdString(warpscope::formatBytes(
        bytes, ByteFormat{ByteUnit::B, ByteUnit::GiB, ByteDecimals::OneBelowTen}));
}

QString formatAddress(std::int64_t address) {
    if (address < 0) {
        // Negative addresses never pass validate(); print them without overflowing on INT64_MIN.
        return QStringLiteral("-0x") +
               QString::number(quint64{0} - static_cast<quint64>(address), 16);
    }
    return QStringLiteral("0x") + QString::number(address, 16);
}

int laneCount(std::uint32_t mask) {
    return std::popcount(mask);
}

QString laneListText(std::uint32_t mask) {
    if (mask == 0) {
        return QStringLiteral("none");
    }
    QStringList parts;
    int lane = 0;
    while (lane < 32) {
        if (((mask >> lane) & 1u) == 0) {
            ++lane;
            continue;
        }
        int end = lane;
        while (end + 1 < 32 && ((mask >> (end + 1)) & 1u) != 0) {
            ++end;
        }
        parts << (end == lane ? QString::number(lane) : QStringLiteral("%1–%2").arg(lane).arg(end));
        lane = end + 1;
    }
    return parts.join(QStringLiteral(", "));
}

void paintMeasurementBadge(QPainter& painter, const ViewColors& colors, const QFont& font,
                           const QRectF& line, const QRectF& view, const QString& text,
                           bool mismatch, qreal leftTextWidth, const QString& shortText) {
    if (text.isEmpty()) {
        return;
    }
    painter.save();
    QFont badgeFont = font;
    badgeFont.setBold(mismatch);
    painter.setFont(badgeFont);
    const QFontMetricsF metrics(badgeFont);
    const qreal padding = 6;
    const qreal room = std::max<qreal>(160, line.width() - leftTextWidth - 16) - 2 * padding;
    const QString& fitting =
        shortText.isEmpty() || metrics.horizontalAdvance(text) <= room ? text : shortText;
    const QString shown = metrics.elidedText(fitting, Qt::ElideRight, room);
    const qreal width = metrics.horizontalAdvance(shown) + 2 * padding;
    const QRectF badge(line.right() - width, line.top() - 1, width, line.height() + 2);
    if (mismatch) {
        painter.fillRect(badge, colors.warning);
        painter.setPen(colors.background);
        // A frame around the whole view: a mismatch is seen from across a room.
        drawRectOutline(painter, view.adjusted(1.5, 1.5, -1.5, -1.5), colors.warning, 3);
    } else {
        painter.fillRect(badge, colors.background);
        drawRectOutline(painter, badge, colors.frame, 1);
        painter.setPen(colors.text);
    }
    painter.drawText(badge, Qt::AlignCenter, shown);
    painter.restore();
}

bool handleToolTipEvent(QWidget* widget, QEvent* event,
                        const std::function<QString(const QPoint&)>& textAt) {
    if (event->type() != QEvent::ToolTip) {
        return false;
    }
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString text = textAt(help->pos());
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, widget);
    }
    return true;
}

} // namespace warpscope::app
