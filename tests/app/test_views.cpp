// Tests of the views against the core's predictions: the warp view's lines and sectors, clicking a
// sector, the bank view's conflict marks (seed 003: a 32x32 tile read by columns conflicts, padded
// to 33 columns it does not), the block view choosing a warp, and the sweep (seed 002's offset
// experiment: 4 sectors at offset 0, 5 at offset 11).
#include "coreexpectations.h"
#include "windowfixture.h"

#include "panels/lanetablemodel.h"
#include "panels/patterneditor.h"
#include "views/bankview.h"
#include "views/blockview.h"
#include "views/lanehighlight.h"
#include "views/sweepplot.h"
#include "views/viewpainting.h"
#include "views/warpview.h"

#include <warpscope/model.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QScrollArea>
#include <QSpinBox>

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <tuple>

namespace warpscope::app::test {
namespace {

// ---- The pictures against the model, element by element ----------------------------------------

/// The lanes of `access` whose bytes include byte `byte`.
std::uint32_t lanesOnByteRange(const WarpAccess& access, std::int64_t begin, std::int64_t end) {
    std::uint32_t lanes = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (address && *address<end&& * address + access.kind.widthBytes> begin) {
            lanes |= 1u << lane;
        }
    }
    return lanes;
}

/// Where a lane's ribbon meets the memory band: the x span of the ribbon just above it.
std::optional<std::pair<qreal, qreal>> ribbonFoot(const WarpLayout& layout, int lane) {
    const QPainterPath& ribbon = layout.ribbons[static_cast<std::size_t>(lane)];
    if (ribbon.isEmpty()) {
        return std::nullopt;
    }
    const QRectF foot =
        ribbon
            .intersected(QPainterPath([&] {
                QPainterPath strip;
                strip.addRect(QRectF(0, layout.memoryTop - 1.5, layout.size.width(), 1.5));
                return strip;
            }()))
            .boundingRect();
    if (foot.isEmpty()) {
        return std::nullopt;
    }
    return std::make_pair(foot.left(), foot.right());
}

void expectWarpViewMatchesCore(const WarpView& view, const CorePrediction& core,
                               const NamedPattern& current) {
    const WarpContent content = view.content();
    const WarpLayout& layout = view.currentLayout();
    const WarpAccess& access = core.access;
    EXPECT_TRUE(content.title.startsWith(QString::fromStdString(current.title)));
    EXPECT_TRUE(content.title.endsWith(expectedAccess(access))) << content.title.toStdString();
    EXPECT_EQ(content.summary, expectedModernSummary(core.modern));

    // Lanes: active exactly where core has an address, numbered in order.
    for (int lane = 0; lane < kWarpSize; ++lane) {
        SCOPED_TRACE("lane " + std::to_string(lane));
        const WarpContent::Lane& drawn = content.lanes[static_cast<std::size_t>(lane)];
        EXPECT_EQ(drawn.label, QString::number(lane));
        EXPECT_EQ(drawn.active, access.addresses[static_cast<std::size_t>(lane)].has_value());
        EXPECT_EQ(drawn.address, access.addresses[static_cast<std::size_t>(lane)]);
        // The boxes run left to right in lane order.
        if (lane > 0) {
            EXPECT_GT(layout.laneRects[static_cast<std::size_t>(lane)].left(),
                      layout.laneRects[static_cast<std::size_t>(lane - 1)].left());
        }
    }

    if (core.modern.global) {
        const GlobalPrediction& g = *core.modern.global;
        // Lines: exactly core's, in order, each labelled with its address.
        ASSERT_EQ(layout.lines.size(), g.lineList.size());
        for (std::size_t i = 0; i < g.lineList.size(); ++i) {
            EXPECT_EQ(layout.lines[i].address, g.lineList[i].address);
            EXPECT_EQ(content.lineLabels[i], formatAddress(g.lineList[i].address));
        }
        // Sectors: the fetched ones are exactly core's sectorList, with its lanes and bytes.
        std::vector<SectorUse> fetched;
        for (std::size_t i = 0; i < content.sectors.size(); ++i) {
            const WarpContent::Sector& drawn = content.sectors[i];
            EXPECT_EQ(drawn.address, layout.sectors[i].address);
            if (!drawn.fetched) {
                EXPECT_EQ(lanesOnByteRange(access, drawn.address, drawn.address + kSectorBytes), 0u)
                    << "sector " << drawn.address << " is drawn as not fetched but lanes use it";
                continue;
            }
            fetched.push_back(SectorUse{drawn.address, drawn.lanes, drawn.bytesUsed});
            EXPECT_EQ(drawn.label, QStringLiteral("S%1 · %2/32 B")
                                       .arg((drawn.address % kLineBytes) / kSectorBytes)
                                       .arg(drawn.bytesUsed));
        }
        ASSERT_EQ(fetched.size(), g.sectorList.size());
        for (std::size_t i = 0; i < fetched.size(); ++i) {
            SCOPED_TRACE("sector " + std::to_string(g.sectorList[i].address));
            EXPECT_EQ(fetched[i].address, g.sectorList[i].address);
            EXPECT_EQ(fetched[i].laneMask, g.sectorList[i].laneMask);
            EXPECT_EQ(fetched[i].bytesUsed, g.sectorList[i].bytesUsed);
        }
        // Each active lane's ribbon lands on the sector core puts its bytes in, and its
        // requested bytes are drawn there.
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const auto& address = access.addresses[static_cast<std::size_t>(lane)];
            if (!address) {
                EXPECT_TRUE(layout.ribbons[static_cast<std::size_t>(lane)].isEmpty());
                continue;
            }
            SCOPED_TRACE("lane " + std::to_string(lane));
            const auto sector = std::find_if(
                layout.sectors.begin(), layout.sectors.end(), [&](const WarpLayout::Sector& s) {
                    return s.address == *address / kSectorBytes * kSectorBytes;
                });
            ASSERT_NE(sector, layout.sectors.end());
            const auto foot = ribbonFoot(layout, lane);
            const auto bytes = layout.byteSpan(*address, *address + access.kind.widthBytes);
            ASSERT_TRUE(foot.has_value());
            ASSERT_TRUE(bytes.has_value());
            const QRectF band = sector->bandRect;
            const qreal tolerance = 1.0;
            const qreal lastByteEnd =
                layout
                    .byteSpan(*address / kSectorBytes * kSectorBytes + kSectorBytes - 1,
                              *address / kSectorBytes * kSectorBytes + kSectorBytes)
                    ->second;
            EXPECT_GE(foot->first, band.left() - tolerance);
            EXPECT_LE(foot->first, lastByteEnd + tolerance);
            EXPECT_GE(bytes->first, band.left() - tolerance);
            EXPECT_LE(bytes->first, band.right() + tolerance);
            EXPECT_NEAR(foot->first, bytes->first, 1.5) << "the ribbon ends on its own bytes";
        }
    } else {
        // Shared memory: the 128-byte rows the lanes touch, each with its lanes.
        std::set<std::int64_t> rows;
        for (const auto& address : access.addresses) {
            if (address) {
                rows.insert(*address / kLineBytes * kLineBytes);
            }
        }
        ASSERT_EQ(layout.lines.size(), rows.size());
        std::size_t i = 0;
        for (std::int64_t row : rows) {
            EXPECT_EQ(layout.lines[i].address, row);
            EXPECT_EQ(content.lineLabels[i], QStringLiteral("row %1").arg(formatAddress(row)));
            EXPECT_EQ(content.listRows[i].lanes, lanesOnByteRange(access, row, row + kLineBytes));
            ++i;
        }
    }

