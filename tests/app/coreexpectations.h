// What core predicts for a pattern, and the texts the views and figures must show for it,
// written out here from core's numbers (resolve, predictModern, predictTextbook) rather than
// through the app's Evaluation, so a view or figure that draws other numbers fails.
#pragma once

#include "views/viewpainting.h"

#include <warpscope/matrix_access.h>
#include <warpscope/model.h>
#include <warpscope/pattern.h>

#include <gtest/gtest.h>

#include <QString>

#include <bit>
#include <vector>

namespace warpscope::app::test {

/// What core predicts for a pattern, computed here from resolve(), predictModern() and
/// predictTextbook() directly, not through the app's Evaluation.
struct CorePrediction {
    WarpAccess access;
    ModernPrediction modern;
    TextbookPrediction textbook;
};

inline CorePrediction predictFromCore(const Pattern& pattern, const TextbookOptions& options) {
    const Result<WarpAccess> access = resolve(pattern);
    EXPECT_TRUE(access.ok()) << (access.ok() ? std::string() : access.error().describe());
    CorePrediction core;
    if (access.ok()) {
        core.access = access.value();
        core.modern = predictModern(core.access);
        core.textbook = predictTextbook(core.access, options);
    }
    return core;
}

inline QString percent(double fraction) {
    return QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', 1);
}

/// The modern model's line in the title, written out here from core's numbers.
inline QString expectedModernSummary(const ModernPrediction& modern) {
    if (modern.global) {
        const GlobalPrediction& g = *modern.global;
        return QStringLiteral(
                   "Modern model (cc 7.0+): %1 request(s) · %2 sector(s) in %3 line(s) · "
                   "%4 moved for %5 requested · %6 efficiency")
            .arg(g.requests)
            .arg(g.sectors)
            .arg(g.lines)
            .arg(formatBytes(g.bytesMoved))
            .arg(formatBytes(g.uniqueBytesRequested))
            .arg(percent(g.efficiency));
    }
    const SharedPrediction& s = *modern.shared;
    return QStringLiteral("Modern model (cc 7.0+): %1 wavefront(s), ideal %2 · %3 bank conflict(s)")
        .arg(s.wavefronts)
        .arg(s.idealWavefronts)
        .arg(s.bankConflicts);
}

/// The bank view's line saying why an 8/16-byte access has its phases, from core's fusion.
inline QString expectedFusionNote(const WarpAccess& access, const SharedPrediction& shared) {
    const int width = access.kind.widthBytes;
    const PhaseFusion& f = shared.fusion;
    const QString fixed =
        width == 8 ? QStringLiteral("half-warps") : QStringLiteral("quarter-warps");
    const QString fused = width == 8 ? QStringLiteral("half-warps 0 and 1")
                                     : QStringLiteral("quarter-warps 0+1 and 2+3");
    if (width <= 4) {
        return QString();
    }
    if (!f.considered) {
        return QStringLiteral("Not fused: a store is served in fixed %1, each on its own")
            .arg(fixed);
    }
    if (f.partnerDistance == 1) {
        return QStringLiteral("Fused: every lane pair (2k, 2k+1) asks for at most one address, so "
                              "%1 are served together")
            .arg(fused);
    }
    if (f.partnerDistance == 2) {
        return QStringLiteral("Fused: every lane l asks for the same address as lane l ^ 2 (or "
                              "one of them is off), so %1 are served together")
            .arg(fused);
    }
    return QStringLiteral("Not fused: lanes %1 and %2 ask for different addresses, and so do "
                          "lanes %3 and %4 (two apart): each of the %5 is served on its own")
        .arg(f.splitLane[0])
        .arg(f.splitLane[0] ^ 1)
        .arg(f.splitLane[1])
        .arg(f.splitLane[1] ^ 2)
        .arg(fixed);
}

/// The bank view's label under each phase: its first and last lane, and whether it was fused.
inline std::vector<QString> expectedPhaseLabels(const SharedPrediction& shared) {
    std::vector<QString> labels;
    for (std::size_t p = 0; p < shared.phases.size(); ++p) {
        const std::uint32_t phase = shared.phases[p];
        const int first = std::countr_zero(phase);
        const int last = 31 - std::countl_zero(phase);
        labels.push_back(
            QStringLiteral("P%1 · lanes %2–%3%4")
                .arg(p + 1)
                .arg(first)
                .arg(last)
                .arg(shared.fusion.partnerDistance > 0 ? QStringLiteral(" · fused") : QString()));
    }
    return labels;
}

inline QString expectedAccess(const WarpAccess& access) {
    if (isMatrixAccess(access.kind)) { // ldmatrix, stmatrix: a row address per lane
        return QStringLiteral("a 16-byte row address from each of %1 lanes")
            .arg(std::popcount(access.activeMask()));
    }
    return QStringLiteral("%1 B per lane, %2 of 32 lanes active")
        .arg(access.kind.widthBytes)
        .arg(std::popcount(access.activeMask()));
}

} // namespace warpscope::app::test
