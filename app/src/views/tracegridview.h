// TraceGridView: the Grid tab while a traced instruction is shown. The launch's blocks and warps
// as cells (block (x, y) at column x, row y + gridY * z, its warps side by side; a
// one-dimensional grid is wrapped into rows), each traced warp coloured by the model's sectors
// per request (global, local) or wavefronts per request (shared), every warp the trace did not
// record hatched on grey under a "not traced" legend. Hovering names the block, the warp and its
// value. The values come from TraceDocument::gridData (core's model); the view only draws them.
#pragma once

#include "document/tracedocument.h"

#include <QWidget>

#include <cstdint>
#include <optional>

namespace warpscope::app {

class TraceGridView : public QWidget {
    Q_OBJECT
public:
    explicit TraceGridView(QWidget* parent = nullptr);

    /// Cover the parent widget, following its size (the Grid tab's page, drawn over while a
    /// traced instruction is shown).
    void coverParent();

    void setData(TraceGridData data);
    const TraceGridData& data() const { return m_data; }
    /// Outline the warp of trace record `record` (the one the warp view draws).
    void setCurrentRecord(std::optional<std::uint64_t> record);

    /// Blocks drawn side by side in one row of the picture.
    std::uint64_t blocksPerRow() const;
    std::uint64_t warpsPerBlock() const;
    /// Where block `blockIndex` (x fastest) and warp `warp` are drawn, in widget coordinates.
    QRectF cellRect(std::uint64_t blockIndex, std::uint32_t warp) const;
    /// What hovering at `pos` says: "block (1, 0, 0) warp 3: 4.00 sectors/request", or
    /// "block (1, 0, 0) warp 3: not traced"; empty outside the cells.
    QString cellText(const QPoint& pos) const;
    /// The cells' rectangle and the legend's, in widget coordinates.
    QRectF cellsRect() const;
    QRectF legendRect() const;
    /// The largest value drawn (the top of the colour scale).
    double maxValue() const { return m_maxValue; }
    static QColor valueColour(double value, double maxValue);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    std::uint64_t blockCount() const;
    std::uint64_t rowCount() const;
    /// The traced value of a cell, if traced (the first record of that warp).
    const TracedWarpValue* tracedAt(std::uint64_t blockIndex, std::uint32_t warp) const;

    TraceGridData m_data;
    /// Traced warps by block index * warpsPerBlock + warp.
    std::vector<std::pair<std::uint64_t, std::size_t>> m_index;
    std::optional<std::uint64_t> m_record;
    double m_maxValue = 0.0;
};

} // namespace warpscope::app
