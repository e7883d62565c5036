// wrapInScrollArea(): the view keeps its size (it scrolls, it is not squeezed).
#include "views/viewscrollarea.h"

#include <QScrollArea>

namespace warpscope::app {

QScrollArea* wrapInScrollArea(QWidget* view, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    area->setWidget(view);
    area->setWidgetResizable(false);
    area->setFrameShape(QFrame::NoFrame);
    area->setBackgroundRole(QPalette::Base);
    return area;
}

} // namespace warpscope::app
