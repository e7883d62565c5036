// WarpView's description of what it draws (WarpContent): every lane, ribbon, sector, line,
// transaction and text, with the lanes behind each, built from the document's evaluation. The
// painting in warpview.cpp draws from it, and tests compare it with core's prediction.
#include "views/warpview.h"

#include "document/patterndocument.h"
#include "views/predictiontext.h"
#include "views/viewpainting.h"

namespace warpscope::app {

WarpContent WarpView::content() const {
    WarpContent content;
    const auto& optionalEvaluation = m_document->evaluation();
    if (!optionalEvaluation) {
        return content;
    }
    const Evaluation& evaluation = *optionalEvaluation;
    content.title =
        m_document->shownTitle() + QStringLiteral(" — ") + describeAccess(evaluation.access);
    content.summary = modernSummary(evaluation);
    if (m_document->error()) {
        content.noteIsWarning = true;
        content.note =
            tr("⚠ Showing the last valid pattern: %1").arg(describeError(*m_document->error()));
    } else if (m_layout.constant) {
        content.note =
            tr("Constant memory: the constant cache serves the warp's distinct "
               "addresses one after another, each broadcast to the lanes that ask "
               "for it (the best-practice notes). Dashed boxes R1, R2, … are the rounds.");
        if (!m_document->current().caption.empty()) {
            content.note +=
                QLatin1Char(' ') + QString::fromStdString(m_document->current().caption);
        }
    } else if (!m_layout.global) {
        content.note = tr("Shared memory has no sectors or lines: each row is 128 bytes, one word "
                          "in each of the 32 banks. Banks and wavefronts are in the Bank view "
                          "(Ctrl+2).");
    } else {
        content.note = QString::fromStdString(m_document->current().caption);
    }
    if (m_layout.showTextbook) {
        content.textbookSummary = textbookSummary(evaluation);
    }

    const auto& threads = evaluation.access.threads;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        WarpContent::Lane& drawn = content.lanes[static_cast<std::size_t>(lane)];
        drawn.address = laneAddress(evaluation, lane);
        drawn.active = drawn.address.has_value();
        drawn.inBlock = !threads || (*threads)[static_cast<std::size_t>(lane)].existsInBlock;
        drawn.line = drawn.address ? m_layout.lineAt(*drawn.address) : -1;
        drawn.label = QString::number(lane);
    }
    for (const WarpLayout::Line& line : m_layout.lines) {
        content.lineLabels.push_back(m_layout.global
                                         ? formatAddress(line.address)
                                         : tr("row %1").arg(formatAddress(line.address)));
    }
    for (const WarpLayout::Sector& sector : m_layout.sectors) {
        WarpContent::Sector drawn;
        drawn.address = sector.address;
        drawn.fetched = sector.sectorIndex >= 0;
        if (drawn.fetched) {
            const SectorUse& use =
                evaluation.modern.global->sectorList[static_cast<std::size_t>(sector.sectorIndex)];
            drawn.lanes = use.laneMask;
            drawn.bytesUsed = use.bytesUsed;
            drawn.label = tr("S%1 · %2/32 B").arg(sector.indexInLine).arg(use.bytesUsed);
            drawn.shortLabel = QStringLiteral("S%1").arg(sector.indexInLine);
        } else {
            drawn.label = tr("not fetched");
        }
        content.sectors.push_back(drawn);
    }
    for (const WarpLayout::TransactionBox& box : m_layout.transactions) {
        const Transaction& t =
            evaluation.textbook.transactions[static_cast<std::size_t>(box.index)];
        if (m_layout.constant) {
            content.transactions.push_back(WarpContent::Transaction{
                t.address, t.sizeBytes, t.laneMask,
                tr("R%1 · %2 lane(s)").arg(box.index + 1).arg(__builtin_popcount(t.laneMask)),
                QStringLiteral("R%1").arg(box.index + 1)});
            continue;
        }
        content.transactions.push_back(WarpContent::Transaction{
            t.address, t.sizeBytes, t.laneMask,
            QStringLiteral("T%1 · %2").arg(box.index + 1).arg(formatBytes(t.sizeBytes)),
            QStringLiteral("T%1").arg(box.index + 1)});
    }

