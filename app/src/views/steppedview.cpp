// SteppedView: the reveal count and the picture drawn ahead that the warp and bank views share.
#include "views/steppedview.h"

#include <QPainter>

#include <algorithm>

namespace warpscope::app {

void SteppedView::setMeasurementMark(const MeasurementMark& mark) {
    if (mark.text == m_mark.text && mark.mismatch == m_mark.mismatch) {
        return;
    }
    m_mark = mark;
    update();
}

void SteppedView::setRevealCount(int count) {
    count = std::max(-1, count);
    if (count == m_revealCount) {
        return;
    }
    m_revealCount = count;
    revealCountChanged();
}

QPixmap SteppedView::renderPicture(qreal devicePixelRatio) {
    QPixmap picture = blankPicture(devicePixelRatio);
    QPainter painter(&picture);
    paintWholeView(painter);
    return picture;
}

void SteppedView::revealCountChanged() {
    update();
}

} // namespace warpscope::app
