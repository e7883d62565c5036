// The bank view draws an ldmatrix / stmatrix by matrix phase, element by element as core
// predicts it: every cell it draws is a (word, bank) of core's wavefronts with exactly the lanes
// whose 16-byte rows cover that word, every lane's four words are drawn, and each phase's lanes,
// banks and wavefront count are core's (one phase per matrix: matrixPhases; its wavefronts: the
// distinct rows of its fullest 16-byte bank group, the rule measured on the H200). The presets'
// numbers are stated too, so a wrong preset fails as well as a wrong view.
#include "document/patterndocument.h"
#include "export/figureexport.h"
#include "views/bankview.h"
#include "views/lanehighlight.h"

#include <warpscope/matrix_access.h>
#include <warpscope/preset.h>

#include <QApplication>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace warpscope::app {
namespace {

struct PresetRow {
    const char* id;
    int wavefronts; // modern model, stated from the rule (source: the preset's caption)
};
constexpr PresetRow kMatrixPresets[] = {
    {"ldmatrix-rowmajor", 32},
    {"ldmatrix-rowmajor-trans", 32},
    {"ldmatrix-padded", 4},
    {"ldmatrix-padded-trans", 4},
    {"ldmatrix-swizzled", 4},
    {"ldmatrix-swizzled-trans", 4},
    {"ldmatrix-tma-128b", 4},
    {"ldmatrix-swizzle-343-atom", 4},
    {"ldmatrix-swizzle-wrong-span", 8},
};

/// The wavefronts of one matrix by the rule itself, from the addresses alone: the most distinct
/// 16-byte rows that start in one bank group (address / 16 mod 8).
int ruleWavefronts(const WarpAccess& access, std::uint32_t phase) {
    std::map<std::int64_t, std::set<std::int64_t>> rowsByGroup;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (address && ((phase >> lane) & 1u)) {
            rowsByGroup[(*address / 16) % 8].insert(*address / 16);
        }
    }
    std::size_t most = 0;
    for (const auto& [group, rows] : rowsByGroup) {
        most = std::max(most, rows.size());
    }
    return static_cast<int>(most);
}

