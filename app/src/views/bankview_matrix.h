// The bank view's words for ldmatrix and stmatrix: one phase per 8x8 matrix, read from the modern
// model's phases and wavefronts (core computes them; nothing here counts a wavefront of its own).
#pragma once

#include "views/bankview.h"

#include <warpscope/model.h>

#include <QString>

#include <vector>

namespace warpscope::app {

/// One entry per phase of `shared` (an ldmatrix's or stmatrix's prediction): its lanes, the
/// banks and the wavefronts that serve them, and the fullest 16-byte bank group.
std::vector<BankContent::MatrixPhase> matrixPhasesOf(const SharedPrediction& shared);
/// "Phases: 4 — one per 8×8 matrix …" for the phase row's heading.
QString matrixPhaseHeading(const AccessKind& kind);
/// The line under the phases: why a matrix takes the wavefronts it takes, phase by phase.
QString matrixPhaseNote(const std::vector<BankContent::MatrixPhase>& phases);

} // namespace warpscope::app
