// measure_l2_persistence on the GPU (l2_persistence_cuda.h), host side; the kernel is in
// l2_persistence_kernels.cu. The device is left as found: the stream's window is cleared,
// persisting lines are reset to normal and cudaLimitPersistingL2CacheSize is set back on every
// path out.
#include "l2_persistence_cuda.h"

#include "cuda_buffers.h"
#include "cupti_counters.h"
#include "l2_persistence_kernels.h"
#include <warpscope/format.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::probe {

namespace {

/// The stream, and on the way out: no window, no persisting lines, the limit as it was.
struct WindowedStream {
    cudaStream_t s = nullptr;
    std::size_t previousLimit = 0;
    bool limitChanged = false;
    ~WindowedStream() {
        if (s) {
            cudaStreamAttrValue value{};
            value.accessPolicyWindow.num_bytes = 0;
            cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value);
            cudaStreamSynchronize(s);
            cudaStreamDestroy(s);
        }
        cudaCtxResetPersistingL2Cache();
        if (limitChanged) {
            cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, previousLimit);
        }
    }
};

cudaError_t setWindow(cudaStream_t stream, void* base, std::int64_t bytes, double hitRatio) {
    cudaStreamAttrValue value{};
    value.accessPolicyWindow.base_ptr = base;
    value.accessPolicyWindow.num_bytes = static_cast<std::size_t>(bytes);
    value.accessPolicyWindow.hitRatio = static_cast<float>(hitRatio);
    value.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    value.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    return cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value);
}

cudaError_t clearWindow(cudaStream_t stream) {
    cudaStreamAttrValue value{};
    value.accessPolicyWindow.num_bytes = 0;
    return cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value);
}

double counter(const std::map<std::string, double>& values, const char* name) {
    const auto found = values.find(name);
    return found == values.end() ? 0.0 : found->second;
}

} // namespace

