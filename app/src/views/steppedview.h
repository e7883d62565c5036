// SteppedView: the base of the views of one access that the GPU's measurement marks and lecture
// mode steps through and draws ahead (the warp and bank views). A step reveals one more row of the
// view's list; a slide change at 4K copies a picture of the whole view drawn ahead, in the idle
// pause, instead of drawing it then.
#pragma once

#include "gpu/probemeasurement.h"
#include "views/zoomableview.h"

#include <QPixmap>

#include <cstddef>

class QPainter;

namespace warpscope::app {

class SteppedView : public ZoomableView {
    Q_OBJECT
public:
    using ZoomableView::ZoomableView;

    /// What the GPU measured for the pattern, as a badge in the title; a mismatch with the model
    /// is also framed. An empty mark draws nothing.
    void setMeasurementMark(const MeasurementMark& mark);
    const MeasurementMark& measurementMark() const { return m_mark; }

    /// Lecture mode's step-through: draw only the first `count` rows of the view's list of what
    /// serves the access (the warp view's lines, then its textbook transactions; the bank view's
    /// wavefronts); the lanes and what they ask for stay visible. -1 (the default) draws all.
    void setRevealCount(int count);
    int revealCount() const { return m_revealCount; }

    /// What a paint of the whole view would draw now, into a pixmap at the view's size and
    /// `devicePixelRatio` (crisp: one device pixel to one pixel). A view given this picture
    /// (adoptPicture()) paints by copying it while its pictureKey() equals the picture's and its
    /// size and ratio are the picture's, and draws as before otherwise.
    QPixmap renderPicture(qreal devicePixelRatio);
    /// A hash of everything the picture is drawn from: every text, every element's look and
    /// place, the reveal count, the measurement mark, the size, the font, the colours.
    virtual std::size_t pictureKey() const = 0;

protected:
    /// Draws all of the view (for renderPicture()), as a paint event of its whole rectangle does.
    virtual void paintWholeView(QPainter& painter) = 0;
    /// After setRevealCount() changed the count: repaints all of the view unless a view knows
    /// which of its parts the count changes.
    virtual void revealCountChanged();

private:
    MeasurementMark m_mark;
    int m_revealCount = -1;
};

} // namespace warpscope::app
