// BankView's painting: the picture it keeps (and the key that says when it is stale), the banks,
// the words each lane touches, the wavefronts and the legend.
#include "views/bankview.h"

#include "document/patterndocument.h"
#include "views/lanehighlight.h"
#include "views/predictiontext.h"
#include "views/theme.h"
#include "views/viewpainting.h"

#include <QFontMetricsF>
#include <QHash>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace warpscope::app {

namespace {

std::size_t hashRect(std::size_t key, const QRectF& rect) {
    return qHashMulti(key, rect.x(), rect.y(), rect.width(), rect.height());
}

} // namespace

std::size_t BankView::pictureKey() const {
    const MeasurementMark& mark = measurementMark();
    const auto& evaluation = m_document->evaluation();
    std::size_t key = qHashMulti(0, width(), height(), font().key(), revealCount(), mark.text,
                                 mark.shortText, mark.mismatch, evaluation.has_value(), m_shared,
                                 m_highlight->emphasisedLanes(), m_labelWidth);
    const QPalette& colours = palette();
    for (int role = 0; role < QPalette::NColorRoles; ++role) {
        key = qHashMulti(key, colours.color(static_cast<QPalette::ColorRole>(role)).rgba());
    }
    if (!evaluation) {
        return key;
    }
    // Every text the paint draws, and what picks a colour beside the texts.
    const BankContent drawn = content();
    key = qHashMulti(key, drawn.shared, drawn.title, drawn.note, drawn.noteIsWarning,
                     drawn.phaseHeading, drawn.fusionNote, drawn.wavefrontHeading);
    for (const QString& text : drawn.phaseLabels) {
        key = qHashMulti(key, text);
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto index = static_cast<std::size_t>(lane);
        key = qHashMulti(key, drawn.laneSplit[index], drawn.laneLabels[index],
                         drawn.laneActive[index], drawn.lanePhase[index]);
        key = hashRect(key, m_phaseLaneRects[index]);
    }
    for (int bank = 0; bank < kBankCount; ++bank) {
        const auto index = static_cast<std::size_t>(bank);
        key = qHashMulti(key, drawn.bankLabels[index], drawn.degreeLabels[index],
                         m_bankDegree[index]);
        key = hashRect(key, m_headerRects[index]);
    }
    for (const QString& text : drawn.rowLabels) {
        key = qHashMulti(key, text);
    }
    for (const QString& text : drawn.gapLabels) {
        key = qHashMulti(key, text);
    }
    for (const QString& text : drawn.wavefrontTexts) {
        key = qHashMulti(key, text);
    }
    // Every place the paint draws at.
    key = hashRect(hashRect(hashRect(hashRect(key, m_titleRect), m_phaseRect), m_fusionRect),
                   m_legendRect);
    key = hashRect(qHashMulti(key, m_rowLabelStep, m_wavefrontsElided), m_wavefrontsElidedRect);
    for (const QRectF& rect : m_phaseBracketRects) {
        key = hashRect(key, rect);
    }
    for (const RowBand& band : m_rows) {
        key = hashRect(hashRect(qHashMulti(key, band.row, band.gapRowsBefore), band.rect),
                       band.gapRect);
    }
    for (const Cell& cell : m_cells) {
        key = qHashMulti(key, cell.word, cell.bank);
        for (const CellPart& part : cell.parts) {
            key = hashRect(qHashMulti(key, part.wavefront, part.lanes), part.rect);
        }
    }
    for (const WavefrontRow& row : m_wavefrontRows) {
        key = hashRect(qHashMulti(key, row.wavefront), row.rect);
    }
    if (const auto& shared = evaluation->modern.shared) {
        key = qHashMulti(key, shared->fusion.partnerDistance, shared->fusion.considered);
        for (const Wavefront& wavefront : shared->wavefrontList) {
            key = qHashMulti(key, wavefront.laneMask);
        }
    }
    return key;
}

void BankView::paintEvent(QPaintEvent* /*event*/) {
    if (paintAdoptedPicture(pictureKey())) {
        return;
    }
    QPainter painter(this);
    paintWholeView(painter);
}

