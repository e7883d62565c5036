// WarpLayout::compute and the hit tests. Only geometry: which lines and sectors exist and which
// lanes they serve is read from the Evaluation's predictions.
#include "views/warplayout.h"

#include "views/warplegend.h"

#include <algorithm>
#include <map>
#include <set>

namespace warpscope::app {

namespace {

constexpr qreal kWarpMargin = 12.0;
constexpr qreal kMinLineWidth = 96.0;
constexpr qreal kGapWidth = 72.0;
constexpr qreal kLineSpacing = 4.0;
constexpr qreal kMaxLaneWidth = 64.0;
constexpr qreal kMinLaneWidth = 22.0;
constexpr qreal kLinksHeight = 110.0;
constexpr qreal kBandHeight = 40.0;
// On a slide (fitHeight): a line and a gap may be this narrow before the view runs past its width.
// A line's address label that would touch its neighbour's is left out (every other one).
constexpr qreal kFitMinLineWidth = 40.0;
constexpr qreal kFitGapWidth = 36.0;

std::int64_t lineStart(std::int64_t address) {
    return address - address % kLineBytes;
}

} // namespace

namespace {

/// WarpLayout::compute() with the ribbons' and the byte band's heights given.
WarpLayout layOut(const Evaluation& evaluation, qreal width, const QFontMetricsF& font,
                  bool showTextbook, qreal fitHeight, qreal linksHeight, qreal bandHeight) {
    using ListKind = WarpLayout::ListKind;
    using ListRow = WarpLayout::ListRow;
    using Line = WarpLayout::Line;
    using Gap = WarpLayout::Gap;
    using Sector = WarpLayout::Sector;
    using TransactionBox = WarpLayout::TransactionBox;
    WarpLayout layout;
    const WarpAccess& access = evaluation.access;
    // Local accesses draw their interleaved addresses, texture reads their global-load
    // equivalent: both as lines and sectors.
    layout.global = usesSectors(access.kind.space) && evaluation.modern.global;
    layout.constant = access.kind.space == MemorySpace::Constant && evaluation.modern.constant;
    // A constant load's rounds are the textbook model's passes too (one per distinct address, in
    // the order of the lowest lane), so they are drawn as its transaction boxes. The notes give
    // local and texture accesses no transaction rule: no textbook overlay.
    layout.showTextbook =
        (showTextbook && layout.global && access.kind.space == MemorySpace::Global) ||
        layout.constant;
    const qreal lineHeight = font.height();
    layout.textHeight = lineHeight;

    // ---- Which 128-byte lines to draw -------------------------------------------------------
    std::set<std::int64_t> rowAddresses;
    std::map<std::int64_t, int> lineIndexOf;
    if (layout.global) {
        const auto& lines = evaluation.modern.global->lineList;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            rowAddresses.insert(lines[i].address);
            lineIndexOf[lines[i].address] = static_cast<int>(i);
        }
        if (layout.showTextbook) {
            for (const Transaction& t : evaluation.textbook.transactions) {
                if (t.sizeBytes > 0 && t.address >= 0) {
                    rowAddresses.insert(lineStart(t.address));
                    rowAddresses.insert(lineStart(t.address + t.sizeBytes - 1));
                }
            }
        }
    }
    // The lanes' own lines too (for shared memory these are the only rows: 32 banks x 4 bytes).
    for (const auto& address : access.addresses) {
        if (address) {
            rowAddresses.insert(lineStart(*address));
        }
    }
    const std::vector<std::int64_t> rows(rowAddresses.begin(), rowAddresses.end());
    const int lineCount = static_cast<int>(rows.size());
    int gapCount = 0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        if (rows[i] - rows[i - 1] > kLineBytes) {
            ++gapCount;
        }
    }
    const int adjacentCount = std::max(0, lineCount - 1 - gapCount);

