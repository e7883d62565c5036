// The warp view's legend: a swatch and its meaning for every fill the band uses, laid out left to
// right in rows that wrap inside the legend's rectangle (the view's visible width), so a narrow
// window (1366 x 768) gets two or three rows instead of a cut-off one.
#pragma once

#include <QRectF>
#include <QString>

#include <vector>

class QFontMetricsF;

namespace warpscope::app {

struct WarpLayout;

struct WarpLegendItem {
    enum class Kind { Requested, FetchedUnused, NotFetched, Textbook, OneLine, ConstantRound };
    Kind kind = Kind::Requested;
    QString text;
    QRectF swatchRect;
    QRectF textRect;
};

/// The legend's entries for what `layout` draws (global lines and sectors, the textbook
/// transactions, constant rounds), placed from layout.legendRect's top left and wrapped at its
/// width, in `font`.
std::vector<WarpLegendItem> warpLegendItems(const WarpLayout& layout, const QFontMetricsF& font);

/// The height the legend's rows need in `font` at layout.legendRect's width.
qreal warpLegendHeight(const WarpLayout& layout, const QFontMetricsF& font);

} // namespace warpscope::app
