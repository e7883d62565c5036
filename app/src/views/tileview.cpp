// TileView: its cells from core's TMA layout and the modern model's phases and wavefronts, what it
// draws (TileContent), its painting and the hover that picks the line whose XOR is spelled out.
#include "views/tileview.h"

#include "document/patterndocument.h"
#include "views/bankwords.h"
#include "views/lanehighlight.h"
#include "views/predictiontext.h"
#include "views/theme.h"
#include "views/viewpainting.h"

#include <warpscope/matrix_access.h>
#include <warpscope/preset.h>

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <bit>
#include <map>
#include <set>

namespace warpscope::app {

namespace {

constexpr qreal kTileMargin = 12.0;
constexpr int kLineBytes = 128;
constexpr int kChunkBytes = 16;
constexpr int kChunksPerLine = kLineBytes / kChunkBytes;

/// The lanes of `access` the modern model serves a bank of more than once within their phase:
/// the bank of the lane's first word holds more than one distinct word over the wavefronts of
/// that phase.
std::uint32_t conflictedLanes(const WarpAccess& access, const SharedPrediction& shared) {
    std::uint32_t lanes = 0;
    for (std::uint32_t phase : shared.phases) {
        const auto words = phaseBankWords(shared, phase);
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const auto& address = access.addresses[static_cast<std::size_t>(lane)];
            if (!address || ((phase >> lane) & 1u) == 0) {
                continue;
            }
            const auto bank = static_cast<std::size_t>((*address / kBankWordBytes) % kBankCount);
            if (words[bank].size() > 1) {
                lanes |= 1u << lane;
            }
        }
    }
    return lanes;
}

/// B of Swizzle<B,4,3> for a TMA swizzle mode: 1, 2 or 3 (0 without a swizzle).
int swizzleBits(TmaSwizzle swizzle) {
    switch (swizzleSpanBytes(swizzle)) {
    case 32:
        return 1;
    case 64:
        return 2;
    case 128:
        return 3;
    default:
        return 0;
    }
}

} // namespace

TileView::TileView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent)
    : ZoomableView(parent), m_document(document), m_highlight(highlight) {
    setObjectName(QStringLiteral("tileView"));
    setMouseTracking(true);
    connect(m_document, &PatternDocument::evaluationChanged, this, &TileView::relayout);
    connect(m_document, &PatternDocument::patternChanged, this, &TileView::followPreset);
    connect(m_highlight, &LaneHighlight::changed, this, qOverload<>(&TileView::update));
    followPreset();
    relayout();
}

std::optional<TmaTileLoad> TileView::presetTmaLoad(const QString& id) {
    // ldmatrix-tma-128b's caption: "A 64x16 box of 2-byte elements loaded by TMA with the 128B
    // swizzle at shared offset 1024".
    if (id == QLatin1String("ldmatrix-tma-128b")) {
        return TmaTileLoad{2, 64, 16, TmaSwizzle::Span128, 1024};
    }
    return std::nullopt;
}

void TileView::followPreset() {
    // The preset's box goes with the preset's pattern: loaded by id, or the same pattern from a
    // session or an exported figure (which keep the pattern, not the id).
    QString id = m_document->presetId();
    if (!presetTmaLoad(id)) {
        for (const Preset& preset : builtinPresets()) {
            const QString candidate = QString::fromStdString(preset.id);
            if (presetTmaLoad(candidate) && preset.pattern == m_document->pattern()) {
                id = candidate;
                break;
            }
        }
    }
    if (id == m_presetId) {
        return;
    }
    const bool wasPresetLoad = presetTmaLoad(m_presetId).has_value();
    m_presetId = id;
    if (auto load = presetTmaLoad(id)) {
        setTmaLoad(load);
    } else if (wasPresetLoad && !m_document->presetId().isEmpty()) {
        setTmaLoad(std::nullopt); // another preset: the box was the last one's
    }
}

