// One evaluated pattern: the 32 resolved lane addresses and both models' predictions. This is the
// app's only way into the core's models; every view draws from an Evaluation and computes no
// transactions, sectors or banks of its own.
#pragma once

#include <warpscope/model.h>
#include <warpscope/pattern.h>
#include <warpscope/result.h>

#include <cstdint>
#include <optional>

namespace warpscope::app {

struct Evaluation {
    Pattern pattern;
    WarpAccess access;
    TextbookOptions textbookOptions;
    ModernPrediction modern;
    TextbookPrediction textbook;

    /// The sector of sectorList that holds `lane`'s bytes (modern model, global space), or nullptr.
    const SectorUse* sectorOfLane(int lane) const;
    /// The line of lineList that holds `lane`'s bytes (modern model, global space), or nullptr.
    const LineUse* lineOfLane(int lane) const;
    /// The shared-memory banks a lane's access is served from, as a bit mask over the 32 banks,
    /// read from the wavefronts that serve the lane; 0 outside shared memory.
    std::uint32_t banksOfLane(int lane) const;
    /// Index into modern.shared->wavefrontList of the first wavefront serving `lane`, or -1.
    int wavefrontOfLane(int lane) const;
};

/// The address of one lane of the evaluated warp (std::nullopt for an inactive lane).
inline const std::optional<std::int64_t>& laneAddress(const Evaluation& evaluation, int lane) {
    return evaluation.access.addresses[static_cast<std::size_t>(lane)];
}

/// The access the bank view draws: the access itself, or for an async copy its shared side (the
/// shared addresses, as a shared store of the same width).
WarpAccess sharedSideOf(const WarpAccess& access);

/// Resolve `pattern` and run both models on it.
Result<Evaluation> evaluatePattern(const Pattern& pattern, const TextbookOptions& textbookOptions);

bool isLaneInMask(std::uint32_t mask, int lane);

} // namespace warpscope::app