    // Textbook transactions: exactly core's, with their lanes, sizes and labels.
    if (layout.showTextbook && core.modern.global) {
        ASSERT_EQ(content.transactions.size(), core.textbook.transactions.size());
        for (std::size_t i = 0; i < content.transactions.size(); ++i) {
            const Transaction& t = core.textbook.transactions[i];
            EXPECT_EQ(content.transactions[i].address, t.address);
            EXPECT_EQ(content.transactions[i].sizeBytes, t.sizeBytes);
            EXPECT_EQ(content.transactions[i].lanes, t.laneMask);
            EXPECT_EQ(content.transactions[i].label,
                      QStringLiteral("T%1 · %2").arg(i + 1).arg(formatBytes(t.sizeBytes)));
        }
        EXPECT_TRUE(content.textbookSummary.contains(
            QStringLiteral(": %1 transaction(s) · %2 moved · %3 efficiency")
                .arg(core.textbook.transactions.size())
                .arg(formatBytes(core.textbook.bytesMoved))
                .arg(percent(core.textbook.efficiency))))
            << content.textbookSummary.toStdString();
        // The list: one row per line, then one per transaction, naming their lanes.
        ASSERT_EQ(content.listRows.size(),
                  core.modern.global->lineList.size() + core.textbook.transactions.size());
        const std::size_t lines = core.modern.global->lineList.size();
        for (std::size_t i = 0; i < lines; ++i) {
            const LineUse& line = core.modern.global->lineList[i];
            EXPECT_EQ(content.listRows[i].lanes, line.laneMask);
            EXPECT_TRUE(
                content.listRows[i].text.startsWith(QStringLiteral("line %1: %2 sector(s)")
                                                        .arg(formatAddress(line.address))
                                                        .arg(std::popcount(line.sectorMask))))
                << content.listRows[i].text.toStdString();
            EXPECT_TRUE(content.listRows[i].text.endsWith(
                QStringLiteral("lanes %1").arg(laneListText(line.laneMask))));
        }
        for (std::size_t i = 0; i < core.textbook.transactions.size(); ++i) {
            const Transaction& t = core.textbook.transactions[i];
            EXPECT_EQ(content.listRows[lines + i].text, QStringLiteral("T%1: %2 at %3 · lanes %4")
                                                            .arg(i + 1)
                                                            .arg(formatBytes(t.sizeBytes))
                                                            .arg(formatAddress(t.address))
                                                            .arg(laneListText(t.laneMask)));
        }
    }
}

