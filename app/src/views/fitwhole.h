// Fit whole, for lecture slides: a ZoomableView whose drawing is larger than its scroll area's
// viewport is laid out wider and drawn scaled down until all of it shows, so the area never
// scrolls and nothing is cut off. Off by default (the main window's views scroll). The state
// lives on the view (ZoomableView::relayout() reads it); paint code scales its painter by
// contentScale() and ZoomableView maps mouse positions back to content coordinates.
#pragma once

#include <QRect>

class QWidget;

namespace warpscope::app {

void setFitWhole(QWidget* view, bool fit);
bool fitsWhole(const QWidget* view);
/// The scale the view's content is drawn at: 1, or below 1 when fit whole shrinks it.
qreal contentScale(const QWidget* view);
/// The view's rectangle in content coordinates (larger than rect() when drawn scaled down).
QRect contentRect(const QWidget* view);

} // namespace warpscope::app
