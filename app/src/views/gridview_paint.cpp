// GridView's drawing: the heat map with lines between blocks, the axes of block indices, the
// block and warp under the pointer, the grid model's histogram, and, while there is no grid to
// show, what is going on (computing, asked about, not computed, refused).
#include "views/gridview.h"

#include "document/patterndocument.h"
#include "views/theme.h"

#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace warpscope::app {

namespace {

constexpr int kGridMargin = 12;
constexpr int kHeaderHeight = 40;
constexpr int kHistogramWidth = 260;
/// Room left of the heat map for the blockIdx.y axis (its title turned, its labels) and below
/// it for the blockIdx.x axis (labels, then the title and what the pointer is over).
constexpr int kAxisLeft = 56;
constexpr int kAxisBottom = 40;
/// Lines between single blocks are drawn while a block is at least this wide (or high);
/// narrower blocks get a line at each labelled block only.
constexpr double kLeastBlockLinePixels = 4.0;
/// The line height the sizes above are for (the app's type, 12–13 px). Type at least a quarter
/// larger (a lecture slide at 4K: 26 px) scales them, so the histogram's rows and labels do not
/// run into one another; a desktop's slightly larger type leaves them as they are.
constexpr qreal kReferenceLineHeight = 16.0;
constexpr qreal kLeastScale = 1.25;

/// Blue (one sector or wavefront, ideal) through sky blue and orange to vermillion (32, a lane
/// each): Okabe-Ito colours on a fixed scale, so that a uniform grid of 4-sector warps is not
/// drawn as badly as one of 32 and two kernels' maps compare; inactive warps light grey.
QRgb heatRgb(int value, int maxValue) {
    if (value < 0) {
        return qRgb(200, 200, 200);
    }
    static constexpr std::array<std::array<int, 3>, 4> kStops = {
        {{0, 114, 178}, {86, 180, 233}, {230, 159, 0}, {213, 94, 0}}};
    const int top = std::max(32, maxValue);
    const double t = std::clamp((value - 1.0) / (top - 1), 0.0, 1.0) * (kStops.size() - 1);
    const auto segment = std::min<std::size_t>(static_cast<std::size_t>(t), kStops.size() - 2);
    const double f = t - static_cast<double>(segment);
    const auto& a = kStops[segment];
    const auto& b = kStops[segment + 1];
    return qRgb(static_cast<int>(a[0] + f * (b[0] - a[0])),
                static_cast<int>(a[1] + f * (b[1] - a[1])),
                static_cast<int>(a[2] + f * (b[2] - a[2])));
}

/// The smallest of 1, 2, 5, 10, 20, 50, ... blocks whose span is at least `leastPixels` when a
/// block is `blockPixels` wide.
std::int64_t tickStep(double blockPixels, double leastPixels) {
    std::int64_t decade = 1;
    for (int i = 0; i < 18; ++i, decade *= 10) {
        for (const std::int64_t step : {decade, 2 * decade, 5 * decade}) {
            if (blockPixels * static_cast<double>(step) >= leastPixels) {
                return step;
            }
        }
    }
    return decade;
}

} // namespace

QColor GridView::heatColour(int value, int maxValue) {
    return QColor(heatRgb(value, maxValue));
}

std::vector<GridView::Run> GridView::heatMapRuns() const {
    std::vector<Run> runs;
    if (!m_result) {
        return runs;
    }
    const GridResult& r = *m_result;
    const int width = static_cast<int>(r.shownBlocksX * r.warpsPerBlock);
    const int height = static_cast<int>(r.shownBlocksY);
    for (int y = 0; y < height; ++y) {
        const int* values = r.values.data() + static_cast<std::size_t>(y) * width;
        for (int x = 0; x < width; ++x) {
            if (x > 0 && values[x] == values[x - 1]) {
                ++runs.back().count;
            } else {
                runs.push_back(Run{y, x, 1, values[x]});
            }
        }
    }
    return runs;
}

