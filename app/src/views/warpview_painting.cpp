// WarpView's painting, part by part: the title lines, the lanes and the ribbons to memory, the
// lines and sectors, the textbook transactions, the legend and the list.
#include "views/warplegend.h"
#include "views/warpview.h"

#include "document/patterndocument.h"
#include "views/lanehighlight.h"
#include "views/predictiontext.h"
#include "views/theme.h"
#include "views/viewpainting.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

namespace warpscope::app {

void WarpView::paintTitle(QPainter& painter, const ViewColors& colors, const WarpContent& content) {
    const MeasurementMark& mark = measurementMark();
    const QRectF& r = m_layout.titleRect;
    const qreal lineHeight = m_layout.textHeight;
    auto line = [&](int index) {
        return QRectF(r.left(), r.top() + index * (lineHeight + 4), r.width(), lineHeight);
    };
    QFont bold = font();
    bold.setBold(true);
    if (!needsPaint(QRectF(r.left(), r.top(), std::max<qreal>(r.width(), width()), r.height()),
                    8)) {
        if (!mark.isEmpty() && mark.mismatch) {
            // The mismatch frame runs around the whole view.
            paintMeasurementBadge(
                painter, colors, font(), line(1), QRectF(rect()), mark.text, mark.mismatch,
                QFontMetricsF(font()).horizontalAdvance(content.summary), mark.shortText);
        }
        return;
    }
    // A line longer than the view (on a slide, or a window as narrow as 1366 pixels) ends in an
    // ellipsis instead of being cut off mid-word at the frame; the metrics table and the tool
    // tips keep the whole text.
    const auto fitted = [&](const QString& text) {
        return QFontMetricsF(painter.font()).elidedText(text, Qt::ElideRight, r.width());
    };
    painter.setFont(bold);
    painter.setPen(colors.text);
    m_texts.draw(painter, line(0), Qt::AlignLeft, fitted(content.title));
    painter.setFont(font());
    m_texts.draw(painter, line(1), Qt::AlignLeft, fitted(content.summary));
    if (!mark.isEmpty()) {
        paintMeasurementBadge(
            painter, colors, font(), line(1), QRectF(rect()), mark.text, mark.mismatch,
            QFontMetricsF(font()).horizontalAdvance(content.summary), mark.shortText);
    }
    painter.setFont(font());
    painter.setPen(content.noteIsWarning ? colors.warning : colors.mutedText);
    m_texts.draw(painter, line(2), Qt::AlignLeft, fitted(content.note));
}

void WarpView::paintLanes(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                          const WarpContent& content, std::uint32_t emphasised) {
    QFont small = font();
    const qreal laneWidth = m_layout.laneRects[0].width();
    if (laneWidth < 26) {
        small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
    }
    painter.setFont(small);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const QRectF r = m_layout.laneRects[static_cast<std::size_t>(lane)];
        const WarpContent::Lane& drawn = content.lanes[static_cast<std::size_t>(lane)];
        const bool exists = drawn.inBlock;
        const bool isEmphasised = isLaneInMask(emphasised, lane);
        if (!needsPaint(r)) {
            continue;
        }
        if (!drawn.active) {
            // Inactive (or not in the block): grey, crossed out, so it does not rely on colour.
            painter.setPen(QPen(colors.grid, 1, exists ? Qt::SolidLine : Qt::DashLine));
            painter.setBrush(colors.inactive);
            painter.drawRect(r);
            painter.setPen(QPen(colors.mutedText, 1));
            painter.drawLine(r.topLeft() + QPointF(3, 3), r.bottomRight() - QPointF(3, 3));
            painter.drawLine(r.topRight() + QPointF(-3, 3), r.bottomLeft() + QPointF(3, -3));
            painter.setPen(colors.mutedText);
            m_texts.draw(painter, r, Qt::AlignHCenter, drawn.label);
            continue;
        }
        const int group = groupOfLane(evaluation, lane);
        painter.setPen(QPen(isEmphasised ? colors.highlight : colors.frame, isEmphasised ? 3 : 1));
        painter.setBrush(group >= 0 ? colors.groupFill(group) : colors.surface);
        painter.drawPath(m_layout.laneBoxes[static_cast<std::size_t>(lane)]);
        painter.setPen(colors.text);
        m_texts.draw(painter, r.adjusted(0, 0, 0, -6), Qt::AlignHCenter, drawn.label);
        if (group >= 0) {
            drawGroupMarker(painter, QPointF(r.center().x(), r.bottom() - 5), 6, group,
                            colors.group(group), colors.frame);
        }
    }
    painter.setFont(font());
}

