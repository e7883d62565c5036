// measure_l2_persistence on the current CUDA device (warpscope/experiments/l2_persistence.h): the
// device's persisting-L2 facts, and the experiment run with and without an access policy window.
#pragma once

#include "probe_backend.h"

#include "warpscope/experiments/l2_persistence.h"

#include <string>

namespace warpscope::probe {

class CounterSession;

/// persistingL2CacheMaxSize, accessPolicyMaxWindowSize, the L2 size and free memory of `device`.
ProbeResult<experiments::L2PersistenceDevice> currentL2PersistenceDevice(int device);

/// Runs a plan on the current device: sets cudaLimitPersistingL2CacheSize to the plan's
/// set-aside, and for every window size and hitRatio times the kernel (CUDA events) and, with a
/// session, counts one launch. Whatever happens, the stream's window is cleared, persisting lines
/// are reset to normal and the limit is set back to what it was. KernelFault (fatal) for a sticky
/// error; Cancelled between points.
ProbeResult<experiments::L2PersistenceMeasurement>
runL2PersistenceOnDevice(const experiments::L2PersistencePlan& plan,
                         const experiments::L2PersistenceDevice& device, int smCount,
                         CounterSession* session, const std::string& noCounters,
                         const ProgressCallback& progress, const CancelCallback& cancelled);

} // namespace warpscope::probe
