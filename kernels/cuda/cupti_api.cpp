// Loading CUPTI (cupti_api.h, and cuptiLibrary of cupti_counters.h): libcupti found where the
// user or the toolkit put it and opened once for the whole probe, the profiler's functions
// resolved once, and its results as the probe's errors.
#include "cupti_api.h"
#include "cupti_counters.h"

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace warpscope::probe {

const CuptiApi* loadCupti(std::string& why) {
    return loadCuptiTableOnce<CuptiApi>(why, [](CuptiApi& api, std::string& error) {
#define WS_RESOLVE(name)                                                                           \
    if (!resolveCuptiFunction(api.library, api.name, #name)) {                                     \
        error = "the CUPTI library lacks " #name " (CUDA 12.6 or later is needed)";                \
        return false;                                                                              \
    }
        WS_CUPTI_FUNCTIONS(WS_RESOLVE)
#undef WS_RESOLVE
        return true;
    });
}

CUptiResult initialiseProfilerOnce(const CuptiApi& api) {
    static std::once_flag once;
    static CUptiResult result = CUPTI_SUCCESS;
    std::call_once(once, [&] {
        auto init = makeParams<CUpti_Profiler_Initialize_Params>(
            CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
        result = api.cuptiProfilerInitialize(&init);
    });
    return result;
}

ProbeError cuptiError(const CuptiApi& api, CUptiResult result, const char* call) {
    const char* text = nullptr;
    if (api.cuptiGetResultString) {
        api.cuptiGetResultString(result, &text);
    }
    const std::string detail =
        std::string(call) + " failed: " + (text ? text : std::to_string(static_cast<int>(result)));
    switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        return {ProbeErrorCode::CountersNotPermitted,
                "the NVIDIA driver lets only administrators read GPU performance counters (" +
                    detail +
                    "). An administrator can allow all users with the driver option "
                    "NVreg_RestrictProfilingToAdminUsers=0 (a line 'options nvidia "
                    "NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/, then reboot), or "
                    "run the probe as root. Timing is measured without counters.",
                false};
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        return {ProbeErrorCode::CountersBusy,
                "another profiler (Nsight Compute, Nsight Systems, DCGM, ...) holds the GPU's "
                "counters (" +
                    detail + "). Close it and measure again.",
                false};
    default:
        return {ProbeErrorCode::CountersUnavailable, "hardware counters are unavailable: " + detail,
                false};
    }
}

void* cuptiLibrary(std::string& why) {
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    static void* library = nullptr;
    static std::string error;
    static bool tried = false;
    if (tried) {
        why = error;
        return library;
    }
    tried = true;
    std::vector<std::string> candidates;
    if (const char* path = std::getenv("WARPSCOPE_CUPTI_LIBRARY")) {
        candidates.emplace_back(path);
    }
    for (const char* name :
         {"libcupti.so.13", "libcupti.so", "/usr/local/cuda/lib64/libcupti.so.13",
          "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
          "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so.13"}) {
        candidates.emplace_back(name);
    }
    std::string lastError;
    for (const std::string& candidate : candidates) {
        library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library != nullptr) {
            why.clear();
            return library;
        }
        const char* failure = dlerror();
        lastError = failure ? failure : candidate;
    }
    error = "CUPTI (libcupti.so.13) could not be loaded: " + lastError +
            ". Install the CUDA toolkit's CUPTI or set WARPSCOPE_CUPTI_LIBRARY to its path.";
    why = error;
    return nullptr;
}

} // namespace warpscope::probe