void expectBankViewMatchesCore(const BankView& view, const CorePrediction& core) {
    const BankContent content = view.content();
    EXPECT_EQ(content.shared, core.modern.shared.has_value());
    EXPECT_TRUE(content.title.endsWith(expectedModernSummary(core.modern)))
        << content.title.toStdString();
    if (!core.modern.shared) {
        EXPECT_EQ(view.cellCount(), 0);
        return;
    }
    const SharedPrediction& shared = *core.modern.shared;
    const WarpAccess& access = core.access;
    for (int bank = 0; bank < kBankCount; ++bank) {
        EXPECT_EQ(content.bankLabels[static_cast<std::size_t>(bank)], QString::number(bank));
    }
    // Each bank's conflict degree: distinct words it serves within one phase, from core's
    // wavefronts.
    std::vector<std::uint32_t> phases = shared.phases;
    if (phases.empty()) {
        phases.push_back(access.activeMask());
    }
    std::array<int, kBankCount> degree{};
    for (std::uint32_t phase : phases) {
        std::array<std::set<std::int64_t>, kBankCount> words;
        for (const Wavefront& w : shared.wavefrontList) {
            if ((w.laneMask & phase) == 0) {
                continue;
            }
            for (int bank = 0; bank < kBankCount; ++bank) {
                if (w.bankWord[static_cast<std::size_t>(bank)] >= 0) {
                    words[static_cast<std::size_t>(bank)].insert(
                        w.bankWord[static_cast<std::size_t>(bank)]);
                }
            }
        }
        for (int bank = 0; bank < kBankCount; ++bank) {
            degree[static_cast<std::size_t>(bank)] =
                std::max(degree[static_cast<std::size_t>(bank)],
                         static_cast<int>(words[static_cast<std::size_t>(bank)].size()));
        }
    }
    for (int bank = 0; bank < kBankCount; ++bank) {
        const int d = degree[static_cast<std::size_t>(bank)];
        EXPECT_EQ(content.degreeLabels[static_cast<std::size_t>(bank)],
                  d > 1 ? QStringLiteral("%1×").arg(d)
                        : (d == 1 ? QStringLiteral("1") : QStringLiteral("·")))
            << "bank " << bank;
    }
    EXPECT_EQ(*std::max_element(degree.begin(), degree.end()), shared.worstBankDegree);
    // Cells: one part per (wavefront, bank) core serves, in that bank's column, with the lanes
    // whose bytes include the word.
    std::map<std::tuple<int, int, std::int64_t>, std::uint32_t> drawn;
    for (const BankView::Cell& cell : view.cells()) {
        EXPECT_EQ(cell.word % kBankCount, cell.bank) << "word " << cell.word;
        const QRectF column = view.headerRect(cell.bank);
        for (const BankView::CellPart& part : cell.parts) {
            drawn[{part.wavefront, cell.bank, cell.word}] = part.lanes;
            // Drawn in its bank's column, under that bank's number.
            EXPECT_GE(part.rect.left(), column.left() - 0.5) << "bank " << cell.bank;
            EXPECT_LE(part.rect.right(), column.right() + 0.5) << "bank " << cell.bank;
        }
    }
    std::map<std::tuple<int, int, std::int64_t>, std::uint32_t> expected;
    for (std::size_t w = 0; w < shared.wavefrontList.size(); ++w) {
        const Wavefront& wavefront = shared.wavefrontList[w];
        for (int bank = 0; bank < kBankCount; ++bank) {
            const std::int64_t word = wavefront.bankWord[static_cast<std::size_t>(bank)];
            if (word >= 0) {
                expected[{static_cast<int>(w), bank, word}] =
                    lanesOnByteRange(access, word * kBankWordBytes, (word + 1) * kBankWordBytes) &
                    wavefront.laneMask;
            }
        }
    }
    EXPECT_EQ(drawn, expected);
    // The wavefront list names each wavefront's lanes and banks.
    ASSERT_EQ(content.wavefrontTexts.size(), shared.wavefrontList.size());
    for (std::size_t w = 0; w < shared.wavefrontList.size(); ++w) {
        const Wavefront& wavefront = shared.wavefrontList[w];
        const auto banks = std::count_if(wavefront.bankWord.begin(), wavefront.bankWord.end(),
                                         [](std::int64_t word) { return word >= 0; });
        EXPECT_EQ(content.wavefrontTexts[w], QStringLiteral("W%1: lanes %2 · %3 bank(s)")
                                                 .arg(w + 1)
                                                 .arg(laneListText(wavefront.laneMask))
                                                 .arg(banks));
    }
    EXPECT_TRUE(content.wavefrontHeading.startsWith(
        QStringLiteral("%1 wavefront(s)").arg(shared.wavefronts)));
    EXPECT_TRUE(content.wavefrontHeading.endsWith(
        QStringLiteral("it would take %1").arg(shared.idealWavefronts)));
    if (isMatrixAccess(access.kind)) {
        return; // one phase per matrix: test_matrix_bankview.cpp checks those against core
    }
    // Why the phases are these, and a bracket under each phase's lanes.
    EXPECT_EQ(content.fusionNote, expectedFusionNote(access, shared));
    EXPECT_EQ(content.phaseLabels, expectedPhaseLabels(shared));
    ASSERT_EQ(view.phaseBracketRects().size(), shared.phases.size());
    for (std::size_t p = 0; p < shared.phases.size(); ++p) {
        const QRectF bracket = view.phaseBracketRects()[p];
        const int first = std::countr_zero(shared.phases[p]);
        const int last = 31 - std::countl_zero(shared.phases[p]);
        EXPECT_DOUBLE_EQ(bracket.left(), view.phaseLaneRect(first).left()) << "phase " << p;
        EXPECT_DOUBLE_EQ(bracket.right(), view.phaseLaneRect(last).right()) << "phase " << p;
        EXPECT_GT(bracket.top(), view.phaseLaneRect(first).bottom()) << "phase " << p;
    }
    std::uint32_t split = 0;
    if (shared.fusion.considered && shared.fusion.partnerDistance == 0) {
        split = (1u << shared.fusion.splitLane[0]) | (1u << (shared.fusion.splitLane[0] ^ 1)) |
                (1u << shared.fusion.splitLane[1]) | (1u << (shared.fusion.splitLane[1] ^ 2));
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto index = static_cast<std::size_t>(lane);
        EXPECT_EQ(content.laneSplit[index], isLaneInMask(split, lane)) << "lane " << lane;
        EXPECT_EQ(content.laneLabels[index], QString::number(lane));
        EXPECT_EQ(content.laneActive[index], access.addresses[index].has_value());
        for (std::size_t p = 0; p < shared.phases.size(); ++p) {
            if (isLaneInMask(shared.phases[p], lane)) {
                EXPECT_EQ(content.lanePhase[index], static_cast<int>(p)) << "lane " << lane;
            }
        }
    }
}

