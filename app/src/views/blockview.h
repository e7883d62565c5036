// BlockView: the thread block as a grid of threads (x across, y down, one grid per z slice; a 1-D
// block wraps every 32 threads), each warp outlined and labelled with what the modern model says
// that warp costs, warps that cost more than the best one tinted and hatched. The chosen warp
// shows its lanes (or, for shared memory, each lane's bank); clicking a thread chooses its warp.
#pragma once

#include "views/zoomableview.h"

#include <QRectF>
#include <QString>

#include <cstdint>
#include <vector>

namespace warpscope::app {

class LaneHighlight;
class PatternDocument;
struct ViewColors;

class BlockView : public ZoomableView {
    Q_OBJECT
public:
    BlockView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent = nullptr);

    /// What the modern model predicts for one warp of the block.
    struct WarpCost {
        bool valid = false;
        int sectors = 0;       // global
        int wavefronts = 0;    // shared
        int bankConflicts = 0; // shared
        double efficiency = 0; // global
        QString error;
    };
    const std::vector<WarpCost>& warpCosts() const { return m_costs; }
    /// The text the view draws beside warp `warp`'s bar: "5 sector(s), 80.0 % efficiency".
    QString costLabel(std::size_t warp) const { return costText(m_costs.at(warp)); }
    /// The thread (linear index in the block) drawn at `point`, or -1.
    int threadAt(const QPointF& point) const;
    /// Where thread `linear` is drawn (empty if it is not).
    QRectF threadRect(std::int64_t linear) const;

    /// Evaluate every warp of the block again (called when the pattern changes).
    void recomputeWarps();

protected:
    QSizeF computeLayout(qreal width) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    struct Slice {
        int z = 0;
        QRectF rect;
        QRectF labelRect;
    };
    QString costText(const WarpCost& cost) const;
    int costValue(const WarpCost& cost) const;

    PatternDocument* m_document;
    LaneHighlight* m_highlight;
    std::vector<WarpCost> m_costs;
    bool m_global = true;
    bool m_hasBlock = false;
    std::int64_t m_bx = 1, m_by = 1, m_bz = 1;
    std::int64_t m_columns = 1; // cells across a slice
    std::int64_t m_rowsPerSlice = 1;
    bool m_wrapped = false;
    qreal m_cell = 16;
    QRectF m_titleRect;
    std::vector<Slice> m_slices;
    std::vector<QRectF> m_costRows;
    qreal m_costTop = 0;
    /// The pattern changed while the view was hidden: evaluate the warps when it is shown (so a
    /// slider drag does not evaluate every warp of the block for a view nobody looks at).
    bool m_stale = false;
};

} // namespace warpscope::app
