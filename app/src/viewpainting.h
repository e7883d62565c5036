// Small painting and formatting helpers shared by the custom views: hatching drawn as lines (crisp
// at any device pixel ratio, unlike Qt's bitmap pattern brushes), group markers that vary in shape
// as well as colour, and the text forms of bytes, addresses and lane sets.
#pragma once

#include <QColor>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <cstdint>

class QPainter;

namespace warpscope::app {

/// Diagonal hatching inside `rect`, lines `spacing` logical pixels apart.
void fillHatched(QPainter& painter, const QRectF& rect, const QColor& color, qreal spacing = 5.0,
                 qreal width = 1.0);

/// A filled marker whose shape depends on `index` (circle, square, triangle, diamond, ...), so
/// groups differ in shape as well as in colour.
void drawGroupMarker(QPainter& painter, const QPointF& centre, qreal size, int index,
                     const QColor& fill, const QColor& outline);

/// "4 B", "896 B", "3.5 KiB", "2.0 MiB".
QString formatBytes(std::int64_t bytes);
/// Hexadecimal address, "0x1a0".
QString formatAddress(std::int64_t address);
/// Lane set as ranges: "0–7, 12, 16–31"; "none" for an empty mask.
QString laneListText(std::uint32_t mask);
/// Number of set bits.
int laneCount(std::uint32_t mask);

} // namespace warpscope::app
