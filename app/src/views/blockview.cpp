// BlockView: per-warp evaluation through the core, layout, painting, and choosing a warp.
#include "views/blockview.h"

#include "document/evaluation.h"
#include "document/patterndocument.h"
#include "views/lanehighlight.h"
#include "views/theme.h"
#include "views/viewpainting.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <limits>

namespace warpscope::app {

namespace {

constexpr qreal kBlockMargin = 12.0;
constexpr std::int64_t kMaxWarpsDrawn = 64; // a block holds at most 1024 threads = 32 warps

} // namespace

BlockView::BlockView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent)
    : ZoomableView(parent), m_document(document), m_highlight(highlight) {
    setObjectName(QStringLiteral("blockView"));
    connect(m_document, &PatternDocument::evaluationChanged, this, [this] {
        if (!isVisible()) {
            m_stale = true;
            return;
        }
        recomputeWarps();
        relayout();
    });
    connect(m_highlight, &LaneHighlight::changed, this, qOverload<>(&BlockView::update));
    recomputeWarps();
    relayout();
}

void BlockView::showEvent(QShowEvent* event) {
    if (m_stale) {
        recomputeWarps();
        relayout();
    }
    ZoomableView::showEvent(event);
}

void BlockView::recomputeWarps() {
    m_stale = false;
    m_costs.clear();
    const auto& evaluation = m_document->evaluation();
    m_hasBlock = evaluation && evaluation->pattern.source.has_value();
    if (!m_hasBlock) {
        return;
    }
    const Pattern& pattern = evaluation->pattern;
    const PatternSource& source = *pattern.source;
    m_global = usesSectors(pattern.kind.space);
    m_bx = source.blockDim.x;
    m_by = source.blockDim.y;
    m_bz = source.blockDim.z;
    const std::int64_t warps =
        std::min(kMaxWarpsDrawn, (source.blockDim.count() + kWarpSize - 1) / kWarpSize);
    Pattern warpPattern = pattern;
    for (std::int64_t w = 0; w < warps; ++w) {
        warpPattern.source->warpIndex = w;
        WarpCost cost;
        auto result = evaluatePattern(warpPattern, evaluation->textbookOptions);
        if (!result) {
            cost.error = QString::fromStdString(result.error().describe());
        } else if (const auto& g = result->modern.global) {
            cost.valid = true;
            cost.sectors = g->sectors;
            cost.efficiency = g->efficiency;
        } else if (const auto& s = result->modern.shared) {
            cost.valid = true;
            cost.wavefronts = s->wavefronts;
            cost.bankConflicts = s->bankConflicts;
        }
        m_costs.push_back(cost);
    }
}

int BlockView::costValue(const WarpCost& cost) const {
    return m_global ? cost.sectors : cost.wavefronts;
}

QString BlockView::costText(const WarpCost& cost) const {
    if (!cost.valid) {
        return tr("error: %1").arg(cost.error);
    }
    if (m_global) {
        return tr("%n sector(s), %1 efficiency", "", cost.sectors)
            .arg(QStringLiteral("%1 %").arg(cost.efficiency * 100.0, 0, 'f', 1));
    }
    return tr("%n wavefront(s), %1 bank conflict(s)", "", cost.wavefronts).arg(cost.bankConflicts);
}

QSizeF BlockView::computeLayout(qreal width) {
    m_slices.clear();
    m_costRows.clear();
    const QFontMetricsF metrics(font());
    const qreal lineHeight = metrics.height();
    m_titleRect = QRectF(kBlockMargin, kBlockMargin, width - 2 * kBlockMargin, 2 * lineHeight + 4);
    if (!m_hasBlock) {
        return QSizeF(width, m_titleRect.bottom() + kBlockMargin);
    }
    qreal y = m_titleRect.bottom() + 10;
    // A 1-D block is wrapped every 32 threads so each row is one warp.
    m_wrapped = m_by == 1 && m_bz == 1 && m_bx > kWarpSize;
    m_columns = m_wrapped ? kWarpSize : m_bx;
    m_rowsPerSlice = m_wrapped ? (m_bx + kWarpSize - 1) / kWarpSize : m_by;
    const qreal labelWidth = metrics.horizontalAdvance(QStringLiteral("y = 000 ")) + 6;
    m_cell = std::clamp((width - 2 * kBlockMargin - labelWidth) / static_cast<qreal>(m_columns),
                        9.0, 44.0);
    for (std::int64_t z = 0; z < m_bz; ++z) {
        Slice slice;
        slice.z = static_cast<int>(z);
        slice.labelRect = QRectF(kBlockMargin, y, width - 2 * kBlockMargin, lineHeight + 4);
        y += lineHeight + 6;
        slice.rect = QRectF(kBlockMargin + labelWidth, y, m_cell * static_cast<qreal>(m_columns),
                            m_cell * static_cast<qreal>(m_rowsPerSlice));
        y = slice.rect.bottom() + 12;
        m_slices.push_back(slice);
    }
    m_costTop = y;
    y += lineHeight + 8;
    for (std::size_t w = 0; w < m_costs.size(); ++w) {
        m_costRows.push_back(QRectF(kBlockMargin, y, width - 2 * kBlockMargin, lineHeight + 4));
        y += lineHeight + 4;
    }
    const qreal contentWidth =
        std::max(width, kBlockMargin * 2 + labelWidth + m_cell * static_cast<qreal>(m_columns));
    return QSizeF(contentWidth, y + kBlockMargin);
}

