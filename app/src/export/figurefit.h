// A warp or bank drawing in a figure of several views (a two-view slide of an exported deck):
// laid out to its cell's height, as on a lecture slide, instead of scaled down until its text
// cannot be read.
#pragma once

#include "views/zoomableview.h"

#include <QRectF>
#include <QSizeF>

#include <algorithm>
#include <cmath>

namespace warpscope::app {

/// When the drawing laid out `layoutWidth` wide needs more height than `cell` gives at the scale
/// its width allows, and the figure has `viewCount` >= 2 views: size `widget` to the cell's
/// height at that scale, switch it to ZoomableView::setFitHeight() (rows packed closer, a long
/// list cut short with a line saying how many more) and return the size `layOut()` gives then,
/// when that fits the cell; otherwise return the drawing's own size, to be scaled down.
template <class LayOut>
QSizeF fitDrawingToCell(ZoomableView& widget, qreal layoutWidth, const QSizeF& needed,
                        const QRectF& cell, int viewCount, LayOut layOut) {
    const qreal widthScale =
        std::min(2.0, cell.width() / std::max({1.0, layoutWidth, needed.width()}));
    if (viewCount < 2 || needed.height() * widthScale <= cell.height() * 1.05) {
        return needed;
    }
    widget.resize(static_cast<int>(std::lround(layoutWidth)),
                  std::max(1, static_cast<int>(std::floor(cell.height() / widthScale))));
    widget.setFitHeight(true);
    const QSizeF fitted = layOut();
    if (fitted.height() > widget.height() + 1) {
        // Too short a cell even for packed rows (views stacked): drawn whole and scaled down,
        // so that the arrangement side by side, where it fits, wins.
        widget.setFitHeight(false);
        return layOut();
    }
    return fitted;
}

} // namespace warpscope::app
