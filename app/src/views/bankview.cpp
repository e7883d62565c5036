// BankView: layout from the modern model's wavefrontList and phases, painting and hit tests.
#include "views/bankview.h"

#include "document/patterndocument.h"
#include "views/lanehighlight.h"
#include "views/predictiontext.h"
#include "views/theme.h"
#include "views/viewpainting.h"

#include <QFontMetricsF>
#include <QHash>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace warpscope::app {

namespace {

constexpr qreal kMargin = 12.0;

QColor withAlpha(QColor color, qreal alpha) {
    color.setAlphaF(static_cast<float>(alpha));
    return color;
}

/// Bytes in `rows` rows of 32 banks, saturating instead of overflowing for absurd gaps.
std::int64_t rowsToBytes(std::int64_t rows) {
    constexpr std::int64_t kRowBytes = std::int64_t{kBankCount} * kBankWordBytes;
    return rows > std::numeric_limits<std::int64_t>::max() / kRowBytes
               ? std::numeric_limits<std::int64_t>::max()
               : rows * kRowBytes;
}

/// Lanes of `mask` whose own bytes include 4-byte word `word` (plain geometry of each lane's
/// address range).
std::uint32_t lanesOnWord(const WarpAccess& access, std::uint32_t mask, std::int64_t word) {
    std::uint32_t lanes = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (!isLaneInMask(mask, lane) || !address) {
            continue;
        }
        const std::int64_t first = *address / kBankWordBytes;
        const std::int64_t last = (*address + access.kind.widthBytes - 1) / kBankWordBytes;
        if (word >= first && word <= last) {
            lanes |= 1u << lane;
        }
    }
    return lanes;
}

/// The lowest and highest lane of a non-empty mask.
std::pair<int, int> laneSpan(std::uint32_t mask) {
    int first = 0;
    while (!isLaneInMask(mask, first)) {
        ++first;
    }
    int last = kWarpSize - 1;
    while (!isLaneInMask(mask, last)) {
        --last;
    }
    return {first, last};
}

/// The lanes a not-fused load's note names: each distance's first split lane and its partner.
std::uint32_t splitLanes(const PhaseFusion& fusion) {
    std::uint32_t lanes = 0;
    if (fusion.considered && fusion.partnerDistance == 0) {
        for (int d = 0; d < 2; ++d) {
            const int lane = fusion.splitLane[static_cast<std::size_t>(d)];
            if (lane >= 0) {
                lanes |= (1u << lane) | (1u << (lane ^ (d + 1)));
            }
        }
    }
    return lanes;
}

} // namespace

BankView::BankView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent)
    : ZoomableView(parent), m_document(document), m_highlight(highlight) {
    setObjectName(QStringLiteral("bankView"));
    connect(m_document, &PatternDocument::evaluationChanged, this, &BankView::relayout);
    connect(m_document, &PatternDocument::errorChanged, this, qOverload<>(&BankView::update));
    connect(m_highlight, &LaneHighlight::changed, this, qOverload<>(&BankView::update));
    relayout();
}

void BankView::setRevealCount(int count) {
    count = std::max(-1, count);
    if (count != m_revealCount) {
        m_revealCount = count;
        update();
    }
}