void expectBlockViewMatchesCore(const BlockView& view, const Pattern& pattern) {
    if (!pattern.source) {
        EXPECT_TRUE(view.warpCosts().size() <= 1);
        return;
    }
    const Dim3& block = pattern.source->blockDim;
    const std::int64_t threads = block.x * block.y * block.z;
    ASSERT_EQ(static_cast<std::int64_t>(view.warpCosts().size()), (threads + 31) / 32);
    for (std::size_t w = 0; w < view.warpCosts().size(); ++w) {
        SCOPED_TRACE("warp " + std::to_string(w));
        Pattern warp = pattern;
        warp.source->warpIndex = static_cast<std::int64_t>(w);
        const Result<WarpAccess> access = resolve(warp);
        const BlockView::WarpCost& cost = view.warpCosts()[w];
        ASSERT_EQ(cost.valid, access.ok());
        if (!access.ok()) {
            continue;
        }
        const ModernPrediction modern = predictModern(access.value());
        if (modern.global) {
            EXPECT_EQ(cost.sectors, modern.global->sectors);
            EXPECT_EQ(view.costLabel(w), QStringLiteral("%1 sector(s), %2 efficiency")
                                             .arg(modern.global->sectors)
                                             .arg(percent(modern.global->efficiency)));
        } else {
            EXPECT_EQ(cost.wavefronts, modern.shared->wavefronts);
            EXPECT_EQ(view.costLabel(w), QStringLiteral("%1 wavefront(s), %2 bank conflict(s)")
                                             .arg(modern.shared->wavefronts)
                                             .arg(modern.shared->bankConflicts));
        }
    }
}

