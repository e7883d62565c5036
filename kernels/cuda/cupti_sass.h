// Per-instruction counts with CUPTI's SASS Metrics API (cupti_sass_metrics.h, CUDA 12.5+): one
// more launch of a generated kernel with its SASS patched (lazy patching: only the functions that
// run), each instruction's own warp executions, global sectors, shared wavefronts and bank
// conflicts read back, and matched to the kernel description's accesses by core's
// livePerInstructionJson. CUPTI is loaded at run time (cupti_api.h): where its library or this
// API is missing, the measurement says why and keeps everything else.
#pragma once

#include "probe_backend.h"

#include <functional>
#include <string>

namespace warpscope::probe {

/// Fills result.perInstruction (or result.perInstructionUnavailableReason), perInstructionSource
/// and perInstructionMs for the kernel `item`, whose generated entry point is `entryPoint`, on
/// CUDA device `device` (its context current). `before` runs outside the patched range (an L2
/// flush, so the counted launch starts as cold as the counters' launch) and `launchAndWait`
/// launches the kernel once and waits for it; each returns false on a CUDA error. Hardware
/// counters already in result.counters are put beside the instruction counts.
/// WARPSCOPE_SASS_METRICS_LIST=FILE writes every SASS metric this CUPTI offers for the GPU, with
/// its description, to FILE.
void measurePerInstruction(int device, const std::string& entryPoint, const KernelItem& item,
                           const std::function<bool()>& before,
                           const std::function<bool()>& launchAndWait, KernelMeasurement& result);

} // namespace warpscope::probe
