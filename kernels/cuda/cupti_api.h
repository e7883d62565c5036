// CUPTI's range profiler and profiler host functions, loaded at run time with dlopen (CuptiApi),
// and what every counter call shares: parameter blocks, the profiler's one initialisation per
// process, and CUPTI's results turned into the probe's errors.
#pragma once

#include "probe_backend.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstddef>
#include <string>

namespace warpscope::probe {

#define WS_CUPTI_FUNCTIONS(X)                                                                      \
    X(cuptiGetResultString)                                                                        \
    X(cuptiProfilerInitialize)                                                                     \
    X(cuptiDeviceGetChipName)                                                                      \
    X(cuptiProfilerGetCounterAvailability)                                                         \
    X(cuptiProfilerHostInitialize)                                                                 \
    X(cuptiProfilerHostDeinitialize)                                                               \
    X(cuptiProfilerHostConfigAddMetrics)                                                           \
    X(cuptiProfilerHostGetConfigImageSize)                                                         \
    X(cuptiProfilerHostGetConfigImage)                                                             \
    X(cuptiProfilerHostGetNumOfPasses)                                                             \
    X(cuptiProfilerHostEvaluateToGpuValues)                                                        \
    X(cuptiRangeProfilerEnable)                                                                    \
    X(cuptiRangeProfilerDisable)                                                                   \
    X(cuptiRangeProfilerGetCounterDataSize)                                                        \
    X(cuptiRangeProfilerCounterDataImageInitialize)                                                \
    X(cuptiRangeProfilerSetConfig)                                                                 \
    X(cuptiRangeProfilerStart)                                                                     \
    X(cuptiRangeProfilerStop)                                                                      \
    X(cuptiRangeProfilerPushRange)                                                                 \
    X(cuptiRangeProfilerPopRange)                                                                  \
    X(cuptiRangeProfilerDecodeData)                                                                \
    X(cuptiRangeProfilerGetCounterDataInfo)

struct CuptiApi {
    void* library = nullptr;
#define WS_DECLARE(name) decltype(&::name) name = nullptr;
    WS_CUPTI_FUNCTIONS(WS_DECLARE)
#undef WS_DECLARE
};

/// The profiler functions of libcupti (cuptiLibrary, cupti_counters.h), resolved once.
const CuptiApi* loadCupti(std::string& why);

/// A CUPTI parameter block: zeroed, with its size set, as every CUPTI call expects.
template <class Params> Params makeParams(std::size_t structSize) {
    Params params{};
    params.structSize = structSize;
    return params;
}

/// cuptiProfilerInitialize, once per process: about 70 to 100 ms of CPU on the H100 machine
/// (docs/benchmarks.md), which CounterSession::preload() lets another thread pay while the CUDA
/// context is made. The profiler stays initialised until the process ends, so a session opened
/// again (the replay's and whole kernels' take turns) does not pay it again.
CUptiResult initialiseProfilerOnce(const CuptiApi& api);

ProbeError cuptiError(const CuptiApi& api, CUptiResult result, const char* call);

} // namespace warpscope::probe