// Every preset, in the warp, bank and block views, at both models: what each view draws (its
// lanes, ribbons, sectors, lines, transactions, banks, wavefronts and the numbers in its texts)
// equals what core predicts.
TEST_F(WindowTest, EveryViewDrawsWhatCorePredictsForEveryPreset) {
    int checked = 0;
    for (const Preset& preset : builtinPresets()) {
        for (ModelChoice model : {ModelChoice::Modern, ModelChoice::Textbook}) {
            SCOPED_TRACE(preset.id + " at the " + modelChoiceName(model).toStdString() + " model");
            loadPreset(preset.id.c_str());
            document().setModel(model);
            QApplication::processEvents();
            const CorePrediction core =
                predictFromCore(document().pattern(), document().textbookOptions());
            for (auto view :
                 {MainWindow::View::Warp, MainWindow::View::Bank, MainWindow::View::Block}) {
                window->showView(view);
                QApplication::processEvents();
            }
            expectWarpViewMatchesCore(*window->warpView(), core, document().current());
            expectBankViewMatchesCore(*window->bankView(), core);
            expectBlockViewMatchesCore(*window->blockView(), document().pattern());
            ++checked;
        }
    }
    EXPECT_EQ(checked, 2 * static_cast<int>(builtinPresets().size()));
}

// The comparison above can fail: a pattern whose lane 5 is off and whose lane 20 reads lane 21's
// word is drawn that way, and its description differs from the unmodified preset's prediction.
TEST_F(WindowTest, TheViewDescriptionFollowsAModifiedPattern) {
    loadPreset("readsegment-offset-11");
    const CorePrediction original =
        predictFromCore(document().pattern(), document().textbookOptions());
    Pattern pattern = document().pattern();
    pattern.source->activeExpression = "lane != 5";
    pattern.source->addressExpression = "((gid == 20 ? 21 : gid) + offset) * 4";
    document().editPattern(pattern, QStringLiteral("test"));
    QApplication::processEvents();
    const WarpContent content = window->warpView()->content();
    EXPECT_FALSE(content.lanes[5].active);
    EXPECT_EQ(content.lanes[20].address, content.lanes[21].address);
    EXPECT_NE(content.summary, expectedModernSummary(original.modern));
    EXPECT_TRUE(content.title.endsWith(QStringLiteral("31 of 32 lanes active")));
    // The sector holding lanes 4-6 no longer lists lane 5.
    const auto sector =
        std::find_if(content.sectors.begin(), content.sectors.end(),
                     [](const WarpContent::Sector& s) { return isLaneInMask(s.lanes, 4); });
    ASSERT_NE(sector, content.sectors.end());
    EXPECT_FALSE(isLaneInMask(sector->lanes, 5));
    const CorePrediction modified =
        predictFromCore(document().pattern(), document().textbookOptions());
    expectWarpViewMatchesCore(*window->warpView(), modified, document().current());
}