    content.listHeading = m_layout.global     ? tr("Lines and sectors — modern model")
                          : m_layout.constant ? tr("Rows of constant memory the lanes touch")
                                              : tr("Rows of shared memory the lanes touch");
    content.transactionHeading =
        m_layout.constant ? tr("Constant-cache rounds — one distinct address each, in turn")
                          : tr("Transactions — textbook model");
    for (const WarpLayout::ListRow& row : m_layout.listRows) {
        WarpContent::ListRow drawn;
        if (row.kind == WarpLayout::ListKind::Line) {
            const WarpLayout::Line& line = m_layout.lines[static_cast<std::size_t>(row.index)];
            drawn.marker = line.group;
            if (m_layout.global && line.lineIndex >= 0) {
                const GlobalPrediction& g = *evaluation.modern.global;
                const LineUse& use = g.lineList[static_cast<std::size_t>(line.lineIndex)];
                drawn.lanes = use.laneMask;
                QStringList sectors;
                int used = 0;
                int count = 0;
                for (const SectorUse& sector : g.sectorList) {
                    if (sector.address >= use.address &&
                        sector.address < use.address + kLineBytes) {
                        sectors << QStringLiteral("S%1").arg((sector.address - use.address) /
                                                             kSectorBytes);
                        used += sector.bytesUsed;
                        ++count;
                    }
                }
                drawn.text = tr("line %1: %2 sector(s) %3 · %4 of %5 used · lanes %6")
                                 .arg(formatAddress(use.address))
                                 .arg(count)
                                 .arg(sectors.join(QLatin1Char(' ')))
                                 .arg(formatBytes(used))
                                 .arg(formatBytes(std::int64_t{count} * kSectorBytes))
                                 .arg(laneListText(use.laneMask));
            } else {
                for (int lane = 0; lane < kWarpSize; ++lane) {
                    const auto& a = laneAddress(evaluation, lane);
                    if (a && m_layout.lineAt(*a) == row.index) {
                        drawn.lanes |= 1u << lane;
                    }
                }
                drawn.text =
                    m_layout.global
                        ? tr("line %1: textbook transaction only").arg(formatAddress(line.address))
                        : tr("row %1 (bytes %2–%3): lanes %4")
                              .arg(formatAddress(line.address))
                              .arg(line.address)
                              .arg(line.address + kLineBytes - 1)
                              .arg(laneListText(drawn.lanes));
            }
        } else if (m_layout.constant) {
            // The modern model's round (the textbook pass at the same index is the same lanes).
            const ConstantRound& round =
                evaluation.modern.constant->rounds[static_cast<std::size_t>(row.index)];
            drawn.lanes = round.laneMask;
            const int lanes = __builtin_popcount(round.laneMask);
            drawn.text =
                tr("round %1: %2 · lanes %3%4")
                    .arg(row.index + 1)
                    .arg(formatAddress(round.address))
                    .arg(laneListText(round.laneMask))
                    .arg(lanes > 1 ? tr(" (broadcast to %1 lanes)").arg(lanes) : QString());
        } else {
            const Transaction& t =
                evaluation.textbook.transactions[static_cast<std::size_t>(row.index)];
            drawn.lanes = t.laneMask;
            drawn.text = tr("T%1: %2 at %3 · lanes %4")
                             .arg(row.index + 1)
                             .arg(formatBytes(t.sizeBytes))
                             .arg(formatAddress(t.address))
                             .arg(laneListText(t.laneMask));
        }
        content.listRows.push_back(drawn);
    }
    return content;
}

} // namespace warpscope::app
