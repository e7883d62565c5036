// The trace grid view: traced warps coloured by the model's value over the launch's cells.
#include "views/tracegridview.h"

#include "views/gridview.h"
#include "views/theme.h"
#include "views/viewpainting.h"

#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace warpscope::app {

namespace {

constexpr qreal kTraceGridMargin = 12.0;
constexpr qreal kTitleHeight = 24.0;
constexpr qreal kLegendHeight = 28.0;

std::uint64_t dim(std::int64_t value) {
    return static_cast<std::uint64_t>(std::max<std::int64_t>(1, value));
}

QString blockText(std::uint64_t index, const TraceLaunch& launch) {
    const std::uint64_t gx = dim(launch.grid.x);
    const std::uint64_t gy = dim(launch.grid.y);
    return QObject::tr("block (%1, %2, %3)")
        .arg(index % gx)
        .arg((index / gx) % gy)
        .arg(index / (gx * gy));
}

} // namespace

TraceGridView::TraceGridView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("traceGridView"));
    setMouseTracking(true);
    setAutoFillBackground(true);
}

void TraceGridView::coverParent() {
    if (QWidget* page = parentWidget()) {
        page->installEventFilter(this);
        setGeometry(page->rect());
    }
}

bool TraceGridView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) {
        setGeometry(parentWidget()->rect());
    }
    return QWidget::eventFilter(watched, event);
}

void TraceGridView::setData(TraceGridData data) {
    m_data = std::move(data);
    m_index.clear();
    m_index.reserve(m_data.warps.size());
    m_maxValue = 0.0;
    const std::uint64_t gx = dim(m_data.launch.grid.x);
    const std::uint64_t gy = dim(m_data.launch.grid.y);
    for (std::size_t i = 0; i < m_data.warps.size(); ++i) {
        const TracedWarpValue& warp = m_data.warps[i];
        const std::uint64_t block = warp.block[0] + gx * (warp.block[1] + gy * warp.block[2]);
        m_index.emplace_back(block * warpsPerBlock() + warp.warp, i);
        if (warp.counted) {
            m_maxValue = std::max(m_maxValue, warp.perRequest);
        }
    }
    // Stable: a warp recorded twice (a loop) shows its first record.
    std::stable_sort(m_index.begin(), m_index.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    update();
}

void TraceGridView::setCurrentRecord(std::optional<std::uint64_t> record) {
    m_record = record;
    update();
}

std::uint64_t TraceGridView::warpsPerBlock() const {
    const std::uint64_t threads =
        dim(m_data.launch.block.x) * dim(m_data.launch.block.y) * dim(m_data.launch.block.z);
    return (threads + 31) / 32;
}

std::uint64_t TraceGridView::blockCount() const {
    return dim(m_data.launch.grid.x) * dim(m_data.launch.grid.y) * dim(m_data.launch.grid.z);
}

std::uint64_t TraceGridView::blocksPerRow() const {
    const std::uint64_t gx = dim(m_data.launch.grid.x);
    if (dim(m_data.launch.grid.y) * dim(m_data.launch.grid.z) > 1) {
        return gx;
    }
    // A one-dimensional grid wrapped into rows, about twice as many warps wide as blocks high.
    const double side =
        std::sqrt(2.0 * static_cast<double>(gx) / static_cast<double>(warpsPerBlock()));
    return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::ceil(side)), 1, gx);
}

std::uint64_t TraceGridView::rowCount() const {
    return (blockCount() + blocksPerRow() - 1) / blocksPerRow();
}

QRectF TraceGridView::cellsRect() const {
    return QRectF(kTraceGridMargin, kTraceGridMargin + kTitleHeight, width() - 2 * kTraceGridMargin,
                  height() - 2 * kTraceGridMargin - kTitleHeight - kLegendHeight);
}

QRectF TraceGridView::legendRect() const {
    return QRectF(kTraceGridMargin, height() - kTraceGridMargin - kLegendHeight + 6,
                  width() - 2 * kTraceGridMargin, kLegendHeight - 6);
}