ProbeResult<experiments::L2PersistenceDevice> currentL2PersistenceDevice(int device) {
    cudaDeviceProp prop{};
    WS_TRY(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    experiments::L2PersistenceDevice facts;
    facts.name = prop.name;
    facts.l2Bytes = prop.l2CacheSize;
    facts.persistingL2MaxBytes = prop.persistingL2CacheMaxSize;
    facts.maxWindowBytes = prop.accessPolicyMaxWindowSize;
    facts.l2Partitions = l2PartitionCount(prop.major, prop.minor);
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    WS_TRY(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
    facts.deviceFreeBytes = static_cast<std::int64_t>(freeBytes);
    return facts;
}

ProbeResult<experiments::L2PersistenceMeasurement>
runL2PersistenceOnDevice(const experiments::L2PersistencePlan& plan,
                         const experiments::L2PersistenceDevice& device, int smCount,
                         CounterSession* session, const std::string& noCounters,
                         const ProgressCallback& progress, const CancelCallback& cancelled) {
    experiments::L2PersistenceMeasurement measurement =
        experiments::startL2PersistenceMeasurement(plan, device, session != nullptr, noCounters);

    const std::int64_t largest = plan.windowBytes.back();
    DeviceArray region;
    DeviceArray stream;
    DeviceArray sink;
    WS_TRY(cudaMalloc(&region.p, static_cast<std::size_t>(largest)),
           "the region (" + formatBytes(largest) + ")");
    WS_TRY(cudaMalloc(&stream.p, static_cast<std::size_t>(plan.streamBytes)),
           "the streaming buffer (" + formatBytes(plan.streamBytes) + ")");
    WS_TRY(cudaMalloc(&sink.p, sizeof(float)), "the sink");
    WS_TRY(cudaMemset(region.p, 0, static_cast<std::size_t>(largest)), "cudaMemset");
    WS_TRY(cudaMemset(stream.p, 0, static_cast<std::size_t>(plan.streamBytes)), "cudaMemset");
    WS_TRY(cudaDeviceSynchronize(), "filling the buffers");

    WindowedStream windowed;
    WS_TRY(cudaStreamCreateWithFlags(&windowed.s, cudaStreamNonBlocking), "cudaStreamCreate");
    Events events;
    WS_TRY(cudaEventCreate(&events.start), "cudaEventCreate");
    WS_TRY(cudaEventCreate(&events.stop), "cudaEventCreate");
    WS_TRY(cudaDeviceGetLimit(&windowed.previousLimit, cudaLimitPersistingL2CacheSize),
           "cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize)");
    measurement.previousSetAsideBytes = static_cast<std::int64_t>(windowed.previousLimit);
    windowed.limitChanged = true;
    WS_TRY(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
                              static_cast<std::size_t>(plan.setAsideBytes)),
           "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, " +
               std::to_string(plan.setAsideBytes) + ")");

    const std::int64_t steps = plan.streamBytes / 16 / plan.streamPerRegion;
    const int blocks = std::max(1, smCount) * 8;
    const int total = experiments::l2PersistencePointCount(plan);
    int done = 0;
    for (std::int64_t windowBytes : plan.windowBytes) {
        const std::vector<experiments::L2HitRatio> ratios =
            experiments::l2PersistencePointsAt(plan, windowBytes);
        const std::int64_t regionCount = windowBytes / 16;
        const auto launch = [&] {
            return launchRegionAndStream(static_cast<const float4*>(region.p), regionCount,
                                         static_cast<const float4*>(stream.p), steps,
                                         plan.streamPerRegion, static_cast<float*>(sink.p), blocks,
                                         windowed.s);
        };
        for (std::size_t r = 0; r < ratios.size(); ++r) {
            if (cancelled && cancelled()) {
                return ProbeError::cancelled("cancelled after " + std::to_string(done) + " of " +
                                             std::to_string(total) + " points");
            }
            const bool window = r > 0;
            const double hitRatio = ratios[r].value;
            // Every point starts with no persisting lines left from the one before.
            WS_TRY(cudaStreamSynchronize(windowed.s), "cudaStreamSynchronize");
            WS_TRY(cudaCtxResetPersistingL2Cache(), "cudaCtxResetPersistingL2Cache");
            WS_TRY(window ? setWindow(windowed.s, region.p, windowBytes, hitRatio)
                          : clearWindow(windowed.s),
                   "cudaStreamSetAttribute(accessPolicyWindow)");
            // One warm-up launch: the measurement is of the steady state, the region re-read
            // with whatever the launch before kept.
            WS_TRY(launch(), "launching the region-and-stream kernel");
            std::vector<double> samples;
            for (int rep = 0; rep < plan.repetitions; ++rep) {
                WS_TRY(cudaEventRecord(events.start, windowed.s), "cudaEventRecord");
                WS_TRY(launch(), "launching the region-and-stream kernel");
                WS_TRY(cudaEventRecord(events.stop, windowed.s), "cudaEventRecord");
                WS_TRY(cudaEventSynchronize(events.stop), "the region-and-stream kernel");
                float ms = 0.0f;
                WS_TRY(cudaEventElapsedTime(&ms, events.start, events.stop),
                       "cudaEventElapsedTime");
                samples.push_back(static_cast<double>(ms));
            }
            experiments::L2PersistencePoint point =
                experiments::l2PersistencePoint(windowBytes, window, hitRatio, ratios[r].tuned,
                                                std::move(samples), plan, device.l2Bytes);
            if (session && plan.counters) {
                auto counted = session->measure(1, [&](int) { return launch() == cudaSuccess; });
                if (auto* error = std::get_if<ProbeError>(&counted)) {
                    if (error->fatal) {
                        return *error;
                    }
                    measurement.countersMeasured = false;
                    measurement.countersUnavailableReason = error->message;
                    session = nullptr;
                } else {
                    const auto& values = std::get<0>(counted);
                    if (!values.empty()) {
                        const auto& v = values.front();
                        point.countersMeasured = true;
                        point.sectorHits = counter(v, "lts__t_sectors_lookup_hit.sum");
                        point.sectorMisses = counter(v, "lts__t_sectors_lookup_miss.sum");
                        point.dramReadBytes = counter(v, "dram__bytes_read.sum");
                        point.hitRatePct =
                            v.count("lts__t_sector_hit_rate.pct")
                                ? v.at("lts__t_sector_hit_rate.pct")
                            : point.sectorHits + point.sectorMisses > 0.0
                                ? 100.0 * point.sectorHits / (point.sectorHits + point.sectorMisses)
                                : 0.0;
                        experiments::deriveRegionHit(point, plan);
                    }
                }
            }
            WS_TRY(cudaStreamSynchronize(windowed.s), "the region-and-stream kernel");
            WS_TRY(cudaGetLastError(), "the region-and-stream kernel");
            measurement.points.push_back(point);
            ++done;
            if (progress) {
                progress(done, total);
            }
        }
    }
    if (!plan.counters) {
        measurement.countersMeasured = false;
        measurement.countersUnavailableReason = "counters were not asked for";
    }
    return measurement;
}

} // namespace warpscope::probe