void WarpView::paintLinks(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                          std::uint32_t emphasised) {
    for (int pass = 0; pass < 2; ++pass) {
        // Emphasised links last, so they are on top.
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const QPainterPath& path = m_layout.ribbons[static_cast<std::size_t>(lane)];
            const bool isEmphasised = isLaneInMask(emphasised, lane);
            if (path.isEmpty() || (pass == 1) != isEmphasised ||
                !needsPaint(path.boundingRect(), 2)) {
                continue;
            }
            const int group = groupOfLane(evaluation, lane);
            const QColor base = group >= 0 ? colors.group(group) : colors.frame;
            qreal alpha = 0.45;
            if (emphasised != 0) {
                alpha = isEmphasised ? 0.95 : 0.12;
            }
            // The ribbons lie on the plain background, so the translucent tint is blended here
            // and filled opaque: Qt's raster engine hands every translucent fill of more than a
            // few dozen spans to its thread pool and waits for it, which made these 32 fills
            // most of the view's paint time (docs/benchmarks.md, "Desktop app").
            painter.setPen(Qt::NoPen);
            painter.setBrush(blendedOver(base, alpha, colors.background));
            painter.drawPath(path);
            if (isEmphasised) {
                painter.setPen(QPen(colors.highlight, 1.5));
                painter.setBrush(Qt::NoBrush);
                painter.drawPath(path);
            }
        }
    }
}

