// The CUDA backend of warpscope-probe: finds the driver and the device, keeps the arenas, runs
// replay kernels under the counter session, times latency and reports device facts. Every address
// is checked against the arenas before any launch; nothing here ever launches a pattern that
// would fault.
#include "cuda_backend.h"

#include "probe_trace.h"

#include <warpscope/statistics.h>

#include <dlfcn.h>

#include <algorithm>
#include <thread>
#include <utility>

namespace warpscope::probe {
namespace cuda {

std::string versionText(int version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

Stats statsOf(std::vector<double> samples) {
    const SampleSummary summary = summarizeSamples(std::move(samples));
    Stats stats;
    stats.samples = summary.samples;
    stats.min = summary.min;
    stats.max = summary.max;
    stats.median = summary.median;
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

CudaBackend::CudaBackend(int device) : m_device(device) {
    addCudaExperiments(*this, m_experiments);
}

CudaBackend::~CudaBackend() {
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

ProbeResult<DeviceInfo> CudaBackend::deviceInfo() {
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

Backend* CudaBackend::forDevice(int index) {
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
BuildInfo CudaBackend::buildInfo() const {
    BuildInfo info;
    info.backend = "cuda";
    info.cudaRuntimeVersion = versionText(CUDART_VERSION);
    info.cupti = true; // compiled in; loaded at run time (device_info says if it loads)
    info.nvrtc = true; // likewise
    return info;
}

void CudaBackend::idle() {
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

/// Finds the driver and device once; afterwards returns the same answer. `counters`: the
/// request will read counters, so CUPTI is loaded and initialised beside the context.
std::optional<ProbeError> CudaBackend::ensureDevice(bool counters) {
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

std::optional<ProbeError> CudaBackend::openDevice(bool counters) {
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
        return ProbeError::noDevice("the NVIDIA driver found no CUDA device (check nvidia-smi and "
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
    m_flushBytes = std::max<std::size_t>(2 * static_cast<std::size_t>(m_info.l2Bytes), 8u << 20);
    step.emplace("open device: arena and buffers");
    if (cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMalloc(&m_arena, m_arenaBytes) != cudaSuccess ||
        cudaMemset(m_arena, 0x5a, m_arenaBytes) != cudaSuccess ||
        cudaMalloc(&m_sink, 32 * 16) != cudaSuccess ||
        cudaMalloc(&m_cycles, (2 * kLatencySlots + 2) * sizeof(long long)) != cudaSuccess ||
        cudaMalloc(&m_flush, m_flushBytes) != cudaSuccess ||
        cudaDeviceSynchronize() != cudaSuccess) {
        return ProbeError::internal("cannot allocate the probe's device memory on " + m_info.name);
    }
    return std::nullopt;
}

/// Waits for the stream with a deadline; a GPU that does not finish is a fatal Timeout.
std::optional<ProbeError> CudaBackend::wait(const char* what) {
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
            return ProbeError::fatalOf(ProbeErrorCode::Timeout,
                                       std::string(what) + " did not finish within " +
                                           std::to_string(static_cast<int>(kWaitTimeoutSeconds)) +
                                           " s; the probe exits.");
        }
        std::this_thread::yield();
    }
}

std::optional<ProbeError> CudaBackend::check(cudaError_t status, const char* what) {
    if (status == cudaSuccess) {
        return std::nullopt;
    }
    return ProbeError::kernelFault(std::string(what) + ": " + cudaGetErrorString(status));
}

std::optional<ProbeError> CudaBackend::measureCopyBandwidth() {
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

std::optional<ProbeError> CudaBackend::ensureCopyBandwidth() {
    if (m_info.measuredCopyBandwidthGBs == 0.0) {
        return measureCopyBandwidth();
    }
    return std::nullopt;
}

void CudaBackend::releaseCounterSessions() {
    m_counters.session.reset();
    m_counters.tried = false;
    m_kernelCounters.session.reset();
    m_kernelCounters.tried = false;
    m_kindCounters = CounterSlot{};
}

} // namespace cuda

std::unique_ptr<Backend> makeCudaBackend() {
    return std::make_unique<cuda::CudaBackend>();
}

} // namespace warpscope::probe
