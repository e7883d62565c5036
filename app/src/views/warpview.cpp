// WarpView: its state, what changed since the last paint, its picture, tool tips and clicks over
// a WarpLayout. The parts it paints are in warpview_painting.cpp.
#include "views/warpview.h"

#include "document/patterndocument.h"
#include "views/lanehighlight.h"
#include "views/predictiontext.h"
#include "views/theme.h"
#include "views/viewpainting.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>

namespace warpscope::app {

WarpView::WarpView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent)
    : SteppedView(parent), m_document(document), m_highlight(highlight) {
    setObjectName(QStringLiteral("warpView"));
    connect(m_document, &PatternDocument::evaluationChanged, this, &WarpView::relayout);
    connect(m_document, &PatternDocument::errorChanged, this, qOverload<>(&WarpView::update));
    connect(m_highlight, &LaneHighlight::changed, this, &WarpView::updateChangedLook);
    relayout();
}

void WarpView::setShowTextbook(bool show) {
    if (show == m_showTextbook) {
        return;
    }
    m_showTextbook = show;
    relayout();
}

void WarpView::revealCountChanged() {
    updateChangedLook();
}

bool WarpView::isRevealed(WarpLayout::ListKind kind, int index) const {
    if (revealCount() < 0) {
        return true;
    }
    const int row = kind == WarpLayout::ListKind::Line
                        ? index
                        : static_cast<int>(m_layout.lines.size()) + index;
    return row < revealCount();
}

QSizeF WarpView::computeLayout(qreal width) {
    if (!m_document->evaluation()) {
        m_layout = WarpLayout{};
        return QSizeF(width, 200);
    }
    m_layout = WarpLayout::compute(*m_document->evaluation(), width, QFontMetricsF(font()),
                                   m_showTextbook, heightToFit());
    return m_layout.size;
}

