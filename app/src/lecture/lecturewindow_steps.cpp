// LectureWindow's step-through: the steps a slide reveals one by one (the warp view's textbook
// transactions and lines, or the bank view's wavefronts, with the lanes each lights and a sentence
// for the step; the streams slide's stream counts), and Space, Backspace and Return moving through
// them.
#include "lecture/lecturewindow.h"

#include "document/patterndocument.h"
#include "experiments/streamsview.h"
#include "views/bankview.h"
#include "views/lanehighlight.h"
#include "views/notesview.h"
#include "views/viewkind.h"
#include "views/viewpainting.h"
#include "views/warplayout.h"
#include "views/warpview.h"

#include <QLocale>

#include <algorithm>
#include <iterator>

namespace warpscope::app {

namespace {

/// The stream counts a streams slide steps through.
constexpr int kStreamsSlideCounts[] = {1, 2, 4, 8};

} // namespace

int LectureWindow::streamsSlideCount(int revealed) {
    const int last = static_cast<int>(std::size(kStreamsSlideCounts)) - 1;
    return kStreamsSlideCounts[static_cast<std::size_t>(std::clamp(revealed, 0, last))];
}

QString LectureWindow::streamsStepText(int revealed) const {
    if (revealed <= 0) {
        return tr("One stream: nothing overlaps · Space: 2, 4, then 8 streams");
    }
    // The results the slide's streams view draws (setExperimentResults() gives it these).
    const auto* results =
        std::any_cast<StreamsResults>(&experimentResults(experiments::StreamsExperiment::key));
    const int n = streamsSlideCount(revealed);
    const StreamsComparison c = compareStreams(results, n);
    const QString model = QLocale::c().toString(c.predicted.speedup, 'f', 2);
    return c.measuredSpeedup ? tr("%1 streams: %2× on this GPU, %3× by the model")
                                   .arg(n)
                                   .arg(QLocale::c().toString(*c.measuredSpeedup, 'f', 2), model)
                             : tr("%1 streams: %2× by the model").arg(n).arg(model);
}

void LectureWindow::computeSteps() {
    m_steps.clear();
    m_stepView.clear();
    const auto& evaluation = m_document->evaluation();
    if (!evaluation || m_document->error()) {
        return;
    }
    for (const QString& name : shownViews()) {
        if (name == QLatin1String("streams")) {
            // The streams slide: one stream (nothing overlaps), then 2, 4 and 8 (the pipeline).
            for (int i = 1; i < static_cast<int>(std::size(kStreamsSlideCounts)); ++i) {
                m_steps.push_back(Step{0, streamsStepText(i)});
            }
            m_stepView = name;
            return;
        }
        if (name == viewKindName(ViewKind::Notes)) {
            // The bar chart slide: the notes' bars first, then this GPU's beside them.
            const NotesComparison& comparison = notesView()->comparison();
            // Each step's text says what that step draws. The notes' GPU may be "not named in
            // the notes": it follows "their GPU", not the numbers.
            QString first;
            if (comparison.notesRows > 0) {
                first = tr("The notes' numbers · their GPU: %1").arg(comparison.notesGpu);
            } else if (comparison.modelName.isEmpty()) {
                first = tr("The notes publish no number here");
            } else {
                first = tr("The notes publish no number here: the model's count per warp");
            }
            // This GPU's bars: a row recorded without the quantity compared (a load efficiency
            // needs the counters; a bandwidth alone draws no bar) has none.
            const auto hasBar = [](const auto& values) { return values.measured.has_value(); };
            bool gpuBars = std::any_of(comparison.rows.begin(), comparison.rows.end(), hasBar);
            for (const std::vector<NotesGpuValues>& perGpu : comparison.perGpu) {
                gpuBars = gpuBars || std::any_of(perGpu.begin(), perGpu.end(), hasBar);
            }
            QString second;
            if (comparison.measuredRows == 0) {
                second = tr("This GPU: no measurement recorded");
            } else if (gpuBars) {
                second = tr("This GPU's numbers (%1) · %2")
                             .arg(comparison.measuredGpu, comparison.finding);
            } else {
                // The finding above the chart says the rest (it is shown with this step).
                second =
                    tr("This GPU (%1): no bars, its %2 was not measured")
                        .arg(comparison.measuredGpu, quantityName(comparison.experiment->quantity));
            }
            m_steps.push_back(Step{0, first});
            m_steps.push_back(Step{0, second});
            m_stepView = name;
            return;
        }
        if (name == viewKindName(ViewKind::Warp)) {
            const WarpLayout& layout = warpView()->currentLayout();
            const int lineCount = static_cast<int>(layout.lines.size());
            int transactionCount = 0;
            for (const WarpLayout::ListRow& row : layout.listRows) {
                transactionCount += row.kind == WarpLayout::ListKind::Transaction ? 1 : 0;
            }
            for (const WarpLayout::ListRow& row : layout.listRows) {
                Step step;
                if (row.kind == WarpLayout::ListKind::Transaction) {
                    const Transaction& t =
                        evaluation->textbook.transactions[static_cast<std::size_t>(row.index)];
                    step.lanes = t.laneMask;
                    step.text = tr("Transaction %1 of %2 (textbook model): %3 at %4 · lanes %5")
                                    .arg(row.index + 1)
                                    .arg(transactionCount)
                                    .arg(formatBytes(t.sizeBytes), formatAddress(t.address),
                                         laneListText(t.laneMask));
                    m_steps.push_back(step);
                    continue;
                }
                const WarpLayout::Line& line = layout.lines[static_cast<std::size_t>(row.index)];
                for (int lane = 0; lane < kWarpSize; ++lane) {
                    const auto& address =
                        evaluation->access.addresses[static_cast<std::size_t>(lane)];
                    if (address && layout.lineAt(*address) == row.index) {
                        step.lanes |= 1u << lane;
                    }
                }
                if (!layout.global) {
                    step.text = tr("Row %1 of %2: %3 · lanes %4")
                                    .arg(row.index + 1)
                                    .arg(lineCount)
                                    .arg(formatAddress(line.address), laneListText(step.lanes));
                } else if (line.lineIndex >= 0) {
                    const GlobalPrediction& global = *evaluation->modern.global;
                    const LineUse& use = global.lineList[static_cast<std::size_t>(line.lineIndex)];
                    int sectors = 0;
                    for (const SectorUse& sector : global.sectorList) {
                        sectors += sector.address >= use.address &&
                                           sector.address < use.address + kLineBytes
                                       ? 1
                                       : 0;
                    }
                    step.lanes = use.laneMask;
                    step.text = tr("Line %1 of %2 (modern model): %3 · %n sector(s) · lanes %4", "",
                                   sectors)
                                    .arg(row.index + 1)
                                    .arg(lineCount)
                                    .arg(formatAddress(use.address), laneListText(use.laneMask));
                } else {
                    step.text = tr("Line %1 of %2: %3, touched only by a textbook transaction")
                                    .arg(row.index + 1)
                                    .arg(lineCount)
                                    .arg(formatAddress(line.address));
                }
                m_steps.push_back(step);
            }
        } else if (name == viewKindName(ViewKind::Bank) && evaluation->modern.shared) {
            const auto& wavefronts = evaluation->modern.shared->wavefrontList;
            for (std::size_t w = 0; w < wavefronts.size(); ++w) {
                int banks = 0;
                for (std::int64_t word : wavefronts[w].bankWord) {
                    banks += word >= 0 ? 1 : 0;
                }
                m_steps.push_back(Step{wavefronts[w].laneMask,
                                       tr("Wavefront %1 of %2: lanes %3 · %n bank(s)", "", banks)
                                           .arg(static_cast<int>(w) + 1)
                                           .arg(static_cast<int>(wavefronts.size()))
                                           .arg(laneListText(wavefronts[w].laneMask))});
            }
        }
        if (!m_steps.empty()) {
            m_stepView = name;
            return;
        }
    }
}

void LectureWindow::applyReveal() {
    for (const auto& [name, view] : m_views) {
        const int count = name == m_stepView ? m_revealed : -1;
        if (name == viewKindName(ViewKind::Warp)) {
            static_cast<WarpView*>(view)->setRevealCount(count);
        } else if (name == viewKindName(ViewKind::Bank)) {
            static_cast<BankView*>(view)->setRevealCount(count);
        } else if (name == viewKindName(ViewKind::Notes)) {
            static_cast<NotesView*>(view)->setRevealedSeries(count);
        } else if (name == QLatin1String("streams") && shownViews().contains(name)) {
            // Nothing revealed: one stream; each step the next count; not stepped: the last.
            // (Hidden, it keeps the count prepareExperimentChart() gave it for its next slide.)
            const int last = static_cast<int>(std::size(kStreamsSlideCounts)) - 1;
            const int step = count < 0 ? last : std::min(count, last);
            static_cast<StreamsView*>(view)->setStreamCount(
                kStreamsSlideCounts[static_cast<std::size_t>(step)]);
        }
    }
    if (m_revealed > 0 && m_revealed <= stepCount()) {
        const Step& step = m_steps[static_cast<std::size_t>(m_revealed - 1)];
        m_highlight->setSelectedLanes(step.lanes, step.text);
    } else {
        m_highlight->clear();
    }
}

void LectureWindow::revealNext() {
    if (m_revealed >= stepCount()) {
        nextSlide();
        return;
    }
    ++m_revealed;
    m_revealedAll = false;
    applyReveal();
    updateTexts();
    emit revealChanged(m_revealed);
}

void LectureWindow::revealPrevious() {
    if (m_revealed == 0) {
        if (m_slide > 0) {
            setSlide(m_slide - 1);
            revealAll();
        }
        return;
    }
    --m_revealed;
    m_revealedAll = false;
    applyReveal();
    updateTexts();
    emit revealChanged(m_revealed);
}

void LectureWindow::revealAll() {
    m_revealed = stepCount();
    m_revealedAll = true;
    applyReveal();
    m_highlight->clear(); // the whole figure, no lanes singled out
    updateTexts();
    emit revealChanged(m_revealed);
}

} // namespace warpscope::app
