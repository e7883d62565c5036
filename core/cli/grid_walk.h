// analyze-kernel's walk over a whole grid made visible and stoppable: the estimate told before
// it starts (core's estimateGrid), progress on stderr while it runs (when stderr is a terminal,
// or asked for with --progress), and Ctrl+C (SIGINT) stopping it with a message instead of
// killing the process mid-line.
#pragma once

#include "warpscope/kernel.h"

#include <cstdint>
#include <string>

namespace warpscope::cli {

/// "1,234,567": digits grouped by threes for a reader.
std::string groupDigits(std::int64_t value);

/// One line telling what the walk will cost: "Grid model: N thread-accesses (B blocks x T
/// threads x A accesses); footprint memory at least M".
std::string estimateLine(const ResolvedKernel& kernel, const GridEstimate& estimate);

/// Whether progress is shown: asked for, or stderr is a terminal.
bool progressWanted(bool asked);

/// The grid model over `kernel` (already checked against the budget), with progress on stderr
/// when `showProgress`, and SIGINT turned into ErrorCode::Cancelled for the time of the walk
/// (the handler is restored afterwards; a second Ctrl+C ends the process as usual). On
/// cancellation the error's message says how far the walk got.
Result<GridPrediction> walkGrid(const ResolvedKernel& kernel, bool showProgress);

} // namespace warpscope::cli