std::vector<WarpView::LookItem> WarpView::lookItems() const {
    const MeasurementMark& mark = measurementMark();
    std::vector<LookItem> items;
    const auto& optionalEvaluation = m_document->evaluation();
    if (!optionalEvaluation) {
        return items;
    }
    const Evaluation& evaluation = *optionalEvaluation;
    const WarpContent content = this->content();
    const std::uint32_t emphasised = m_highlight->emphasisedLanes();
    const std::uint32_t selectedLanes = m_highlight->selectedLanes();
    const int width = evaluation.access.kind.widthBytes;
    const qreal bandHeight = m_layout.lines.empty() ? 0 : m_layout.lines.front().rect.height();
    const qreal rowHeight = m_layout.textHeight + 4;
    const qreal viewWidth = std::max<qreal>(m_layout.size.width(), this->width());
    // The margins hold the outlines (up to 3 px wide, centred or outside) and, where an element
    // has a label, text that may run past its rectangle; paintEvent skips with the same ones. The
    // key hashes everything the element is drawn from, its rectangle included.
    const auto add = [&](const QRectF& rect, qreal margin, std::size_t key, qreal marginY = -1) {
        marginY = marginY < 0 ? margin : marginY;
        items.push_back(LookItem{rect.adjusted(-margin, -marginY, margin, marginY),
                                 qHashMulti(key, rect.x(), rect.y(), rect.width(), rect.height())});
    };
    const auto band = [&](const QRectF& rect) {
        return QRectF(rect.left(), rect.top(), std::max(rect.width(), viewWidth), rect.height());
    };

    add(band(m_layout.titleRect), 8,
        qHashMulti(0, content.title, content.summary, content.note, content.noteIsWarning,
                   mark.text, mark.shortText, mark.mismatch));
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto index = static_cast<std::size_t>(lane);
        const WarpContent::Lane& drawn = content.lanes[index];
        const bool isEmphasised = isLaneInMask(emphasised, lane);
        const int group = groupOfLane(evaluation, lane);
        std::optional<std::pair<qreal, qreal>> span;
        if (drawn.address) {
            span = m_layout.byteSpan(*drawn.address, *drawn.address + width);
        }
        if (!m_layout.ribbons[index].isEmpty() && span) {
            add(m_layout.ribbons[index].boundingRect(), 2,
                qHashMulti(0, group, isEmphasised, emphasised != 0,
                           m_layout.laneRects[index].center().x(), span->first, span->second));
        }
        add(m_layout.laneRects[index], 4,
            qHashMulti(0, drawn.active, drawn.inBlock, group, isEmphasised, drawn.label));
        if (span) {
            add(QRectF(span->first, m_layout.memoryTop, span->second - span->first, bandHeight), 4,
                qHashMulti(0, group, isEmphasised, m_layout.global));
        }
    }
    for (std::size_t index = 0; index < m_layout.lines.size(); ++index) {
        const WarpLayout::Line& line = m_layout.lines[index];
        add(line.rect.united(line.labelRect), 8,
            qHashMulti(0, content.lineLabels[index], m_layout.pxPerByte, m_layout.global,
                       line.labelRect.x(), line.labelRect.y(), line.labelRect.width()));
    }
    for (const WarpLayout::Gap& gap : m_layout.gaps) {
        add(gap.rect, 24, qHash(gap.bytes), 8);
    }
    for (std::size_t index = 0; index < m_layout.sectors.size(); ++index) {
        const WarpLayout::Sector& sector = m_layout.sectors[index];
        const WarpContent::Sector& drawn = content.sectors[index];
        const bool revealed = isRevealed(WarpLayout::ListKind::Line, sector.group);
        const bool selected = drawn.fetched && selectedLanes != 0 && drawn.lanes == selectedLanes;
        add(sector.stripRect.united(sector.bandRect), 8,
            qHashMulti(0, revealed, selected, drawn.fetched, sector.group, drawn.label,
                       drawn.shortLabel, m_layout.global, sector.stripRect.x(),
                       sector.stripRect.y(), sector.stripRect.width()));
    }
    if (m_layout.showTextbook) {
        add(band(m_layout.textbookTitleRect), 8, qHash(content.textbookSummary));
    }
    for (std::size_t index = 0; index < m_layout.transactions.size(); ++index) {
        const WarpLayout::TransactionBox& box = m_layout.transactions[index];
        const WarpContent::Transaction& drawn = content.transactions[index];
        add(box.rect.united(box.labelRect), 24,
            qHashMulti(0, isRevealed(WarpLayout::ListKind::Transaction, box.index),
                       (drawn.lanes & emphasised) != 0, drawn.label, drawn.shortLabel, box.rect.x(),
                       box.rect.y(), box.rect.width(), box.labelRect.x(), box.labelRect.y(),
                       box.labelRect.width()),
            8);
    }
    add(band(m_layout.legendRect), 8, qHashMulti(0, m_layout.global, m_layout.showTextbook));
    add(band(QRectF(m_layout.legendRect.left(), m_layout.listTop, m_layout.legendRect.width(),
                    rowHeight)),
        8, qHash(content.listHeading));
    bool transactionHeadingDone = false;
    int elidedShown = 0;
    for (std::size_t index = 0; index < m_layout.listRows.size(); ++index) {
        const WarpLayout::ListRow& row = m_layout.listRows[index];
        const WarpContent::ListRow& drawn = content.listRows[index];
        const bool revealed = isRevealed(row.kind, row.index);
        const bool heading =
            revealed && row.kind == WarpLayout::ListKind::Transaction && !transactionHeadingDone;
        transactionHeadingDone = transactionHeadingDone || heading;
        if (row.rect.isEmpty()) {
            elidedShown += revealed ? 1 : 0; // counted on the line below the list
            continue;
        }
        add(row.rect.united(row.rect.translated(0, -rowHeight)), 4,
            qHashMulti(0, revealed, (drawn.lanes & emphasised) != 0, heading, drawn.text,
                       drawn.marker, heading ? content.transactionHeading : QString()));
    }
    if (m_layout.listElided > 0) {
        add(m_layout.listElidedRect, 4, qHash(elidedShown));
    }
    return items;
}

void WarpView::layoutApplied(bool resized) {
    if (resized) {
        m_look = lookItems();
        update();
        return;
    }
    updateChangedLook();
}

void WarpView::updateChangedLook() {
    std::vector<LookItem> now = lookItems();
    if (now.size() != m_look.size()) {
        m_look = std::move(now);
        update();
        return;
    }
    QRegion dirty;
    for (std::size_t index = 0; index < now.size(); ++index) {
        if (now[index].key != m_look[index].key || now[index].rect != m_look[index].rect) {
            dirty += now[index].rect.toAlignedRect();
            dirty += m_look[index].rect.toAlignedRect();
        }
    }
    m_look = std::move(now);
    if (dirty.isEmpty()) {
        return;
    }
    // Painting through a clip of many rectangles costs the raster engine more per span than one
    // rectangle does: when the rectangles cover most of their bounding box anyway, repaint that.
    const QRect bounds = dirty.boundingRect();
    qint64 area = 0;
    for (const QRect& r : dirty) {
        area += qint64{r.width()} * r.height();
    }
    if (dirty.rectCount() > 1 && 2 * area >= qint64{bounds.width()} * bounds.height()) {
        update(bounds);
    } else {
        update(dirty);
    }
}