void BankView::paintWholeView(QPainter& painter) {
    const MeasurementMark& mark = measurementMark();
    painter.setFont(font()); // a pixmap's painter starts with the application's
    const ViewColors colors = ViewColors::fromPalette(palette());
    painter.fillRect(rect(), colors.background);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const auto& evaluation = m_document->evaluation();
    QFont bold = font();
    bold.setBold(true);
    if (!evaluation) {
        painter.setPen(colors.mutedText);
        painter.drawText(rect(), Qt::AlignCenter,
                         tr("Nothing to draw: the pattern has never been valid."));
        return;
    }
    const BankContent content = this->content();
    painter.setFont(bold);
    painter.setPen(colors.text);
    // On a slide (fitsHeight()) the two lines wrap to the width the layout measured them at.
    const int wrap = fitsHeight() ? int{Qt::TextWordWrap} : 0;
    painter.drawText(
        QRectF(m_titleRect.left(), m_titleRect.top(), m_titleRect.width(), m_titleFirstHeight),
        Qt::AlignLeft | Qt::AlignVCenter | wrap, content.title);
    painter.setFont(font());
    const QRectF second(m_titleRect.left(), m_titleRect.top() + m_titleFirstHeight + 4,
                        m_titleRect.width(), m_titleSecondHeight);
    painter.setFont(font());
    painter.setPen(content.noteIsWarning ? colors.warning : colors.mutedText);
    painter.drawText(second, Qt::AlignLeft | Qt::AlignVCenter | wrap, content.note);
    if (!mark.isEmpty()) {
        paintMeasurementBadge(painter, colors, font(), second, QRectF(rect()), mark.text,
                              mark.mismatch, QFontMetricsF(font()).horizontalAdvance(content.note),
                              mark.shortText);
    }
    if (m_shared) {
        paintContent(painter, colors, *evaluation, content);
    }
}