TEST_F(WindowTest, TheWarpViewDrawsTheModelsLinesAndSectors) {
    loadPreset("readsegment-offset-11");
    const WarpLayout& layout = window->warpView()->currentLayout();
    const GlobalPrediction& global = *document().evaluation()->modern.global;
    ASSERT_EQ(layout.lines.size(), global.lineList.size());
    int fetched = 0;
    for (const WarpLayout::Sector& sector : layout.sectors) {
        fetched += sector.sectorIndex >= 0 ? 1 : 0;
    }
    EXPECT_EQ(fetched, global.sectors);
    // Two textbook transactions of 128 bytes (seed 002, cached loads, offset 11).
    EXPECT_EQ(layout.transactions.size(), document().evaluation()->textbook.transactions.size());
    // Every lane's bytes are drawn: lane 0 reads byte 44.
    auto span = layout.byteSpan(44, 48);
    ASSERT_TRUE(span.has_value());
    EXPECT_LT(span->first, span->second);
}

TEST_F(WindowTest, ClickingASectorHighlightsItsLanes) {
    loadPreset("readsegment-offset-11");
    WarpView* view = window->warpView();
    const WarpLayout& layout = view->currentLayout();
    const GlobalPrediction& global = *document().evaluation()->modern.global;
    auto it = std::find_if(layout.sectors.begin(), layout.sectors.end(),
                           [](const WarpLayout::Sector& s) { return s.sectorIndex >= 0; });
    ASSERT_NE(it, layout.sectors.end());
    QTest::mouseClick(view, Qt::LeftButton, {}, it->stripRect.center().toPoint());
    EXPECT_EQ(window->laneHighlight()->selectedLanes(),
              global.sectorList[static_cast<std::size_t>(it->sectorIndex)].laneMask);
    // Clicking a lane selects just that lane.
    QTest::mouseClick(view, Qt::LeftButton, {}, layout.laneRects[7].center().toPoint());
    EXPECT_EQ(window->laneHighlight()->selectedLanes(), 1u << 7);
}

TEST_F(WindowTest, ZoomWidensTheWarpViewAndFitReturns) {
    loadPreset("readsegment-offset-11");
    window->showView(MainWindow::View::Warp);
    QApplication::processEvents();
    WarpView* view = window->warpView();
    const int fitted = view->width();
    view->zoomIn();
    view->zoomIn();
    EXPECT_GT(view->width(), fitted);
    view->fitToWindow();
    EXPECT_EQ(view->width(), fitted);
}

TEST_F(WindowTest, TheBankViewMarksTheColumnReadConflictAndThePaddedTileHasNone) {
    loadPreset("shared-tile-column");
    window->showView(MainWindow::View::Bank);
    QApplication::processEvents();
    const auto& conflicted = window->bankView()->bankDegrees();
    EXPECT_GT(*std::max_element(conflicted.begin(), conflicted.end()), 1);
    EXPECT_GT(window->bankView()->cellCount(), 0);

    loadPreset("shared-tile-column-padded");
    const auto& padded = window->bankView()->bankDegrees();
    EXPECT_EQ(*std::max_element(padded.begin(), padded.end()), 1);
    EXPECT_EQ(document().evaluation()->modern.shared->bankConflicts, 0);
}