bool WarpView::needsPaint(const QRectF& rect, qreal margin, qreal marginY) const {
    marginY = marginY < 0 ? margin : marginY;
    return m_paintRegion.intersects(
        rect.adjusted(-margin, -marginY, margin, marginY).toAlignedRect());
}

int WarpView::groupOfLane(const Evaluation& evaluation, int lane) const {
    const auto& address = laneAddress(evaluation, lane);
    if (!address) {
        return -1;
    }
    const int line = m_layout.lineAt(*address);
    return line < 0 || !isRevealed(WarpLayout::ListKind::Line, line)
               ? -1
               : m_layout.lines[static_cast<std::size_t>(line)].group;
}

std::size_t WarpView::pictureKey() const {
    const MeasurementMark& mark = measurementMark();
    std::size_t key =
        qHashMulti(0, width(), height(), font().key(), m_showTextbook, revealCount(), mark.text,
                   mark.shortText, mark.mismatch, m_document->evaluation().has_value());
    const QPalette& colours = palette();
    for (int role = 0; role < QPalette::NColorRoles; ++role) {
        key = qHashMulti(key, colours.color(static_cast<QPalette::ColorRole>(role)).rgba());
    }
    for (const LookItem& item : lookItems()) {
        key = qHashMulti(key, item.key, item.rect.x(), item.rect.y(), item.rect.width(),
                         item.rect.height());
    }
    return key;
}

void WarpView::paintWholeView(QPainter& painter) {
    m_paintRegion = QRegion(rect());
    paintView(painter);
}

void WarpView::paintEvent(QPaintEvent* event) {
    if (paintAdoptedPicture(pictureKey())) {
        return;
    }
    // A hover or a reveal repaints only the elements it changed (updateChangedLook()); what lies
    // wholly outside the region is not drawn at all (needsPaint()), the rest is clipped to it.
    m_paintRegion = event->region();
    QPainter painter(this);
    paintView(painter);
}

