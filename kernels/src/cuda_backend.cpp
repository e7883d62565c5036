// The CUDA backend of warpscope-probe: finds the driver and the device, keeps the arenas, runs
// replay kernels under the counter session, times latency and reports device facts. Every address
// is checked against the arenas before any launch; nothing here ever launches a pattern that
// would fault.
#include "cupti_counters.h"
#include "cupti_sass.h"
#include "grid_kernels.h"
#include "kernel_codegen.h"
#include "kernel_request.h"
#include "l2_persistence_cuda.h"
#include "probe_backend.h"
#include "probe_trace.h"
#include "replay_kernels.h"
#include "streams_cuda.h"
#include "timing_kernels.h"
#include "transfers_cuda.h"

#include "warpscope/model.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>

namespace warpscope::probe {
namespace {

using Clock = std::chrono::steady_clock;

/// The global arena: 1 GiB (far larger than any L2, so grid bandwidth is DRAM bandwidth), or a
/// quarter of the GPU's memory on a small GPU.
constexpr std::size_t kMaxGlobalArenaBytes = std::size_t{1} << 30;
constexpr double kWaitTimeoutSeconds = 10.0;
/// Latency repetitions queued before the host reads them (two counts each in m_cycles, and
/// room for the never-taken third store of the last).
constexpr int kLatencySlots = 256;

std::string versionText(int version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

Stats statsOf(std::vector<double> samples) {
    Stats stats;
    if (samples.empty()) {
        return stats;
    }
    std::sort(samples.begin(), samples.end());
    stats.samples = static_cast<int>(samples.size());
    stats.min = samples.front();
    stats.max = samples.back();
    const std::size_t mid = samples.size() / 2;
    stats.median = samples.size() % 2 ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
    return stats;
}

/// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints a device's UUID.
std::string uuidText(const cudaUUID_t& uuid) {
    static const char* hex = "0123456789abcdef";
    std::string text = "GPU-";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            text += '-';
        }
        const auto byte = static_cast<unsigned char>(uuid.bytes[i]);
        text += hex[byte >> 4];
        text += hex[byte & 15];
    }
    return text;
}

/// Every visible device: name, UUID, compute capability, memory, bus id and peer links.
ProbeResult<std::vector<DeviceInfo>> listCudaDevices() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        return ProbeError::noDevice("the NVIDIA driver found no CUDA device");
    }
    std::vector<DeviceInfo> devices;
    for (int device = 0; device < count; ++device) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
            continue;
        }
        DeviceInfo info;
        info.index = device;
        info.name = prop.name;
        info.computeCapabilityMajor = prop.major;
        info.computeCapabilityMinor = prop.minor;
        info.smCount = prop.multiProcessorCount;
        info.globalMemoryBytes = static_cast<std::int64_t>(prop.totalGlobalMem);
        info.uuid = uuidText(prop.uuid);
        char bus[32] = {};
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) == cudaSuccess) {
            info.busId = bus;
        }
        for (int peer = 0; peer < count; ++peer) {
            int access = 0;
            if (peer == device || cudaDeviceCanAccessPeer(&access, device, peer) != cudaSuccess ||
                access == 0) {
                continue;
            }
            int atomics = 0;
            cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, device, peer);
            info.link += (info.link.empty() ? "peer access to " : ", ") + std::to_string(peer) +
                         (atomics != 0 ? " (native atomics)" : "");
        }
        if (info.link.empty()) {
            info.link = count > 1 ? "no peer access" : "";
        }
        int driverVersion = 0;
        cudaDriverGetVersion(&driverVersion);
        info.driverVersion = versionText(driverVersion);
        info.runtimeVersion = versionText(CUDART_VERSION);
        devices.push_back(std::move(info));
    }
    return devices;
}

class CudaBackend final : public Backend {
public:
    /// Measures on CUDA device `device` (an ordinal of this process's visible devices).
    explicit CudaBackend(int device = 0) : m_device(device) {}

    ~CudaBackend() override {
        if (m_ready) {
            cudaSetDevice(m_device);
            m_counters.session.reset();
            m_kernelCounters.session.reset();
            m_kindCounters.session.reset();
            cudaFree(m_arena);
            cudaFree(m_sink);
            cudaFree(m_cycles);
            cudaFree(m_flush);
            cudaStreamDestroy(m_stream);
        }
    }

    ProbeResult<DeviceInfo> deviceInfo() override {
        const TraceSpan whole("device_info");
        if (auto error = ensureDevice(true)) {
            return *error;
        }
        if (m_info.measuredCopyBandwidthGBs == 0.0) {
            const TraceSpan step("device_info copy bandwidth");
            if (auto error = measureCopyBandwidth()) {
                return *error;
            }
        }
        std::optional<TraceSpan> counters;
        counters.emplace("device_info counters");
        ensureCounters(nsightCounterNames());
        counters.reset();
        m_info.countersAvailable = m_counters.session != nullptr;
        m_info.countersUnavailableReason = m_counters.session ? "" : m_counters.error.message;
        return m_info;
    }

    ProbeResult<Measurement> measure(const NamedPattern& pattern, const WarpAccess& access,
                                     const MeasureOptions& options) override {
        const TraceSpan whole("measure");
        if (auto error = ensureDevice(options.counters)) {
            return *error;
        }
        auto launch = toLaunch(access);
        if (auto* error = std::get_if<ProbeError>(&launch)) {
            return *error;
        }
        const gpu::ReplayLaunch& replay = std::get<gpu::ReplayLaunch>(launch);
        Measurement result;
        // The counters first, then the latency: measured on an H100, the latency's kernels
        // queued while the first pass stopped made that stop about 1 ms slower than they hid.
        if (options.counters) {
            const TraceSpan step("measure counters");
            if (auto error = keepCounters(countersFor({replay}, options.counterNames), result)) {
                return *error;
            }
        } else {
            result.countersUnavailableReason = "counters were not asked for";
        }
        if (options.latency) {
            const TraceSpan step("measure latency");
            if (auto error = measureLatency(replay, options.repetitions, result)) {
                return *error;
            }
        }
        if (options.grid) {
            if (auto error = measureGrid(pattern, access, options.repetitions, result)) {
                return *error;
            }
        }
        return result;
    }