QRectF BlockView::threadRect(std::int64_t linear) const {
    if (!m_hasBlock || linear < 0 || linear >= m_bx * m_by * m_bz) {
        return {};
    }
    std::int64_t column = 0;
    std::int64_t row = 0;
    std::int64_t z = 0;
    if (m_wrapped) {
        column = linear % kWarpSize;
        row = linear / kWarpSize;
    } else {
        column = linear % m_bx;
        row = (linear / m_bx) % m_by;
        z = linear / (m_bx * m_by);
    }
    if (z >= static_cast<std::int64_t>(m_slices.size())) {
        return {};
    }
    const QRectF& slice = m_slices[static_cast<std::size_t>(z)].rect;
    return QRectF(slice.left() + static_cast<qreal>(column) * m_cell,
                  slice.top() + static_cast<qreal>(row) * m_cell, m_cell, m_cell);
}

int BlockView::threadAt(const QPointF& point) const {
    for (const Slice& slice : m_slices) {
        if (!slice.rect.contains(point)) {
            continue;
        }
        const auto column = static_cast<std::int64_t>((point.x() - slice.rect.left()) / m_cell);
        const auto row = static_cast<std::int64_t>((point.y() - slice.rect.top()) / m_cell);
        const std::int64_t linear =
            m_wrapped ? row * kWarpSize + column : column + m_bx * (row + m_by * slice.z);
        if (linear >= 0 && linear < m_bx * m_by * m_bz) {
            return static_cast<int>(linear);
        }
    }
    return -1;
}