QSizeF BankView::computeLayout(qreal width) {
    m_cells.clear();
    m_rows.clear();
    m_wavefrontRows.clear();
    m_bankDegree.fill(0);
    const QFontMetricsF metrics(font());
    const qreal lineHeight = metrics.height();
    m_titleRect = QRectF(kMargin, kMargin, width - 2 * kMargin, 2 * lineHeight + 4);
    const auto& evaluation = m_document->evaluation();
    m_shared = evaluation && evaluation->modern.shared.has_value();
    if (!m_shared) {
        return QSizeF(width, m_titleRect.bottom() + 4 * lineHeight);
    }
    const SharedPrediction& shared = *evaluation->modern.shared;
    const WarpAccess access = sharedSideOf(evaluation->access); // a copy's shared side
    qreal y = m_titleRect.bottom() + 10;

    // ---- Phases: which lanes are served together ----------------------------------------------
    m_labelWidth = metrics.horizontalAdvance(QStringLiteral("row 99 · 0x0000")) + 10;
    const qreal gridWidth = width - 2 * kMargin - m_labelWidth;
    const qreal cellWidth = std::max(24.0, gridWidth / kBankCount);
    const qreal phaseLaneWidth = cellWidth;
    const bool hasFusionNote = access.kind.widthBytes > kBankWordBytes;
    const qreal bracketHeight = lineHeight + 8;
    // The lane boxes hold a number in the view's type: 22 px, or taller where the type is (a
    // lecture slide at 3840 x 2160, where a 22 px row clipped the numbers and the "lanes" label).
    const qreal laneHeight = std::max(22.0, std::ceil(lineHeight) + 4);
    m_phaseRect =
        QRectF(kMargin, y, width - 2 * kMargin,
               lineHeight + laneHeight + 6 + bracketHeight + (hasFusionNote ? lineHeight + 6 : 0));
    for (int lane = 0; lane < kWarpSize; ++lane) {
        m_phaseLaneRects[static_cast<std::size_t>(lane)] =
            QRectF(kMargin + m_labelWidth + lane * phaseLaneWidth, y + lineHeight + 4,
                   phaseLaneWidth - 2, laneHeight);
    }
    // A bracket under each phase's lanes (phases are runs of lanes: the warp, half- or
    // quarter-warps, or two of them fused), then the line saying why they are these.
    m_phaseBracketRects.clear();
    const qreal bracketTop = m_phaseLaneRects[0].bottom() + 3;
    for (std::uint32_t phase : shared.phases) {
        const auto [first, last] = laneSpan(phase);
        m_phaseBracketRects.emplace_back(
            QPointF(m_phaseLaneRects[static_cast<std::size_t>(first)].left(), bracketTop),
            QPointF(m_phaseLaneRects[static_cast<std::size_t>(last)].right(),
                    bracketTop + bracketHeight));
    }
    m_fusionRect = hasFusionNote ? QRectF(kMargin + m_labelWidth, bracketTop + bracketHeight + 2,
                                          width - 2 * kMargin - m_labelWidth, lineHeight + 4)
                                 : QRectF();
    y = m_phaseRect.bottom() + 12;

    // ---- Bank headers and conflict degrees ------------------------------------------------------
    const qreal left = kMargin + m_labelWidth;
    for (int bank = 0; bank < kBankCount; ++bank) {
        m_headerRects[static_cast<std::size_t>(bank)] =
            QRectF(left + bank * cellWidth, y, cellWidth, 2 * lineHeight + 8);
    }
    std::vector<std::uint32_t> phases = shared.phases;
    if (phases.empty()) {
        phases.push_back(access.activeMask());
    }
    for (std::uint32_t phase : phases) {
        std::array<std::set<std::int64_t>, kBankCount> words;
        for (const Wavefront& wavefront : shared.wavefrontList) {
            if ((wavefront.laneMask & phase) == 0) {
                continue;
            }
            for (int bank = 0; bank < kBankCount; ++bank) {
                const std::int64_t word = wavefront.bankWord[static_cast<std::size_t>(bank)];
                if (word >= 0) {
                    words[static_cast<std::size_t>(bank)].insert(word);
                }
            }
        }
        for (int bank = 0; bank < kBankCount; ++bank) {
            auto& degree = m_bankDegree[static_cast<std::size_t>(bank)];
            degree =
                std::max(degree, static_cast<int>(words[static_cast<std::size_t>(bank)].size()));
        }
    }
    y += 2 * lineHeight + 12;

    // ---- Cells: every (word, bank) a wavefront serves -------------------------------------------
    std::map<std::pair<std::int64_t, int>, Cell> cells;
    for (std::size_t w = 0; w < shared.wavefrontList.size(); ++w) {
        const Wavefront& wavefront = shared.wavefrontList[w];
        for (int bank = 0; bank < kBankCount; ++bank) {
            const std::int64_t word = wavefront.bankWord[static_cast<std::size_t>(bank)];
            if (word < 0) {
                continue;
            }
            Cell& cell = cells[{word / kBankCount, bank}];
            cell.word = word;
            cell.bank = bank;
            cell.parts.push_back(
                CellPart{static_cast<int>(w), lanesOnWord(access, wavefront.laneMask, word), {}});
        }
    }
    std::set<std::int64_t> rowSet;
    for (const auto& [key, cell] : cells) {
        rowSet.insert(key.first);
    }
    const qreal rowHeight = lineHeight + 12;
    std::map<std::int64_t, qreal> rowTop;
    std::int64_t previous = -1;
    for (std::int64_t row : rowSet) {
        RowBand band;
        band.row = row;
        if (previous >= 0 && row > previous + 1) {
            band.gapRowsBefore = row - previous - 1;
            band.gapRect = QRectF(kMargin, y, width - 2 * kMargin, lineHeight + 6);
            y += lineHeight + 6;
        }
        band.rect = QRectF(kMargin, y, m_labelWidth + kBankCount * cellWidth, rowHeight);
        rowTop[row] = y;
        y += rowHeight;
        m_rows.push_back(band);
        previous = row;
    }
    for (auto& [key, cell] : cells) {
        const QRectF r(left + key.second * cellWidth, rowTop[key.first], cellWidth, rowHeight);
        const qreal partWidth = r.width() / static_cast<qreal>(cell.parts.size());
        for (std::size_t i = 0; i < cell.parts.size(); ++i) {
            cell.parts[i].rect = QRectF(r.left() + static_cast<qreal>(i) * partWidth, r.top(),
                                        partWidth, r.height());
        }
        m_cells.push_back(std::move(cell));
    }

    // ---- Wavefront list and legend -------------------------------------------------------------
    y += 14 + lineHeight + 4; // heading
    for (std::size_t w = 0; w < shared.wavefrontList.size(); ++w) {
        m_wavefrontRows.push_back(WavefrontRow{
            static_cast<int>(w), QRectF(kMargin, y, width - 2 * kMargin, lineHeight + 6)});
        y += lineHeight + 6;
    }
    y += 8;
    m_legendRect = QRectF(kMargin, y, width - 2 * kMargin, 2 * (lineHeight + 6));
    y = m_legendRect.bottom() + kMargin;
    return QSizeF(std::max(width, left + kBankCount * cellWidth + kMargin), y);
}