    ProbeResult<std::vector<Measurement>> sweep(const std::vector<SweepItem>& items,
                                                const MeasureOptions& options,
                                                const ProgressCallback& progress,
                                                const CancelCallback& cancelled) override {
        if (auto error = ensureDevice(options.counters)) {
            return *error;
        }
        std::vector<gpu::ReplayLaunch> launches;
        for (const SweepItem& item : items) {
            auto launch = toLaunch(item.access);
            if (auto* error = std::get_if<ProbeError>(&launch)) {
                ProbeError refused = *error;
                refused.message = "pattern " + std::to_string(launches.size()) + " (" +
                                  item.pattern.title + "): " + refused.message;
                return refused;
            }
            launches.push_back(std::get<gpu::ReplayLaunch>(launch));
        }
        std::vector<Measurement> results(items.size());
        const int total = static_cast<int>(items.size());
        // Counters in batches: one profiling session per batch of ranges, progress in between.
        constexpr std::size_t kBatch = CounterSession::kMaxRangesPerBatch;
        for (std::size_t first = 0; first < launches.size(); first += kBatch) {
            if (cancelled && cancelled()) {
                return ProbeError::cancelled("the sweep was cancelled");
            }
            const std::size_t last = std::min(launches.size(), first + kBatch);
            if (options.counters) {
                std::vector<gpu::ReplayLaunch> batch(launches.begin() + first,
                                                     launches.begin() + last);
                auto counters = countersFor(batch, options.counterNames);
                if (auto* error = std::get_if<ProbeError>(&counters)) {
                    if (error->fatal) {
                        return *error;
                    }
                    for (std::size_t i = first; i < last; ++i) {
                        results[i].countersUnavailableReason = error->message;
                    }
                } else {
                    for (std::size_t i = first; i < last; ++i) {
                        results[i].counters = std::get<0>(counters)[i - first];
                        results[i].countersMeasured = true;
                    }
                }
            }
            for (std::size_t i = first; i < last; ++i) {
                // Between patterns too: a measure-ahead sweep the user has left behind stops
                // within one pattern's latency (about a millisecond), not a whole batch.
                if (i > first && cancelled && cancelled()) {
                    return ProbeError::cancelled("the sweep was cancelled");
                }
                if (options.latency) {
                    if (auto error = measureLatency(launches[i], options.repetitions, results[i])) {
                        return *error;
                    }
                }
                if (options.grid) {
                    if (auto error = measureGrid(items[i].pattern, items[i].access,
                                                 options.repetitions, results[i])) {
                        return *error;
                    }
                }
            }
            if (progress) {
                progress(static_cast<int>(last), total);
            }
        }
        return results;
    }

    ProbeResult<std::vector<KernelMeasurement>>
    measureKernels(const std::vector<KernelItem>& items, const KernelMeasureOptions& options,
                   const ProgressCallback& progress, const CancelCallback& cancelled) override {
        if (auto error = ensureDevice(options.counters)) {
            return *error;
        }
        if (m_info.measuredCopyBandwidthGBs == 0.0) {
            if (auto error = measureCopyBandwidth()) {
                return *error;
            }
        }
        std::vector<KernelMeasurement> results;
        const int total = static_cast<int>(items.size());
        for (const KernelItem& item : items) {
            if (cancelled && cancelled()) {
                return ProbeError::cancelled("cancelled after " + std::to_string(results.size()) +
                                             " of " + std::to_string(total) + " kernels");
            }
            auto measured = measureOneKernel(item, options);
            if (auto* error = std::get_if<ProbeError>(&measured)) {
                if (total > 1) {
                    error->message = item.where + ": " + error->message;
                }
                return *error;
            }
            results.push_back(std::get<KernelMeasurement>(std::move(measured)));
            if (progress) {
                progress(static_cast<int>(results.size()), total);
            }
        }
        return results;
    }

    ProbeResult<TransferMeasurement> measureTransfers(const TransferOptions& options,
                                                      const ProgressCallback& progress,
                                                      const CancelCallback& cancelled) override {
        if (auto error = ensureDevice()) {
            return *error;
        }
        if (m_info.measuredCopyBandwidthGBs == 0.0) {
            if (auto error = measureCopyBandwidth()) {
                return *error;
            }
        }
        auto memory = currentTransferMemory();
        if (auto* error = std::get_if<ProbeError>(&memory)) {
            return *error;
        }
        const TransferMemory& free = std::get<TransferMemory>(memory);
        const TransferPlanResult planned = planTransfers(options, free);
        if (!planned.plan) {
            return ProbeError::of(planned.outOfMemory ? ProbeErrorCode::OutOfMemory
                                                      : ProbeErrorCode::BadRequest,
                                  planned.error);
        }
        auto measured = runTransfersOnDevice(*planned.plan, progress, cancelled);
        if (auto* result = std::get_if<TransferMeasurement>(&measured)) {
            result->deviceName = m_info.name;
            result->link = findTransferLink();
            result->deviceCopyBandwidthGBs = m_info.measuredCopyBandwidthGBs;
            result->deviceFreeBytes = free.deviceFreeBytes;
            result->hostAvailableBytes = free.hostAvailableBytes;
        }
        return measured;
    }