    // ---- Horizontal scale ---------------------------------------------------------------------
    const auto lineWidthFor = [&](qreal gapWidth, qreal minLineWidth) {
        const qreal available =
            width - 2 * kWarpMargin - gapCount * gapWidth - adjacentCount * kLineSpacing;
        return lineCount > 0 ? std::max(minLineWidth, available / lineCount) : minLineWidth;
    };
    qreal gapWidth = kGapWidth;
    qreal lineWidth = lineWidthFor(kGapWidth, kMinLineWidth);
    if (fitHeight > 0 &&
        lineCount * lineWidth + gapCount * kGapWidth + adjacentCount * kLineSpacing >
            width - 2 * kWarpMargin) {
        // A slide has no scroll bar: narrower gaps (their sizes then in the tool tip only where
        // the text does not fit) and lines, in the same type.
        gapWidth = std::min(kGapWidth, kFitGapWidth);
        lineWidth = lineWidthFor(gapWidth, kFitMinLineWidth);
    }
    layout.pxPerByte = lineWidth / kLineBytes;
    const qreal memoryWidth =
        lineCount * lineWidth + gapCount * gapWidth + adjacentCount * kLineSpacing;
    const qreal contentWidth = std::max(width, memoryWidth + 2 * kWarpMargin);

    // ---- Vertical layout ----------------------------------------------------------------------
    qreal y = kWarpMargin;
    layout.titleRect = QRectF(kWarpMargin, y, contentWidth - 2 * kWarpMargin, 3 * lineHeight + 8);
    y = layout.titleRect.bottom() + 10;

