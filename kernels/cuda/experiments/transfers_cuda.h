// measure_transfers on the current CUDA device (warpscope/experiments/transfers.h): the copies, the
// notes' sumArrays kernel over device, zero-copy and managed memory, and the link's name.
#pragma once

#include "probe_backend.h"
#include "warpscope/experiments/transfers.h"

namespace warpscope::probe {

/// Free device memory and available host memory now (cudaMemGetInfo, /proc/meminfo).
ProbeResult<experiments::TransferMemory> currentTransferMemory();

/// Runs a plan on the current device. OutOfMemory (not fatal) when a buffer cannot be allocated or
/// managed memory would not fit the memory free at that moment; KernelFault (fatal) for a sticky
/// error; Cancelled between points.
ProbeResult<experiments::TransferMeasurement>
runTransfersOnDevice(const experiments::TransferPlan& plan, const ProgressCallback& progress,
                     const CancelCallback& cancelled);

/// The link between host and the current device: NVLink-C2C when the device reads host memory
/// through the host's page tables coherently, else PCIe generation and width from NVML (loaded at
/// run time) or, without it, from sysfs; "unknown" when neither says.
experiments::TransferLink findTransferLink();

} // namespace warpscope::probe
