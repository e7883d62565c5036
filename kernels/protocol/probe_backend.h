// The probe's GPU backend: what warpscope-probe can ask of the local GPU. The protocol layer
// (probe_protocol.*) turns JSON requests into calls of this interface and its results into JSON;
// the CUDA implementation lives in kernels/cuda/cuda_backend.*. The experiments (transfers,
// streams, the L2 persistence window, ...) are no virtuals here: each backend adds a runner per
// experiment it can run (experiment_runners.h), which the experiment table calls. Nothing here
// needs a GPU to compile or to be faked in tests.
#pragma once

#include "experiment_runners.h"
#include "tma_check.h"
#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/pattern.h"
#include "warpscope/protocol/device_info.h"
#include "warpscope/protocol/errors.h"
#include "warpscope/protocol/kernel_measurement.h"
#include "warpscope/protocol/pattern_measurement.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace warpscope::probe {

// The protocol's vocabulary is declared once in core (warpscope/protocol/): the probe fills and
// writes these types, the app reads the same ones.
using protocol::DeviceInfo;
using protocol::ProbeError;
using protocol::ProbeErrorCode;
using protocol::probeErrorCodeName;
using protocol::ProbeResult;
using protocol::Stats;

/// What to measure besides the counters (measure's and sweep's options).
using protocol::MeasureOptions;

/// One pattern's measurement. The backend fills the counters, latency and grid run; the
/// protocol adds the model's prediction (`predicted`) when it writes the answer.
using Measurement = protocol::PatternMeasurement;

/// One pattern of a sweep, already resolved and checked by the caller.
struct SweepItem {
    NamedPattern pattern;
    WarpAccess access;
};

/// How to run a whole kernel (measure_kernel), and what it measured: the backend fills the
/// counters and timing, the protocol what ran and the prediction (kernel_request.h).
using protocol::KernelMeasurement;
using protocol::KernelMeasureOptions;
using protocol::KernelPerInstruction;

/// One kernel of a measure_kernel request: resolved, checked and predicted by the caller (the
/// grid model found every address inside its buffer and aligned before the backend sees it).
struct KernelItem {
    ResolvedKernel kernel;
    GridPrediction prediction;
    /// Where the kernel is in the request ("/sweep/3"), for errors.
    std::string where;
};

/// What a backend was built with (answered without a GPU).
struct BuildInfo {
    std::string backend = "unknown"; // "cuda", or "fake" in tests
    std::string cudaRuntimeVersion;  // the toolkit compiled against, e.g. "12.8"; empty if none
    bool cupti = false;              // hardware counters compiled in (CUPTI headers found)
    bool nvrtc = false;              // grid kernels compiled in (NVRTC found)
};

class Backend {
public:
    virtual ~Backend() = default;

    virtual ProbeResult<DeviceInfo> deviceInfo() = 0;

    /// Every device the probe can measure on, in index order (name, UUID, compute capability,
    /// memory, bus id, link; no measured bandwidth). By default the one deviceInfo() answers.
    virtual ProbeResult<std::vector<DeviceInfo>> listDevices() {
        auto info = deviceInfo();
        if (auto* error = std::get_if<ProbeError>(&info)) {
            return *error;
        }
        return std::vector<DeviceInfo>{std::get<DeviceInfo>(info)};
    }

    /// The backend measuring on device `index` (a request's "device"): this one for its own
    /// index, nullptr when there is no such device. The backend keeps ownership.
    virtual Backend* forDevice(int index) { return index == 0 ? this : nullptr; }

    /// Refuses (PatternRefused) any pattern whose addresses do not fit the probe's arenas; the
    /// message names the lane and the address.
    virtual ProbeResult<Measurement> measure(const NamedPattern& pattern, const WarpAccess& access,
                                             const MeasureOptions& options) = 0;

    /// Counters for many patterns in one batch of profiler ranges.
    virtual ProbeResult<std::vector<Measurement>> sweep(const std::vector<SweepItem>& items,
                                                        const MeasureOptions& options,
                                                        const ProgressCallback& progress,
                                                        const CancelCallback& cancelled) = 0;

    /// The CUDA source of the grid kernel generated for a pattern's expression.
    virtual ProbeResult<std::string> kernelSource(const NamedPattern& pattern) = 0;

    /// Runs whole kernels (measure_kernel), one after another: generate, compile, allocate the
    /// buffers at their real sizes (OutOfMemory when they do not fit, naming them), time and
    /// count. Backends that cannot answer Internal by default.
    virtual ProbeResult<std::vector<KernelMeasurement>>
    measureKernels(const std::vector<KernelItem>& items, const KernelMeasureOptions& options,
                   const ProgressCallback& progress, const CancelCallback& cancelled) {
        (void)items;
        (void)options;
        (void)progress;
        (void)cancelled;
        return ProbeError::internal("this probe backend cannot run whole kernels");
    }

    /// Called when the probe has answered every request it was sent: the backend may set up its
    /// next measurement here (the CUDA backend starts its costly counter pass). A request that
    /// arrives meanwhile waits until this returns. Does nothing by default.
    virtual void idle() {}

    /// One TMA tile load issued on the GPU and the block's shared memory dumped (tma_check.h);
    /// the caller checked `load` with layTmaTile(). PatternRefused where the device has no TMA.
    /// Internal by default.
    virtual ProbeResult<TmaDump> dumpTmaTile(const TmaTileLoad& load) {
        (void)load;
        return ProbeError::internal("this probe backend cannot issue TMA tile loads");
    }

    /// How this backend was built, for the protocol's `hello` and `--version`. Must not touch
    /// the GPU or the driver: it answers on machines with neither.
    virtual BuildInfo buildInfo() const { return {}; }

    /// The experiments this backend runs, each through the runner its constructor added
    /// (experiment_table.h reads them). A backend without the runner of an experiment answers
    /// its requests with Internal ("this probe backend cannot measure ...").
    const ExperimentRunners& experimentRunners() const { return m_experiments; }

protected:
    ExperimentRunners m_experiments;
};

/// The backend for this machine: the CUDA one when the probe was built with CUDA, which answers
/// NoDriver / NoDevice on machines without a GPU.
std::unique_ptr<Backend> makeCudaBackend();

} // namespace warpscope::probe
