// WarpView, the centre of the window: the warp's 32 lanes over the memory they touch, with the
// modern model's lines and sectors filled in, the textbook model's transactions outlined on the
// same bytes, and the list of both. Hover a lane to follow its path; click a sector, transaction
// or list row to light up its lanes.
#pragma once

#include "gpu/probemeasurement.h"

#include "views/viewpainting.h"
#include "views/warplayout.h"
#include "views/zoomableview.h"

namespace warpscope::app {

class LaneHighlight;
class PatternDocument;
struct ViewColors;

class WarpView : public ZoomableView {
    Q_OBJECT
public:
    WarpView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent = nullptr);

    /// What the GPU measured for the pattern, as a badge in the title; a mismatch with the model
    /// is also framed. An empty mark draws nothing.
    void setMeasurementMark(const MeasurementMark& mark);
    const MeasurementMark& measurementMark() const { return m_mark; }

    bool showsTextbook() const { return m_showTextbook; }
    void setShowTextbook(bool show);

    const WarpLayout& currentLayout() const { return m_layout; }

    /// Lecture mode's step-through: draw only the first `count` rows of the list (the lines, then
    /// the textbook transactions, as in currentLayout().listRows) as served; the lanes and the
    /// bytes they ask for stay visible. -1 (the default) draws everything.
    void setRevealCount(int count);
    int revealCount() const { return m_revealCount; }

protected:
    QSizeF computeLayout(qreal width) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    void paintTitle(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation);
    void paintLanes(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                    std::uint32_t emphasised);
    void paintLinks(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                    std::uint32_t emphasised);
    void paintMemory(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                     std::uint32_t emphasised);
    void paintTextbook(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                       std::uint32_t emphasised);
    void paintLegendAndList(QPainter& painter, const ViewColors& colors,
                            const Evaluation& evaluation, std::uint32_t emphasised);
    /// The line group a lane's bytes fall in (for its colour and marker), or -1.
    int groupOfLane(const Evaluation& evaluation, int lane) const;
    bool isRevealed(WarpLayout::ListKind kind, int index) const;
    QString toolTipAt(const QPointF& point) const;

    PatternDocument* m_document;
    LaneHighlight* m_highlight;
    WarpLayout m_layout;
    StaticTextCache m_texts;
    bool m_showTextbook = true;
    MeasurementMark m_mark;
    int m_revealCount = -1;
};

} // namespace warpscope::app
