// BankView: a shared-memory access as 32 bank columns by 4-byte word rows. Each word a lane touches
// sits in its bank's column, filled and marked by the wavefront that serves it (from the modern
// model's wavefrontList); banks that must serve several words in one phase are marked as
// conflicts, words read by several lanes as broadcasts, and for 8- and 16-byte accesses the phases
// (lanes served together) are shown. The wavefront count is the number of fills in the grid.
#pragma once

#include "gpu/probemeasurement.h"

#include "document/evaluation.h"
#include "views/steppedview.h"

#include <QPixmap>
#include <QRectF>

#include <map>
#include <vector>

namespace warpscope::app {

class LaneHighlight;
class PatternDocument;
struct ViewColors;

/// What the bank view shows, as plain data: the texts it draws (the painting code draws these)
/// beside the cells (BankView::cells()), so a test can compare the picture with core's
/// prediction: which lanes, which banks, which numbers.
struct BankContent {
    bool shared = false; // false: only the title and the hint that banks need shared memory
    QString title;       // access and the modern model's numbers
    QString note;        // textbook numbers, the global-memory hint or the error
    bool noteIsWarning = false;
    QString phaseHeading;
    /// 8- and 16-byte accesses: why the phases are these (fused by a partner distance, or which
    /// lanes split the pairs, or a store's fixed phases); empty up to 4 bytes.
    QString fusionNote;
    std::vector<QString> phaseLabels;        // one per phase, under its lanes: "P1 · lanes 0–15"
    std::array<bool, kWarpSize> laneSplit{}; // lanes the fusion note names as splitting a pair
    std::array<QString, kWarpSize> laneLabels{};
    std::array<bool, kWarpSize> laneActive{};
    std::array<int, kWarpSize> lanePhase{};
    std::array<QString, kBankCount> bankLabels{};   // the number over each column
    std::array<QString, kBankCount> degreeLabels{}; // "·", "1" or "n×" under it
    std::vector<QString> rowLabels;                 // one per drawn row: "row 0 · 0x0"
    std::vector<QString> gapLabels;                 // one per drawn row: elided rows before it
    QString wavefrontHeading;
    std::vector<QString> wavefrontTexts; // "W1: lanes 0–31 · 32 bank(s)"

    /// ldmatrix / stmatrix: one phase per 8x8 matrix (lanes 8i to 8i+7 give its rows), as the
    /// modern model serves it; empty for other accesses.
    struct MatrixPhase {
        std::uint32_t lanes = 0; // the lanes whose rows form this matrix
        std::uint32_t banks = 0; // the banks its wavefronts use
        int wavefronts = 0;      // the wavefronts of wavefrontList that serve its lanes
        /// The 16-byte bank group (banks 4g to 4g+3) holding the most distinct rows, and how
        /// many: that count is the phase's wavefronts.
        int fullestGroup = -1;
        int fullestGroupRows = 0;
    };
    std::vector<MatrixPhase> matrixPhases;
};

class BankView : public SteppedView {
    Q_OBJECT
public:
    BankView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent = nullptr);

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
    const std::vector<Cell>& cells() const { return m_cells; }
    /// Where lane `lane` is drawn in the phase row, and the bracket under phase `phase`'s lanes.
    QRectF phaseLaneRect(int lane) const {
        return m_phaseLaneRects.at(static_cast<std::size_t>(lane));
    }
    const std::vector<QRectF>& phaseBracketRects() const { return m_phaseBracketRects; }
    /// Where bank `bank`'s column header (its number and conflict degree) is drawn.
    QRectF headerRect(int bank) const { return m_headerRects.at(static_cast<std::size_t>(bank)); }
    /// What the view draws now.
    BankContent content() const;

    /// The reveal count (setRevealCount()) fills only the cells and list rows of the first
    /// `count` wavefronts of wavefrontList.
    std::size_t pictureKey() const override;

protected:
    QSizeF computeLayout(qreal width) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void paintWholeView(QPainter& painter) override;

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
    /// What a paint event draws, for the whole view.
    void paintContent(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                      const BankContent& content);
    std::uint32_t lanesAt(const QPointF& point, QString* description) const;

    PatternDocument* m_document;
    LaneHighlight* m_highlight;
    bool m_shared = false;
    QRectF m_titleRect;
    QRectF m_phaseRect;
    std::array<QRectF, kWarpSize> m_phaseLaneRects{};
    std::vector<QRectF> m_phaseBracketRects; // one per phase of the prediction
    QRectF m_fusionRect;                     // the fusion note's line
    std::array<QRectF, kBankCount> m_headerRects{};
    std::array<int, kBankCount> m_bankDegree{};
    std::vector<RowBand> m_rows;
    std::vector<Cell> m_cells;
    std::vector<WavefrontRow> m_wavefrontRows;
    QRectF m_legendRect;
    qreal m_labelWidth = 0;
    /// On a slide (setFitHeight()): the title's two texts wrapped to the width (their heights),
    /// the rows' label shown every m_rowLabelStep rows where rows are packed closer than a line
    /// of text, and the wavefronts past the height (empty rects), counted, with their line.
    qreal m_titleFirstHeight = 0;
    qreal m_titleSecondHeight = 0;
    int m_rowLabelStep = 1;
    int m_wavefrontsElided = 0;
    QRectF m_wavefrontsElidedRect;
};

} // namespace warpscope::app