    ProbeResult<StreamsMeasurement> measureStreams(const StreamsOptions& options,
                                                   const ProgressCallback& progress,
                                                   const CancelCallback& cancelled) override {
        if (auto error = ensureDevice()) {
            return *error;
        }
        auto measured = runStreamsOnDevice(options, progress, cancelled);
        if (auto* result = std::get_if<StreamsMeasurement>(&measured)) {
            result->deviceName = m_info.name;
        }
        return measured;
    }
    ProbeResult<L2PersistenceMeasurement>
    measureL2Persistence(const L2PersistenceOptions& options, const ProgressCallback& progress,
                         const CancelCallback& cancelled) override {
        if (auto error = ensureDevice()) {
            return *error;
        }
        auto device = currentL2PersistenceDevice(m_device);
        if (auto* error = std::get_if<ProbeError>(&device)) {
            return *error;
        }
        const L2PersistenceDevice& facts = std::get<L2PersistenceDevice>(device);
        const L2PersistencePlanResult planned = planL2Persistence(options, facts);
        if (!planned.plan) {
            return ProbeError::of(planned.outOfMemory ? ProbeErrorCode::OutOfMemory
                                                      : ProbeErrorCode::BadRequest,
                                  planned.error);
        }
        // A context has one range profiler: the other sessions give way and reopen when wanted.
        std::unique_ptr<CounterSession> session;
        std::string noCounters = "counters were not asked for";
        if (planned.plan->counters) {
            m_counters.session.reset();
            m_counters.tried = false;
            m_kernelCounters.session.reset();
            m_kernelCounters.tried = false;
            m_kindCounters = CounterSlot{};
            auto opened = CounterSession::open(l2PersistenceCounterNames());
            if (auto* error = std::get_if<ProbeError>(&opened)) {
                noCounters = error->message;
            } else {
                session = std::move(std::get<0>(opened));
            }
        }
        return runL2PersistenceOnDevice(*planned.plan, facts, m_info.smCount, session.get(),
                                        noCounters, progress, cancelled);
    }

    ProbeResult<std::vector<DeviceInfo>> listDevices() override { return listCudaDevices(); }

    Backend* forDevice(int index) override {
        if (index == m_device) {
            return this;
        }
        if (m_device != 0) {
            return nullptr; // only device 0's backend hands out the others
        }
        auto found = m_others.find(index);
        if (found != m_others.end()) {
            return found->second.get();
        }
        int count = 0;
        if (index < 0 || cudaGetDeviceCount(&count) != cudaSuccess || index >= count) {
            return nullptr;
        }
        auto other = std::make_unique<CudaBackend>(index);
        Backend* backend = other.get();
        m_others.emplace(index, std::move(other));
        return backend;
    }

    // Needs no driver: `hello` and --version ask it on machines without a GPU.
    BuildInfo buildInfo() const override {
        BuildInfo info;
        info.backend = "cuda";
        info.cudaRuntimeVersion = versionText(CUDART_VERSION);
        info.cupti = true; // compiled in; loaded at run time (device_info says if it loads)
        info.nvrtc = true; // likewise
        return info;
    }

    void idle() override {
        // Only a backend whose replay counters are open. A request that named fewer counters
        // than the open session holds was answered from it; the session for exactly those is
        // opened now, off the request, so that the next one needs fewer passes. Then the
        // costliest pass of the next measurement (on an H100 the sector counters', whose start
        // takes about 16 ms) is configured and started.
        //
        // Not before the first request that reads counters: the first start of a session
        // carries a set-up of about 200 ms on an H100, paid again by every session opened
        // again, so a session device_info opened for all the counters is started only once a
        // request says which it needs (an app asking for two would otherwise pay it twice on
        // its first Run).
        if (!m_ready || !m_counters.session || m_wantedCounters.empty() ||
            cudaSetDevice(m_device) != cudaSuccess) {
            return;
        }
        if (m_wantedCounters != m_counterSet) {
            const TraceSpan step("counters reopen for the last request's counters (while idle)");
            reopenCounters(m_wantedCounters);
            if (!m_counters.session) {
                return;
            }
            m_counters.session->prepare(true);
            return;
        }
        m_counters.session->prepare();
    }

    ProbeResult<std::string> kernelSource(const NamedPattern& pattern) override {
        auto source = generateGridKernel(pattern.pattern);
        if (auto* error = std::get_if<ProbeError>(&source)) {
            return *error;
        }
        return std::get<GridKernel>(source).source;
    }

private:
    /// Finds the driver and device once; afterwards returns the same answer. `counters`: the
    /// request will read counters, so CUPTI is loaded and initialised beside the context.
    std::optional<ProbeError> ensureDevice(bool counters = false) {
        if (m_ready) {
            // The current device is the thread's: another device's backend may have set it.
            if (cudaSetDevice(m_device) != cudaSuccess) {
                return ProbeError::internal("cannot make CUDA device " + std::to_string(m_device) +
                                            " current");
            }
            return std::nullopt;
        }
        if (m_deviceError) {
            return m_deviceError;
        }
        m_deviceError = openDevice(counters);
        if (!m_deviceError) {
            m_ready = true;
        }
        return m_deviceError;
    }