void TileView::setTmaLoad(const std::optional<TmaTileLoad>& load) {
    const auto same = [](const TmaTileLoad& a, const TmaTileLoad& b) {
        return a.elementBytes == b.elementBytes && a.boxInnerElements == b.boxInnerElements &&
               a.boxRows == b.boxRows && a.swizzle == b.swizzle && a.smemOffset == b.smemOffset;
    };
    if (load.has_value() == m_tma.has_value() && (!load || same(*load, *m_tma))) {
        return;
    }
    m_tma = load;
    m_xorLine = -1;
    relayout();
    update();
    emit tmaLoadChanged();
}

void TileView::setXorLine(std::int64_t line) {
    if (line != m_xorLine) {
        m_xorLine = line;
        update();
    }
}

const TileCell* TileView::cellAt(std::int64_t address) const {
    for (const TileCell& cell : m_cells) {
        if (address >= cell.address && address < cell.address + kChunkBytes) {
            return &cell;
        }
    }
    return nullptr;
}

QSizeF TileView::computeLayout(qreal width) {
    m_cells.clear();
    m_lines.clear();
    m_lineLabelRects.clear();
    m_layout.reset();
    m_tmaError.clear();
    m_elidedLines = 0;
    const QFontMetricsF metrics(font());
    const qreal lineHeight = metrics.height();
    // Two lines each: the texts wrap where the view is narrow.
    m_titleRect = QRectF(kTileMargin, kTileMargin, width - 2 * kTileMargin, 2 * lineHeight + 4);
    m_tmaRect =
        QRectF(kTileMargin, m_titleRect.bottom() + 2, width - 2 * kTileMargin, 2 * lineHeight + 4);
    m_xorRect =
        QRectF(kTileMargin, m_tmaRect.bottom() + 2, width - 2 * kTileMargin, 2 * lineHeight + 4);
    qreal y = m_xorRect.bottom() + 8;

    // ---- What is drawn: the TMA load's chunks and the access's lanes, by 16-byte chunk --------
    std::map<std::int64_t, TileCell> chunks; // by chunk address / 16
    const auto chunk = [&](std::int64_t address) -> TileCell& {
        const std::int64_t index = address / kChunkBytes;
        TileCell& cell = chunks[index];
        cell.address = index * kChunkBytes;
        cell.line = cell.address / kLineBytes;
        cell.chunk = static_cast<int>(index % kChunksPerLine);
        return cell;
    };
    if (m_tma) {
        auto layout = layTmaTile(*m_tma);
        if (layout) {
            m_layout = std::move(layout).value();
            for (std::size_t i = 0; i < m_layout->chunks.size(); ++i) {
                TileCell& cell =
                    chunk(m_layout->load.smemOffset + static_cast<std::int64_t>(i) * kChunkBytes);
                cell.source = m_layout->chunks[i];
            }
        } else {
            m_tmaError = QString::fromStdString(layout.error().describe());
        }
    }
    const auto& evaluation = m_document->evaluation();
    if (evaluation && evaluation->modern.shared) {
        const WarpAccess access = sharedSideOf(evaluation->access);
        const std::uint32_t conflicted = conflictedLanes(access, *evaluation->modern.shared);
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const auto& address = access.addresses[static_cast<std::size_t>(lane)];
            if (address && *address >= 0) {
                TileCell& cell = chunk(*address);
                cell.lanes |= 1u << lane;
                cell.conflicted |= conflicted & (1u << lane);
            }
        }
    }
    std::set<std::int64_t> lines;
    for (const auto& [index, cell] : chunks) {
        lines.insert(cell.line);
    }
    for (std::int64_t line : lines) {
        if (static_cast<int>(m_lines.size()) == kMaxLines) {
            ++m_elidedLines;
        } else {
            m_lines.push_back(line);
        }
    }

    // ---- Geometry: a label column, then 8 chunk columns ----------------------------------------
    const qreal labelWidth = metrics.horizontalAdvance(QStringLiteral("0x00000")) + 12;
    const qreal left = kTileMargin + labelWidth;
    const qreal cellWidth = std::max(56.0, (width - left - kTileMargin) / kChunksPerLine);
    const qreal rowHeight = 2 * lineHeight + 8;
    for (int c = 0; c < kChunksPerLine; ++c) {
        m_chunkHeaderRects[static_cast<std::size_t>(c)] =
            QRectF(left + c * cellWidth, y, cellWidth, lineHeight + 4);
    }
    y += lineHeight + 8;
    std::map<std::int64_t, qreal> lineTop;
    for (std::int64_t line : m_lines) {
        m_lineLabelRects.emplace_back(kTileMargin, y, labelWidth - 6, rowHeight);
        lineTop[line] = y;
        y += rowHeight;
    }
    for (auto& [index, cell] : chunks) {
        const auto top = lineTop.find(cell.line);
        if (top == lineTop.end()) {
            continue; // elided
        }
        cell.rect = QRectF(left + cell.chunk * cellWidth, top->second, cellWidth, rowHeight);
        QStringList parts;
        if (cell.source) {
            parts << QStringLiteral("r%1 c%2")
                         .arg(cell.source->row)
                         .arg(cell.source->byteInRow / kChunkBytes);
        }
        if (cell.lanes != 0) {
            parts << QStringLiteral("L") + laneListText(cell.lanes);
        }
        cell.label = parts.join(QLatin1Char('\n'));
        m_cells.push_back(cell);
    }
    y += 8;
    m_legendRect = QRectF(kTileMargin, y, width - 2 * kTileMargin, 2 * lineHeight + 8);
    y = m_legendRect.bottom() + kTileMargin;
    return QSizeF(std::max(width, left + kChunksPerLine * cellWidth + kTileMargin), y);
}

