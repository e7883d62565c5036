// BankView: a shared-memory access as 32 bank columns by 4-byte word rows. Each word a lane touches
// sits in its bank's column, filled and marked by the wavefront that serves it (from the modern
// model's wavefrontList); banks that must serve several words in one phase are marked as
// conflicts, words read by several lanes as broadcasts, and for 8- and 16-byte accesses the phases
// (lanes served together) are shown. The wavefront count is the number of fills in the grid.
#pragma once

#include "gpu/probemeasurement.h"

#include "document/evaluation.h"
#include "views/zoomableview.h"

#include <QRectF>

#include <map>
#include <vector>

namespace warpscope::app {

class LaneHighlight;
class PatternDocument;
struct ViewColors;

class BankView : public ZoomableView {
    Q_OBJECT
public:
    BankView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent = nullptr);

    /// What the GPU measured for the pattern, as a badge in the title; a mismatch with the model
    /// is also framed. An empty mark draws nothing.
    void setMeasurementMark(const MeasurementMark& mark);
    const MeasurementMark& measurementMark() const { return m_mark; }

    /// One bank cell's share: the lanes one wavefront serves from this word.
    struct CellPart {
        int wavefront = 0;
        std::uint32_t lanes = 0;
        QRectF rect;
    };
    struct Cell {
        std::int64_t word = 0;
        int bank = 0;
        std::vector<CellPart> parts;
    };
    /// Distinct words bank b must serve within one phase, at most, over the phases.
    const std::array<int, kBankCount>& bankDegrees() const { return m_bankDegree; }
    int cellCount() const { return static_cast<int>(m_cells.size()); }

    /// Lecture mode's step-through: fill only the cells and list rows of the first `count`
    /// wavefronts of wavefrontList; -1 (the default) draws them all.
    void setRevealCount(int count);
    int revealCount() const { return m_revealCount; }

protected:
    QSizeF computeLayout(qreal width) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct RowBand {
        std::int64_t row = 0; // word / 32
        QRectF rect;
        std::int64_t gapRowsBefore = 0;
        QRectF gapRect;
    };
    struct WavefrontRow {
        int wavefront = 0;
        QRectF rect;
    };
    void paintContent(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation);
    std::uint32_t lanesAt(const QPointF& point, QString* description) const;

    PatternDocument* m_document;
    LaneHighlight* m_highlight;
    bool m_shared = false;
    QRectF m_titleRect;
    QRectF m_phaseRect;
    std::array<QRectF, kWarpSize> m_phaseLaneRects{};
    std::array<QRectF, kBankCount> m_headerRects{};
    std::array<int, kBankCount> m_bankDegree{};
    std::vector<RowBand> m_rows;
    std::vector<Cell> m_cells;
    std::vector<WavefrontRow> m_wavefrontRows;
    QRectF m_legendRect;
    qreal m_labelWidth = 0;
    MeasurementMark m_mark;
    int m_revealCount = -1;
};

} // namespace warpscope::app