    std::optional<ProbeError> openDevice(bool counters) {
        // cudart loads libcuda itself; looking first tells "no driver" from "no device".
        void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!driver) {
            return ProbeError::noDriver(
                "no NVIDIA driver on this machine (libcuda.so.1 cannot be loaded). "
                "Install the NVIDIA driver to measure; warpscope works in model-only "
                "mode without it.");
        }
        std::optional<TraceSpan> step;
        step.emplace("open device: CUDA initialisation");
        int count = 0;
        const cudaError_t status = cudaGetDeviceCount(&count);
        if (status == cudaErrorInsufficientDriver) {
            int driverVersion = 0;
            cudaDriverGetVersion(&driverVersion);
            return ProbeError::driverTooOld(
                "the NVIDIA driver supports CUDA " + versionText(driverVersion) +
                " but this probe was built with CUDA " + versionText(CUDART_VERSION) +
                ": update the driver, or build the probe with an older toolkit.");
        }
        if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0)) {
            return ProbeError::noDevice(
                "the NVIDIA driver found no CUDA device (check nvidia-smi and "
                "CUDA_VISIBLE_DEVICES); warpscope works in model-only mode.");
        }
        if (status != cudaSuccess) {
            return ProbeError::noDevice(std::string("CUDA could not be initialised: ") +
                                        cudaGetErrorString(status));
        }
        // CUPTI's own initialisation needs no context: another thread does it meanwhile, and
        // is joined when this function returns (on an H100 machine the context takes 100 to
        // 170 ms, CUPTI's initialisation 70 to 100 ms of CPU).
        std::jthread preload;
        if (counters) {
            preload = std::jthread([] { CounterSession::preload(); });
        }
        cudaDeviceProp prop{};
        const int device = m_device;
        step.emplace("open device: context and properties");
        if (device >= count || cudaSetDevice(device) != cudaSuccess ||
            cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
            return ProbeError::noDevice("cannot open CUDA device " + std::to_string(device));
        }
        if (auto all = listCudaDevices(); std::holds_alternative<std::vector<DeviceInfo>>(all)) {
            const auto& list = std::get<std::vector<DeviceInfo>>(all);
            if (static_cast<std::size_t>(device) < list.size()) {
                m_info = list[static_cast<std::size_t>(device)];
            }
        }
        m_info.name = prop.name;
        m_info.computeCapabilityMajor = prop.major;
        m_info.computeCapabilityMinor = prop.minor;
        m_info.smCount = prop.multiProcessorCount;
        m_info.globalMemoryBytes = static_cast<std::int64_t>(prop.totalGlobalMem);
        int value = 0;
        cudaDeviceGetAttribute(&value, cudaDevAttrL2CacheSize, device);
        m_info.l2Bytes = value;
        cudaDeviceGetAttribute(&m_info.memoryClockKHz, cudaDevAttrMemoryClockRate, device);
        cudaDeviceGetAttribute(&m_info.memoryBusWidthBits, cudaDevAttrGlobalMemoryBusWidth, device);
        cudaDeviceGetAttribute(&m_smClockKHz, cudaDevAttrClockRate, device);
        // Double data rate: two transfers per memory clock.
        m_info.theoreticalBandwidthGBs =
            2.0 * m_info.memoryClockKHz * 1e3 * (m_info.memoryBusWidthBits / 8.0) / 1e9;
        int driverVersion = 0;
        cudaDriverGetVersion(&driverVersion);
        m_info.driverVersion = versionText(driverVersion);
        m_info.runtimeVersion = versionText(CUDART_VERSION);

        int optin = 0;
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
        m_maxSharedBytes = static_cast<std::size_t>(optin);
        m_arenaBytes =
            std::min(kMaxGlobalArenaBytes, static_cast<std::size_t>(prop.totalGlobalMem) / 4);
        m_flushBytes =
            std::max<std::size_t>(2 * static_cast<std::size_t>(m_info.l2Bytes), 8u << 20);
        step.emplace("open device: arena and buffers");
        if (cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking) != cudaSuccess ||
            cudaMalloc(&m_arena, m_arenaBytes) != cudaSuccess ||
            cudaMemset(m_arena, 0x5a, m_arenaBytes) != cudaSuccess ||
            cudaMalloc(&m_sink, 32 * 16) != cudaSuccess ||
            cudaMalloc(&m_cycles, (2 * kLatencySlots + 2) * sizeof(long long)) != cudaSuccess ||
            cudaMalloc(&m_flush, m_flushBytes) != cudaSuccess ||
            cudaDeviceSynchronize() != cudaSuccess) {
            return ProbeError::internal("cannot allocate the probe's device memory on " +
                                        m_info.name);
        }
        return std::nullopt;
    }

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

    /// Opens `names` into `slot` unless it was tried already. A context has one range profiler,
    /// so `other` gives way first and is opened again when next wanted.
    static void openCounters(CounterSlot& slot, CounterSlot& other,
                             const std::vector<std::string>& names) {
        if (slot.tried) {
            return;
        }
        slot.tried = true;
        other.session.reset();
        other.tried = false;
        auto session = CounterSession::open(names);
        if (auto* error = std::get_if<ProbeError>(&session)) {
            slot.error = *error;
        } else {
            slot.session = std::move(std::get<0>(session));
        }
    }

    /// The replay's counter session, opened for `names` unless one is open or was tried
    /// already (whatever it holds); the whole-kernel ones give way.
    void ensureCounters(const std::vector<std::string>& names) {
        m_kindCounters = CounterSlot{};
        if (!m_counters.tried) {
            m_counterSet = names;
        }
        openCounters(m_counters, m_kernelCounters, m_counterSet);
    }

    /// Closes the replay's counter session and opens it for `names` (a context has one range
    /// profiler, which holds one metric list).
    void reopenCounters(const std::vector<std::string>& names) {
        m_counters = CounterSlot{};
        ensureCounters(names);
    }

    /// The replay's counters of `launches`, those named in `names` (empty: all of
    /// nsightCounterNames(); the protocol checked each is one of them). An open session that
    /// holds them all answers; otherwise one is opened for exactly these. Only the counters
    /// asked for are returned, whichever session counted them.
    ProbeResult<std::vector<std::map<std::string, double>>>
    countersFor(const std::vector<gpu::ReplayLaunch>& launches,
                const std::vector<std::string>& names) {
        const std::vector<std::string>& wanted = names.empty() ? nsightCounterNames() : names;
        m_wantedCounters = wanted;
        ensureCounters(wanted);
        const bool holdsAll = std::all_of(wanted.begin(), wanted.end(), [&](const std::string& n) {
            return std::find(m_counterSet.begin(), m_counterSet.end(), n) != m_counterSet.end();
        });
        // A session that never started (device_info opened it for every counter) is replaced
        // at once by one for exactly these: its open costs about 10 ms, while answering from
        // it and opening the right one when idle would pay the first start's set-up twice.
        if (m_counters.session &&
            (!holdsAll || (m_counterSet != wanted && !m_counters.session->everStarted()))) {
            reopenCounters(wanted);
        }
        if (!m_counters.session) {
            return m_counters.error;
        }
        auto measured = m_counters.session->measure(static_cast<int>(launches.size()), [&](int i) {
            return gpu::launchReplay(launches[static_cast<std::size_t>(i)], nullptr) == cudaSuccess;
        });
        if (auto* counts = std::get_if<0>(&measured); counts && m_counterSet != wanted) {
            for (std::map<std::string, double>& count : *counts) {
                std::erase_if(count, [&](const auto& entry) {
                    return std::find(wanted.begin(), wanted.end(), entry.first) == wanted.end();
                });
            }
        }
        return measured;
    }

    /// The launch for a checked access, or PatternRefused naming the first lane that does not fit.
    ProbeResult<gpu::ReplayLaunch> toLaunch(const WarpAccess& access) const {
        gpu::ReplayLaunch launch;
        const AccessKind& kind = access.kind;
        if (kind.space == MemorySpace::Local || kind.space == MemorySpace::Texture) {
            return ProbeError::patternRefused(
                std::string(toString(kind.space)) +
                " accesses are measured as a whole kernel (measure_kernel), "
                "not replayed as one warp");
        }
        launch.space =
            kind.space == MemorySpace::Global ? gpu::ReplaySpace::Global : gpu::ReplaySpace::Shared;
        launch.op = kind.op == AccessOp::Load ? gpu::ReplayOp::Load : gpu::ReplayOp::Store;
        switch (kind.cache) {
        case CachePath::Default:
            launch.cache = gpu::ReplayCache::Default;
            break;
        case CachePath::CacheAll:
            launch.cache = gpu::ReplayCache::CacheAll;
            break;
        case CachePath::CacheGlobal:
            launch.cache = gpu::ReplayCache::CacheGlobal;
            break;
        case CachePath::NonCoherent:
            launch.cache = gpu::ReplayCache::NonCoherent;
            break;
        }
        launch.widthBytes = kind.widthBytes;
        launch.globalArena = m_arena;
        launch.sink = m_sink;
        const std::size_t limit =
            kind.space == MemorySpace::Global ? m_arenaBytes : m_maxSharedBytes;
        std::int64_t highest = 0;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const auto& address = access.addresses[static_cast<std::size_t>(lane)];
            if (!address) {
                continue;
            }
            if (*address < 0 || *address % kind.widthBytes != 0 ||
                static_cast<std::uint64_t>(*address) + static_cast<std::uint64_t>(kind.widthBytes) >
                    limit) {
                return ProbeError::patternRefused(
                    "lane " + std::to_string(lane) + " would access byte " +
                    std::to_string(*address) + ", outside the probe's " + std::to_string(limit) +
                    "-byte " +
                    (kind.space == MemorySpace::Global ? "global arena" : "shared memory") +
                    " or not aligned to the " + std::to_string(kind.widthBytes) +
                    "-byte element; the pattern was not launched");
            }
            launch.activeMask |= 1u << lane;
            launch.offsets[lane] = *address;
            highest = std::max<std::int64_t>(highest, *address + kind.widthBytes);
        }
        launch.sharedBytes = static_cast<std::size_t>((highest + 15) / 16 * 16);
        return launch;
    }

    /// Waits for the stream with a deadline; a GPU that does not finish is a fatal Timeout.
    std::optional<ProbeError> wait(const char* what) {
        const auto deadline = Clock::now() + std::chrono::duration<double>(kWaitTimeoutSeconds);
        while (true) {
            const cudaError_t status = cudaStreamQuery(m_stream);
            if (status == cudaSuccess) {
                return std::nullopt;
            }
            if (status != cudaErrorNotReady) {
                return ProbeError::kernelFault(std::string(what) +
                                               " failed: " + cudaGetErrorString(status) +
                                               ". The GPU context is lost; the probe exits.");
            }
            if (Clock::now() > deadline) {
                return ProbeError::fatalOf(
                    ProbeErrorCode::Timeout,
                    std::string(what) + " did not finish within " +
                        std::to_string(static_cast<int>(kWaitTimeoutSeconds)) +
                        " s; the probe exits.");
            }
            std::this_thread::yield();
        }
    }

    std::optional<ProbeError> check(cudaError_t status, const char* what) {
        if (status == cudaSuccess) {
            return std::nullopt;
        }
        return ProbeError::kernelFault(std::string(what) + ": " + cudaGetErrorString(status));
    }

    /// Queues `n` (at most kLatencySlots) latency runs of a load on m_stream, back to back, each
    /// writing its own pair of counts to m_cycles: the stream keeps them in order (the flush,
    /// then its latency kernel) and the host does not wait between them.
    std::optional<ProbeError> queueLatencyRuns(const gpu::ReplayLaunch& launch, int n) {
        for (int i = 0; i < n; ++i) {
            if (launch.space == gpu::ReplaySpace::Global) {
                if (auto e = check(gpu::launchFlush(m_flush, m_flushBytes, m_stream), "L2 flush")) {
                    return e;
                }
            }
            if (auto e = check(gpu::launchLatency(launch, m_cycles + 2 * i, m_stream),
                               "latency kernel")) {
                return e;
            }
        }
        return std::nullopt;
    }

    /// Times a load's cold and warm latency `repetitions` times, in batches of kLatencySlots
    /// runs read with one copy and one wait each.
    std::optional<ProbeError> measureLatency(const gpu::ReplayLaunch& launch, int repetitions,
                                             Measurement& result) {
        if (launch.op != gpu::ReplayOp::Load) {
            return std::nullopt; // a store's completion is not visible to the warp
        }
        std::vector<double> cold;
        std::vector<double> warm;
        const int total = std::max(1, repetitions);
        std::vector<long long> cycles(2 * static_cast<std::size_t>(kLatencySlots));
        for (int first = 0; first < total; first += kLatencySlots) {
            const int n = std::min(kLatencySlots, total - first);
            if (auto e = queueLatencyRuns(launch, n)) {
                return e;
            }
            if (auto e = check(cudaMemcpyAsync(cycles.data(), m_cycles,
                                               2 * static_cast<std::size_t>(n) * sizeof(long long),
                                               cudaMemcpyDeviceToHost, m_stream),
                               "reading latency")) {
                return e;
            }
            if (auto e = wait("the latency kernel")) {
                return e;
            }
            for (int i = 0; i < n; ++i) {
                cold.push_back(static_cast<double>(cycles[2 * static_cast<std::size_t>(i)]));
                warm.push_back(static_cast<double>(cycles[2 * static_cast<std::size_t>(i) + 1]));
            }
        }
        result.latencyColdCycles = statsOf(cold);
        result.latencyWarmCycles = statsOf(warm);
        result.smClockKHz = m_smClockKHz;
        return std::nullopt;
    }

    std::optional<ProbeError> measureCopyBandwidth() {
        // A device-to-device copy far larger than L2: bytes read plus bytes written per second.
        const std::size_t bytes = std::size_t{512} << 20;
        void* from = nullptr;
        void* to = nullptr;
        if (cudaMalloc(&from, bytes) != cudaSuccess || cudaMalloc(&to, bytes) != cudaSuccess) {
            cudaFree(from);
            return std::nullopt; // not fatal: the ceiling stays unknown
        }
        cudaEvent_t start = nullptr;
        cudaEvent_t stop = nullptr;
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
        std::vector<double> rates;
        cudaMemsetAsync(from, 1, bytes, m_stream);
        for (int i = 0; i < 11; ++i) {
            cudaEventRecord(start, m_stream);
            cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, m_stream);
            cudaEventRecord(stop, m_stream);
            if (auto error = wait("the copy-bandwidth measurement")) {
                return error;
            }
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, start, stop);
            if (i > 0 && ms > 0.0f) { // the first copy warms up
                rates.push_back(2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9);
            }
        }
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        cudaFree(from);
        cudaFree(to);
        m_info.measuredCopyBandwidthGBs = statsOf(rates).median;
        return std::nullopt;
    }

    std::optional<ProbeError> measureGrid(const NamedPattern& pattern, const WarpAccess& access,
                                          int repetitions, Measurement& result) {
        auto grid = runGridKernel(pattern.pattern, access, m_arena, m_arenaBytes, m_sink, m_stream,
                                  repetitions);
        if (auto* error = std::get_if<ProbeError>(&grid)) {
            return *error;
        }
        const GridTiming& timing = std::get<GridTiming>(grid);
        result.gridKernelMs = statsOf(timing.kernelMs);
        result.gridBytesRequested = timing.bytesRequested;
        result.gridBytesMoved = timing.bytesMoved;
        const double seconds = result.gridKernelMs->median * 1e-3;
        if (seconds > 0.0) {
            result.gridEffectiveBandwidthGBs = timing.bytesRequested / seconds / 1e9;
            result.gridMovedBandwidthGBs = timing.bytesMoved / seconds / 1e9;
        }
        return std::nullopt;
    }

    /// The whole-kernel counter session (more metrics than the replay's); it and the replay
    /// session take turns, since a context has one range profiler.
    void ensureKernelCounters() {
        m_kindCounters = CounterSlot{};
        openCounters(m_kernelCounters, m_counters, kernelCounterNames());
    }

    /// For a kernel with async-copy, constant, local or texture accesses: kernelCounterNames()
    /// and those kinds' counters (the copy's of kernelCopyCounterNames(), constantCounterNames(),
    /// localCounterNames(), textureCounterNames()), a session of its own, so that plain kernels
    /// keep their single pass. Null when the kernel has none of them.
    CounterSlot* ensureKindCounters(const ResolvedKernel& kernel) {
        bool copy = false;
        bool constant = false;
        bool local = false;
        bool texture = false;
        for (const ResolvedAccess& access : kernel.accesses) {
            copy = copy || access.access.kind.op == AccessOp::CopyAsync;
            constant = constant || access.access.kind.space == MemorySpace::Constant;
            local = local || access.access.kind.space == MemorySpace::Local;
            texture = texture || access.access.kind.space == MemorySpace::Texture;
        }
        if (!copy && !constant && !local && !texture) {
            return nullptr;
        }
        std::vector<std::string> names = copy ? kernelCopyCounterNames() : kernelCounterNames();
        if (constant) {
            names.insert(names.end(), constantCounterNames().begin(), constantCounterNames().end());
        }
        if (local) {
            names.insert(names.end(), localCounterNames().begin(), localCounterNames().end());
        }
        if (texture) {
            names.insert(names.end(), textureCounterNames().begin(), textureCounterNames().end());
        }
        if (names != m_kindNames) {
            m_kindCounters = CounterSlot{};
            m_kindNames = names;
        }
        if (!m_kindCounters.tried) {
            m_counters = CounterSlot{};
            openCounters(m_kindCounters, m_kernelCounters, names);
        }
        return &m_kindCounters;
    }

    /// Texture objects of one kernel, destroyed on every path.
    struct TextureObjects {
        std::vector<cudaTextureObject_t> objects;
        ~TextureObjects() {
            for (cudaTextureObject_t object : objects) {
                cudaDestroyTextureObject(object);
            }
        }
    };

    /// A 2-D texture of 32-bit unsigned texels over `pointer` (pitched linear memory), or
    /// PatternRefused when this GPU cannot lay one over it (pitch or size limits).
    ProbeResult<cudaTextureObject_t> createTexture(void* pointer, std::int64_t bytes,
                                                   std::int64_t rowBytes, int access) {
        cudaDeviceProp properties{};
        cudaGetDeviceProperties(&properties, m_device);
        const std::int64_t width = rowBytes / 4;
        const std::int64_t height = bytes / rowBytes;
        const std::string where = "access " + std::to_string(access) + ": ";
        if (rowBytes % static_cast<std::int64_t>(properties.texturePitchAlignment) != 0 ||
            width > properties.maxTexture2DLinear[0] || height > properties.maxTexture2DLinear[1] ||
            rowBytes > properties.maxTexture2DLinear[2] ||
            reinterpret_cast<std::uintptr_t>(pointer) % properties.textureAlignment != 0) {
            return ProbeError::patternRefused(
                where + "this GPU lays a 2-D texture over linear memory with rows that are a " +
                "multiple of " + std::to_string(properties.texturePitchAlignment) +
                " bytes, at most " + std::to_string(properties.maxTexture2DLinear[0]) +
                " texels wide and " + std::to_string(properties.maxTexture2DLinear[1]) +
                " rows high; rows of " + std::to_string(rowBytes) + " bytes x " +
                std::to_string(height) + " rows do not fit; nothing was launched");
        }
        cudaResourceDesc resource{};
        resource.resType = cudaResourceTypePitch2D;
        resource.res.pitch2D.devPtr = pointer;
        resource.res.pitch2D.desc = cudaCreateChannelDesc<unsigned>();
        resource.res.pitch2D.width = static_cast<std::size_t>(width);
        resource.res.pitch2D.height = static_cast<std::size_t>(height);
        resource.res.pitch2D.pitchInBytes = static_cast<std::size_t>(rowBytes);
        cudaTextureDesc description{};
        description.filterMode = cudaFilterModePoint;
        description.readMode = cudaReadModeElementType;
        description.addressMode[0] = cudaAddressModeClamp;
        description.addressMode[1] = cudaAddressModeClamp;
        cudaTextureObject_t object = 0;
        if (auto e = check(cudaCreateTextureObject(&object, &resource, &description, nullptr),
                           "creating a texture object")) {
            return *e;
        }
        return object;
    }

    /// Device buffers of one kernel, freed on every path.
    struct DeviceBuffers {
        std::vector<void*> pointers;
        ~DeviceBuffers() {
            for (void* p : pointers) {
                cudaFree(p);
            }
        }
    };

    static std::string mib(std::int64_t bytes) {
        const double value = static_cast<double>(bytes) / (1024.0 * 1024.0);
        char text[64];
        std::snprintf(text, sizeof text, "%.1f MiB", value);
        return std::to_string(bytes) + " bytes (" + text + ")";
    }

    ProbeResult<KernelMeasurement> measureOneKernel(const KernelItem& item,
                                                    const KernelMeasureOptions& options) {
        const ResolvedKernel& kernel = item.kernel;
        KernelMeasurement result;
        result.cold = options.cold && options.flush != KernelMeasureOptions::Flush::None;
        result.flush = options.flush;
        result.copyBandwidthGBs = m_info.measuredCopyBandwidthGBs;
        result.theoreticalBandwidthGBs = m_info.theoreticalBandwidthGBs;
        result.sharedBytesPerBlock = item.prediction.sharedBytesPerBlock;

        // Real sizes, refused before anything is allocated when they cannot fit.
        std::int64_t totalBytes = 0;
        std::string listing;
        for (const ResolvedBuffer& buffer : kernel.buffers) {
            totalBytes += buffer.bytes;
            listing += (listing.empty() ? "" : ", ") + buffer.name + " " + mib(buffer.bytes);
        }
        std::size_t freeBytes = 0;
        std::size_t totalDevice = 0;
        if (auto e = check(cudaMemGetInfo(&freeBytes, &totalDevice), "cudaMemGetInfo")) {
            return *e;
        }
        constexpr std::int64_t kHeadroom = std::int64_t{256} << 20; // for NVRTC, CUPTI, the driver
        if (totalBytes > static_cast<std::int64_t>(freeBytes) - kHeadroom) {
            return ProbeError::outOfMemory(
                "the kernel's buffers need " + mib(totalBytes) + " (" + listing +
                ") but the GPU has " + mib(static_cast<std::int64_t>(freeBytes)) +
                " free (less 256 MiB kept for the driver); nothing was launched");
        }
        const std::int64_t shared = (item.prediction.sharedBytesPerBlock + 15) / 16 * 16;
        if (shared > static_cast<std::int64_t>(m_maxSharedBytes)) {
            return ProbeError::patternRefused(
                "a block needs " + std::to_string(shared) +
                " bytes of shared memory; this GPU gives a block at most " +
                std::to_string(m_maxSharedBytes) + "; nothing was launched");
        }

        const GeneratedKernel generated =
            generateKernelSource(kernel, item.prediction.localBytesPerThread);
        result.entryPoint = generated.entryPoint;
        result.memoryInstructions = generated.expectedMemoryInstructions;
        std::vector<char> cubin;
        const char* savePath = std::getenv("WARPSCOPE_SAVE_CUBIN");
        auto compiled = compileGeneratedKernel(generated.source, generated.entryPoint,
                                               savePath ? &cubin : nullptr);
        if (auto* error = std::get_if<ProbeError>(&compiled)) {
            return *error;
        }
        if (savePath != nullptr) {
            std::ofstream(savePath, std::ios::binary)
                .write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
        }
        const cudaKernel_t function = std::get<cudaKernel_t>(compiled);
        if (shared > 48 * 1024) {
            if (auto e = check(cudaFuncSetAttribute(reinterpret_cast<const void*>(function),
                                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    static_cast<int>(shared)),
                               "setting the kernel's shared memory")) {
                return *e;
            }
        }

        DeviceBuffers buffers;
        for (const ResolvedBuffer& buffer : kernel.buffers) {
            void* pointer = nullptr;
            const cudaError_t status = cudaMalloc(
                &pointer, static_cast<std::size_t>(std::max<std::int64_t>(buffer.bytes, 16)));
            if (status != cudaSuccess) {
                cudaGetLastError(); // not sticky
                return ProbeError::outOfMemory(
                    "cannot allocate buffer " + buffer.name + " of " + mib(buffer.bytes) + " (" +
                    cudaGetErrorString(status) + "); the kernel's buffers: " + listing +
                    "; nothing was launched");
            }
            buffers.pointers.push_back(pointer);
            // Zeroed: the generated kernel's sink store can then never be taken.
            if (auto e = check(
                    cudaMemsetAsync(pointer, 0, static_cast<std::size_t>(buffer.bytes), m_stream),
                    "clearing a buffer")) {
                return *e;
            }
        }
        result.deviceBytes = totalBytes;
        std::vector<long long> parameterValues(kernel.parameterValues.begin(),
                                               kernel.parameterValues.end());
        unsigned* sink = static_cast<unsigned*>(m_sink);
        unsigned sentinel = 0x9e3779b9u;
        std::vector<void*> args;
        for (void*& pointer : buffers.pointers) {
            args.push_back(&pointer);
        }
        for (long long& value : parameterValues) {
            args.push_back(&value);
        }
        // One texture object per texture access: 32-bit texels over its buffer, as pitched
        // linear memory with rows of the access's textureRowBytes (docs/models.md).
        TextureObjects textures;
        for (int index : generated.textureAccesses) {
            const ResolvedAccess& access = kernel.accesses[static_cast<std::size_t>(index)];
            const auto buffer = static_cast<std::size_t>(access.bufferIndex);
            auto texture = createTexture(buffers.pointers[buffer], kernel.buffers[buffer].bytes,
                                         access.textureRowBytes, index);
            if (auto* error = std::get_if<ProbeError>(&texture)) {
                return *error;
            }
            textures.objects.push_back(std::get<cudaTextureObject_t>(texture));
        }
        for (cudaTextureObject_t& texture : textures.objects) {
            args.push_back(&texture);
        }
        args.push_back(&sink);
        args.push_back(&sentinel);
        const dim3 gridDim(static_cast<unsigned>(kernel.grid.x),
                           static_cast<unsigned>(kernel.grid.y),
                           static_cast<unsigned>(kernel.grid.z));
        const dim3 blockDim(static_cast<unsigned>(kernel.block.x),
                            static_cast<unsigned>(kernel.block.y),
                            static_cast<unsigned>(kernel.block.z));
        auto launch = [&](cudaStream_t stream) {
            return cudaLaunchKernel(reinterpret_cast<const void*>(function), gridDim, blockDim,
                                    args.data(), static_cast<std::size_t>(shared), stream);
        };
        auto flush = [&](cudaStream_t stream) {
            switch (options.flush) {
            case KernelMeasureOptions::Flush::Dirty:
                return gpu::launchFlush(m_flush, m_flushBytes, stream);
            case KernelMeasureOptions::Flush::None:
                return cudaSuccess;
            case KernelMeasureOptions::Flush::Clean:
                break;
            }
            return gpu::launchCleanFlush(m_flush, m_flushBytes, sink, stream);
        };

        // One launch untimed (first-launch costs: module load, page mapping of fresh buffers).
        if (auto e = check(launch(m_stream), "launching the kernel")) {
            return *e;
        }
        if (auto e = wait("the kernel")) {
            return *e;
        }
        cudaEvent_t start = nullptr;
        cudaEvent_t stop = nullptr;
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
        std::vector<double> samples;
        std::optional<ProbeError> failed;
        for (int i = 0; i < std::max(1, options.repetitions) && !failed; ++i) {
            if (result.cold) {
                failed = check(flush(m_stream), "L2 flush");
                if (failed) {
                    break;
                }
            }
            cudaEventRecord(start, m_stream);
            failed = check(launch(m_stream), "launching the kernel");
            cudaEventRecord(stop, m_stream);
            if (!failed) {
                failed = wait("the kernel");
            }
            float ms = 0.0f;
            if (!failed) {
                cudaEventElapsedTime(&ms, start, stop);
                samples.push_back(ms);
            }
        }
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        if (failed) {
            return *failed;
        }
        result.samplesMs = samples;
        result.kernelMs = statsOf(samples);
        for (std::size_t i = 0; i < item.prediction.accesses.size(); ++i) {
            if (kernel.accesses[i].access.kind.space == MemorySpace::Global ||
                kernel.accesses[i].access.kind.space == MemorySpace::Texture) {
                result.bytesRequested +=
                    static_cast<double>(item.prediction.accesses[i].bytesRequested);
            }
        }
        if (result.kernelMs.median > 0.0) {
            result.effectiveBandwidthGBs =
                result.bytesRequested / (result.kernelMs.median * 1e-3) / 1e9;
        }

        if (options.counters) {
            CounterSlot* slot = ensureKindCounters(kernel);
            if (slot == nullptr) {
                ensureKernelCounters();
                slot = &m_kernelCounters;
            }
            if (!slot->session) {
                result.countersUnavailableReason = slot->error.message;
            } else {
                if (auto e = check(cudaDeviceSynchronize(), "before the counters")) {
                    return *e;
                }
                // One cold launch (flushed before every pass) on the legacy stream, which the
                // profiler's ranges are ordered with.
                auto counters = slot->session->measure(
                    1, [&](int) { return launch(nullptr) == cudaSuccess; },
                    [&](int) {
                        return flush(nullptr) == cudaSuccess &&
                               cudaStreamSynchronize(nullptr) == cudaSuccess;
                    });
                if (auto error = keepCounters(std::move(counters), result)) {
                    return *error;
                }
                addConstantExtraRequests(result.counters);
            }
        } else {
            result.countersUnavailableReason = "counters were not asked for";
        }
        if (options.perInstruction) { // one more launch, patched (cupti_sass.h)
            auto synced = [](cudaError_t status) {
                return status == cudaSuccess && cudaStreamSynchronize(nullptr) == cudaSuccess;
            };
            measurePerInstruction(
                m_device, generated.entryPoint, item, [&] { return synced(flush(nullptr)); },
                [&] { return synced(launch(nullptr)); }, result);
        }
        if (auto e = check(cudaDeviceSynchronize(), "after the kernel")) {
            return *e;
        }
        return result;
    }

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

} // namespace

std::unique_ptr<Backend> makeCudaBackend() {
    return std::make_unique<CudaBackend>();
}

} // namespace warpscope::probe