    const qreal laneWidth =
        std::clamp((contentWidth - 2 * kWarpMargin) / kWarpSize, kMinLaneWidth, kMaxLaneWidth);
    const qreal lanesLeft = (contentWidth - laneWidth * kWarpSize) / 2;
    const qreal laneHeight = std::max(28.0, lineHeight + 12);
    // One rounded box, moved into place for every lane (cheaper than 32 addRoundedRect calls).
    QPainterPath laneBox;
    laneBox.addRoundedRect(QRectF(0.5, 0.5, laneWidth - 3, laneHeight - 1), 3, 3);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const QRectF box(lanesLeft + lane * laneWidth + 1, y, laneWidth - 2, laneHeight);
        layout.laneRects[static_cast<std::size_t>(lane)] = box;
        layout.laneBoxes[static_cast<std::size_t>(lane)] = laneBox.translated(box.topLeft());
    }
    y += laneHeight;
    layout.linksTop = y;
    y += linksHeight;
    layout.memoryTop = y;
    const qreal bandTop = y;
    y += bandHeight;
    const qreal stripTop = y + 2;
    const qreal stripHeight = lineHeight + 6;
    y = stripTop + stripHeight;
    const qreal labelTop = y + 2;
    y = labelTop + lineHeight + 4;
    layout.memoryBottom = y;

    // ---- Lines, gaps, sectors -----------------------------------------------------------------
    qreal x = (contentWidth - memoryWidth) / 2;
    for (int i = 0; i < lineCount; ++i) {
        const std::int64_t address = rows[static_cast<std::size_t>(i)];
        if (i > 0) {
            const std::int64_t previousEnd = rows[static_cast<std::size_t>(i - 1)] + kLineBytes;
            if (address > previousEnd) {
                layout.gaps.push_back(
                    Gap{address - previousEnd, QRectF(x, bandTop, gapWidth, bandHeight)});
                x += gapWidth;
            } else {
                x += kLineSpacing;
            }
        }
        Line line;
        line.address = address;
        line.rect = QRectF(x, bandTop, lineWidth, bandHeight);
        line.labelRect = QRectF(x, labelTop, lineWidth, lineHeight + 2);
        line.group = i;
        if (auto it = lineIndexOf.find(address); it != lineIndexOf.end()) {
            line.lineIndex = it->second;
        }
        layout.lines.push_back(line);
        x += lineWidth;
    }
    if (layout.global) {
        std::map<std::int64_t, int> sectorIndexOf;
        const auto& sectors = evaluation.modern.global->sectorList;
        for (std::size_t i = 0; i < sectors.size(); ++i) {
            sectorIndexOf[sectors[i].address] = static_cast<int>(i);
        }
        const qreal sectorWidth = lineWidth * kSectorBytes / kLineBytes;
        for (const Line& line : layout.lines) {
            for (int s = 0; s < kLineBytes / kSectorBytes; ++s) {
                Sector sector;
                sector.address = line.address + std::int64_t{s} * kSectorBytes;
                const qreal left = line.rect.left() + s * sectorWidth;
                sector.bandRect = QRectF(left, bandTop, sectorWidth, bandHeight);
                sector.stripRect = QRectF(left, stripTop, sectorWidth, stripHeight);
                sector.group = line.group;
                sector.indexInLine = s;
                if (auto it = sectorIndexOf.find(sector.address); it != sectorIndexOf.end()) {
                    sector.sectorIndex = it->second;
                }
                layout.sectors.push_back(sector);
            }
        }
    }

    // ---- Textbook transactions, stacked so they never overlap ---------------------------------
    if (layout.showTextbook) {
        layout.textbookTitleRect =
            QRectF(kWarpMargin, y + 6, contentWidth - 2 * kWarpMargin, lineHeight + 4);
        y = layout.textbookTitleRect.bottom() + 4;
        const auto& transactions = evaluation.textbook.transactions;
        std::vector<int> order(transactions.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            order[i] = static_cast<int>(i);
        }
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return transactions[static_cast<std::size_t>(a)].address <
                   transactions[static_cast<std::size_t>(b)].address;
        });
        std::vector<qreal> levelEnd;
        const qreal rowHeight = lineHeight + 8;
        for (int index : order) {
            const Transaction& t = transactions[static_cast<std::size_t>(index)];
            auto span = layout.byteSpan(t.address, t.address + t.sizeBytes);
            if (!span) {
                continue;
            }
            std::size_t level = 0;
            while (level < levelEnd.size() && levelEnd[level] > span->first + 0.5) {
                ++level;
            }
            if (level == levelEnd.size()) {
                levelEnd.push_back(0);
            }
            levelEnd[level] = span->second;
            TransactionBox box;
            box.index = index;
            box.rect = QRectF(span->first, bandTop, span->second - span->first, bandHeight);
            box.labelRect = QRectF(span->first, y + static_cast<qreal>(level) * rowHeight,
                                   span->second - span->first, rowHeight - 3);
            layout.transactions.push_back(box);
        }
        y += static_cast<qreal>(levelEnd.size()) * rowHeight;
    }

    // ---- Legend and list ------------------------------------------------------------------------
    y += 8;
    // The legend wraps inside the visible width: a view narrower than its content still shows
    // all of its entries without scrolling.
    layout.legendRect =
        QRectF(kWarpMargin, y, std::min(width, contentWidth) - 2 * kWarpMargin, lineHeight + 6);
    layout.legendRect.setHeight(warpLegendHeight(layout, font));
    y = layout.legendRect.bottom() + 6;
    layout.listTop = y;
    const qreal listRowHeight = lineHeight + 4;
    y += listRowHeight; // heading
    const std::size_t transactionRows =
        layout.showTextbook ? evaluation.textbook.transactions.size() : 0;
    // On a slide the list takes what is left of the height; the rows past it are named by the
    // step line as Space reveals them, and one line below the list says how many they are.
    const qreal listBottom = fitHeight > 0 ? fitHeight - kWarpMargin : 0;
    const std::size_t rowCount = layout.lines.size() + transactionRows;
    const qreal neededBottom = y + static_cast<qreal>(rowCount) * listRowHeight +
                               (transactionRows > 0 ? listRowHeight : 0);
    const bool elide = fitHeight > 0 && neededBottom > listBottom;
    const auto place = [&](ListKind kind, int index) {
        // The last slot left is the line saying how many more there are.
        if (elide && y + 2 * listRowHeight > listBottom) {
            layout.listRows.push_back(ListRow{kind, index, QRectF()});
            ++layout.listElided;
            return;
        }
        layout.listRows.push_back(ListRow{
            kind, index, QRectF(kWarpMargin, y, contentWidth - 2 * kWarpMargin, listRowHeight)});
        y += listRowHeight;
    };
    for (std::size_t i = 0; i < layout.lines.size(); ++i) {
        place(ListKind::Line, static_cast<int>(i));
    }
    if (transactionRows > 0) {
        if (!elide || y + 3 * listRowHeight <= listBottom) {
            y += listRowHeight; // heading, with room for a row under it
        }
        for (std::size_t i = 0; i < transactionRows; ++i) {
            place(ListKind::Transaction, static_cast<int>(i));
        }
    }
    if (layout.listElided > 0) {
        layout.listElidedRect =
            QRectF(kWarpMargin, y, contentWidth - 2 * kWarpMargin, listRowHeight);
        y += listRowHeight;
    }
    // ---- Ribbons from the lanes to their bytes --------------------------------------------------
    const qreal ribbonTop = layout.linksTop;
    const qreal ribbonBottom = layout.memoryTop;
    const qreal midY = (ribbonTop + ribbonBottom) / 2;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (!address) {
            continue;
        }
        const auto span = layout.byteSpan(*address, *address + access.kind.widthBytes);
        if (!span) {
            continue;
        }
        const QRectF laneRect = layout.laneRects[static_cast<std::size_t>(lane)];
        const qreal cx = laneRect.center().x();
        const qreal half = std::min(2.5, laneRect.width() / 6);
        // Curved so the ribbons stay readable when lanes fan out over many lines.
        QPainterPath& path = layout.ribbons[static_cast<std::size_t>(lane)];
        path.moveTo(cx - half, ribbonTop);
        path.cubicTo(QPointF(cx - half, midY), QPointF(span->first, midY),
                     QPointF(span->first, ribbonBottom));
        path.lineTo(span->second, ribbonBottom);
        path.cubicTo(QPointF(span->second, midY), QPointF(cx + half, midY),
                     QPointF(cx + half, ribbonTop));
        path.closeSubpath();
    }

    layout.size = QSizeF(contentWidth, y + kWarpMargin);
    return layout;
}

} // namespace