TileContent TileView::content() const {
    TileContent content;
    const auto& evaluation = m_document->evaluation();
    if (evaluation && evaluation->modern.shared) {
        content.title =
            describeAccess(evaluation->access) + QStringLiteral(" — ") + modernSummary(*evaluation);
    } else if (evaluation) {
        content.title = tr("The tile is shared memory: this pattern accesses %1 memory, so only a "
                           "TMA load is drawn.")
                            .arg(QString::fromLatin1(toString(evaluation->access.kind.space)));
    }
    if (!m_tma) {
        content.tmaText = tr("No TMA load: pick a swizzle mode above to lay a box under the "
                             "access.");
    } else if (!m_tmaError.isEmpty()) {
        content.tmaRefused = true;
        content.tmaText = tr("⚠ TMA load refused: %1").arg(m_tmaError);
    } else {
        content.tmaText =
            tr("TMA load: a %1×%2 box of %3-byte elements (%4 bytes a row), swizzle %5, at "
               "shared offset %6; chunks are coloured by the box column they hold (r row, c "
               "16-byte column)")
                .arg(m_tma->boxInnerElements)
                .arg(m_tma->boxRows)
                .arg(m_tma->elementBytes)
                .arg(m_tma->boxInnerBytes())
                .arg(QString::fromLatin1(toString(m_tma->swizzle)))
                .arg(formatAddress(m_tma->smemOffset));
    }
    const int bits = m_layout ? swizzleBits(m_layout->load.swizzle) : 0;
    if (bits > 0 && !m_lines.empty()) {
        const std::int64_t line =
            std::find(m_lines.begin(), m_lines.end(), m_xorLine) != m_lines.end() ? m_xorLine
                                                                                  : m_lines.front();
        const std::int64_t mask = (std::int64_t{1} << bits) - 1;
        content.xorText = tr("Line %1 (%2): Swizzle<%3,4,3> on the address XORs the chunk index "
                             "(address bits 4–%4) with bits 7–%5, here %6: the row's 16-byte "
                             "column c is stored in chunk c ^ %6")
                              .arg(line)
                              .arg(formatAddress(line * kLineBytes))
                              .arg(bits)
                              .arg(3 + bits)
                              .arg(6 + bits)
                              .arg(line & mask);
    } else if (evaluation && isMatrixAccess(evaluation->access.kind)) {
        content.xorText = tr("Each column is a 16-byte chunk, one bank group: rows of one matrix "
                             "in the same column are served in separate wavefronts.");
    }
    content.legend = tr("Lx: the lanes whose access starts in the chunk; a thick frame: a lane "
                        "whose bank its phase needs more than once (a conflict)");
    for (std::int64_t line : m_lines) {
        content.lineLabels.push_back(formatAddress(line * kLineBytes));
    }
    for (int c = 0; c < kChunksPerLine; ++c) {
        content.chunkLabels[static_cast<std::size_t>(c)] =
            tr("banks %1–%2").arg(4 * c).arg(4 * c + 3);
    }
    content.elidedLines = m_elidedLines;
    return content;
}

