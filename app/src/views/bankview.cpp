// BankView: layout from the modern model's wavefrontList and phases, what it draws (BankContent)
// and hit tests. Its picture and painting are in bankview_painting.cpp.
#include "views/bankview.h"

#include "document/patterndocument.h"
#include "views/bankview_matrix.h"
#include "views/bankwords.h"
#include "views/lanehighlight.h"
#include "views/predictiontext.h"
#include "views/theme.h"
#include "views/viewpainting.h"

#include <warpscope/matrix_access.h>

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace warpscope::app {

namespace {

constexpr qreal kBankMargin = 12.0;

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
    : SteppedView(parent), m_document(document), m_highlight(highlight) {
    setObjectName(QStringLiteral("bankView"));
    connect(m_document, &PatternDocument::evaluationChanged, this, &BankView::relayout);
    connect(m_document, &PatternDocument::errorChanged, this, qOverload<>(&BankView::update));
    connect(m_highlight, &LaneHighlight::changed, this, qOverload<>(&BankView::update));
    relayout();
}

QSizeF BankView::computeLayout(qreal width) {
    m_cells.clear();
    m_rows.clear();
    m_wavefrontRows.clear();
    m_bankDegree.fill(0);
    const QFontMetricsF metrics(font());
    const qreal lineHeight = metrics.height();
    const qreal fitHeight = heightToFit();
    m_titleFirstHeight = lineHeight;
    m_titleSecondHeight = lineHeight;
    m_rowLabelStep = 1;
    m_wavefrontsElided = 0;
    m_wavefrontsElidedRect = QRectF();
    const auto& evaluation = m_document->evaluation();
    m_shared = evaluation && evaluation->modern.shared.has_value(); // content()'s note reads it
    if (fitHeight > 0 && evaluation) {
        // A slide has no scroll bar: the title's lines wrap instead of running past the width.
        const BankContent texts = content();
        QFont bold = font();
        bold.setBold(true);
        const auto wrapped = [width](const QFont& font, const QString& text) {
            return QFontMetricsF(font)
                .boundingRect(QRectF(0, 0, width - 2 * kBankMargin, 1e6),
                              Qt::AlignLeft | Qt::TextWordWrap, text)
                .height();
        };
        m_titleFirstHeight = std::max(lineHeight, wrapped(bold, texts.title));
        m_titleSecondHeight = std::max(lineHeight, wrapped(font(), texts.note));
    }
    m_titleRect = QRectF(kBankMargin, kBankMargin, width - 2 * kBankMargin,
                         m_titleFirstHeight + m_titleSecondHeight + 4);
    m_shared = evaluation && evaluation->modern.shared.has_value();
    if (!m_shared) {
        return QSizeF(width, m_titleRect.bottom() + 4 * lineHeight);
    }
    const SharedPrediction& shared = *evaluation->modern.shared;
    const WarpAccess access = sharedSideOf(evaluation->access); // a copy's shared side
    qreal y = m_titleRect.bottom() + 10;

    // ---- Phases: which lanes are served together ----------------------------------------------
    m_labelWidth = metrics.horizontalAdvance(QStringLiteral("row 99 · 0x0000")) + 10;
    const qreal gridWidth = width - 2 * kBankMargin - m_labelWidth;
    // On a slide the 32 columns take what the width gives, down to 22 px.
    const qreal cellWidth = std::max(fitHeight > 0 ? 22.0 : 24.0, gridWidth / kBankCount);
    const qreal phaseLaneWidth = cellWidth;
    const bool hasFusionNote = access.kind.widthBytes > kBankWordBytes;
    const qreal bracketHeight = lineHeight + 8;
    // The lane boxes hold a number in the view's type: 22 px, or taller where the type is (a
    // lecture slide at 3840 x 2160, where a 22 px row clipped the numbers and the "lanes" label).
    const qreal laneHeight = std::max(22.0, std::ceil(lineHeight) + 4);
    m_phaseRect =
        QRectF(kBankMargin, y, width - 2 * kBankMargin,
               lineHeight + laneHeight + 6 + bracketHeight + (hasFusionNote ? lineHeight + 6 : 0));
    for (int lane = 0; lane < kWarpSize; ++lane) {
        m_phaseLaneRects[static_cast<std::size_t>(lane)] =
            QRectF(kBankMargin + m_labelWidth + lane * phaseLaneWidth, y + lineHeight + 4,
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
    m_fusionRect = hasFusionNote
                       ? QRectF(kBankMargin + m_labelWidth, bracketTop + bracketHeight + 2,
                                width - 2 * kBankMargin - m_labelWidth, lineHeight + 4)
                       : QRectF();
    y = m_phaseRect.bottom() + 12;

    // ---- Bank headers and conflict degrees ------------------------------------------------------
    const qreal left = kBankMargin + m_labelWidth;
    for (int bank = 0; bank < kBankCount; ++bank) {
        m_headerRects[static_cast<std::size_t>(bank)] =
            QRectF(left + bank * cellWidth, y, cellWidth, 2 * lineHeight + 8);
    }
    std::vector<std::uint32_t> phases = shared.phases;
    if (phases.empty()) {
        phases.push_back(access.activeMask());
    }
    for (std::uint32_t phase : phases) {
        const auto words = phaseBankWords(shared, phase);
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
    qreal rowHeight = lineHeight + 12;
    const qreal gapHeight = lineHeight + 6;
    if (fitHeight > 0 && !rowSet.empty()) {
        // A slide: the rows take the height left once the wavefronts' heading, one wavefront
        // line, the line saying how many more and the legend have theirs; packed closer than a
        // line of text, every other row (or third) is labelled.
        std::int64_t gaps = 0;
        std::int64_t previousRow = -1;
        for (std::int64_t row : rowSet) {
            gaps += previousRow >= 0 && row > previousRow + 1 ? 1 : 0;
            previousRow = row;
        }
        const qreal below =
            14 + lineHeight + 4 + 2 * (lineHeight + 6) + 8 + 2 * (lineHeight + 6) + kBankMargin;
        const qreal room = fitHeight - y - below - static_cast<qreal>(gaps) * gapHeight;
        const qreal packed = room / static_cast<qreal>(rowSet.size());
        rowHeight = std::clamp(packed, 8.0, rowHeight);
        m_rowLabelStep = std::max(1, static_cast<int>(std::ceil(lineHeight / rowHeight)));
    }
    std::map<std::int64_t, qreal> rowTop;
    std::int64_t previous = -1;
    for (std::int64_t row : rowSet) {
        RowBand band;
        band.row = row;
        if (previous >= 0 && row > previous + 1) {
            band.gapRowsBefore = row - previous - 1;
            band.gapRect = QRectF(kBankMargin, y, width - 2 * kBankMargin, gapHeight);
            y += gapHeight;
        }
        band.rect = QRectF(kBankMargin, y, m_labelWidth + kBankCount * cellWidth, rowHeight);
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
    const qreal listRowHeight = lineHeight + 6;
    const qreal legendHeight = 8 + 2 * (lineHeight + 6) + kBankMargin;
    const bool elide =
        fitHeight > 0 &&
        y + static_cast<qreal>(shared.wavefrontList.size()) * listRowHeight + legendHeight >
            fitHeight;
    for (std::size_t w = 0; w < shared.wavefrontList.size(); ++w) {
        // On a slide the wavefronts past the height are named by the step line as Space
        // reveals them; one line says how many are not listed.
        if (elide && y + 2 * listRowHeight + legendHeight > fitHeight && w > 0) {
            m_wavefrontRows.push_back(WavefrontRow{static_cast<int>(w), QRectF()});
            ++m_wavefrontsElided;
            continue;
        }
        m_wavefrontRows.push_back(WavefrontRow{
            static_cast<int>(w), QRectF(kBankMargin, y, width - 2 * kBankMargin, listRowHeight)});
        y += listRowHeight;
    }
    if (m_wavefrontsElided > 0) {
        m_wavefrontsElidedRect = QRectF(kBankMargin, y, width - 2 * kBankMargin, listRowHeight);
        y += listRowHeight;
    }
    y += 8;
    m_legendRect = QRectF(kBankMargin, y, width - 2 * kBankMargin, 2 * (lineHeight + 6));
    y = m_legendRect.bottom() + kBankMargin;
    return QSizeF(std::max(width, left + kBankCount * cellWidth + kBankMargin), y);
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
    const bool matrix = isMatrixAccess(evaluation->access.kind);
    if (matrix) {
        content.matrixPhases = matrixPhasesOf(shared);
        content.phaseHeading = matrixPhaseHeading(evaluation->access.kind);
        content.fusionNote = matrixPhaseNote(content.matrixPhases);
    }
    for (std::size_t p = 0; p < shared.phases.size(); ++p) {
        const auto [first, last] = laneSpan(shared.phases[p]);
        if (matrix) {
            content.phaseLabels.push_back(
                tr("M%1 · lanes %2–%3 · %n W", "", content.matrixPhases[p].wavefronts)
                    .arg(p + 1)
                    .arg(first)
                    .arg(last));
            continue;
        }
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