// The guide's example (docs/guide/models.md): float4 loads whose lanes two apart share an element
// fuse; one split pair stops fusion for the whole warp and the view names it.
TEST_F(WindowTest, TheBankViewSaysWhichPhasesFusedAndWhy) {
    loadPreset("shared-float4-two-apart");
    window->showView(MainWindow::View::Bank);
    QApplication::processEvents();
    BankContent content = window->bankView()->content();
    EXPECT_EQ(content.fusionNote,
              QStringLiteral("Fused: every lane l asks for the same address as lane l ^ 2 (or one "
                             "of them is off), so quarter-warps 0+1 and 2+3 are served together"));
    EXPECT_EQ(content.phaseLabels,
              (std::vector<QString>{QStringLiteral("P1 · lanes 0–15 · fused"),
                                    QStringLiteral("P2 · lanes 16–31 · fused")}));
    EXPECT_EQ(std::count(content.laneSplit.begin(), content.laneSplit.end(), true), 0);
    EXPECT_EQ(document().evaluation()->modern.shared->wavefronts, 2);

    loadPreset("shared-float4-one-split");
    QApplication::processEvents();
    content = window->bankView()->content();
    EXPECT_EQ(content.fusionNote,
              QStringLiteral("Not fused: lanes 12 and 13 ask for different addresses, and so do "
                             "lanes 0 and 2 (two apart): each of the quarter-warps is served on "
                             "its own"));
    EXPECT_EQ(content.phaseLabels, (std::vector<QString>{QStringLiteral("P1 · lanes 0–7"),
                                                         QStringLiteral("P2 · lanes 8–15"),
                                                         QStringLiteral("P3 · lanes 16–23"),
                                                         QStringLiteral("P4 · lanes 24–31")}));
    for (int lane : {0, 2, 12, 13}) {
        EXPECT_TRUE(content.laneSplit[static_cast<std::size_t>(lane)]) << "lane " << lane;
    }
    EXPECT_EQ(std::count(content.laneSplit.begin(), content.laneSplit.end(), true), 4);
    EXPECT_EQ(window->bankView()->phaseBracketRects().size(), 4u);
    EXPECT_EQ(document().evaluation()->modern.shared->wavefronts, 5);

    // A store never fuses, and 4-byte accesses have no note.
    Pattern store = document().pattern();
    store.kind.op = AccessOp::Store;
    document().editPattern(store, QStringLiteral("test"));
    QApplication::processEvents();
    EXPECT_EQ(
        window->bankView()->content().fusionNote,
        QStringLiteral("Not fused: a store is served in fixed quarter-warps, each on its own"));
    loadPreset("shared-tile-row");
    QApplication::processEvents();
    EXPECT_TRUE(window->bankView()->content().fusionNote.isEmpty());
    EXPECT_EQ(window->bankView()->content().phaseLabels,
              std::vector<QString>{QStringLiteral("P1 · lanes 0–31")});
}

TEST_F(WindowTest, ClickingAThreadInTheBlockViewChoosesItsWarp) {
    loadPreset("shared-tile-column-padded");
    window->showView(MainWindow::View::Block);
    QApplication::processEvents();
    BlockView* view = window->blockView();
    ASSERT_EQ(view->warpCosts().size(), 32u); // 32x32 threads
    const QRectF thread = view->threadRect(3 * 32 + 5);
    ASSERT_FALSE(thread.isEmpty());
    QTest::mouseClick(view, Qt::LeftButton, {}, thread.center().toPoint());
    EXPECT_EQ(document().pattern().source->warpIndex, 3);
    EXPECT_EQ(view->threadAt(thread.center()), 3 * 32 + 5);
}

TEST_F(WindowTest, TheSweepReproducesTheOffsetExperiment) {
    loadPreset("readsegment-offset-11");
    window->showView(MainWindow::View::Sweep);
    QApplication::processEvents();
    SweepPlot* sweep = window->sweepPlot();
    sweep->fromBox()->setValue(0);
    sweep->toBox()->setValue(32);
    const SweepData& data = sweep->data();
    ASSERT_EQ(data.values.size(), 33);
    // Seed 002: offset 0 is aligned (4 sectors, 100 %), offset 11 straddles (5 sectors, 80 %).
    EXPECT_EQ(data.modernSectors[0], 4);
    EXPECT_EQ(data.modernSectors[11], 5);
    EXPECT_NEAR(data.modernEfficiencyPercent[11], 80.0, 1e-9);
    EXPECT_EQ(data.textbookTransactions[11], 2);
    if (SweepPlot::plotAvailable()) {
        EXPECT_EQ(sweep->graphCount(), 4);
    }
}

