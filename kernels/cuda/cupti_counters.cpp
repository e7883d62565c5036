// CounterSession over CUPTI's range profiler, loaded at run time (cupti_api.cpp). The sequence
// (profiler initialise, host object and config image for the metric list, range profiler enabled on
// the context, counter data image, user ranges with user replay, decode, evaluate) follows the
// CUPTI range profiling API of CUDA 12.6 and later; the probe keeps one enabled profiler for its
// whole life, so only the first measurement pays the set-up. The pass whose start costs most is
// configured and started while the probe waits for its next request (prepare()).
#include "cupti_counters.h"
#include "cupti_api.h"
#include "probe_trace.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

namespace warpscope::probe {

struct CounterSession::Impl {
    const CuptiApi* api = nullptr;
    std::vector<std::string> metricNames;
    std::vector<const char*> metricPointers;
    CUpti_Profiler_Host_Object* host = nullptr;
    CUpti_RangeProfiler_Object* profiler = nullptr;
    std::vector<std::uint8_t> configImage;
    std::vector<std::uint8_t> counterData;
    int passes = 0;
    /// How long each pass's last start took (ms, 0 until timed). The session's first start is
    /// left out: it carries a one-time set-up (about 200 ms on an H100).
    std::vector<double> startMs;
    bool firstStartDone = false;
    /// The pass CUPTI runs next. Measured on an H100 (scripts/investigations/cupti_pass_costs.cu):
    /// after the first, CUPTI takes the passes in turn, 0, 1, ..., passes - 1, 0, ..., whatever
    /// SetConfig's passIndex says, and each Stop names the next; every run of `passes`
    /// consecutive passes therefore covers them all, whichever comes first.
    std::size_t nextPass = 0;
    bool imageReady = false;           // the counter data image initialised for the next measure()
    bool imageEverInitialised = false; // passes may run (empty) against it
    bool started = false;              // nextPass configured and started by prepare()

