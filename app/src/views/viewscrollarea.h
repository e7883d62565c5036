// wrapInScrollArea(): a view at its own size inside a frameless scroll area on the base colour,
// as the main window's tabs and lecture mode's slides hold the warp, bank and block views.
#pragma once

class QScrollArea;
class QWidget;

namespace warpscope::app {

QScrollArea* wrapInScrollArea(QWidget* view, QWidget* parent);

} // namespace warpscope::app
