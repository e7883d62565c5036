// The CUDA backend of warpscope-probe, declared for its parts: cuda_backend.cpp finds the driver
// and the device and runs the experiments, cuda_backend_replay.cpp replays one warp's pattern
// under the counter session and times its latency, cuda_backend_kernels.cpp measures whole
// generated kernels. Every address is checked against the arenas before any launch; nothing here
// ever launches a pattern that would fault.
#pragma once

#include "cupti_counters.h"
#include "probe_backend.h"
#include "replay_kernels.h"

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::probe::cuda {

using Clock = std::chrono::steady_clock;

/// The global arena: 1 GiB (far larger than any L2, so grid bandwidth is DRAM bandwidth), or a
/// quarter of the GPU's memory on a small GPU.
constexpr std::size_t kMaxGlobalArenaBytes = std::size_t{1} << 30;
constexpr double kWaitTimeoutSeconds = 10.0;
/// Latency repetitions queued before the host reads them (two counts each in m_cycles, and
/// room for the never-taken third store of the last).
constexpr int kLatencySlots = 256;

std::string versionText(int version);
/// The replay counters to read for `launches`: `names` (empty: all of nsightCounterNames()), and
/// smsp__inst_executed_op_ldsm.sum when one of them is an ldmatrix or stmatrix
/// (cuda_backend_ldsm.cpp).
std::vector<std::string> replayCounterNames(const std::vector<std::string>& names,
                                            const std::vector<gpu::ReplayLaunch>& launches);
Stats statsOf(std::vector<double> samples);
/// Every visible device: name, UUID, compute capability, memory, bus id and peer links.
ProbeResult<std::vector<DeviceInfo>> listCudaDevices();

class CudaBackend final : public Backend {
public:
    /// Measures on CUDA device `device` (an ordinal of this process's visible devices); adds
    /// the experiments' runners (addCudaExperiments).
    explicit CudaBackend(int device = 0);

    ~CudaBackend() override;

    ProbeResult<DeviceInfo> deviceInfo() override;

    ProbeResult<Measurement> measure(const NamedPattern& pattern, const WarpAccess& access,
                                     const MeasureOptions& options) override;

    ProbeResult<std::vector<Measurement>> sweep(const std::vector<SweepItem>& items,
                                                const MeasureOptions& options,
                                                const ProgressCallback& progress,
                                                const CancelCallback& cancelled) override;

    ProbeResult<std::vector<KernelMeasurement>>
    measureKernels(const std::vector<KernelItem>& items, const KernelMeasureOptions& options,
                   const ProgressCallback& progress, const CancelCallback& cancelled) override;

    ProbeResult<std::vector<DeviceInfo>> listDevices() override { return listCudaDevices(); }

    Backend* forDevice(int index) override;

    BuildInfo buildInfo() const override;

    void idle() override;

    ProbeResult<std::string> kernelSource(const NamedPattern& pattern) override;

    /// cuda_backend_tma.cpp.
    ProbeResult<TmaDump> dumpTmaTile(const TmaTileLoad& load) override;

    // ---- What the experiments' runners use (cuda_experiments.cpp) ----------------------------

    /// Opens the device when first asked (with the counter session when `counters`); the
    /// error to answer when it cannot.
    std::optional<ProbeError> ensureDevice(bool counters = false);
    /// The device this backend measures on, and its facts once ensureDevice() has succeeded.
    int device() const { return m_device; }
    const DeviceInfo& info() const { return m_info; }
    /// The device's copy bandwidth (info().measuredCopyBandwidthGBs), measured when first asked.
    std::optional<ProbeError> ensureCopyBandwidth();
    /// Closes the counter sessions the pattern and kernel measurements hold: a context has one
    /// range profiler, so an experiment that counts opens its own; they reopen when wanted.
    void releaseCounterSessions();

private:
    std::optional<ProbeError> openDevice(bool counters);

    /// Puts the counters of one launch into `result`, or why there are none; a fatal error is
    /// given back for the caller to return.
    template <typename Answer, typename Target>
    static std::optional<ProbeError> keepCounters(Answer counters, Target& result) {
        if (auto* error = std::get_if<ProbeError>(&counters)) {
            if (error->fatal) {
                return *error;
            }
            result.countersUnavailableReason = error->message;
        } else {
            result.counters = std::get<0>(counters).front();
            result.countersMeasured = true;
        }
        return std::nullopt;
    }

    /// A counter session opened once when first wanted: the session, or why there is none.
    struct CounterSlot {
        bool tried = false;
        ProbeError error;
        std::unique_ptr<CounterSession> session;
    };

    static void openCounters(CounterSlot& slot, CounterSlot& other,
                             const std::vector<std::string>& names);

    void ensureCounters(const std::vector<std::string>& names);

    void reopenCounters(const std::vector<std::string>& names);

    ProbeResult<std::vector<std::map<std::string, double>>>
    countersFor(const std::vector<gpu::ReplayLaunch>& launches,
                const std::vector<std::string>& names);

    ProbeResult<gpu::ReplayLaunch> toLaunch(const WarpAccess& access) const;

    /// toLaunch() for an ldmatrix or stmatrix (cuda_backend_ldsm.cpp): PatternRefused on a device
    /// without the instruction or for a row outside the shared memory a block may have.
    ProbeResult<gpu::ReplayLaunch> toMatrixLaunch(const WarpAccess& access) const;

    std::optional<ProbeError> wait(const char* what);

    std::optional<ProbeError> check(cudaError_t status, const char* what);

    std::optional<ProbeError> queueLatencyRuns(const gpu::ReplayLaunch& launch, int n);

    std::optional<ProbeError> measureLatency(const gpu::ReplayLaunch& launch, int repetitions,
                                             Measurement& result);

    std::optional<ProbeError> measureCopyBandwidth();

    std::optional<ProbeError> measureGrid(const NamedPattern& pattern, const WarpAccess& access,
                                          int repetitions, Measurement& result);

    void ensureKernelCounters();

    CounterSlot* ensureKindCounters(const ResolvedKernel& kernel);

    /// Texture objects of one kernel, destroyed on every path.
    struct TextureObjects {
        std::vector<cudaTextureObject_t> objects;
        ~TextureObjects() {
            for (cudaTextureObject_t object : objects) {
                cudaDestroyTextureObject(object);
            }
        }
    };

    ProbeResult<cudaTextureObject_t> createTexture(void* pointer, std::int64_t bytes,
                                                   std::int64_t rowBytes, int access);

    /// Device buffers of one kernel, freed on every path.
    struct DeviceBuffers {
        std::vector<void*> pointers;
        ~DeviceBuffers() {
            for (void* p : pointers) {
                cudaFree(p);
            }
        }
    };

    static std::string mib(std::int64_t bytes);

    ProbeResult<KernelMeasurement> measureOneKernel(const KernelItem& item,
                                                    const KernelMeasureOptions& options);

    int m_device = 0;
    std::map<int, std::unique_ptr<CudaBackend>> m_others; // devices other than 0, once asked for
    bool m_ready = false;
    std::optional<ProbeError> m_deviceError;
    DeviceInfo m_info;
    int m_smClockKHz = 0;
    cudaStream_t m_stream = nullptr;
    void* m_arena = nullptr;
    std::size_t m_arenaBytes = 0;
    void* m_sink = nullptr;
    long long* m_cycles = nullptr;
    void* m_flush = nullptr;
    std::size_t m_flushBytes = 0;
    std::size_t m_maxSharedBytes = 48 * 1024;
    CounterSlot m_counters;                    // the replay's (m_counterSet, of nsightCounterNames)
    std::vector<std::string> m_counterSet;     // what m_counters is (or was last) opened for
    std::vector<std::string> m_wantedCounters; // the counters the last replay request named
    CounterSlot m_kernelCounters;              // whole kernels' (kernelCounterNames)
    CounterSlot m_kindCounters;                // kernels with constant, local or texture accesses
    std::vector<std::string> m_kindNames;
};

/// Adds the CUDA runner of every experiment (cuda_experiments.cpp) to `runners`.
void addCudaExperiments(CudaBackend& backend, ExperimentRunners& runners);

} // namespace warpscope::probe::cuda