void TileView::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    paintView(painter);
}

void TileView::paintView(QPainter& painter) {
    const ViewColors colors = ViewColors::fromPalette(palette());
    painter.fillRect(rect(), colors.background);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const TileContent drawn = content();
    painter.setFont(font());
    painter.setPen(colors.text);
    painter.drawText(m_titleRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, drawn.title);
    painter.setPen(drawn.tmaRefused ? colors.warning : colors.text);
    painter.drawText(m_tmaRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, drawn.tmaText);
    painter.setPen(colors.mutedText);
    painter.drawText(m_xorRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, drawn.xorText);
    for (int c = 0; c < kChunksPerLine; ++c) {
        painter.drawText(m_chunkHeaderRects[static_cast<std::size_t>(c)], Qt::AlignCenter,
                         drawn.chunkLabels[static_cast<std::size_t>(c)]);
    }
    for (std::size_t i = 0; i < m_lineLabelRects.size() && i < drawn.lineLabels.size(); ++i) {
        const bool xorLine = m_lines[i] == m_xorLine;
        painter.setPen(xorLine ? colors.text : colors.mutedText);
        painter.drawText(m_lineLabelRects[i], Qt::AlignRight | Qt::AlignVCenter,
                         drawn.lineLabels[i]);
    }
    const std::uint32_t emphasised = m_highlight->emphasisedLanes();
    for (const TileCell& cell : m_cells) {
        const QRectF r = cell.rect.adjusted(1, 1, -1, -1);
        QColor fill = colors.surface;
        if (cell.source) {
            fill = colors.groupFill(cell.source->byteInRow / kChunkBytes);
        } else if (cell.lanes != 0) {
            fill = blendedOver(colors.requested, 0.3, colors.surface); // no TMA box: one colour
        }
        painter.fillRect(r, fill);
        drawRectOutline(painter, r, colors.frame, 1.0);
        if (cell.conflicted != 0) {
            drawRectOutline(painter, r.adjusted(1.5, 1.5, -1.5, -1.5), colors.warning, 3.0);
        }
        if ((cell.lanes & emphasised) != 0) {
            drawRectOutline(painter, r.adjusted(3, 3, -3, -3), colors.highlight, 2.0);
        }
        painter.setPen(colors.text);
        painter.drawText(r, Qt::AlignCenter, cell.label);
    }
    painter.setPen(colors.mutedText);
    QString legend = drawn.legend;
    if (drawn.elidedLines > 0) {
        legend += tr("; %n more line(s) not drawn", "", drawn.elidedLines);
    }
    painter.drawText(m_legendRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, legend);
}

void TileView::mouseMoveEvent(QMouseEvent* event) {
    const QPointF point = event->position();
    int lane = -1;
    QString tip;
    for (const TileCell& cell : m_cells) {
        if (!cell.rect.contains(point)) {
            continue;
        }
        setXorLine(cell.line);
        tip = tr("%1: line %2, chunk %3 (banks %4–%5)")
                  .arg(formatAddress(cell.address))
                  .arg(cell.line)
                  .arg(cell.chunk)
                  .arg(4 * cell.chunk)
                  .arg(4 * cell.chunk + 3);
        if (cell.source) {
            tip += tr("; holds box row %1, bytes %2–%3")
                       .arg(cell.source->row)
                       .arg(cell.source->byteInRow)
                       .arg(cell.source->byteInRow + kChunkBytes - 1);
        }
        if (cell.lanes != 0) {
            tip += tr("; lanes %1").arg(laneListText(cell.lanes));
            if (laneCount(cell.lanes) == 1) {
                lane = std::countr_zero(cell.lanes);
            }
        }
        break;
    }
    m_highlight->setHoveredLane(lane);
    setToolTip(tip);
    ZoomableView::mouseMoveEvent(event);
}

void TileView::leaveEvent(QEvent* event) {
    m_highlight->setHoveredLane(-1);
    ZoomableView::leaveEvent(event);
}

} // namespace warpscope::app