QRectF TraceGridView::cellRect(std::uint64_t blockIndex, std::uint32_t warp) const {
    const QRectF area = cellsRect();
    const double columns = static_cast<double>(blocksPerRow() * warpsPerBlock());
    const double cellW = area.width() / columns;
    const double cellH = area.height() / static_cast<double>(rowCount());
    const std::uint64_t row = blockIndex / blocksPerRow();
    const std::uint64_t column = (blockIndex % blocksPerRow()) * warpsPerBlock() + warp;
    return QRectF(area.left() + static_cast<double>(column) * cellW,
                  area.top() + static_cast<double>(row) * cellH, cellW, cellH);
}

const TracedWarpValue* TraceGridView::tracedAt(std::uint64_t blockIndex, std::uint32_t warp) const {
    const std::uint64_t key = blockIndex * warpsPerBlock() + warp;
    const auto found =
        std::lower_bound(m_index.begin(), m_index.end(), key,
                         [](const auto& entry, std::uint64_t k) { return entry.first < k; });
    if (found == m_index.end() || found->first != key) {
        return nullptr;
    }
    return &m_data.warps[found->second];
}

QColor TraceGridView::valueColour(double value, double /*maxValue*/) {
    // The pattern grid's fixed scale (1 to 32), so that the two grids' colours mean the same.
    return GridView::heatColour(static_cast<int>(std::lround(value)), 32);
}

QString TraceGridView::cellText(const QPoint& pos) const {
    const QRectF area = cellsRect();
    if (m_data.warps.empty() || !area.contains(pos)) {
        return {};
    }
    const double columns = static_cast<double>(blocksPerRow() * warpsPerBlock());
    const auto column =
        static_cast<std::uint64_t>((pos.x() - area.left()) * columns / area.width());
    const auto row = static_cast<std::uint64_t>((pos.y() - area.top()) *
                                                static_cast<double>(rowCount()) / area.height());
    const std::uint64_t block = row * blocksPerRow() + column / warpsPerBlock();
    const auto warp = static_cast<std::uint32_t>(column % warpsPerBlock());
    if (block >= blockCount()) {
        return {};
    }
    const QString where = tr("%1 warp %2").arg(blockText(block, m_data.launch)).arg(warp);
    const TracedWarpValue* traced = tracedAt(block, warp);
    if (traced == nullptr) {
        return tr("%1: not traced").arg(where);
    }
    if (!traced->counted) {
        return tr("%1: traced, not counted (an atomic, or addresses the models refuse)").arg(where);
    }
    return tr("%1: %2 %3").arg(where, QString::number(traced->perRequest, 'f', 2), m_data.unitName);
}

bool TraceGridView::event(QEvent* event) {
    if (handleToolTipEvent(this, event, [this](const QPoint& at) { return cellText(at); })) {
        return true;
    }
    return QWidget::event(event);
}

void TraceGridView::mouseMoveEvent(QMouseEvent* event) {
    const QString text = cellText(event->position().toPoint());
    if (!text.isEmpty()) {
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
    }
    QWidget::mouseMoveEvent(event);
}