TEST_F(WindowTest, TheLaneTableIsAWellBehavedModel) {
    loadPreset("bank-offset-1");
    QAbstractItemModelTester tester(window->laneTableModel(),
                                    QAbstractItemModelTester::FailureReportingMode::Warning);
    EXPECT_EQ(window->laneTableModel()->rowCount(), 32);
    // Lane i on bank i (seed 004, offset 1).
    const QModelIndex bank = window->laneTableModel()->index(5, LaneTableModel::BankColumn);
    EXPECT_TRUE(window->laneTableModel()->data(bank).toString().startsWith(QStringLiteral("5")));
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

// Addresses far apart (2^50 bytes between lanes) and a lone lane: gaps are elided, nothing
// overflows, and every view still draws what core predicts.
TEST_F(WindowTest, ExtremePatternsDrawWhatCorePredictsInEveryView) {
    loadPreset("bank-offset-1");
    const char* expressions[] = {"lane * 1125899906842624", "lane == 7 ? 64 : 0",
                                 "(lane % 2) * 4096 * 1024"};
    for (MemorySpace space : {MemorySpace::Global, MemorySpace::Shared}) {
        for (const char* expression : expressions) {
            SCOPED_TRACE(expression);
            Pattern pattern = document().pattern();
            pattern.kind.space = space;
            pattern.source->addressExpression = expression;
            document().editPattern(pattern, QStringLiteral("test"));
            ASSERT_FALSE(document().error().has_value()) << document().error()->describe();
            for (auto view : {MainWindow::View::Warp, MainWindow::View::Bank,
                              MainWindow::View::Block, MainWindow::View::Sweep}) {
                window->showView(view);
                QApplication::processEvents();
            }
            const CorePrediction core =
                predictFromCore(document().pattern(), document().textbookOptions());
            expectWarpViewMatchesCore(*window->warpView(), core, document().current());
            expectBankViewMatchesCore(*window->bankView(), core);
            expectBlockViewMatchesCore(*window->blockView(), document().pattern());
        }
    }
    // An address the core refuses keeps the last picture and says why.
    const WarpContent before = window->warpView()->content();
    Pattern negative = document().pattern();
    negative.source->addressExpression = "lane - 1";
    document().editPattern(negative, QStringLiteral("test"));
    ASSERT_TRUE(document().error().has_value());
    EXPECT_EQ(document().error()->code, ErrorCode::NegativeAddress);
    EXPECT_FALSE(window->editor()->addressErrorText().isEmpty());
    const WarpContent after = window->warpView()->content();
    EXPECT_EQ(after.summary, before.summary) << "the last valid picture stays";
    EXPECT_TRUE(after.noteIsWarning);
    EXPECT_TRUE(after.note.startsWith(QStringLiteral("⚠ Showing the last valid pattern")));
}

/// The mean lightness (0..255) of an image.
double meanLightness(const QImage& image) {
    const QImage small = image.scaled(64, 64).convertToFormat(QImage::Format_RGB32);
    double sum = 0;
    for (int y = 0; y < small.height(); ++y) {
        for (int x = 0; x < small.width(); ++x) {
            sum += QColor(small.pixel(x, y)).lightness();
        }
    }
    return sum / (small.width() * small.height());
}

TEST_F(WindowTest, TheDarkThemeRendersWithoutWarnings) {
    loadPreset("shared-tile-column");
    clearRecordedQtWarnings();
    window->setTheme(Theme::Dark);
    for (auto view : {MainWindow::View::Warp, MainWindow::View::Bank, MainWindow::View::Block,
                      MainWindow::View::Sweep}) {
        window->showView(view);
        QApplication::processEvents();
        // The view is drawn dark: its picture is mostly dark, and light again in the light theme.
        EXPECT_LT(meanLightness(window->viewTabs()->currentWidget()->grab().toImage()), 100.0);
    }
    window->setTheme(Theme::Light);
    window->showView(MainWindow::View::Bank);
    QApplication::processEvents();
    EXPECT_GT(meanLightness(window->viewTabs()->currentWidget()->grab().toImage()), 155.0);
    EXPECT_TRUE(recordedQtWarnings().isEmpty())
        << recordedQtWarnings().join(QLatin1Char('\n')).toStdString();
}

} // namespace
} // namespace warpscope::app::test