void GridView::rebuildImage() {
    if (m_result) {
        m_image = heatMapImage(*m_result);
    }
}

QImage GridView::heatMapImage(const GridResult& r) {
    const int width = static_cast<int>(r.shownBlocksX * r.warpsPerBlock);
    const int height = static_cast<int>(r.shownBlocksY);
    QImage image(std::max(1, width), std::max(1, height), QImage::Format_RGB32);
    // One colour per value (values are small counts), looked up per warp.
    std::vector<QRgb> colours(static_cast<std::size_t>(std::max(0, r.maxValue)) + 2);
    for (std::size_t v = 0; v < colours.size(); ++v) {
        colours[v] = heatRgb(static_cast<int>(v) - 1, r.maxValue);
    }
    for (int y = 0; y < height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        const int* values = r.values.data() + static_cast<std::size_t>(y) * width;
        for (int x = 0; x < width; ++x) {
            line[x] = colours[static_cast<std::size_t>(std::max(-1, values[x]) + 1)];
        }
    }
    return image;
}

int GridView::scaled(int pixels) const {
    const qreal scale = QFontMetricsF(font()).height() / kReferenceLineHeight;
    return scale < kLeastScale ? pixels : qRound(pixels * scale);
}

QRect GridView::heatMapRect() const {
    const int left = scaled(kGridMargin) + scaled(kAxisLeft);
    return QRect(
        left, scaled(kHeaderHeight),
        std::max(10, width() - left - 2 * scaled(kGridMargin) - scaled(kHistogramWidth)),
        std::max(10, height() - scaled(kHeaderHeight) - scaled(kGridMargin) - scaled(kAxisBottom)));
}

std::optional<std::pair<std::int64_t, std::int64_t>> GridView::warpAt(QPoint point) const {
    if (!m_result || m_image.isNull()) {
        return std::nullopt;
    }
    const QRect area = heatMapRect();
    if (!area.contains(point)) {
        return std::nullopt;
    }
    const GridResult& r = *m_result;
    const std::int64_t column =
        (point.x() - area.left()) * m_image.width() / std::max(1, area.width());
    const std::int64_t row =
        (point.y() - area.top()) * m_image.height() / std::max(1, area.height());
    const std::int64_t blockX = column / r.warpsPerBlock;
    const std::int64_t warp = column % r.warpsPerBlock;
    if (blockX >= r.shownBlocksX || row >= r.shownBlocksY) {
        return std::nullopt;
    }
    return std::make_pair(row * r.grid.x + blockX, warp);
}

double GridView::blockWidth(const QRect& area) const {
    return m_result && m_result->shownBlocksX > 0
               ? static_cast<double>(area.width()) / static_cast<double>(m_result->shownBlocksX)
               : 0.0;
}

double GridView::blockHeight(const QRect& area) const {
    return m_result && m_result->shownBlocksY > 0
               ? static_cast<double>(area.height()) / static_cast<double>(m_result->shownBlocksY)
               : 0.0;
}

std::vector<GridView::Tick> GridView::xTicks() const {
    std::vector<Tick> ticks;
    if (!m_result || m_image.isNull()) {
        return ticks;
    }
    const QRect area = heatMapRect();
    const double width = blockWidth(area);
    // Labels as wide as the largest, a space apart.
    const double label =
        QFontMetricsF(font()).horizontalAdvance(QString::number(m_result->shownBlocksX - 1)) +
        scaled(10);
    const std::int64_t step = tickStep(width, label);
    for (std::int64_t b = 0; b < m_result->shownBlocksX; b += step) {
        ticks.push_back(Tick{b, area.left() + (static_cast<double>(b) + 0.5) * width});
    }
    return ticks;
}

std::vector<GridView::Tick> GridView::yTicks() const {
    std::vector<Tick> ticks;
    if (!m_result || m_image.isNull()) {
        return ticks;
    }
    const QRect area = heatMapRect();
    const double height = blockHeight(area);
    const std::int64_t step = tickStep(height, QFontMetricsF(font()).height() + scaled(2));
    for (std::int64_t b = 0; b < m_result->shownBlocksY; b += step) {
        ticks.push_back(Tick{b, area.top() + (static_cast<double>(b) + 0.5) * height});
    }
    return ticks;
}