void BankView::paintContent(QPainter& painter, const ViewColors& colors,
                            const Evaluation& evaluation, const BankContent& content) {
    const SharedPrediction& shared = *evaluation.modern.shared;
    const QFontMetricsF metrics(font());
    const qreal lineHeight = metrics.height();
    QFont bold = font();
    bold.setBold(true);
    QFont small = font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() * 0.85));
    const std::uint32_t emphasised = m_highlight->emphasisedLanes();

    // ---- Phases ----
    painter.setPen(colors.text);
    painter.drawText(QRectF(m_phaseRect.left(), m_phaseRect.top(), m_phaseRect.width(), lineHeight),
                     Qt::AlignLeft | Qt::AlignVCenter, content.phaseHeading);
    painter.setFont(small);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const QRectF r = m_phaseLaneRects[static_cast<std::size_t>(lane)];
        const int phase = content.lanePhase[static_cast<std::size_t>(lane)];
        const bool active = content.laneActive[static_cast<std::size_t>(lane)];
        // Phases alternate solid and hatched so they differ without colour.
        painter.setPen(QPen(isLaneInMask(emphasised, lane) ? colors.highlight : colors.frame,
                            isLaneInMask(emphasised, lane) ? 2.5 : 1));
        painter.setBrush(active ? (phase % 2 == 0 ? colors.surface : colors.inactive)
                                : colors.background);
        painter.drawRect(r);
        if (phase % 2 == 1) {
            fillHatched(painter, r, withAlpha(colors.hatch, 0.35), 5);
        }
        if (content.laneSplit[static_cast<std::size_t>(lane)]) {
            // A lane the fusion note names: its pair asks for two addresses.
            painter.setPen(QPen(colors.warning, 2.5));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r.adjusted(1, 1, -1, -1));
        }
        painter.setPen(active ? colors.text : colors.mutedText);
        painter.drawText(r, Qt::AlignCenter, content.laneLabels[static_cast<std::size_t>(lane)]);
    }
    // Brackets under the phases, each with its label.
    for (std::size_t p = 0; p < m_phaseBracketRects.size() && p < content.phaseLabels.size(); ++p) {
        const QRectF b = m_phaseBracketRects[p];
        const qreal tick = 5;
        painter.setPen(QPen(colors.frame, 1.5));
        painter.drawLine(QPointF(b.left() + 1, b.top()), QPointF(b.left() + 1, b.top() + tick));
        painter.drawLine(QPointF(b.left() + 1, b.top() + tick),
                         QPointF(b.right() - 1, b.top() + tick));
        painter.drawLine(QPointF(b.right() - 1, b.top()), QPointF(b.right() - 1, b.top() + tick));
        painter.setPen(colors.text);
        painter.drawText(QRectF(b.left(), b.top() + tick, b.width(), b.height() - tick),
                         Qt::AlignCenter, content.phaseLabels[p]);
    }
    painter.setFont(font());
    if (!content.fusionNote.isEmpty()) {
        const bool fused = shared.fusion.partnerDistance > 0;
        painter.setPen(fused || !shared.fusion.considered ? colors.text : colors.warning);
        painter.drawText(m_fusionRect, Qt::AlignLeft | Qt::AlignVCenter, content.fusionNote);
    }
    painter.setPen(colors.mutedText);
    painter.drawText(QRectF(m_phaseRect.left(), m_phaseLaneRects[0].top(), m_labelWidth - 6,
                            m_phaseLaneRects[0].height()),
                     Qt::AlignRight | Qt::AlignVCenter, tr("lanes"));

    // ---- Bank headers with the conflict degree ----
    painter.setPen(colors.mutedText);
    painter.drawText(
        QRectF(m_phaseRect.left(), m_headerRects[0].top(), m_labelWidth - 6, lineHeight + 4),
        Qt::AlignRight | Qt::AlignVCenter, tr("bank"));
    painter.drawText(QRectF(m_phaseRect.left(), m_headerRects[0].top() + lineHeight + 4,
                            m_labelWidth - 6, lineHeight + 4),
                     Qt::AlignRight | Qt::AlignVCenter, tr("words"));
    for (int bank = 0; bank < kBankCount; ++bank) {
        const QRectF r = m_headerRects[static_cast<std::size_t>(bank)];
        const QRectF number(r.left(), r.top(), r.width(), lineHeight + 4);
        const QRectF degreeRect(r.left() + 1, r.top() + lineHeight + 4, r.width() - 2,
                                lineHeight + 2);
        painter.setPen(colors.text);
        painter.setFont(bold);
        painter.drawText(number, Qt::AlignCenter,
                         content.bankLabels[static_cast<std::size_t>(bank)]);
        painter.setFont(font());
        const int degree = m_bankDegree[static_cast<std::size_t>(bank)];
        if (degree > 1) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(withAlpha(colors.warning, 0.35));
            painter.drawRect(degreeRect);
            fillHatched(painter, degreeRect, withAlpha(colors.warning, 0.9), 4);
            painter.setPen(QPen(colors.warning, 1.5));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(degreeRect);
            painter.setFont(bold);
            painter.setPen(colors.text);
            painter.fillRect(
                degreeRect.adjusted(degreeRect.width() * 0.15, 2, -degreeRect.width() * 0.15, -2),
                colors.background);
            painter.drawText(degreeRect, Qt::AlignCenter,
                             content.degreeLabels[static_cast<std::size_t>(bank)]);
            painter.setFont(font());
        } else {
            painter.setPen(colors.mutedText);
            painter.drawText(degreeRect, Qt::AlignCenter,
                             content.degreeLabels[static_cast<std::size_t>(bank)]);
        }
    }

    // ---- Rows of words ----
    for (std::size_t rowIndex = 0; rowIndex < m_rows.size(); ++rowIndex) {
        const RowBand& band = m_rows[rowIndex];
        if (band.gapRowsBefore > 0) {
            painter.setPen(QPen(colors.mutedText, 1, Qt::DotLine));
            const qreal cy = band.gapRect.center().y();
            painter.drawLine(QPointF(band.gapRect.left() + m_labelWidth, cy),
                             QPointF(band.rect.right(), cy));
            painter.setPen(colors.mutedText);
            const QString& text = content.gapLabels[rowIndex];
            const qreal textWidth = metrics.horizontalAdvance(text) + 16;
            const QRectF textRect(band.rect.left() + m_labelWidth + 20, band.gapRect.top(),
                                  textWidth, band.gapRect.height());
            painter.fillRect(textRect, colors.background);
            painter.drawText(textRect, Qt::AlignCenter, text);
        }
        const QRectF grid(band.rect.left() + m_labelWidth, band.rect.top(),
                          band.rect.width() - m_labelWidth, band.rect.height());
        painter.setPen(QPen(colors.grid, 1));
        painter.setBrush(colors.surface);
        painter.drawRect(grid);
        const qreal cellWidth = grid.width() / kBankCount;
        for (int bank = 1; bank < kBankCount; ++bank) {
            painter.drawLine(QPointF(grid.left() + bank * cellWidth, grid.top()),
                             QPointF(grid.left() + bank * cellWidth, grid.bottom()));
        }
        if (rowIndex % static_cast<std::size_t>(m_rowLabelStep) != 0) {
            continue; // rows packed closer than a line of text: every other one labelled
        }
        painter.setPen(colors.mutedText);
        // A packed row's label is centred on it and may run over the rows beside it (unlabelled).
        const qreal labelHeight = std::max(band.rect.height(), lineHeight);
        painter.drawText(QRectF(band.rect.left(), band.rect.center().y() - labelHeight / 2,
                                m_labelWidth - 6, labelHeight),
                         Qt::AlignRight | Qt::AlignVCenter, content.rowLabels[rowIndex]);
    }
    for (const Cell& cell : m_cells) {
        for (const CellPart& part : cell.parts) {
            if (revealCount() >= 0 && part.wavefront >= revealCount()) {
                continue;
            }
            const QRectF r = part.rect.adjusted(1, 1, -1, -1);
            const bool isEmphasised = (part.lanes & emphasised) != 0;
            painter.setPen(
                QPen(isEmphasised ? colors.highlight : colors.frame, isEmphasised ? 3 : 1));
            painter.setBrush(colors.groupFill(part.wavefront));
            painter.drawRect(r);
            drawGroupMarker(painter, QPointF(r.left() + 6, r.top() + 6), 7, part.wavefront,
                            colors.group(part.wavefront), colors.frame);
            const int lanes = laneCount(part.lanes);
            if (r.height() < QFontMetricsF(small).height() - 2) {
                continue; // packed rows on a slide: the step line names the lanes
            }
            if (lanes > 1) {
                // Several lanes on one word: a broadcast for loads. Marked with a "B" badge.
                const QRectF badge(r.right() - 12, r.top() + 1, 11, 11);
                painter.setPen(QPen(colors.frame, 1));
                painter.setBrush(colors.background);
                painter.drawEllipse(badge);
                painter.setFont(small);
                painter.setPen(colors.text);
                painter.drawText(badge, Qt::AlignCenter, QStringLiteral("B"));
            }
            painter.setFont(small);
            painter.setPen(colors.text);
            QString text = laneListText(part.lanes);
            if (QFontMetricsF(small).horizontalAdvance(text) > r.width() - 4) {
                text = tr("%n lanes", "", lanes);
                if (QFontMetricsF(small).horizontalAdvance(text) > r.width() - 4) {
                    text = QStringLiteral("×%1").arg(lanes);
                }
            }
            painter.drawText(r.adjusted(lanes > 1 ? 8 : 10, 0, lanes > 1 ? -12 : -1, 0),
                             Qt::AlignCenter, text);
            painter.setFont(font());
        }
    }

    // ---- Wavefronts ----
    if (!m_wavefrontRows.empty()) {
        painter.setFont(bold);
        painter.setPen(colors.text);
        const QRectF heading(m_wavefrontRows.front().rect.left(),
                             m_wavefrontRows.front().rect.top() - lineHeight - 6,
                             m_wavefrontRows.front().rect.width(), lineHeight + 4);
        painter.drawText(heading, Qt::AlignLeft | Qt::AlignVCenter, content.wavefrontHeading);
        painter.setFont(font());
    }
    for (std::size_t rowIndex = 0; rowIndex < m_wavefrontRows.size(); ++rowIndex) {
        const WavefrontRow& row = m_wavefrontRows[rowIndex];
        if ((revealCount() >= 0 && row.wavefront >= revealCount()) || row.rect.isEmpty()) {
            continue; // not revealed yet, or past a slide's height (m_wavefrontsElided)
        }
        const Wavefront& wavefront = shared.wavefrontList[static_cast<std::size_t>(row.wavefront)];
        const bool isEmphasised = (wavefront.laneMask & emphasised) != 0;
        if (isEmphasised) {
            painter.fillRect(row.rect, withAlpha(colors.highlight, 0.18));
        }
        const QRectF swatch(row.rect.left() + 2, row.rect.center().y() - 7, 26, 14);
        painter.setPen(QPen(colors.frame, 1));
        painter.setBrush(colors.groupFill(row.wavefront));
        painter.drawRect(swatch);
        drawGroupMarker(painter, swatch.center(), 8, row.wavefront, colors.group(row.wavefront),
                        colors.frame);
        painter.setPen(colors.text);
        painter.drawText(
            QRectF(swatch.right() + 8, row.rect.top(), row.rect.width() - 40, row.rect.height()),
            Qt::AlignLeft | Qt::AlignVCenter, content.wavefrontTexts[rowIndex]);
    }

    int elidedShown = 0; // revealed wavefronts the list has no room for
    for (const WavefrontRow& row : m_wavefrontRows) {
        elidedShown +=
            row.rect.isEmpty() && (revealCount() < 0 || row.wavefront < revealCount()) ? 1 : 0;
    }
    if (elidedShown > 0) {
        painter.setPen(colors.mutedText);
        painter.drawText(
            m_wavefrontsElidedRect, Qt::AlignLeft | Qt::AlignVCenter,
            tr("… %n more not listed here: stepping with Space names each in the line below", "",
               elidedShown));
    }

    // ---- Legend ----
    painter.setPen(colors.mutedText);
    painter.drawText(
        m_legendRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
        tr("n× under a bank: it holds n different words in one phase, an n-way conflict "
           "(hatched). B: several lanes on one word — a broadcast for loads, not a "
           "conflict. Row r holds bytes 128·r to 128·r+127, one word per bank."));
}

} // namespace warpscope::app
