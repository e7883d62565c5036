// ActivityTrace (streams_activity.h): CUPTI's activity API, resolved at run time from the library
// the counters use too (cuptiLibrary, cupti_counters.h), and the buffer callbacks that collect its
// records.
#include "streams_activity.h"

#include "cupti_counters.h"

#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_result.h>

#include <cstdlib>
#include <mutex>

namespace warpscope::probe {

struct ActivityApi {
    void* library = nullptr;
    decltype(&::cuptiActivityEnable) enable = nullptr;
    decltype(&::cuptiActivityDisable) disable = nullptr;
    decltype(&::cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
    decltype(&::cuptiActivityFlushAll) flushAll = nullptr;
    decltype(&::cuptiActivityGetNextRecord) getNextRecord = nullptr;
    decltype(&::cuptiGetStreamIdEx) getStreamIdEx = nullptr;
};

namespace {

const ActivityApi* loadActivityApi(std::string& why) {
    return loadCuptiTableOnce<ActivityApi>(why, [](ActivityApi& api, std::string& error) {
        if (!resolveCuptiFunction(api.library, api.enable, "cuptiActivityEnable") ||
            !resolveCuptiFunction(api.library, api.disable, "cuptiActivityDisable") ||
            !resolveCuptiFunction(api.library, api.registerCallbacks,
                                  "cuptiActivityRegisterCallbacks") ||
            !resolveCuptiFunction(api.library, api.flushAll, "cuptiActivityFlushAll") ||
            !resolveCuptiFunction(api.library, api.getNextRecord, "cuptiActivityGetNextRecord") ||
            !resolveCuptiFunction(api.library, api.getStreamIdEx, "cuptiGetStreamIdEx")) {
            error = "the CUPTI library lacks its activity API";
            return false;
        }
        return true;
    });
}

// The buffer callbacks are plain functions: what they collect goes here.
std::mutex g_activityMutex;
std::vector<ActivityOp> g_activityOps;
const ActivityApi* g_activityApi = nullptr;

constexpr std::size_t kActivityBufferBytes = std::size_t{1} << 20;

void CUPTIAPI activityBufferRequested(std::uint8_t** buffer, std::size_t* size,
                                      std::size_t* maxNumRecords) {
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kActivityBufferBytes));
    *size = *buffer ? kActivityBufferBytes : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI activityBufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                                      std::size_t validSize) {
    std::vector<ActivityOp> ops;
    CUpti_Activity* record = nullptr;
    while (g_activityApi &&
           g_activityApi->getNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
            if (copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ||
                copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH) {
                ops.push_back(
                    ActivityOp{copy->streamId,
                               copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ? StreamOp::H2d
                                                                                 : StreamOp::D2h,
                               copy->start, copy->end, static_cast<int>(copy->channelID)});
            }
        } else if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            ops.push_back(
                ActivityOp{kernel->streamId, StreamOp::Kernel, kernel->start, kernel->end, -1});
        }
    }
    std::free(buffer);
    std::lock_guard lock(g_activityMutex);
    g_activityOps.insert(g_activityOps.end(), ops.begin(), ops.end());
}

} // namespace

bool ActivityTrace::start(std::string& why) {
    const ActivityApi* api = loadActivityApi(why);
    if (!api) {
        return false;
    }
    g_activityApi = api;
    if (api->registerCallbacks(activityBufferRequested, activityBufferCompleted) != CUPTI_SUCCESS ||
        api->enable(CUPTI_ACTIVITY_KIND_MEMCPY) != CUPTI_SUCCESS) {
        why = "CUPTI refused to record copies";
        return false;
    }
    m_enabledCopies = true;
    if (api->enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
        why = "CUPTI refused to record kernels";
        stop();
        return false;
    }
    m_enabledKernels = true;
    m_api = api;
    return true;
}

std::uint32_t ActivityTrace::streamId(cudaStream_t stream) const {
    using CtxGetCurrent = CUresult (*)(CUcontext*);
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult query{};
    CUcontext context = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &entry, 12000, cudaEnableDefault,
                                         &query) != cudaSuccess ||
        !entry || reinterpret_cast<CtxGetCurrent>(entry)(&context) != CUDA_SUCCESS) {
        return 0;
    }
    std::uint32_t id = 0;
    if (!m_api || m_api->getStreamIdEx(context, reinterpret_cast<CUstream>(stream), 0, &id) !=
                      CUPTI_SUCCESS) {
        return 0;
    }
    return id;
}

std::vector<ActivityOp> ActivityTrace::take() {
    if (m_api) {
        m_api->flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    }
    std::lock_guard lock(g_activityMutex);
    std::vector<ActivityOp> ops;
    ops.swap(g_activityOps);
    return ops;
}

void ActivityTrace::stop() {
    const ActivityApi* api = g_activityApi;
    if (!api) {
        return;
    }
    if (m_enabledKernels) {
        api->disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    }
    if (m_enabledCopies) {
        api->disable(CUPTI_ACTIVITY_KIND_MEMCPY);
        api->flushAll(0);
    }
    m_enabledKernels = m_enabledCopies = false;
    m_api = nullptr;
    std::lock_guard lock(g_activityMutex);
    g_activityOps.clear();
}

} // namespace warpscope::probe