namespace {

/// Lines at the boundaries of every block when blocks are wide enough, else before each
/// labelled block (but the first).
std::vector<double> boundaries(std::int64_t blocks, double blockPixels, double origin,
                               const std::vector<GridView::Tick>& ticks) {
    std::vector<double> lines;
    if (blocks <= 1) {
        return lines;
    }
    if (blockPixels >= kLeastBlockLinePixels) {
        for (std::int64_t b = 1; b < blocks; ++b) {
            lines.push_back(origin + static_cast<double>(b) * blockPixels);
        }
        return lines;
    }
    for (const GridView::Tick& tick : ticks) {
        if (tick.block > 0) {
            lines.push_back(origin + static_cast<double>(tick.block) * blockPixels);
        }
    }
    return lines;
}

} // namespace

std::vector<double> GridView::blockLinesX() const {
    if (!m_result || m_image.isNull()) {
        return {};
    }
    const QRect area = heatMapRect();
    return boundaries(m_result->shownBlocksX, blockWidth(area), area.left(), xTicks());
}

std::vector<double> GridView::blockLinesY() const {
    if (!m_result || m_image.isNull()) {
        return {};
    }
    const QRect area = heatMapRect();
    return boundaries(m_result->shownBlocksY, blockHeight(area), area.top(), yTicks());
}

QString GridView::hoverText(QPoint point) const {
    const auto warp = warpAt(point);
    if (!warp || !m_result) {
        return {};
    }
    const GridResult& r = *m_result;
    const std::int64_t bx = warp->first % r.grid.x;
    const std::int64_t by = warp->first / r.grid.x % r.grid.y;
    const std::int64_t threads = r.block.count();
    const std::int64_t first = warp->second * kWarpSize;
    const std::int64_t last = std::min(threads, first + kWarpSize) - 1;
    const auto index =
        static_cast<std::size_t>((by * r.shownBlocksX + bx) * r.warpsPerBlock + warp->second);
    const int value = index < r.values.size() ? r.values[index] : -1;
    const QString unit = r.shared     ? tr("wavefronts")
                         : r.constant ? tr("distinct addresses")
                                      : tr("sectors per request");
    return tr("Block (%1, %2, 0), warp %3: threads %4–%5 of %6; %7")
        .arg(bx)
        .arg(by)
        .arg(warp->second)
        .arg(first)
        .arg(last)
        .arg(threads)
        .arg(value < 0 ? tr("no active lane") : QStringLiteral("%1 %2").arg(value).arg(unit));
}

void GridView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const ViewColors colors = ViewColors::fromPalette(palette());
    painter.fillRect(rect(), colors.background);
    painter.setPen(colors.text);
    const QRect area = heatMapRect();
    const bool shown = m_result && !m_image.isNull();
    QString header = shown ? m_status : QString();
    if (m_progressPermille >= 0) {
        header = tr("Computing the grid… %1 %").arg(m_progressPermille / 10);
    }
    painter.drawText(QRect(scaled(kGridMargin), scaled(4), width() - 2 * scaled(kGridMargin),
                           scaled(kHeaderHeight - 6)),
                     Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, header);
    if (!shown) {
        // No grid to show: what is going on, in the heat map's place (never the previous grid).
        painter.setPen(colors.frame);
        painter.drawRect(area.adjusted(0, 0, -1, -1));
        const QRect text = area.adjusted(scaled(12), scaled(10), -scaled(12), 0);
        painter.setPen(colors.text);
        QString message = m_status;
        if (m_progressPermille >= 0) {
            message = tr("Computing this kernel's grid: %1 %. Esc or Cancel stops it; the "
                         "window stays usable meanwhile.")
                          .arg(m_progressPermille / 10);
            const QRect bar(text.left(), text.top() + scaled(52), std::min(text.width(), 400),
                            scaled(8));
            painter.drawRect(bar.adjusted(0, 0, -1, -1));
            painter.fillRect(
                QRect(bar.left(), bar.top(), bar.width() * m_progressPermille / 1000, bar.height()),
                colors.highlight);
        }
        painter.drawText(QRect(text.left(), text.top(), text.width(), scaled(48)),
                         Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, message);
        return;
    }
    paintHeatMap(painter, area);
    paintAxes(painter, area);
    paintHistogram(painter, area);
}