void TraceGridView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const ViewColors colors = ViewColors::fromPalette(palette());
    painter.fillRect(rect(), colors.background);
    painter.setPen(colors.text);
    if (m_data.warps.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No traced warps for this instruction."));
        return;
    }
    QString title = tr("%1 — the model's %2 per traced warp").arg(m_data.title, m_data.unitName);
    if (m_data.warpsLeftOut > 0) {
        title += tr(" (%1 more warps not read)").arg(m_data.warpsLeftOut);
    }
    painter.drawText(
        QRectF(kTraceGridMargin, kTraceGridMargin, width() - 2 * kTraceGridMargin, kTitleHeight),
        Qt::AlignLeft | Qt::AlignVCenter, title);

    // Every cell starts as untraced: grey, hatched; the traced ones are painted over it.
    const QRectF area = cellsRect();
    const QColor untraced = blendedOver(colors.inactive, 0.35, colors.background);
    painter.fillRect(area, untraced);
    fillHatched(painter, area, colors.mutedText, 6.0, 1.0);
    for (const TracedWarpValue& warp : m_data.warps) {
        const std::uint64_t gx = dim(m_data.launch.grid.x);
        const std::uint64_t gy = dim(m_data.launch.grid.y);
        const std::uint64_t block = warp.block[0] + gx * (warp.block[1] + gy * warp.block[2]);
        if (block >= blockCount() || warp.warp >= warpsPerBlock()) {
            continue;
        }
        QRectF cell = cellRect(block, warp.warp);
        // At least one pixel, so that a sample over a large grid stays visible.
        cell.setWidth(std::max(cell.width(), 1.0));
        cell.setHeight(std::max(cell.height(), 1.0));
        painter.fillRect(cell,
                         warp.counted ? valueColour(warp.perRequest, m_maxValue) : colors.inactive);
    }
    // Warp dividers and block borders where cells are wide enough to tell apart.
    const QRectF first = cellRect(0, 0);
    if (first.width() >= 8.0 && first.height() >= 3.0 && warpsPerBlock() > 1) {
        painter.setPen(QPen(colors.grid, 1.0));
        const std::uint64_t columns = blocksPerRow() * warpsPerBlock();
        for (std::uint64_t column = 1; column < columns; ++column) {
            const qreal x = area.left() + static_cast<qreal>(column) * first.width();
            painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        }
    }
    if (first.width() * static_cast<double>(warpsPerBlock()) >= 6.0 && first.height() >= 3.0) {
        painter.setPen(QPen(colors.frame, 1.0));
        for (std::uint64_t b = 0; b < blockCount(); ++b) {
            const QRectF a = cellRect(b, 0);
            const QRectF z = cellRect(b, static_cast<std::uint32_t>(warpsPerBlock() - 1));
            painter.drawRect(a.united(z));
        }
    }
    if (m_record) {
        for (const TracedWarpValue& warp : m_data.warps) {
            if (warp.record == *m_record) {
                const std::uint64_t gx = dim(m_data.launch.grid.x);
                const std::uint64_t gy = dim(m_data.launch.grid.y);
                const std::uint64_t block =
                    warp.block[0] + gx * (warp.block[1] + gy * warp.block[2]);
                if (block < blockCount() && warp.warp < warpsPerBlock()) {
                    drawRectOutline(painter, cellRect(block, warp.warp).adjusted(-1, -1, 1, 1),
                                    colors.highlight, 2.0);
                }
                break;
            }
        }
    }

    // Legend: the colour scale's stops and the untraced swatch.
    const QRectF legend = legendRect();
    painter.setPen(colors.text);
    qreal x = legend.left();
    const qreal swatch = legend.height() - 6;
    auto item = [&](const QString& text, auto paintSwatch) {
        const QRectF box(x, legend.top() + 3, swatch, swatch);
        paintSwatch(box);
        drawRectOutline(painter, box, colors.frame, 1.0);
        const qreal textWidth = painter.fontMetrics().horizontalAdvance(text) + 16;
        painter.setPen(colors.text);
        painter.drawText(QRectF(box.right() + 4, legend.top(), textWidth, legend.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
        x = box.right() + 4 + textWidth;
    };
    const QString unit = m_data.unitName + QLatin1Char(':');
    const qreal unitWidth = painter.fontMetrics().horizontalAdvance(unit) + 8;
    painter.drawText(QRectF(x, legend.top(), unitWidth, legend.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, unit);
    x += unitWidth;
    for (const int value : {1, 4, 8, 16, 32}) {
        item(QString::number(value),
             [&](const QRectF& box) { painter.fillRect(box, valueColour(value, m_maxValue)); });
    }
    x += 16;
    item(tr("not traced"), [&](const QRectF& box) {
        painter.fillRect(box, untraced);
        fillHatched(painter, box, colors.mutedText, 4.0, 1.0);
    });
}

} // namespace warpscope::app