    std::optional<ProbeError> initialiseImage();
    /// Configures and starts nextPass, timing its start.
    std::optional<ProbeError> startPass();
    /// Stops the pass running; nextPass becomes the one CUPTI names.
    CUptiResult stopPass();
    /// The pass whose start costs most (the one worth starting ahead), or -1 before any is timed.
    int costliestPass() const;
};

std::optional<ProbeError> CounterSession::Impl::initialiseImage() {
    auto init = makeParams<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    init.pRangeProfilerObject = profiler;
    init.counterDataSize = counterData.size();
    init.pCounterData = counterData.data();
    if (CUptiResult r = api->cuptiRangeProfilerCounterDataImageInitialize(&init);
        r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiRangeProfilerCounterDataImageInitialize");
    }
    imageEverInitialised = true;
    return std::nullopt;
}

std::optional<ProbeError> CounterSession::Impl::startPass() {
    const std::size_t pass = nextPass;
    // The same maxRangesPerPass in every configuration, and counter data sized for it: measured
    // on an H100, a session first configured for one range kept recording at most two ranges
    // (one per pass) when later configured for 32.
    auto config = makeParams<CUpti_RangeProfiler_SetConfig_Params>(
        CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    config.pRangeProfilerObject = profiler;
    config.configSize = configImage.size();
    config.pConfig = configImage.data();
    config.counterDataImageSize = counterData.size();
    config.pCounterDataImage = counterData.data();
    config.range = CUPTI_UserRange;
    config.replayMode = CUPTI_UserReplay;
    config.maxRangesPerPass = kMaxRangesPerBatch;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = pass;
    config.targetNestingLevel = 1;
    if (CUptiResult r = api->cuptiRangeProfilerSetConfig(&config); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiRangeProfilerSetConfig");
    }
    auto start =
        makeParams<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = profiler;
    const auto began = std::chrono::steady_clock::now();
    if (CUptiResult r = api->cuptiRangeProfilerStart(&start); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiRangeProfilerStart");
    }
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - began;
    if (firstStartDone && pass < startMs.size()) {
        startMs[pass] = took.count();
    }
    firstStartDone = true;
    return std::nullopt;
}

CUptiResult CounterSession::Impl::stopPass() {
    auto stop =
        makeParams<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = profiler;
    const CUptiResult stopped = api->cuptiRangeProfilerStop(&stop);
    const std::size_t count = startMs.empty() ? 1 : startMs.size();
    nextPass = stopped == CUPTI_SUCCESS && stop.passIndex < count ? stop.passIndex
                                                                  : (nextPass + 1) % count;
    return stopped;
}

int CounterSession::Impl::costliestPass() const {
    const auto costliest = std::max_element(startMs.begin(), startMs.end());
    return costliest == startMs.end() || *costliest <= 0.0
               ? -1
               : static_cast<int>(costliest - startMs.begin());
}

CounterSession::~CounterSession() {
    if (!m_impl || !m_impl->api) {
        return;
    }
    const CuptiApi& api = *m_impl->api;
    if (m_impl->started) {
        m_impl->stopPass();
    }
    if (m_impl->profiler) {
        auto disable = makeParams<CUpti_RangeProfiler_Disable_Params>(
            CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
        disable.pRangeProfilerObject = m_impl->profiler;
        api.cuptiRangeProfilerDisable(&disable);
    }
    if (m_impl->host) {
        auto deinit = makeParams<CUpti_Profiler_Host_Deinitialize_Params>(
            CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
        deinit.pHostObject = m_impl->host;
        api.cuptiProfilerHostDeinitialize(&deinit);
    }
}

bool CounterSession::everStarted() const {
    return m_impl && m_impl->firstStartDone;
}

void CounterSession::preload() {
    std::string why;
    if (const CuptiApi* api = loadCupti(why)) {
        initialiseProfilerOnce(*api);
    }
}

ProbeResult<std::unique_ptr<CounterSession>>
CounterSession::open(const std::vector<std::string>& metrics) {
    std::optional<TraceSpan> step;
    step.emplace("counters open: load CUPTI");
    std::string why;
    const CuptiApi* api = loadCupti(why);
    if (!api) {
        return ProbeError::countersUnavailable(why);
    }
    std::unique_ptr<CounterSession> session(new CounterSession);
    session->m_impl = std::make_unique<Impl>();
    Impl& impl = *session->m_impl;
    impl.api = api;
    impl.metricNames = metrics;
    for (const std::string& name : impl.metricNames) {
        impl.metricPointers.push_back(name.c_str());
    }

    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
        return ProbeError::internal("no CUDA context for the counters");
    }
    CUcontext context = nullptr;
    // The runtime made the device's primary context current; CUPTI needs it as a CUcontext. The
    // driver entry point is looked up through the runtime, so the probe never links libcuda.
    using CtxGetCurrent = CUresult (*)(CUcontext*);
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult query{};
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &entry, 12000, cudaEnableDefault,
                                         &query) != cudaSuccess ||
        !entry || reinterpret_cast<CtxGetCurrent>(entry)(&context) != CUDA_SUCCESS || !context) {
        return ProbeError::internal("cannot get the CUDA context for the counters");
    }

    step.emplace("counters open: profiler initialise");
    if (CUptiResult r = initialiseProfilerOnce(*api); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiProfilerInitialize");
    }

    step.emplace("counters open: chip and counter availability");
    // Asked once per device: a session opened again for other counters (CounterSession's
    // owner keeps one list at a time) reuses them, saving about 125 ms on an H100.
    struct DeviceCounters {
        std::string chipName;
        std::vector<std::uint8_t> availabilityImage;
    };
    static std::map<int, DeviceCounters> known;
    auto knownDevice = known.find(device);
    if (knownDevice == known.end()) {
        auto chip = makeParams<CUpti_Device_GetChipName_Params>(
            CUpti_Device_GetChipName_Params_STRUCT_SIZE);
        chip.deviceIndex = static_cast<std::size_t>(device);
        if (CUptiResult r = api->cuptiDeviceGetChipName(&chip); r != CUPTI_SUCCESS) {
            return cuptiError(*api, r, "cuptiDeviceGetChipName");
        }
        DeviceCounters found;
        found.chipName = chip.pChipName ? chip.pChipName : "";
        // About 120 to 180 ms on an H100; without the image the first start takes about 450 ms
        // longer, so it is asked for.
        auto availability = makeParams<CUpti_Profiler_GetCounterAvailability_Params>(
            CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
        availability.ctx = context;
        if (api->cuptiProfilerGetCounterAvailability(&availability) == CUPTI_SUCCESS) {
            found.availabilityImage.resize(availability.counterAvailabilityImageSize);
            availability.pCounterAvailabilityImage = found.availabilityImage.data();
            if (CUptiResult r = api->cuptiProfilerGetCounterAvailability(&availability);
                r != CUPTI_SUCCESS) {
                return cuptiError(*api, r, "cuptiProfilerGetCounterAvailability");
            }
        }
        knownDevice = known.emplace(device, std::move(found)).first;
    }
    const std::string& chipName = knownDevice->second.chipName;
    const std::vector<std::uint8_t>& availabilityImage = knownDevice->second.availabilityImage;

    step.emplace("counters open: host object and configuration");
    auto hostInit = makeParams<CUpti_Profiler_Host_Initialize_Params>(
        CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    hostInit.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hostInit.pChipName = chipName.c_str();
    hostInit.pCounterAvailabilityImage =
        availabilityImage.empty() ? nullptr : availabilityImage.data();
    if (CUptiResult r = api->cuptiProfilerHostInitialize(&hostInit); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiProfilerHostInitialize");
    }
    impl.host = hostInit.pHostObject;

    auto add = makeParams<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    add.pHostObject = impl.host;
    add.ppMetricNames = impl.metricPointers.data();
    add.numMetrics = impl.metricPointers.size();
    if (CUptiResult r = api->cuptiProfilerHostConfigAddMetrics(&add); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiProfilerHostConfigAddMetrics");
    }
    auto size = makeParams<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = impl.host;
    if (CUptiResult r = api->cuptiProfilerHostGetConfigImageSize(&size); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiProfilerHostGetConfigImageSize");
    }
    impl.configImage.resize(size.configImageSize);
    auto image = makeParams<CUpti_Profiler_Host_GetConfigImage_Params>(
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    image.pHostObject = impl.host;
    image.configImageSize = impl.configImage.size();
    image.pConfigImage = impl.configImage.data();
    if (CUptiResult r = api->cuptiProfilerHostGetConfigImage(&image); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiProfilerHostGetConfigImage");
    }
    auto passes = makeParams<CUpti_Profiler_Host_GetNumOfPasses_Params>(
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    passes.configImageSize = impl.configImage.size();
    passes.pConfigImage = impl.configImage.data();
    if (CUptiResult r = api->cuptiProfilerHostGetNumOfPasses(&passes); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiProfilerHostGetNumOfPasses");
    }
    impl.passes = static_cast<int>(passes.numOfPasses);
    impl.startMs.assign(static_cast<std::size_t>(impl.passes), 0.0);
    session->m_passes = impl.passes;
    if (traceEnabled()) {
        std::fprintf(stderr, "trace: counter passes %d\n", session->m_passes);
    }

    step.emplace("counters open: enable");
    auto enable = makeParams<CUpti_RangeProfiler_Enable_Params>(
        CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    enable.ctx = context;
    if (CUptiResult r = api->cuptiRangeProfilerEnable(&enable); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiRangeProfilerEnable");
    }
    impl.profiler = enable.pRangeProfilerObject;

    // One counter data image, sized once for the largest batch.
    auto dataSize = makeParams<CUpti_RangeProfiler_GetCounterDataSize_Params>(
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    dataSize.pRangeProfilerObject = impl.profiler;
    dataSize.pMetricNames = impl.metricPointers.data();
    dataSize.numMetrics = impl.metricPointers.size();
    dataSize.maxNumOfRanges = kMaxRangesPerBatch;
    dataSize.maxNumRangeTreeNodes = kMaxRangesPerBatch;
    if (CUptiResult r = api->cuptiRangeProfilerGetCounterDataSize(&dataSize); r != CUPTI_SUCCESS) {
        return cuptiError(*api, r, "cuptiRangeProfilerGetCounterDataSize");
    }
    impl.counterData.assign(dataSize.counterDataSize, 0);
    return session;
}

void CounterSession::prepare(bool timeEveryPass) {
    Impl& impl = *m_impl;
    if (impl.started) {
        return;
    }
    const TraceSpan step(timeEveryPass && impl.costliestPass() < 0
                             ? "cupti prepare, every pass timed (while idle)"
                             : "cupti prepare (while idle)");
    // A pass needs an initialised counter data image, even one run empty (a session opened
    // again has none yet: CUPTI crashed without it on an H100).
    if (!impl.imageEverInitialised) {
        if (impl.initialiseImage()) {
            return;
        }
        impl.imageReady = true;
    }
    bool ranEmpty = false;
    const auto runEmpty = [&] {
        if (impl.startPass() || impl.stopPass() != CUPTI_SUCCESS) {
            return false;
        }
        auto decode = makeParams<CUpti_RangeProfiler_DecodeData_Params>(
            CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
        decode.pRangeProfilerObject = impl.profiler;
        impl.api->cuptiRangeProfilerDecodeData(&decode);
        ranEmpty = true;
        return true;
    };
    // A session opened again for other counters: every pass run empty until each start is
    // timed (the first carries the session's set-up), so that the costliest is known before
    // the first request.
    for (int i = 0; timeEveryPass && impl.passes > 1 && i < 2 * impl.passes &&
                    std::find(impl.startMs.begin(), impl.startMs.end(), 0.0) != impl.startMs.end();
         ++i) {
        if (!runEmpty()) {
            return;
        }
    }
    // Passes are taken in turn: until the costliest comes next, passes are run empty (about
    // 2 ms each on an H100, once: afterwards every measurement runs all passes and the turn
    // comes back to the same one).
    const int costliest = impl.costliestPass();
    for (int i = 0;
         costliest >= 0 && impl.nextPass != static_cast<std::size_t>(costliest) && i < impl.passes;
         ++i) {
        if (!runEmpty()) {
            return;
        }
    }
    if (!impl.imageReady || ranEmpty) {
        impl.imageReady = false;
        if (impl.initialiseImage()) {
            return;
        }
        impl.imageReady = true;
    }
    if (!impl.startPass()) {
        impl.started = true;
    }
}

ProbeResult<std::vector<std::map<std::string, double>>>
CounterSession::measure(int count, const std::function<bool(int)>& launch,
                        const std::function<bool(int)>& before,
                        const std::function<void()>& whileStopping) {
    Impl& impl = *m_impl;
    const CuptiApi& api = *impl.api;
    if (count <= 0) {
        return std::vector<std::map<std::string, double>>{};
    }
    if (count > kMaxRangesPerBatch) {
        return ProbeError::internal("at most " + std::to_string(kMaxRangesPerBatch) +
                                    " kernels can be measured in one batch");
    }
    // What prepare() set up is used now, and only now.
    const bool startedAhead = impl.started;
    const bool imageReady = impl.imageReady;
    impl.started = false;
    impl.imageReady = false;
    std::optional<TraceSpan> step;
    if (!imageReady) {
        step.emplace("cupti counter data initialise");
        if (auto error = impl.initialiseImage()) {
            return *error;
        }
    }
    // User ranges with user replay: one range around each launch, and the whole batch launched
    // once per pass the metrics need. Kernel replay (an auto range per kernel, CUPTI saving and
    // restoring device memory around every replay) cost about 38 ms per pattern on an H100; user
    // replay pays the per-pass cost once per batch. Counters of a range are those of its one
    // kernel, since nothing else runs on the device while the probe measures.
    //
    // Every pass is run exactly once, in CUPTI's turn (Impl::nextPass), starting with the one
    // prepare() started, if any: measured on an H100 (scripts/investigations/cupti_pass_costs.cu),
    // the counters are the same whichever pass comes first.
    std::vector<std::string> names(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        names[static_cast<std::size_t>(i)] = "pattern " + std::to_string(i);
    }
    for (int k = 0; k < impl.passes; ++k) {
        const bool ahead = k == 0 && startedAhead;
        if (!ahead) {
            step.emplace("cupti set config and start");
            if (auto error = impl.startPass()) {
                return *error;
            }
        }
        step.emplace(ahead ? "cupti ranges and launches (pass started ahead)"
                           : "cupti ranges and launches");
        bool launched = true;
        CUptiResult rangeResult = CUPTI_SUCCESS;
        for (int i = 0; i < count && launched && rangeResult == CUPTI_SUCCESS; ++i) {
            if (before && !before(i)) {
                launched = false;
                break;
            }
            auto push = makeParams<CUpti_RangeProfiler_PushRange_Params>(
                CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
            push.pRangeProfilerObject = impl.profiler;
            push.pRangeName = names[static_cast<std::size_t>(i)].c_str();
            rangeResult = api.cuptiRangeProfilerPushRange(&push);
            if (rangeResult != CUPTI_SUCCESS) {
                break;
            }
            launched = launch(i);
            auto pop = makeParams<CUpti_RangeProfiler_PopRange_Params>(
                CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
            pop.pRangeProfilerObject = impl.profiler;
            rangeResult = api.cuptiRangeProfilerPopRange(&pop);
        }
        step.emplace("cupti pass synchronise");
        const cudaError_t sync = cudaDeviceSynchronize();
        const bool overlap = k == 0 && whileStopping && sync == cudaSuccess && launched &&
                             rangeResult == CUPTI_SUCCESS;
        if (overlap) {
            // Outside every range: the caller queues work that runs while Stop works on the host.
            whileStopping();
        }
        step.emplace(ahead ? "cupti stop (pass started ahead)" : "cupti stop");
        const CUptiResult stopped = impl.stopPass();
        // The caller's work ends before the next pass begins, so no range ever sees it.
        const cudaError_t overlapped = overlap ? cudaDeviceSynchronize() : cudaSuccess;
        if (sync != cudaSuccess || overlapped != cudaSuccess) {
            return ProbeError::kernelFault(
                std::string("a measured kernel failed: ") +
                cudaGetErrorString(sync != cudaSuccess ? sync : overlapped));
        }
        if (!launched) {
            return ProbeError::internal("a kernel of the batch could not be launched");
        }
        if (rangeResult != CUPTI_SUCCESS) {
            return cuptiError(api, rangeResult, "cuptiRangeProfilerPushRange/PopRange");
        }
        if (stopped != CUPTI_SUCCESS) {
            return cuptiError(api, stopped, "cuptiRangeProfilerStop");
        }
        step.emplace("cupti decode");
        auto decode = makeParams<CUpti_RangeProfiler_DecodeData_Params>(
            CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
        decode.pRangeProfilerObject = impl.profiler;
        if (CUptiResult r = api.cuptiRangeProfilerDecodeData(&decode); r != CUPTI_SUCCESS) {
            return cuptiError(api, r, "cuptiRangeProfilerDecodeData");
        }
    }
    step.emplace("cupti counter data info and evaluate");
    auto info = makeParams<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = impl.counterData.data();
    info.counterDataImageSize = impl.counterData.size();
    if (CUptiResult r = api.cuptiRangeProfilerGetCounterDataInfo(&info); r != CUPTI_SUCCESS) {
        return cuptiError(api, r, "cuptiRangeProfilerGetCounterDataInfo");
    }
    if (info.numTotalRanges != static_cast<std::size_t>(count)) {
        return ProbeError::countersUnavailable("the profiler recorded " +
                                               std::to_string(info.numTotalRanges) +
                                               " ranges for " + std::to_string(count) + " kernels");
    }
    std::vector<std::map<std::string, double>> results(static_cast<std::size_t>(count));
    std::vector<double> values(impl.metricPointers.size());
    for (int range = 0; range < count; ++range) {
        auto evaluate = makeParams<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
        evaluate.pHostObject = impl.host;
        evaluate.pCounterDataImage = impl.counterData.data();
        evaluate.counterDataImageSize = impl.counterData.size();
        evaluate.rangeIndex = static_cast<std::size_t>(range);
        evaluate.ppMetricNames = impl.metricPointers.data();
        evaluate.numMetrics = impl.metricPointers.size();
        evaluate.pMetricValues = values.data();
        if (CUptiResult r = api.cuptiProfilerHostEvaluateToGpuValues(&evaluate);
            r != CUPTI_SUCCESS) {
            return cuptiError(api, r, "cuptiProfilerHostEvaluateToGpuValues");
        }
        for (std::size_t m = 0; m < impl.metricNames.size(); ++m) {
            results[static_cast<std::size_t>(range)][impl.metricNames[m]] = values[m];
        }
    }
    return results;
}

} // namespace warpscope::probe
