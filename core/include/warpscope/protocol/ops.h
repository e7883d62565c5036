// The probe protocol's operations, declared once (docs/protocol.md): each op's wire name and its
// properties, read by the probe (which ops exist, which can be cancelled) and by the app (which
// requests carry the chosen GPU, which fail at once without one). Adding an op is adding a row.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace warpscope::protocol {

enum class ProbeOp {
    Hello,
    DeviceInfo,
    Measure,
    Sweep,
    Cancel,
    KernelSource,
    Selfcheck,
    Shutdown,
    MeasureKernel,
    MeasureTransfers,
    MeasureL2Persistence,
    MeasureStreams,
};

struct OpInfo {
    ProbeOp op;
    /// The "op" of a request; stable, never renamed.
    std::string_view name;
    /// Fails at once (no_driver, no_device) on a machine without a GPU; kernel_source does not.
    bool needsGpu;
    /// Takes "device" (an index from device_info's "devices"; absent means device 0).
    bool takesDevice;
    /// A running request of this op stops when a cancel names it.
    bool cancellable;
    /// Writes progress lines while it runs.
    bool reportsProgress;
};

/// Every op, in the order hello lists them.
std::span<const OpInfo> probeOps();

/// The row of `op`.
const OpInfo& opInfo(ProbeOp op);

/// The row named `name`, or nullptr for a name that is not an op.
const OpInfo* findOp(std::string_view name);

/// "hello, device_info, ... and shutdown": every op's name, for messages.
std::string opNameList();

} // namespace warpscope::protocol