/// Checks `view` against core's prediction for the document's pattern.
void expectViewEqualsCore(const PatternDocument& document, const BankView& view) {
    ASSERT_TRUE(document.evaluation().has_value());
    const Evaluation& evaluation = *document.evaluation();
    ASSERT_TRUE(isMatrixAccess(evaluation.access.kind));
    const ModernPrediction core = predictModern(evaluation.access);
    ASSERT_TRUE(core.shared.has_value());
    const SharedPrediction& shared = *core.shared;

    // Every cell: a word and bank core's wavefronts serve, with the lanes whose rows cover it.
    std::set<std::pair<std::int64_t, int>> coreCells;
    for (std::size_t w = 0; w < shared.wavefrontList.size(); ++w) {
        for (int bank = 0; bank < kBankCount; ++bank) {
            const std::int64_t word =
                shared.wavefrontList[w].bankWord[static_cast<std::size_t>(bank)];
            if (word >= 0) {
                coreCells.insert({word, bank});
            }
        }
    }
    std::set<std::pair<std::int64_t, int>> drawnCells;
    std::array<int, kWarpSize> wordsOfLane{};
    for (const BankView::Cell& cell : view.cells()) {
        SCOPED_TRACE("word " + std::to_string(cell.word) + ", bank " + std::to_string(cell.bank));
        EXPECT_EQ(cell.bank, static_cast<int>(cell.word % kBankCount));
        drawnCells.insert({cell.word, cell.bank});
        for (const BankView::CellPart& part : cell.parts) {
            ASSERT_GE(part.wavefront, 0);
            ASSERT_LT(part.wavefront, static_cast<int>(shared.wavefrontList.size()));
            const Wavefront& wavefront =
                shared.wavefrontList[static_cast<std::size_t>(part.wavefront)];
            EXPECT_EQ(wavefront.bankWord[static_cast<std::size_t>(cell.bank)], cell.word);
            std::uint32_t expected = 0;
            for (int lane = 0; lane < kWarpSize; ++lane) {
                const auto& address = evaluation.access.addresses[static_cast<std::size_t>(lane)];
                if (address && ((wavefront.laneMask >> lane) & 1u) && cell.word >= *address / 4 &&
                    cell.word <= (*address + 15) / 4) {
                    expected |= 1u << lane;
                }
            }
            EXPECT_EQ(part.lanes, expected) << "W" << part.wavefront + 1;
            for (int lane = 0; lane < kWarpSize; ++lane) {
                wordsOfLane[static_cast<std::size_t>(lane)] += (part.lanes >> lane) & 1u;
            }
        }
    }
    EXPECT_EQ(drawnCells, coreCells);
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const bool row = evaluation.access.addresses[static_cast<std::size_t>(lane)].has_value();
        EXPECT_EQ(wordsOfLane[static_cast<std::size_t>(lane)], row ? 4 : 0)
            << "lane " << lane << ": a 16-byte row is 4 words, each drawn once";
    }

    // The phases: one per matrix, lanes 8i..8i+7, with core's banks and wavefronts.
    const BankContent content = view.content();
    // The notes' GPUs had no ldmatrix/stmatrix: the textbook line says so instead of counting.
    EXPECT_TRUE(content.note.contains(QStringLiteral("is not in the notes' era")))
        << content.note.toStdString();
    EXPECT_FALSE(content.note.contains(QStringLiteral("pass(es)"))) << content.note.toStdString();
    const std::vector<std::uint32_t> phases = matrixPhases(evaluation.access.kind.matrices);
    ASSERT_EQ(content.matrixPhases.size(), phases.size());
    ASSERT_EQ(content.phaseLabels.size(), phases.size());
    int total = 0;
    for (std::size_t p = 0; p < phases.size(); ++p) {
        SCOPED_TRACE("matrix " + std::to_string(p));
        const BankContent::MatrixPhase& phase = content.matrixPhases[p];
        EXPECT_EQ(phase.lanes, phases[p]);
        EXPECT_EQ(phase.lanes, 0xFFu << (8 * p));
        int wavefronts = 0;
        std::uint32_t banks = 0;
        for (const Wavefront& wavefront : shared.wavefrontList) {
            if ((wavefront.laneMask & phases[p]) != 0) {
                EXPECT_EQ(wavefront.laneMask & ~phases[p], 0u) << "a wavefront serves one matrix";
                ++wavefronts;
                for (int bank = 0; bank < kBankCount; ++bank) {
                    if (wavefront.bankWord[static_cast<std::size_t>(bank)] >= 0) {
                        banks |= 1u << bank;
                    }
                }
            }
        }
        EXPECT_EQ(phase.wavefronts, wavefronts);
        EXPECT_EQ(phase.wavefronts, ruleWavefronts(evaluation.access, phases[p]));
        EXPECT_EQ(phase.fullestGroupRows, phase.wavefronts);
        EXPECT_EQ(phase.banks, banks);
        EXPECT_TRUE(content.phaseLabels[p].startsWith(QStringLiteral("M%1 · lanes %2–%3 · %4 W")
                                                          .arg(p + 1)
                                                          .arg(8 * p)
                                                          .arg(8 * p + 7)
                                                          .arg(wavefronts)))
            << content.phaseLabels[p].toStdString();
        total += wavefronts;
    }
    EXPECT_EQ(total, shared.wavefronts);
    EXPECT_TRUE(content.phaseHeading.contains(QStringLiteral("one per 8×8 matrix")))
        << content.phaseHeading.toStdString();
}

