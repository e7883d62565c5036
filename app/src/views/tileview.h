// TileView: a shared-memory tile as Hopper kernels lay it out, one row per 128-byte line (all 32
// banks) and one column per 16-byte chunk (a bank group: banks 4c to 4c+3). A TMA tile load, when
// one is set, fills each chunk with the box row and column core's TMA layout puts there
// (warpscope/tma_layout.h), coloured by its source column, so a swizzle shows as the colours
// changing places from line to line; the swizzle's XOR is spelled out for the line under the
// cursor. The current shared access (an ldmatrix's rows, an LDS's elements) is drawn on top: each
// lane in the chunk it starts in, framed where the modern model serves its bank more than once in
// its phase (a conflict).
#pragma once

#include "views/zoomableview.h"

#include <warpscope/pattern.h>
#include <warpscope/tma_layout.h>

#include <QRectF>
#include <QString>

#include <array>
#include <optional>
#include <vector>

namespace warpscope::app {

class LaneHighlight;
class PatternDocument;

/// One 16-byte chunk of the tile as the view draws it.
struct TileCell {
    std::int64_t line = 0; // address / 128
    int chunk = 0;         // 0..7: the chunk in its line, which is its bank group
    std::int64_t address = 0;
    /// With a TMA load: the box row and byte in the row this chunk holds (none if not written).
    std::optional<TmaChunkSource> source;
    std::uint32_t lanes = 0;      // lanes of the current access that start in this chunk
    std::uint32_t conflicted = 0; // those whose bank the model serves more than once in a phase
    QString label;                // "r3 c2" (the TMA source) and the lanes, as drawn
    QRectF rect;
};

/// What the view shows, as plain data beside its cells.
struct TileContent {
    QString title;   // the access, or why there is nothing to draw
    QString tmaText; // the TMA load, or why core refuses it
    bool tmaRefused = false;
    QString xorText; // the swizzle of the line under the cursor (the first line otherwise)
    QString legend;
    std::vector<QString> lineLabels;      // one per drawn line: "0x400"
    std::array<QString, 8> chunkLabels{}; // "banks 0–3" over each column
    int elidedLines = 0;                  // lines past the drawn ones
};

class TileView : public ZoomableView {
    Q_OBJECT
public:
    /// At most this many 128-byte lines are drawn (the rest is counted in elidedLines).
    static constexpr int kMaxLines = 64;

    TileView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent = nullptr);

    /// The TMA load drawn under the access; nullopt draws the access alone. Loading a preset that
    /// comes with a load (presetTmaLoad()) sets it.
    void setTmaLoad(const std::optional<TmaTileLoad>& load);
    const std::optional<TmaTileLoad>& tmaLoad() const { return m_tma; }
    /// The TMA load the preset `id` describes in its caption (the box its ldmatrix reads back).
    static std::optional<TmaTileLoad> presetTmaLoad(const QString& id);

    const std::vector<TileCell>& cells() const { return m_cells; }
    /// The cell holding shared-memory byte `address`, or nullptr.
    const TileCell* cellAt(std::int64_t address) const;
    TileContent content() const;
    /// The line whose swizzle the XOR text spells out (the hovered one).
    void setXorLine(std::int64_t line);

signals:
    void tmaLoadChanged();

protected:
    QSizeF computeLayout(qreal width) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void followPreset();
    void paintView(QPainter& painter);

    PatternDocument* m_document;
    LaneHighlight* m_highlight;
    std::optional<TmaTileLoad> m_tma;
    QString m_presetId; // the preset whose load was last adopted
    std::optional<TmaLayout> m_layout;
    QString m_tmaError;
    std::vector<TileCell> m_cells;
    std::vector<std::int64_t> m_lines;
    std::vector<QRectF> m_lineLabelRects;
    std::array<QRectF, 8> m_chunkHeaderRects{};
    int m_elidedLines = 0;
    std::int64_t m_xorLine = -1;
    QRectF m_titleRect;
    QRectF m_tmaRect;
    QRectF m_xorRect;
    QRectF m_legendRect;
};

} // namespace warpscope::app
