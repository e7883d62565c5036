// The bank view's ldmatrix / stmatrix phases (bankview_matrix.h). The rule they show is core's
// (docs/models.md, "ldmatrix and stmatrix", measured on an H200): each matrix is a phase of its
// own, and a phase takes as many wavefronts as its fullest 16-byte bank group has distinct rows.
#include "views/bankview_matrix.h"

#include <warpscope/matrix_access.h>

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <array>
#include <set>

namespace warpscope::app {

namespace {

QString trBankView(const char* text, int n = -1) {
    return QCoreApplication::translate("warpscope::app::BankView", text, nullptr, n);
}

constexpr int kBanksPerRow = kMatrixRowBytes / kBankWordBytes; // 4 banks: one bank group

} // namespace

std::vector<BankContent::MatrixPhase> matrixPhasesOf(const SharedPrediction& shared) {
    std::vector<BankContent::MatrixPhase> phases;
    for (std::uint32_t mask : shared.phases) {
        BankContent::MatrixPhase phase;
        phase.lanes = mask;
        std::array<std::set<std::int64_t>, kBankCount> words;
        for (const Wavefront& wavefront : shared.wavefrontList) {
            if ((wavefront.laneMask & mask) == 0) {
                continue;
            }
            ++phase.wavefronts;
            for (int bank = 0; bank < kBankCount; ++bank) {
                const std::int64_t word = wavefront.bankWord[static_cast<std::size_t>(bank)];
                if (word >= 0) {
                    phase.banks |= 1u << bank;
                    words[static_cast<std::size_t>(bank)].insert(word);
                }
            }
        }
        // A 16-byte row covers the 4 banks of its group, so the group's distinct rows are the
        // distinct words of any one of its banks: the most of the four.
        for (int group = 0; group < kBankCount / kBanksPerRow; ++group) {
            int rows = 0;
            for (int bank = group * kBanksPerRow; bank < (group + 1) * kBanksPerRow; ++bank) {
                rows =
                    std::max(rows, static_cast<int>(words[static_cast<std::size_t>(bank)].size()));
            }
            if (rows > phase.fullestGroupRows) {
                phase.fullestGroupRows = rows;
                phase.fullestGroup = group;
            }
        }
        phases.push_back(phase);
    }
    return phases;
}

QString matrixPhaseHeading(const AccessKind& kind) {
    return trBankView(
               "Phases: %1 — one per 8×8 matrix of the %2: lanes 8i to 8i+7 give the 16-byte rows "
               "of matrix i, and conflicts only count within a matrix")
        .arg(kind.matrices)
        .arg(QString::fromLatin1(opName(kind)));
}

QString matrixPhaseNote(const std::vector<BankContent::MatrixPhase>& phases) {
    QStringList parts;
    for (std::size_t p = 0; p < phases.size(); ++p) {
        const BankContent::MatrixPhase& phase = phases[p];
        if (phase.fullestGroup < 0) {
            continue;
        }
        parts << trBankView("M%1: %2 (banks %3–%4)")
                     .arg(p + 1)
                     .arg(phase.fullestGroupRows)
                     .arg(phase.fullestGroup * kBanksPerRow)
                     .arg(phase.fullestGroup * kBanksPerRow + kBanksPerRow - 1);
    }
    return trBankView("Wavefronts = most rows of a matrix in one 4-bank group: ") +
           parts.join(QStringLiteral(" · "));
}

} // namespace warpscope::app