void WarpView::paintMemory(QPainter& painter, const ViewColors& colors,
                           const Evaluation& evaluation, const WarpContent& content,
                           std::uint32_t emphasised) {
    const qreal pxPerByte = m_layout.pxPerByte;
    const int width = evaluation.access.kind.widthBytes;
    const std::uint32_t selectedLanes = m_highlight->selectedLanes();

    // Lines: untouched bytes first, then fetched sectors tinted and hatched (fetched but unused),
    // then the requested bytes solid on top. Everything here is opaque: the hatching's and the
    // word ticks' tints are blended in advance (see blendedOver()).
    painter.setPen(Qt::NoPen);
    painter.setBrush(colors.surface);
    for (const WarpLayout::Line& line : m_layout.lines) {
        painter.drawRect(line.rect);
    }
    for (const WarpLayout::Sector& sector : m_layout.sectors) {
        if (sector.sectorIndex < 0 || !isRevealed(WarpLayout::ListKind::Line, sector.group) ||
            !needsPaint(sector.bandRect)) {
            continue;
        }
        const QColor fill = colors.groupFill(sector.group);
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill);
        painter.drawRect(sector.bandRect);
        fillHatched(painter, sector.bandRect, blendedOver(colors.hatch, 0.75, fill), 6.0, 1.0);
    }
    const qreal bandHeight = m_layout.lines.empty() ? 0 : m_layout.lines.front().rect.height();
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = laneAddress(evaluation, lane);
        if (!address) {
            continue;
        }
        auto span = m_layout.byteSpan(*address, *address + width);
        if (!span) {
            continue;
        }
        const QRectF bytes(span->first, m_layout.memoryTop, span->second - span->first, bandHeight);
        if (!needsPaint(bytes)) {
            continue;
        }
        const int group = groupOfLane(evaluation, lane);
        painter.setPen(Qt::NoPen);
        painter.setBrush(m_layout.global && group >= 0 ? colors.group(group) : colors.requested);
        painter.drawRect(bytes);
    }

    // Grid: words (when there is room), sectors, lines.
    const QColor tick = blendedOver(colors.grid, 0.9, colors.surface);
    QVarLengthArray<QLineF, 64> ticks;
    // Lines narrower than their address (a slide fitting many lines into its width): a label
    // that would run into the one drawn before it is left out.
    const QFontMetricsF labelMetrics(font());
    qreal labelsEnd = -1e9;
    for (std::size_t lineIndex = 0; lineIndex < m_layout.lines.size(); ++lineIndex) {
        const WarpLayout::Line& line = m_layout.lines[lineIndex];
        const QRectF r = line.rect;
        if (!needsPaint(r.united(line.labelRect), 8)) {
            continue;
        }
        if (pxPerByte * kBankWordBytes >= 4) {
            ticks.clear();
            for (int b = kBankWordBytes; b < kLineBytes; b += kBankWordBytes) {
                const qreal x = r.left() + b * pxPerByte;
                ticks.append(QLineF(x, r.top(), x, r.top() + r.height() * 0.3));
                ticks.append(QLineF(x, r.bottom() - r.height() * 0.3, x, r.bottom()));
            }
            painter.setPen(QPen(tick, 1));
            painter.drawLines(ticks.constData(), static_cast<int>(ticks.size()));
        }
        if (m_layout.global) {
            // Sector boundaries, 1.5 px, filled as thin rectangles (see drawRectOutline()).
            painter.setPen(Qt::NoPen);
            painter.setBrush(colors.frame);
            for (int b = kSectorBytes; b < kLineBytes; b += kSectorBytes) {
                const qreal x = r.left() + b * pxPerByte;
                painter.drawRect(QRectF(x - 0.75, r.top(), 1.5, r.height()));
            }
        }
        drawRectOutline(painter, r, colors.frame, 2);
        painter.setPen(colors.mutedText);
        const QString label = QStringLiteral(" ") + content.lineLabels[lineIndex];
        if (line.labelRect.left() >= labelsEnd) {
            m_texts.draw(painter, line.labelRect, Qt::AlignLeft, label);
            labelsEnd = line.labelRect.left() + labelMetrics.horizontalAdvance(label) + 4;
        }
    }
    // The lanes being followed, outlined on their bytes (over the grid).
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = laneAddress(evaluation, lane);
        if (!address || !isLaneInMask(emphasised, lane)) {
            continue;
        }
        if (auto span = m_layout.byteSpan(*address, *address + width)) {
            const QRectF bytes(span->first, m_layout.memoryTop, span->second - span->first,
                               bandHeight);
            drawRectOutline(painter, bytes.adjusted(-1, -1, 1, 1), colors.highlight, 3);
        }
    }

    // Gaps: untouched memory, elided with its size.
    for (const WarpLayout::Gap& gap : m_layout.gaps) {
        if (!needsPaint(gap.rect, 24, 8)) {
            continue;
        }
        const QRectF r = gap.rect.adjusted(6, 6, -6, -6);
        painter.setPen(QPen(colors.mutedText, 1, Qt::DotLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
        painter.setPen(colors.mutedText);
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        painter.setFont(small);
        painter.fillRect(QRectF(r.left() + 2, r.center().y() - 8, r.width() - 4, 16),
                         colors.background);
        // A narrow gap (a slide fitting many lines) keeps the size alone, or the ellipsis.
        const QFontMetricsF smallMetrics(small);
        QString gapText = QStringLiteral("⋯ %1 ⋯").arg(formatBytes(gap.bytes));
        if (smallMetrics.horizontalAdvance(gapText) > gap.rect.width()) {
            gapText = formatBytes(gap.bytes);
            if (smallMetrics.horizontalAdvance(gapText) > gap.rect.width()) {
                gapText = QStringLiteral("⋯");
            }
        }
        m_texts.draw(painter, gap.rect, Qt::AlignHCenter, gapText);
        painter.setFont(font());
    }

    // Sector strip: which sectors the modern model fetches, each labelled and marked.
    if (!m_layout.global) {
        return;
    }
    for (std::size_t index = 0; index < m_layout.sectors.size(); ++index) {
        const WarpLayout::Sector& sector = m_layout.sectors[index];
        const WarpContent::Sector& drawn = content.sectors[index];
        const QRectF r = sector.stripRect.adjusted(1, 0, -1, 0);
        if (!needsPaint(sector.stripRect, 8)) {
            continue;
        }
        const bool revealed = isRevealed(WarpLayout::ListKind::Line, sector.group);
        const bool fetched = drawn.fetched && revealed;
        const bool selected = fetched && selectedLanes != 0 && drawn.lanes == selectedLanes;
        if (fetched) {
            painter.setPen(QPen(selected ? colors.highlight : colors.frame, selected ? 3 : 1));
            painter.setBrush(colors.groupFill(sector.group));
            painter.drawRect(r);
            drawGroupMarker(painter, QPointF(r.left() + 8, r.center().y()), 8, sector.group,
                            colors.group(sector.group), colors.frame);
            painter.setPen(colors.text);
            m_texts.draw(painter, r.adjusted(16, 0, 0, 0), Qt::AlignLeft,
                         r.width() > 90 ? drawn.label : drawn.shortLabel);
        } else {
            painter.setPen(QPen(colors.grid, 1, Qt::DashLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r);
            painter.setPen(colors.mutedText);
            if (r.width() > 60 && revealed) {
                m_texts.draw(painter, r, Qt::AlignHCenter, drawn.label);
            }
        }
    }
}

void WarpView::paintTextbook(QPainter& painter, const ViewColors& colors,
                             const WarpContent& content, std::uint32_t emphasised) {
    if (!m_layout.showTextbook) {
        return;
    }
    painter.setPen(colors.text);
    QFont bold = font();
    bold.setBold(true);
    const QRectF& titleRect = m_layout.textbookTitleRect;
    // One line: smaller where the panel is narrower than it ("100.0 % efficie" on a slide).
    painter.setFont(fontFitting(bold, content.textbookSummary, titleRect.width()));
    if (needsPaint(QRectF(titleRect.left(), titleRect.top(),
                          std::max<qreal>(titleRect.width(), width()), titleRect.height()),
                   8)) {
        m_texts.draw(painter, titleRect, Qt::AlignLeft, content.textbookSummary);
    }
    painter.setFont(font());
    for (std::size_t index = 0; index < m_layout.transactions.size(); ++index) {
        const WarpLayout::TransactionBox& box = m_layout.transactions[index];
        if (!isRevealed(WarpLayout::ListKind::Transaction, box.index) ||
            !needsPaint(box.rect.united(box.labelRect), 24, 8)) {
            continue;
        }
        const WarpContent::Transaction& drawn = content.transactions[index];
        const bool isEmphasised = (drawn.lanes & emphasised) != 0;
        const QColor pen = isEmphasised ? colors.highlight : colors.text;
        // The outline on the memory itself...
        drawDashedRectOutline(painter, box.rect.adjusted(2, 2, -2, -2), pen, isEmphasised ? 3 : 2);
        // ... and its labelled bracket underneath.
        const QRectF r = box.labelRect.adjusted(2, 0, -2, 0);
        if (isEmphasised) {
            drawDashedRectOutline(painter, r, pen, 2);
        } else if (painter.device()->devicePixelRatio() > 1) {
            // Filled as rectangles in Qt::DashLine's pattern: wider than a device pixel, the
            // dashed pen went through the path stroker, a tenth of the view's paint at device
            // pixel ratio 2. One device pixel wide it takes the raster engine's fast thin-line
            // path, whose dashes and antialiasing differ, so that stays.
            drawDashedRectOutline(painter, r, pen, 1);
        } else {
            painter.setPen(QPen(pen, 1, Qt::DashLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r);
        }
        painter.setPen(colors.text);
        const bool fits = m_texts.text(drawn.label, painter.font()).size().width() < r.width() - 4;
        m_texts.draw(painter, r, Qt::AlignHCenter, fits ? drawn.label : drawn.shortLabel);
    }
}

void WarpView::paintLegendAndList(QPainter& painter, const ViewColors& colors,
                                  const WarpContent& content, std::uint32_t emphasised) {
    // Legend: every fill the band uses, with its meaning, in the rows the layout wrapped it to.
    const bool legendShown = needsPaint(
        QRectF(0, m_layout.legendRect.top(), std::max<qreal>(m_layout.legendRect.right(), width()),
               m_layout.legendRect.height()),
        8);
    using LegendKind = WarpLegendItem::Kind;
    for (const WarpLegendItem& item : warpLegendItems(m_layout, QFontMetricsF(font()))) {
        if (!legendShown) {
            break;
        }
        const QRectF& box = item.swatchRect;
        switch (item.kind) {
        case LegendKind::Requested:
            painter.setPen(QPen(colors.frame, 1));
            painter.setBrush(m_layout.global ? colors.group(0) : colors.requested);
            painter.drawRect(box);
            break;
        case LegendKind::FetchedUnused:
            painter.setPen(QPen(colors.frame, 1));
            painter.setBrush(colors.groupFill(0));
            painter.drawRect(box);
            fillHatched(painter, box, colors.hatch, 6.0);
            break;
        case LegendKind::NotFetched:
            painter.setPen(QPen(colors.grid, 1, Qt::DashLine));
            painter.setBrush(colors.surface);
            painter.drawRect(box);
            break;
        case LegendKind::Textbook:
        case LegendKind::ConstantRound:
            drawDashedRectOutline(painter, box, colors.text, 2);
            break;
        case LegendKind::OneLine:
            drawGroupMarker(painter, box.center(), 10, 0, colors.group(0), colors.frame);
            break;
        }
        painter.setPen(colors.text);
        m_texts.draw(painter,
                     QRectF(item.textRect.left(), box.top(), item.textRect.width(), box.height()),
                     Qt::AlignLeft, item.text);
    }

    // The list of lines (modern) and transactions (textbook).
    QFont bold = font();
    bold.setBold(true);
    const qreal rowHeight = m_layout.textHeight + 4;
    painter.setFont(bold);
    painter.setPen(colors.text);
    const QRectF headingRect(m_layout.legendRect.left(), m_layout.listTop,
                             m_layout.legendRect.width(), rowHeight);
    if (needsPaint(headingRect, 8)) {
        m_texts.draw(painter, headingRect, Qt::AlignLeft, content.listHeading);
    }
    painter.setFont(font());
    bool transactionHeadingDone = false;
    int elidedShown = 0; // revealed rows the list has no room for
    for (std::size_t index = 0; index < m_layout.listRows.size(); ++index) {
        const WarpLayout::ListRow& row = m_layout.listRows[index];
        if (!isRevealed(row.kind, row.index)) {
            continue;
        }
        const WarpContent::ListRow& drawn = content.listRows[index];
        const std::uint32_t mask = drawn.lanes;
        const int marker = drawn.marker;
        if (row.rect.isEmpty()) {
            ++elidedShown; // past a slide's height: the step line names it (listElided)
            continue;
        }
        if (row.kind == WarpLayout::ListKind::Transaction && !transactionHeadingDone) {
            transactionHeadingDone = true;
            if (needsPaint(row.rect.translated(0, -rowHeight))) {
                painter.setFont(bold);
                painter.setPen(colors.text);
                m_texts.draw(painter, row.rect.translated(0, -rowHeight), Qt::AlignLeft,
                             content.transactionHeading);
                painter.setFont(font());
            }
        }
        if (!needsPaint(row.rect)) {
            continue;
        }
        const bool isEmphasised = (mask & emphasised) != 0;
        if (isEmphasised) {
            painter.fillRect(row.rect, blendedOver(colors.highlight, 0.18, colors.background));
        }
        qreal textLeft = row.rect.left() + 4;
        if (marker >= 0) {
            drawGroupMarker(painter, QPointF(row.rect.left() + 10, row.rect.center().y()), 10,
                            marker, colors.group(marker), colors.frame);
            textLeft += 18;
        } else {
            drawDashedRectOutline(painter,
                                  QRectF(row.rect.left() + 3, row.rect.center().y() - 5, 14, 10),
                                  colors.text, 1.5);
            textLeft += 18;
        }
        painter.setPen(colors.text);
        m_texts.draw(
            painter,
            QRectF(textLeft, row.rect.top(), row.rect.right() - textLeft, row.rect.height()),
            Qt::AlignLeft, drawn.text);
    }
    if (elidedShown > 0 && needsPaint(m_layout.listElidedRect)) {
        painter.setPen(colors.mutedText);
        m_texts.draw(
            painter, m_layout.listElidedRect.adjusted(4, 0, 0, 0), Qt::AlignLeft,
            tr("… %n more not listed here: stepping with Space names each in the line below", "",
               elidedShown));
    }
}

} // namespace warpscope::app
