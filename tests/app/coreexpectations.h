// What core predicts for a pattern, and the texts the views and figures must show for it,
// written out here from core's numbers (resolve, predictModern, predictTextbook) rather than
// through the app's Evaluation, so a view or figure that draws other numbers fails.
#pragma once

#include "views/viewpainting.h"

#include <warpscope/model.h>
#include <warpscope/pattern.h>

#include <gtest/gtest.h>

#include <QString>

#include <bit>

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

inline QString expectedAccess(const WarpAccess& access) {
    return QStringLiteral("%1 B per lane, %2 of 32 lanes active")
        .arg(access.kind.widthBytes)
        .arg(std::popcount(access.activeMask()));
}

} // namespace warpscope::app::test