void GridView::paintHeatMap(QPainter& painter, const QRect& area) {
    const ViewColors colors = ViewColors::fromPalette(palette());
    std::vector<Run> runs;
    if (m_vectorCells) {
        runs = heatMapRuns();
    }
    const double cellW = static_cast<double>(area.width()) / m_image.width();
    const double cellH = static_cast<double>(area.height()) / m_image.height();
    if (!runs.empty() && runs.size() <= static_cast<std::size_t>(kMaxVectorRuns)) {
        painter.save();
        painter.setRenderHint(QPainter::Antialiasing, false);
        for (const Run& run : runs) {
            painter.fillRect(QRectF(area.left() + run.first * cellW, area.top() + run.row * cellH,
                                    run.count * cellW, cellH),
                             heatColour(run.value, m_result->maxValue));
        }
        painter.restore();
    } else {
        painter.drawImage(area, m_image);
    }
    // Lines between blocks in the background's colour: a uniform kernel's blocks stay apart.
    QColor line = colors.background;
    line.setAlpha(200);
    painter.setPen(QPen(line, 1));
    for (const double x : blockLinesX()) {
        painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom() + 1));
    }
    for (const double y : blockLinesY()) {
        painter.drawLine(QPointF(area.left(), y), QPointF(area.right() + 1, y));
    }
    // The block under the pointer, then the selected warp, outlined.
    if (m_hover) {
        if (const auto warp = warpAt(*m_hover)) {
            const double bw = blockWidth(area);
            const double bh = blockHeight(area);
            const std::int64_t bx = warp->first % m_result->grid.x;
            const std::int64_t by = warp->first / m_result->grid.x % m_result->grid.y;
            painter.setPen(QPen(colors.text, 1, Qt::DashLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(area.left() + static_cast<double>(bx) * bw,
                                    area.top() + static_cast<double>(by) * bh, std::max(3.0, bw),
                                    std::max(3.0, bh)));
        }
    }
    const auto& source = m_document->pattern().source;
    if (source && source->blockIdx.z == 0 && source->blockIdx.x < m_result->shownBlocksX &&
        source->blockIdx.y < m_result->shownBlocksY) {
        const double x =
            area.left() +
            static_cast<double>(source->blockIdx.x * m_result->warpsPerBlock + source->warpIndex) *
                cellW;
        const double y = area.top() + static_cast<double>(source->blockIdx.y) * cellH;
        painter.setPen(QPen(colors.highlight, 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(x, y, std::max(3.0, cellW), std::max(3.0, cellH)));
    }
    painter.setPen(colors.frame);
    painter.drawRect(area.adjusted(0, 0, -1, -1));
}

void GridView::paintAxes(QPainter& painter, const QRect& area) const {
    const ViewColors colors = ViewColors::fromPalette(palette());
    const QFontMetrics metrics(font());
    const int tick = scaled(4);
    const int labelHeight = metrics.height();
    painter.setPen(colors.text);
    // blockIdx.x under the map: a tick and a label centred on each labelled block.
    for (const Tick& t : xTicks()) {
        const int x = qRound(t.position);
        painter.drawLine(x, area.bottom() + 1, x, area.bottom() + tick);
        const QString label = QString::number(t.block);
        const int w = metrics.horizontalAdvance(label);
        painter.drawText(QRect(x - w / 2 - 2, area.bottom() + tick + 1, w + 4, labelHeight),
                         Qt::AlignCenter, label);
    }
    // blockIdx.y left of the map, top to bottom.
    for (const Tick& t : yTicks()) {
        const int y = qRound(t.position);
        painter.drawLine(area.left() - tick, y, area.left() - 1, y);
        painter.drawText(
            QRect(area.left() - tick - scaled(40), y - labelHeight / 2, scaled(38), labelHeight),
            Qt::AlignRight | Qt::AlignVCenter, QString::number(t.block));
    }
    // The axes' titles: what a column and a row are; the x title gives way to what the pointer
    // is over.
    const QRect titleRow(area.left(), area.bottom() + tick + labelHeight + 2, area.width(),
                         labelHeight);
    const QString xTitle = m_result->warpsPerBlock == 1
                               ? tr("blockIdx.x → (one warp per block)")
                               : tr("blockIdx.x → (each block: its %1 warps side by side)")
                                     .arg(m_result->warpsPerBlock);
    const QString hover = m_hover ? hoverText(*m_hover) : QString();
    painter.setPen(hover.isEmpty() ? colors.mutedText : colors.text);
    painter.drawText(
        titleRow, Qt::AlignLeft | Qt::AlignVCenter,
        metrics.elidedText(hover.isEmpty() ? xTitle : hover, Qt::ElideRight, titleRow.width()));
    painter.save();
    painter.setPen(colors.mutedText);
    // Turned to read upwards along the axis, as a chart's y title does; the labels say that
    // blockIdx.y grows downwards.
    painter.translate(scaled(kGridMargin), area.bottom() + 1);
    painter.rotate(-90);
    painter.drawText(QRect(0, 0, area.height(), labelHeight), Qt::AlignCenter, tr("blockIdx.y"));
    painter.restore();
}

void GridView::paintHistogram(QPainter& painter, const QRect& area) const {
    const ViewColors colors = ViewColors::fromPalette(palette());
    // The grid model's histogram: warps per count, over the whole grid.
    const QRect hist(area.right() + scaled(kGridMargin), area.top(), scaled(kHistogramWidth),
                     std::min(area.height(), scaled(34 * 14 + 20)));
    painter.setPen(colors.text);
    const auto& counts = m_result->prediction.histogram;
    std::int64_t most = 1;
    int last = 1;
    for (int k = 0; k < kHistogramBuckets; ++k) {
        most = std::max(most, counts[static_cast<std::size_t>(k)]);
        if (counts[static_cast<std::size_t>(k)] > 0) {
            last = std::max(last, k);
        }
    }
    painter.drawText(QRect(hist.left(), hist.top(), hist.width(), scaled(18)), Qt::AlignLeft,
                     m_result->shared     ? tr("warps by wavefronts (grid model)")
                     : m_result->constant ? tr("warps by distinct addresses (grid model)")
                                          : tr("warps by sectors/request (grid model)"));
    const int rowHeight =
        std::max(scaled(8), std::min(scaled(14), (hist.height() - scaled(20)) / (last + 1)));
    for (int k = 0; k <= last; ++k) {
        const int y = hist.top() + scaled(20) + k * rowHeight;
        const std::int64_t n = counts[static_cast<std::size_t>(k)];
        painter.setPen(colors.mutedText);
        painter.drawText(QRect(hist.left(), y, scaled(24), rowHeight),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(k));
        const int barWidth = static_cast<int>((hist.width() - scaled(110)) * n / most);
        painter.fillRect(QRect(hist.left() + scaled(30), y + 1, barWidth, rowHeight - 2),
                         heatColour(k == 0 ? -1 : k, m_result->maxValue));
        if (n > 0) {
            painter.setPen(colors.text);
            painter.drawText(QRect(hist.left() + scaled(34) + barWidth, y, scaled(80), rowHeight),
                             Qt::AlignLeft | Qt::AlignVCenter, QString::number(n));
        }
    }
}

} // namespace warpscope::app