WarpLayout WarpLayout::compute(const Evaluation& evaluation, qreal width, const QFontMetricsF& font,
                               bool showTextbook, qreal fitHeight) {
    WarpLayout layout =
        layOut(evaluation, width, font, showTextbook, fitHeight, kLinksHeight, kBandHeight);
    // A pixel short of the frame: a layout a fraction taller (rounded up) brought a scroll bar.
    const qreal spare = fitHeight - 1 - layout.size.height();
    if (fitHeight > 0 && spare > 1) {
        // A slide with room to spare (a coalesced warp beside the metrics): the ribbons and the
        // byte band take it, so the figure fills its frame instead of its top half.
        const qreal links = std::min(kLinksHeight * 3, kLinksHeight + spare * 0.7);
        const qreal band =
            std::min(kBandHeight * 2, kBandHeight + (spare - (links - kLinksHeight)));
        layout = layOut(evaluation, width, font, showTextbook, fitHeight, links, band);
    }
    return layout;
}

int WarpLayout::lineAt(std::int64_t address) const {
    const std::int64_t start = lineStart(address);
    auto it = std::lower_bound(lines.begin(), lines.end(), start,
                               [](const Line& line, std::int64_t a) { return line.address < a; });
    if (it == lines.end() || it->address != start) {
        return -1;
    }
    return static_cast<int>(it - lines.begin());
}

std::optional<std::pair<qreal, qreal>> WarpLayout::byteSpan(std::int64_t begin,
                                                            std::int64_t end) const {
    if (end <= begin || begin < 0) {
        return std::nullopt;
    }
    const int first = lineAt(begin);
    const int last = lineAt(end - 1);
    if (first < 0 || last < 0) {
        return std::nullopt;
    }
    const Line& a = lines[static_cast<std::size_t>(first)];
    const Line& b = lines[static_cast<std::size_t>(last)];
    const qreal x0 = a.rect.left() + static_cast<qreal>(begin - a.address) * pxPerByte;
    const qreal x1 = b.rect.left() + static_cast<qreal>(end - b.address) * pxPerByte;
    return std::pair{x0, x1};
}

int WarpLayout::laneAt(const QPointF& point) const {
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (laneRects[static_cast<std::size_t>(lane)].contains(point)) {
            return lane;
        }
    }
    return -1;
}

int WarpLayout::sectorAt(const QPointF& point) const {
    for (std::size_t i = 0; i < sectors.size(); ++i) {
        if (sectors[i].stripRect.contains(point) || sectors[i].bandRect.contains(point)) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int WarpLayout::transactionAt(const QPointF& point) const {
    for (const TransactionBox& box : transactions) {
        if (box.labelRect.contains(point)) {
            return box.index;
        }
    }
    return -1;
}

const WarpLayout::ListRow* WarpLayout::listRowAt(const QPointF& point) const {
    for (const ListRow& row : listRows) {
        if (row.rect.contains(point)) {
            return &row;
        }
    }
    return nullptr;
}

} // namespace warpscope::app