void BankView::setMeasurementMark(const MeasurementMark& mark) {
    if (mark.text == m_mark.text && mark.mismatch == m_mark.mismatch) {
        return;
    }
    m_mark = mark;
    update();
}

BankContent BankView::content() const {
    BankContent content;
    const auto& evaluation = m_document->evaluation();
    if (!evaluation) {
        return content;
    }
    content.shared = m_shared;
    content.title =
        describeAccess(evaluation->access) + QStringLiteral(" — ") + modernSummary(*evaluation);
    if (m_document->error()) {
        content.noteIsWarning = true;
        content.note =
            tr("⚠ Showing the last valid pattern: %1").arg(describeError(*m_document->error()));
    } else {
        content.note = m_shared ? textbookSummary(*evaluation)
                                : tr("Banks belong to shared memory. This pattern accesses "
                                     "global memory: set Space to \"Shared memory\" to see banks.");
        if (evaluation->access.kind.op == AccessOp::CopyAsync) {
            content.note = tr("The shared side of an async copy: no staging register, and the "
                              "notes say it is best with 8- or 16-byte elements. The copy writes "
                              "the lanes of each global 128-byte line together, so a warp over "
                              "several lines takes a wavefront per line at least.");
        }
    }
    if (!m_shared) {
        return content;
    }
    const SharedPrediction& shared = *evaluation->modern.shared;
    const auto phaseCount = static_cast<int>(std::max<std::size_t>(1, shared.phases.size()));
    const int lanesPerPhase = shared.phases.empty() ? kWarpSize : laneCount(shared.phases.front());
    content.phaseHeading =
        lanesPerPhase == kWarpSize
            ? tr("Phases: one — all 32 lanes are served together")
            : tr("Phases: %1 — a %2-byte access is served %3 lanes at a time; bank "
                 "conflicts only count within a phase")
                  .arg(phaseCount)
                  .arg(evaluation->access.kind.widthBytes)
                  .arg(lanesPerPhase);
    const PhaseFusion& fusion = shared.fusion;
    const int width = evaluation->access.kind.widthBytes;
    const QString fixedPhases = width == 8 ? tr("half-warps") : tr("quarter-warps");
    const QString fusedPhases =
        width == 8 ? tr("half-warps 0 and 1") : tr("quarter-warps 0+1 and 2+3");
    if (width <= kBankWordBytes) {
        content.fusionNote.clear();
    } else if (!fusion.considered) {
        content.fusionNote =
            tr("Not fused: a store is served in fixed %1, each on its own").arg(fixedPhases);
    } else if (fusion.partnerDistance == 1) {
        content.fusionNote = tr("Fused: every lane pair (2k, 2k+1) asks for at most one address, "
                                "so %1 are served together")
                                 .arg(fusedPhases);
    } else if (fusion.partnerDistance == 2) {
        content.fusionNote = tr("Fused: every lane l asks for the same address as lane l ^ 2 (or "
                                "one of them is off), so %1 are served together")
                                 .arg(fusedPhases);
    } else {
        const int a = fusion.splitLane[0];
        const int b = fusion.splitLane[1];
        content.fusionNote = tr("Not fused: lanes %1 and %2 ask for different addresses, and so "
                                "do lanes %3 and %4 (two apart): each of the %5 is served on its "
                                "own")
                                 .arg(a)
                                 .arg(a ^ 1)
                                 .arg(b)
                                 .arg(b ^ 2)
                                 .arg(fixedPhases);
    }
    const bool fused = fusion.partnerDistance > 0;
    for (std::size_t p = 0; p < shared.phases.size(); ++p) {
        const auto [first, last] = laneSpan(shared.phases[p]);
        content.phaseLabels.push_back(
            fused ? tr("P%1 · lanes %2–%3 · fused").arg(p + 1).arg(first).arg(last)
                  : tr("P%1 · lanes %2–%3").arg(p + 1).arg(first).arg(last));
    }
    const std::uint32_t split = splitLanes(fusion);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto index = static_cast<std::size_t>(lane);
        content.laneSplit[index] = isLaneInMask(split, lane);
        int phase = 0;
        for (std::size_t p = 0; p < shared.phases.size(); ++p) {
            if (isLaneInMask(shared.phases[p], lane)) {
                phase = static_cast<int>(p);
            }
        }
        content.lanePhase[index] = phase;
        content.laneActive[index] = evaluation->access.addresses[index].has_value();
        content.laneLabels[index] = QString::number(lane);
    }
    for (int bank = 0; bank < kBankCount; ++bank) {
        const auto index = static_cast<std::size_t>(bank);
        const int degree = m_bankDegree[index];
        content.bankLabels[index] = QString::number(bank);
        content.degreeLabels[index] = degree > 1    ? QStringLiteral("%1×").arg(degree)
                                      : degree == 1 ? QStringLiteral("1")
                                                    : QStringLiteral("·");
    }
    for (const RowBand& band : m_rows) {
        content.rowLabels.push_back(
            tr("row %1 · %2")
                .arg(band.row)
                .arg(formatAddress(band.row * kBankCount * kBankWordBytes)));
        content.gapLabels.push_back(
            band.gapRowsBefore > 0
                ? tr("⋯ %n untouched row(s), %1 ⋯", "",
                     static_cast<int>(std::min<std::int64_t>(band.gapRowsBefore, 1 << 30)))
                      .arg(formatBytes(rowsToBytes(band.gapRowsBefore)))
                : QString());
    }
    content.wavefrontHeading = tr("%n wavefront(s) — one fill and shape each in the grid; with no "
                                  "conflict it would take %1",
                                  "", shared.wavefronts)
                                   .arg(shared.idealWavefronts);
    for (const WavefrontRow& row : m_wavefrontRows) {
        const Wavefront& wavefront = shared.wavefrontList[static_cast<std::size_t>(row.wavefront)];
        int banks = 0;
        for (std::int64_t word : wavefront.bankWord) {
            banks += word >= 0 ? 1 : 0;
        }
        content.wavefrontTexts.push_back(tr("W%1: lanes %2 · %3 bank(s)")
                                             .arg(row.wavefront + 1)
                                             .arg(laneListText(wavefront.laneMask))
                                             .arg(banks));
    }
    return content;
}

