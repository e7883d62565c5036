// measure_streams on the current CUDA device (warpscope/experiments/streams.h): the staged copy-in,
// kernel and copy-out over 1 to N streams, with the timeline of every operation.
#pragma once

#include "probe_backend.h"
#include "warpscope/experiments/streams.h"

namespace warpscope::probe {

/// Runs the experiment on the current device. OutOfMemory (not fatal) when the two device arrays
/// or the two pinned host arrays do not fit; KernelFault (fatal) for a sticky error; Cancelled
/// between stream counts; Internal when the kernel's result is wrong.
ProbeResult<experiments::StreamsMeasurement>
runStreamsOnDevice(const experiments::StreamsOptions& options, const ProgressCallback& progress,
                   const CancelCallback& cancelled);

} // namespace warpscope::probe
