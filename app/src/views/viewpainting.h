// Small painting and formatting helpers shared by the custom views: hatching drawn as lines (crisp
// at any device pixel ratio, unlike Qt's bitmap pattern brushes), group markers that vary in shape
// as well as colour, and the text forms of bytes, addresses and lane sets.
#pragma once

#include <QColor>
#include <QFont>
#include <QHash>
#include <QPointF>
#include <QRectF>
#include <QStaticText>
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

class QEvent;
class QPainter;
class QPoint;
class QWidget;

namespace warpscope::app {

struct ViewColors;

/// `top` at opacity `alpha` over the opaque `below`, as one opaque colour: what a translucent
/// fill would show there, without the raster engine's slow translucent path.
QColor blendedOver(const QColor& top, qreal alpha, const QColor& below);

/// `color` with its alpha set to `alpha` (0 to 1).
QColor withAlpha(QColor color, qreal alpha);

/// Diagonal hatching inside `rect`, lines `spacing` logical pixels apart.
void fillHatched(QPainter& painter, const QRectF& rect, const QColor& color, qreal spacing = 5.0,
                 qreal width = 1.0);

/// The outline a pen `width` wide centred on `rect`'s edges draws (square corners), filled as four
/// rectangles. Qt's raster engine strokes pens wider than one pixel through a general path
/// stroker, many times slower than filling rectangles, and the warp view draws dozens of outlines
/// on every frame (docs/benchmarks.md, "Desktop app").
void drawRectOutline(QPainter& painter, const QRectF& rect, const QColor& color, qreal width);
/// The same outline in Qt::DashLine's pattern with square caps (dashes of 5 widths, gaps of 1
/// width, starting at the top-left corner and running clockwise), filled as rectangles.
void drawDashedRectOutline(QPainter& painter, const QRectF& rect, const QColor& color, qreal width);

/// Single-line texts laid out once and drawn as QStaticText: shaping a string with HarfBuzz on
/// every paint was a tenth of the warp view's frame. Kept per font; a font's texts are dropped
/// wholesale when they grow many (texts that change with every edit, such as summaries, would
/// otherwise pile up).
class StaticTextCache {
public:
    const QStaticText& text(const QString& string, const QFont& font);
    /// Draw `string` in `rect` with Qt::AlignLeft, Qt::AlignHCenter or Qt::AlignRight, centred
    /// vertically; like QPainter::drawText without clipping to the rectangle. Uses the painter's
    /// current font and pen.
    void draw(QPainter& painter, const QRectF& rect, Qt::Alignment alignment,
              const QString& string);
    void clear() { m_fonts.clear(); }

private:
    struct FontTexts {
        QFont font;
        QHash<QString, QStaticText> texts;
    };
    std::vector<FontTexts> m_fonts;
};

/// `font`, smaller where `text` in it is wider than `width` (a slide's narrow panel): so that the
/// text fits on its one line instead of being cut at the right. Unchanged where it fits.
QFont fontFitting(const QFont& font, const QString& text, qreal width);

/// A filled marker whose shape depends on `index` (circle, square, triangle, diamond, ...), so
/// groups differ in shape as well as in colour.
void drawGroupMarker(QPainter& painter, const QPointF& centre, qreal size, int index,
                     const QColor& fill, const QColor& outline);

/// "4 B", "896 B", "3.5 KiB", "2.0 MiB", "12 MiB" (core's formatter, one decimal below 10).
QString formatBytes(std::int64_t bytes);
/// Hexadecimal address, "0x1a0".
QString formatAddress(std::int64_t address);
/// Lane set as ranges: "0–7, 12, 16–31"; "none" for an empty mask.
QString laneListText(std::uint32_t mask);
/// A view's tool tips: for a QEvent::ToolTip, shows `textAt` of the event's position over
/// `widget` (hides the tip and leaves the event to the parent when there is no text) and returns
/// true; returns false for any other event, for the view's own event() to go on with.
bool handleToolTipEvent(QWidget* widget, QEvent* event,
                        const std::function<QString(const QPoint&)>& textAt);

/// Number of set bits.
int laneCount(std::uint32_t mask);

/// The GPU's verdict on the pattern as a badge at the right end of `line` (elided to fit): a plain
/// outline when the measurement agrees with the model, a filled warning badge and a frame around
/// `view` when it differs. Nothing when `text` is empty. `leftTextWidth` is the width of the text
/// already drawn at the left of `line`: the badge takes the room after it (at least 160 px).
void paintMeasurementBadge(QPainter& painter, const ViewColors& colors, const QFont& font,
                           const QRectF& line, const QRectF& view, const QString& text,
                           bool mismatch, qreal leftTextWidth = 0,
                           const QString& shortText = QString());

} // namespace warpscope::app
