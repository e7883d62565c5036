// The probe protocol's operations, declared once (docs/protocol.md): each op's properties, read
// by the probe (which ops exist, which can be cancelled) and by the app (which requests carry the
// chosen GPU, which fail at once without one). The fixed ops each have a row and a wire name;
// every experiment's op (measure_transfers, measure_streams, ...) is the one row Experiment, its
// wire name the experiment's opName (warpscope/experiments/experiments.h). Adding a fixed op is
// adding a row; adding an experiment adds nothing here.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

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
    /// Every experiment's op: the request's "op" is the experiment's opName, and
    /// experiments::findExperimentByOpName() says which experiment it is.
    Experiment,
};

struct OpInfo {
    ProbeOp op;
    /// The "op" of a request; stable, never renamed. The Experiment row's is "experiment", a
    /// name for messages only: its requests carry the experiment's opName.
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

/// Every row: the fixed ops in the order hello lists them, then the Experiment row.
std::span<const OpInfo> probeOps();

/// The row of `op`.
const OpInfo& opInfo(ProbeOp op);

/// The row a request's op `name` is answered by: a fixed op's row, the Experiment row for an
/// experiment's opName, or nullptr for a name that is not an op.
const OpInfo* findOp(std::string_view name);

/// Every wire name, as hello lists them: the fixed ops, then every experiment's opName.
std::vector<std::string_view> opNames();

/// "hello, device_info, ... and measure_streams": opNames() for messages.
std::string opNameList();

} // namespace warpscope::protocol
