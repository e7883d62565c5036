// Painting and formatting helpers for the views.
#include "viewpainting.h"

#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <QVarLengthArray>

#include <algorithm>

#include <bit>
#include <cmath>

namespace warpscope::app {

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
    if (bytes < 1024) {
        return QStringLiteral("%1 B").arg(bytes);
    }
    const double kib = static_cast<double>(bytes) / 1024.0;
    if (kib < 1024.0) {
        return QStringLiteral("%1 KiB").arg(kib, 0, 'f', kib < 10 ? 1 : 0);
    }
    const double mib = kib / 1024.0;
    if (mib < 1024.0) {
        return QStringLiteral("%1 MiB").arg(mib, 0, 'f', mib < 10 ? 1 : 0);
    }
    return QStringLiteral("%1 GiB").arg(mib / 1024.0, 0, 'f', 1);
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

} // namespace warpscope::app