void WarpView::paintView(QPainter& painter) {
    const ViewColors colors = ViewColors::fromPalette(palette());
    painter.fillRect(rect(), colors.background);
    const auto& evaluation = m_document->evaluation();
    if (!evaluation) {
        painter.setPen(colors.mutedText);
        painter.drawText(
            rect(), Qt::AlignCenter,
            tr("Nothing to draw: the pattern has never been valid.\n%1")
                .arg(m_document->error() ? describeError(*m_document->error()) : QString()));
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    const std::uint32_t emphasised = m_highlight->emphasisedLanes();
    const WarpContent drawn = content();
    paintTitle(painter, colors, drawn);
    paintLinks(painter, colors, *evaluation, emphasised);
    paintLanes(painter, colors, *evaluation, drawn, emphasised);
    paintMemory(painter, colors, *evaluation, drawn, emphasised);
    paintTextbook(painter, colors, drawn, emphasised);
    paintLegendAndList(painter, colors, drawn, emphasised);
}

QString WarpView::toolTipAt(const QPointF& point) const {
    const auto& evaluation = m_document->evaluation();
    if (!evaluation) {
        return {};
    }
    if (int lane = m_layout.laneAt(point); lane >= 0) {
        const auto& address = laneAddress(*evaluation, lane);
        QString text = tr("lane %1").arg(lane);
        if (evaluation->access.threads) {
            const LaneThread& t = (*evaluation->access.threads)[static_cast<std::size_t>(lane)];
            text += tr(" · thread (%1, %2, %3), index %4")
                        .arg(t.threadIdx.x)
                        .arg(t.threadIdx.y)
                        .arg(t.threadIdx.z)
                        .arg(t.linearThreadIndex);
            if (!t.existsInBlock) {
                return text + tr(" · past the end of the block");
            }
        }
        if (!address) {
            return text + tr(" · inactive");
        }
        text += tr(" · address %1 (%2)").arg(formatAddress(*address)).arg(*address);
        if (const SectorUse* sector = evaluation->sectorOfLane(lane)) {
            text += tr(" · sector %1").arg(formatAddress(sector->address));
        }
        if (const LineUse* line = evaluation->lineOfLane(lane)) {
            text += tr(" · line %1").arg(formatAddress(line->address));
        }
        return text;
    }
    if (int index = m_layout.sectorAt(point); index >= 0) {
        const WarpLayout::Sector& sector = m_layout.sectors[static_cast<std::size_t>(index)];
        if (sector.sectorIndex < 0) {
            return tr("sector %1: not fetched").arg(formatAddress(sector.address));
        }
        const SectorUse& use =
            evaluation->modern.global->sectorList[static_cast<std::size_t>(sector.sectorIndex)];
        return tr("sector %1: %2 of 32 bytes used · lanes %3 (click to highlight them)")
            .arg(formatAddress(use.address))
            .arg(use.bytesUsed)
            .arg(laneListText(use.laneMask));
    }
    if (int index = m_layout.transactionAt(point); index >= 0) {
        const Transaction& t = evaluation->textbook.transactions[static_cast<std::size_t>(index)];
        if (m_layout.constant) {
            return tr("constant-cache round R%1 of %2: %3 · lanes %4")
                .arg(index + 1)
                .arg(evaluation->textbook.transactions.size())
                .arg(formatAddress(t.address))
                .arg(laneListText(t.laneMask));
        }
        return tr("textbook transaction T%1: %2 at %3 · lanes %4")
            .arg(index + 1)
            .arg(formatBytes(t.sizeBytes))
            .arg(formatAddress(t.address))
            .arg(laneListText(t.laneMask));
    }
    return {};
}

bool WarpView::event(QEvent* event) {
    if (handleToolTipEvent(this, event, [this](const QPoint& at) { return toolTipAt(at); })) {
        return true;
    }
    const bool handled = ZoomableView::event(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::StyleChange) {
        // Colours and type are not in the elements' keys: everything is drawn anew.
        update();
    }
    return handled;
}

void WarpView::mouseMoveEvent(QMouseEvent* event) {
    const QPointF point = event->position();
    const int lane = m_layout.laneAt(point);
    m_highlight->setHoveredLane(lane);
    const bool clickable = lane >= 0 || m_layout.sectorAt(point) >= 0 ||
                           m_layout.transactionAt(point) >= 0 ||
                           m_layout.listRowAt(point) != nullptr;
    setCursor(clickable ? Qt::PointingHandCursor : Qt::ArrowCursor);
    ZoomableView::mouseMoveEvent(event);
}

void WarpView::leaveEvent(QEvent* event) {
    m_highlight->setHoveredLane(-1);
    ZoomableView::leaveEvent(event);
}

void WarpView::mousePressEvent(QMouseEvent* event) {
    const auto& evaluation = m_document->evaluation();
    if (!evaluation || event->button() != Qt::LeftButton) {
        ZoomableView::mousePressEvent(event);
        return;
    }
    const QPointF point = event->position();
    if (int lane = m_layout.laneAt(point); lane >= 0) {
        m_highlight->setSelectedLanes(1u << lane, tr("lane %1").arg(lane));
        return;
    }
    if (int index = m_layout.sectorAt(point); index >= 0) {
        const WarpLayout::Sector& sector = m_layout.sectors[static_cast<std::size_t>(index)];
        if (sector.sectorIndex >= 0) {
            const SectorUse& use =
                evaluation->modern.global->sectorList[static_cast<std::size_t>(sector.sectorIndex)];
            m_highlight->setSelectedLanes(use.laneMask, tr("sector %1: lanes %2")
                                                            .arg(formatAddress(use.address))
                                                            .arg(laneListText(use.laneMask)));
            return;
        }
    }
    if (int index = m_layout.transactionAt(point); index >= 0) {
        const Transaction& t = evaluation->textbook.transactions[static_cast<std::size_t>(index)];
        m_highlight->setSelectedLanes(
            t.laneMask,
            tr("textbook transaction T%1: lanes %2").arg(index + 1).arg(laneListText(t.laneMask)));
        return;
    }
    if (const WarpLayout::ListRow* row = m_layout.listRowAt(point)) {
        if (row->kind == WarpLayout::ListKind::Transaction) {
            const Transaction& t =
                evaluation->textbook.transactions[static_cast<std::size_t>(row->index)];
            m_highlight->setSelectedLanes(t.laneMask, tr("textbook transaction T%1: lanes %2")
                                                          .arg(row->index + 1)
                                                          .arg(laneListText(t.laneMask)));
            return;
        }
        const WarpLayout::Line& line = m_layout.lines[static_cast<std::size_t>(row->index)];
        if (line.lineIndex >= 0) {
            const LineUse& use =
                evaluation->modern.global->lineList[static_cast<std::size_t>(line.lineIndex)];
            m_highlight->setSelectedLanes(use.laneMask, tr("line %1: lanes %2")
                                                            .arg(formatAddress(use.address))
                                                            .arg(laneListText(use.laneMask)));
            return;
        }
    }
    m_highlight->clear();
}

} // namespace warpscope::app