void BlockView::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    const ViewColors colors = ViewColors::fromPalette(palette());
    painter.fillRect(rect(), colors.background);
    const qreal lineHeight = QFontMetricsF(font()).height();
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(colors.text);
    const auto& evaluation = m_document->evaluation();
    if (!m_hasBlock || !evaluation) {
        painter.drawText(
            m_titleRect, Qt::AlignLeft | Qt::AlignTop,
            tr("An explicit pattern lists 32 addresses for one warp: there is no block "
               "to draw."));
        return;
    }
    const std::int64_t threads = m_bx * m_by * m_bz;
    const std::int64_t selectedWarp = evaluation->pattern.source->warpIndex;
    painter.drawText(QRectF(m_titleRect.left(), m_titleRect.top(), m_titleRect.width(), lineHeight),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Block (%1, %2, %3): %4 threads in %5 warps — warp %6 chosen")
                         .arg(m_bx)
                         .arg(m_by)
                         .arg(m_bz)
                         .arg(threads)
                         .arg(m_costs.size())
                         .arg(selectedWarp));
    painter.setFont(font());
    painter.setPen(colors.mutedText);
    painter.drawText(QRectF(m_titleRect.left(), m_titleRect.top() + lineHeight + 4,
                            m_titleRect.width(), lineHeight),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Click a thread to choose its warp. Hatched warps cost more than the "
                        "cheapest one; the chosen warp shows each thread's %1.")
                         .arg(m_global ? tr("lane") : tr("bank")));

    int best = std::numeric_limits<int>::max();
    int worst = 0;
    for (const WarpCost& cost : m_costs) {
        if (cost.valid) {
            best = std::min(best, costValue(cost));
            worst = std::max(worst, costValue(cost));
        }
    }
    const QRect exposed = event->rect();
    QFont small = font();
    small.setPointSizeF(std::max(6.0, std::min(small.pointSizeF(), m_cell * 0.38)));
    const std::uint32_t emphasised = m_highlight->emphasisedLanes();

    for (const Slice& slice : m_slices) {
        painter.setPen(colors.mutedText);
        painter.drawText(slice.labelRect, Qt::AlignLeft | Qt::AlignVCenter,
                         m_bz > 1 ? tr("z = %1 (x across, y down)").arg(slice.z)
                         : m_wrapped
                             ? tr("threads 0–%1, 32 to a row (one warp per row)").arg(threads - 1)
                             : tr("x across, y down"));
        if (!slice.rect.intersects(exposed)) {
            continue;
        }
        // Row labels.
        for (std::int64_t row = 0; row < m_rowsPerSlice; ++row) {
            const QRectF label(kBlockMargin, slice.rect.top() + static_cast<qreal>(row) * m_cell,
                               slice.rect.left() - kBlockMargin - 4, m_cell);
            if (m_cell >= lineHeight * 0.8 || row % 4 == 0) {
                painter.setPen(colors.mutedText);
                painter.setFont(small);
                painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter,
                                 m_wrapped ? QStringLiteral("%1").arg(row * kWarpSize)
                                           : QStringLiteral("y = %1").arg(row));
            }
        }
        // The thread drawn at (column, row) of this slice; -1 where there is none.
        const auto threadAt = [&](std::int64_t column, std::int64_t row) -> std::int64_t {
            if (column < 0 || column >= m_columns || row < 0 || row >= m_rowsPerSlice) {
                return -1;
            }
            const std::int64_t linear =
                m_wrapped ? row * kWarpSize + column : column + m_bx * (row + m_by * slice.z);
            return linear < threads ? linear : -1;
        };
        const auto forEachThread = [&](const auto& draw) {
            for (std::int64_t row = 0; row < m_rowsPerSlice; ++row) {
                for (std::int64_t column = 0; column < m_columns; ++column) {
                    if (const std::int64_t linear = threadAt(column, row); linear >= 0) {
                        draw(column, row, linear, threadRect(linear));
                    }
                }
            }
        };
        const auto warpAt = [&](std::int64_t column, std::int64_t row) -> std::int64_t {
            const std::int64_t linear = threadAt(column, row);
            return linear < 0 ? -1 : linear / kWarpSize;
        };
        painter.setFont(small);
        forEachThread([&](std::int64_t, std::int64_t, std::int64_t linear, const QRectF& r) {
            const std::int64_t warp = linear / kWarpSize;
            const int lane = static_cast<int>(linear % kWarpSize);
            const bool selected = warp == selectedWarp;
            QColor fill = colors.surface;
            bool hatch = false;
            if (warp < static_cast<std::int64_t>(m_costs.size())) {
                const WarpCost& cost = m_costs[static_cast<std::size_t>(warp)];
                if (!cost.valid) {
                    fill = colors.inactive;
                } else if (worst > best && costValue(cost) > best) {
                    const qreal t =
                        0.2 + 0.6 * (costValue(cost) - best) / static_cast<qreal>(worst - best);
                    fill = withAlpha(colors.warning, t);
                    hatch = true;
                }
            }
            painter.setPen(Qt::NoPen);
            painter.fillRect(r, colors.surface);
            painter.fillRect(r, fill);
            if (hatch) {
                fillHatched(painter, r, withAlpha(colors.frame, 0.35), 5);
            }
            if (selected) {
                painter.fillRect(r, withAlpha(colors.highlight, 0.30));
            }
            painter.setPen(QPen(colors.grid, 0.5));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r);
            if (selected && m_cell >= 16) {
                const bool active =
                    evaluation->access.addresses[static_cast<std::size_t>(lane)].has_value();
                QString text = QString::number(lane);
                if (!m_global) {
                    const std::uint32_t banks = evaluation->banksOfLane(lane);
                    text = banks != 0 ? laneListText(banks).section(QLatin1Char(','), 0, 0)
                                      : QStringLiteral("–");
                }
                painter.setPen(active ? colors.text : colors.mutedText);
                if (isLaneInMask(emphasised, lane)) {
                    painter.setPen(QPen(colors.highlight, 2));
                    painter.drawRect(r.adjusted(1, 1, -1, -1));
                    painter.setPen(colors.text);
                }
                painter.drawText(r, Qt::AlignCenter, active ? text : QStringLiteral("×"));
            }
        });
        // Warp outlines: a thick edge wherever a neighbour belongs to another warp.
        forEachThread([&](std::int64_t column, std::int64_t row, std::int64_t linear,
                          const QRectF& r) {
            const std::int64_t warp = linear / kWarpSize;
            const bool selected = warp == selectedWarp;
            painter.setPen(QPen(selected ? colors.highlight : colors.frame, selected ? 3 : 1.6));
            if (warpAt(column - 1, row) != warp) {
                painter.drawLine(r.topLeft(), r.bottomLeft());
            }
            if (warpAt(column + 1, row) != warp) {
                painter.drawLine(r.topRight(), r.bottomRight());
            }
            if (warpAt(column, row - 1) != warp) {
                painter.drawLine(r.topLeft(), r.topRight());
            }
            if (warpAt(column, row + 1) != warp) {
                painter.drawLine(r.bottomLeft(), r.bottomRight());
            }
        });
        painter.setFont(font());
    }

    // Per-warp costs as bars, so the expensive warps stand out by length, not only by colour.
    painter.setFont(bold);
    painter.setPen(colors.text);
    painter.drawText(QRectF(kBlockMargin, m_costTop, width() - 2 * kBlockMargin, lineHeight + 4),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     m_global ? tr("Sectors per warp (modern model)")
                              : tr("Wavefronts per warp (modern model)"));
    painter.setFont(font());
    const qreal labelWidth = QFontMetricsF(font()).horizontalAdvance(QStringLiteral("W00 ")) + 8;
    const qreal barMax = std::min(360.0, (width() - 2 * kBlockMargin - labelWidth) * 0.4);
    for (std::size_t w = 0; w < m_costRows.size(); ++w) {
        const QRectF& row = m_costRows[w];
        if (!row.intersects(exposed)) {
            continue;
        }
        const WarpCost& cost = m_costs[w];
        const bool selected = static_cast<std::int64_t>(w) == selectedWarp;
        if (selected) {
            painter.fillRect(row, withAlpha(colors.highlight, 0.18));
        }
        painter.setPen(colors.text);
        painter.setFont(selected ? bold : font());
        painter.drawText(QRectF(row.left(), row.top(), labelWidth, row.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("W%1").arg(w));
        const qreal length = worst > 0 && cost.valid ? barMax * costValue(cost) / worst : 0;
        const QRectF bar(row.left() + labelWidth, row.top() + 3, std::max(1.0, length),
                         row.height() - 6);
        painter.setPen(QPen(colors.frame, 1));
        painter.setBrush(cost.valid && costValue(cost) > best ? withAlpha(colors.warning, 0.6)
                                                              : colors.groupFill(1));
        painter.drawRect(bar);
        if (cost.valid && costValue(cost) > best) {
            fillHatched(painter, bar, withAlpha(colors.frame, 0.4), 5);
        }
        painter.setPen(colors.text);
        painter.drawText(QRectF(row.left() + labelWidth + barMax + 10, row.top(),
                                row.width() - labelWidth - barMax - 10, row.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, costLabel(w));
    }
    painter.setFont(font());
}

void BlockView::mousePressEvent(QMouseEvent* event) {
    const int thread = event->button() == Qt::LeftButton ? threadAt(event->position()) : -1;
    if (thread < 0) {
        for (std::size_t w = 0; w < m_costRows.size(); ++w) {
            if (m_costRows[w].contains(event->position()) && event->button() == Qt::LeftButton) {
                Pattern pattern = m_document->pattern();
                if (pattern.source) {
                    pattern.source->warpIndex = static_cast<std::int64_t>(w);
                    m_document->editPattern(pattern, tr("Choose warp %1").arg(w),
                                            static_cast<int>(EditMerge::WarpIndex));
                }
                return;
            }
        }
        ZoomableView::mousePressEvent(event);
        return;
    }
    Pattern pattern = m_document->pattern();
    if (!pattern.source) {
        return;
    }
    pattern.source->warpIndex = thread / kWarpSize;
    m_document->editPattern(pattern, tr("Choose warp %1").arg(thread / kWarpSize),
                            static_cast<int>(EditMerge::WarpIndex));
}

void BlockView::mouseMoveEvent(QMouseEvent* event) {
    const int thread = threadAt(event->position());
    setCursor(thread >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (thread >= 0) {
        setToolTip(tr("thread %1 · warp %2, lane %3")
                       .arg(thread)
                       .arg(thread / kWarpSize)
                       .arg(thread % kWarpSize));
    } else {
        setToolTip(QString());
    }
    ZoomableView::mouseMoveEvent(event);
}

} // namespace warpscope::app
