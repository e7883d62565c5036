// The table of the probe protocol's operations (ops.h).
#include "warpscope/protocol/ops.h"

#include "warpscope/experiments/experiments.h"

#include <array>
#include <cassert>

namespace warpscope::protocol {

namespace {

// name, needs a GPU, takes a device, cancellable, reports progress. kernel_source takes a device
// (the kernel is generated for it) but needs no GPU: it is answered in model-only mode too. Every
// experiment measures on the chosen GPU, can be cancelled and tells its progress.
constexpr std::array<OpInfo, 10> kOps{{
    {ProbeOp::Hello, "hello", false, false, false, false},
    {ProbeOp::DeviceInfo, "device_info", true, true, false, false},
    {ProbeOp::Measure, "measure", true, true, false, false},
    {ProbeOp::Sweep, "sweep", true, true, true, true},
    {ProbeOp::Cancel, "cancel", false, false, false, false},
    {ProbeOp::KernelSource, "kernel_source", false, true, true, false},
    {ProbeOp::Selfcheck, "selfcheck", true, false, true, true},
    {ProbeOp::Shutdown, "shutdown", false, false, false, false},
    {ProbeOp::MeasureKernel, "measure_kernel", true, true, true, true},
    {ProbeOp::Experiment, "experiment", true, true, true, true},
}};

constexpr bool rowsInEnumOrder() {
    for (std::size_t i = 0; i < kOps.size(); ++i) {
        if (static_cast<std::size_t>(kOps[i].op) != i) {
            return false;
        }
    }
    return true;
}
static_assert(rowsInEnumOrder(), "kOps holds one row per ProbeOp, in the enum's order");
static_assert(kOps.back().op == ProbeOp::Experiment, "the Experiment row comes last");

} // namespace

std::span<const OpInfo> probeOps() {
    return kOps;
}

const OpInfo& opInfo(ProbeOp op) {
    const auto index = static_cast<std::size_t>(op);
    assert(index < kOps.size());
    return kOps[index];
}

const OpInfo* findOp(std::string_view name) {
    for (const OpInfo& row : kOps) {
        if (row.op != ProbeOp::Experiment && row.name == name) {
            return &row;
        }
    }
    if (experiments::findExperimentByOpName(name) != nullptr) {
        return &opInfo(ProbeOp::Experiment);
    }
    return nullptr;
}

std::vector<std::string_view> opNames() {
    std::vector<std::string_view> names;
    for (const OpInfo& row : kOps) {
        if (row.op != ProbeOp::Experiment) {
            names.push_back(row.name);
        }
    }
    for (const experiments::Experiment& experiment : experiments::experiments()) {
        names.push_back(experiment.opName);
    }
    return names;
}

std::string opNameList() {
    const std::vector<std::string_view> names = opNames();
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) {
            list += i + 1 == names.size() ? " and " : ", ";
        }
        list += names[i];
    }
    return list;
}

} // namespace warpscope::protocol