namespace {

std::size_t hashRect(std::size_t key, const QRectF& rect) {
    return qHashMulti(key, rect.x(), rect.y(), rect.width(), rect.height());
}

} // namespace

std::size_t BankView::pictureKey() const {
    const auto& evaluation = m_document->evaluation();
    std::size_t key = qHashMulti(0, width(), height(), font().key(), m_revealCount, m_mark.text,
                                 m_mark.shortText, m_mark.mismatch, evaluation.has_value(),
                                 m_shared, m_highlight->emphasisedLanes(), m_labelWidth);
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

QPixmap BankView::renderPicture(qreal devicePixelRatio) {
    QPixmap picture = blankPicture(devicePixelRatio);
    QPainter painter(&picture);
    paintView(painter);
    return picture;
}

void BankView::paintEvent(QPaintEvent* /*event*/) {
    if (paintAdoptedPicture(pictureKey())) {
        return;
    }
    QPainter painter(this);
    paintView(painter);
}

void BankView::paintView(QPainter& painter) {
    painter.setFont(font()); // a pixmap's painter starts with the application's
    const ViewColors colors = ViewColors::fromPalette(palette());
    painter.fillRect(rect(), colors.background);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const auto& evaluation = m_document->evaluation();
    const qreal lineHeight = QFontMetricsF(font()).height();
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
    painter.drawText(QRectF(m_titleRect.left(), m_titleRect.top(), m_titleRect.width(), lineHeight),
                     Qt::AlignLeft | Qt::AlignVCenter, content.title);
    painter.setFont(font());
    const QRectF second(m_titleRect.left(), m_titleRect.top() + lineHeight + 4, m_titleRect.width(),
                        lineHeight);
    painter.setFont(font());
    painter.setPen(content.noteIsWarning ? colors.warning : colors.mutedText);
    painter.drawText(second, Qt::AlignLeft | Qt::AlignVCenter, content.note);
    if (!m_mark.isEmpty()) {
        paintMeasurementBadge(
            painter, colors, font(), second, QRectF(rect()), m_mark.text, m_mark.mismatch,
            QFontMetricsF(font()).horizontalAdvance(content.note), m_mark.shortText);
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
        painter.setPen(colors.mutedText);
        painter.drawText(
            QRectF(band.rect.left(), band.rect.top(), m_labelWidth - 6, band.rect.height()),
            Qt::AlignRight | Qt::AlignVCenter, content.rowLabels[rowIndex]);
    }
    for (const Cell& cell : m_cells) {
        for (const CellPart& part : cell.parts) {
            if (m_revealCount >= 0 && part.wavefront >= m_revealCount) {
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
        if (m_revealCount >= 0 && row.wavefront >= m_revealCount) {
            continue;
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

    // ---- Legend ----
    painter.setPen(colors.mutedText);
    painter.drawText(
        m_legendRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
        tr("n× under a bank: it holds n different words in one phase, an n-way conflict "
           "(hatched). B: several lanes on one word — a broadcast for loads, not a "
           "conflict. Row r holds bytes 128·r to 128·r+127, one word per bank."));
}

std::uint32_t BankView::lanesAt(const QPointF& point, QString* description) const {
    for (const Cell& cell : m_cells) {
        for (const CellPart& part : cell.parts) {
            if (part.rect.contains(point)) {
                if (description) {
                    *description = tr("bank %1, word %2 (%3), W%4: lanes %5")
                                       .arg(cell.bank)
                                       .arg(cell.word)
                                       .arg(formatAddress(cell.word * kBankWordBytes))
                                       .arg(part.wavefront + 1)
                                       .arg(laneListText(part.lanes));
                }
                return part.lanes;
            }
        }
    }
    const auto& evaluation = m_document->evaluation();
    if (evaluation && evaluation->modern.shared) {
        for (const WavefrontRow& row : m_wavefrontRows) {
            if (row.rect.contains(point)) {
                const Wavefront& w = evaluation->modern.shared
                                         ->wavefrontList[static_cast<std::size_t>(row.wavefront)];
                if (description) {
                    *description = tr("wavefront W%1: lanes %2")
                                       .arg(row.wavefront + 1)
                                       .arg(laneListText(w.laneMask));
                }
                return w.laneMask;
            }
        }
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (m_phaseLaneRects[static_cast<std::size_t>(lane)].contains(point)) {
            if (description) {
                *description = tr("lane %1").arg(lane);
            }
            return 1u << lane;
        }
    }
    return 0;
}

void BankView::mouseMoveEvent(QMouseEvent* event) {
    QString description;
    const std::uint32_t lanes = m_shared ? lanesAt(event->position(), &description) : 0;
    int lane = -1;
    if (laneCount(lanes) == 1) {
        for (int l = 0; l < kWarpSize; ++l) {
            if (isLaneInMask(lanes, l)) {
                lane = l;
            }
        }
    }
    m_highlight->setHoveredLane(lane);
    setToolTip(description);
    setCursor(lanes != 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    ZoomableView::mouseMoveEvent(event);
}

void BankView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !m_shared) {
        ZoomableView::mousePressEvent(event);
        return;
    }
    QString description;
    const std::uint32_t lanes = lanesAt(event->position(), &description);
    if (lanes != 0) {
        m_highlight->setSelectedLanes(lanes, description);
    } else {
        m_highlight->clear();
    }
}

void BankView::leaveEvent(QEvent* event) {
    m_highlight->setHoveredLane(-1);
    ZoomableView::leaveEvent(event);
}

} // namespace warpscope::app