TEST(MatrixBankView, EveryCellAndPhaseOfEveryMatrixPresetIsCores) {
    for (const PresetRow& row : kMatrixPresets) {
        SCOPED_TRACE(row.id);
        const Preset* preset = findPreset(row.id);
        ASSERT_NE(preset, nullptr) << "resources/presets.json lacks " << row.id;
        PatternDocument document;
        LaneHighlight highlight;
        document.loadPreset(*preset);
        ASSERT_FALSE(document.error().has_value()) << document.error()->describe();
        BankView view(&document, &highlight);
        view.resize(1400, 900);
        view.relayout();
        ASSERT_TRUE(document.evaluation().has_value());
        EXPECT_EQ(document.evaluation()->modern.shared->wavefronts, row.wavefronts);
        expectViewEqualsCore(document, view);

        // The same access as an stmatrix, .x2: the phases follow.
        Pattern pattern = document.pattern();
        pattern.kind.op = AccessOp::Store;
        pattern.kind.matrices = 2;
        for (int lane = 16; lane < kWarpSize; ++lane) {
            pattern.addresses[static_cast<std::size_t>(lane)].reset();
        }
        document.editPattern(pattern, QStringLiteral("stmatrix.x2"));
        ASSERT_FALSE(document.error().has_value()) << document.error()->describe();
        view.relayout();
        expectViewEqualsCore(document, view);
    }
}

// The comparison can fail: one row moved into another matrix's bank group changes a phase's
// wavefronts, and a view showing the old numbers would be caught by the check above.
TEST(MatrixBankView, OneMovedRowChangesThePhaseItBelongsTo) {
    PatternDocument document;
    LaneHighlight highlight;
    document.loadPreset(*findPreset("ldmatrix-padded"));
    BankView view(&document, &highlight);
    view.resize(1400, 900);
    view.relayout();
    const BankContent before = view.content();
    ASSERT_EQ(before.matrixPhases.size(), 4u);
    EXPECT_EQ(before.matrixPhases[1].wavefronts, 1);
    Pattern pattern = document.pattern();
    // Lane 9 (matrix 1, row 1) onto lane 8's bank group, another row: 2 wavefronts there.
    pattern.addresses[9] = *pattern.addresses[8] + 128 * 16;
    document.editPattern(pattern, QStringLiteral("move lane 9"));
    view.relayout();
    const BankContent after = view.content();
    EXPECT_EQ(after.matrixPhases[1].wavefronts, 2);
    EXPECT_EQ(after.matrixPhases[0].wavefronts, 1);
    EXPECT_TRUE(after.phaseLabels[1].startsWith(QStringLiteral("M2 · lanes 8–15 · 2 W")))
        << after.phaseLabels[1].toStdString();
    expectViewEqualsCore(document, view);
}

/// The texts of an SVG document.
QStringList bankSvgTexts(const QByteArray& svg) {
    QStringList texts;
    QXmlStreamReader reader(svg);
    while (!reader.atEnd()) {
        if (reader.readNext() == QXmlStreamReader::StartElement &&
            reader.name() == QLatin1String("text")) {
            texts << reader.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
        }
    }
    return texts;
}

TEST(MatrixBankView, TheExportedBankFigureShowsEachMatrixPhase) {
    const Preset* preset = findPreset("ldmatrix-rowmajor");
    ASSERT_NE(preset, nullptr);
    const FigureRenderer renderer(
        sessionForPattern(NamedPattern{preset->title, preset->caption, preset->pattern}));
    FigureSpec spec;
    spec.views = QStringList{QStringLiteral("bank")};
    QString error;
    const QStringList texts = bankSvgTexts(renderer.render(spec, FigureFormat::Svg, &error));
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    for (int m = 0; m < 4; ++m) {
        const QString label =
            QStringLiteral("M%1 · lanes %2–%3 · 8 W").arg(m + 1).arg(8 * m).arg(8 * m + 7);
        EXPECT_TRUE(texts.contains(label)) << label.toStdString();
    }
    EXPECT_FALSE(texts.contains(QStringLiteral("M1 · lanes 0–7 · 1 W")));
    const QByteArray png = renderer.render(spec, FigureFormat::Png, &error);
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    EXPECT_TRUE(png.startsWith("\x89PNG"));
    const QString tex = QString::fromUtf8(renderer.render(spec, FigureFormat::Tex, &error));
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    EXPECT_TRUE(tex.contains(QStringLiteral("32 wavefronts"))) << tex.left(400).toStdString();
}

} // namespace
} // namespace warpscope::app
