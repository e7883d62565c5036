// libwarpscope-trace-inject.so: loaded into the user's program by the CUDA driver through
// CUDA_INJECTION64_PATH (set by warpscope-trace). It subscribes to the Compute Sanitizer API's
// callbacks, keeps each loaded module's cubin, counts the launches whose kernel matches the
// asked pattern and, for the asked one only, patches its module's memory instructions with
// trace_patches.cu, hands the patches a record buffer, and after the launch copies the records
// out into a raw launch file (trace_raw.h) and removes the patches, so later launches run
// unpatched. The launcher turns that file into a .wstrace. Settings come from WARPSCOPE_TRACE_*
// variables; what happened is written to files in WARPSCOPE_TRACE_DIR as it happens, so a
// program that crashes later still leaves them.
#include "trace_raw.h"

#include <sanitizer.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace warpscope::trace;

std::string envOr(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : fallback;
}

struct Settings {
    std::string directory;
    std::string patches;
    std::regex kernel;
    std::uint64_t launch = 1; // 1-based among matching launches
    std::uint32_t spaces = 7; // bit per RawSpace
    std::uint32_t capacity = 1u << 18;
    std::uint32_t selection = SelectSample;
    std::uint32_t sampleCount = 64;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> warps;
    bool patchAtLoad = false;
};

struct TracedLaunch {
    CUcontext context = nullptr;
    CUmodule module = nullptr;
    CUfunction function = nullptr;
    Sanitizer_StreamHandle stream = nullptr;
    std::string name;
    RawLaunchHeader header{};
    DeviceControl* deviceControl = nullptr;
    RawRecord* deviceRecords = nullptr;
};

struct Tracer {
    // Recursive: the Sanitizer API calls made inside a callback may call back.
    std::recursive_mutex mutex;
    Settings settings;
    bool settingsOk = true;
    std::map<CUmodule, std::vector<char>> cubins;
    std::set<CUcontext> contextsWithPatches;
    std::set<std::string> kernelsSeen;
    // Whether each launched function's name matches --kernel: decided once per function, so an
    // untraced launch costs one lookup, not a name copy and a regex search.
    std::map<CUfunction, bool> functionMatches;
    std::uint64_t matchingLaunches = 0;
    Sanitizer_SubscriberHandle handle = nullptr;
    bool active = false;
    bool done = false;
    TracedLaunch traced;
};

Tracer& tracer() {
    static Tracer instance;
    return instance;
}

void appendLine(const std::string& file, const std::string& line) {
    std::ofstream out(tracer().settings.directory + "/" + file, std::ios::app);
    out << line << "\n";
}

void note(const std::string& line) {
    appendLine("status.txt", line);
}

const char* resultText(SanitizerResult result) {
    const char* text = nullptr;
    if (sanitizerGetResultString(result, &text) == SANITIZER_SUCCESS && text != nullptr) {
        return text;
    }
    return "unknown Sanitizer API error";
}

bool readSettings(Settings& s) {
    s.directory = envOr("WARPSCOPE_TRACE_DIR", "");
    s.patches = envOr("WARPSCOPE_TRACE_PATCHES", "");
    if (s.directory.empty() || s.patches.empty()) {
        return false;
    }
    try {
        s.kernel = std::regex(envOr("WARPSCOPE_TRACE_KERNEL", ".*"), std::regex::ECMAScript);
    } catch (const std::regex_error&) {
        return false;
    }
    s.launch = std::strtoull(envOr("WARPSCOPE_TRACE_LAUNCH", "1").c_str(), nullptr, 10);
    s.spaces = static_cast<std::uint32_t>(
        std::strtoul(envOr("WARPSCOPE_TRACE_SPACES", "7").c_str(), nullptr, 10));
    s.capacity = static_cast<std::uint32_t>(
        std::strtoul(envOr("WARPSCOPE_TRACE_MAX_RECORDS", "262144").c_str(), nullptr, 10));
    s.patchAtLoad = envOr("WARPSCOPE_TRACE_PATCH_AT_LOAD", "0") == "1";
    // WARPSCOPE_TRACE_WARPS: "all", "sample:N" or "B:W,B:W,..." (checked by the launcher).
    const std::string warps = envOr("WARPSCOPE_TRACE_WARPS", "sample:64");
    if (warps == "all") {
        s.selection = SelectAll;
    } else if (warps.rfind("sample:", 0) == 0) {
        s.selection = SelectSample;
        s.sampleCount = static_cast<std::uint32_t>(std::strtoul(warps.c_str() + 7, nullptr, 10));
    } else {
        s.selection = SelectList;
        const char* p = warps.c_str();
        while (*p != '\0' && s.warps.size() < kMaxListedWarps) {
            char* end = nullptr;
            const auto block = static_cast<std::uint32_t>(std::strtoul(p, &end, 10));
            if (*end != ':') {
                return false;
            }
            const auto warp = static_cast<std::uint32_t>(std::strtoul(end + 1, &end, 10));
            s.warps.emplace_back(block, warp);
            p = *end == ',' ? end + 1 : end;
        }
    }
    return s.launch >= 1 && s.capacity >= 1 && (s.selection != SelectSample || s.sampleCount > 0);
}

bool patchModule(CUcontext context, CUmodule module) {
    Tracer& t = tracer();
    if (t.contextsWithPatches.insert(context).second) {
        const SanitizerResult added =
            sanitizerAddPatchesFromFile(t.settings.patches.c_str(), context);
        if (added != SANITIZER_SUCCESS) {
            note(std::string("error: the Sanitizer API could not load the patches ") +
                 t.settings.patches + ": " + resultText(added));
            return false;
        }
    }
    const struct {
        Sanitizer_InstructionId id;
        const char* patch;
        RawSpace space;
    } kinds[] = {
        {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, "WarpscopeGlobalAccess", RawGlobal},
        {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "WarpscopeSharedAccess", RawShared},
        {SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS, "WarpscopeLocalAccess", RawLocal},
    };
    for (const auto& kind : kinds) {
        if ((t.settings.spaces & (1u << kind.space)) == 0) {
            continue;
        }
        const SanitizerResult result = sanitizerPatchInstructions(kind.id, module, kind.patch);
        if (result != SANITIZER_SUCCESS) {
            note(std::string("error: the Sanitizer API refused to patch ") + kind.patch + ": " +
                 resultText(result));
            return false;
        }
    }
    const SanitizerResult result = sanitizerPatchModule(module);
    if (result != SANITIZER_SUCCESS) {
        note(std::string("error: the Sanitizer API refused to patch the module: ") +
             resultText(result));
        return false;
    }
    return true;
}

void writeRawLaunch(const TracedLaunch& launch, const std::vector<RawRecord>& records) {
    Tracer& t = tracer();
    RawLaunchHeader header = launch.header;
    header.recordCount = records.size();
    header.nameBytes = static_cast<std::uint32_t>(launch.name.size());
    const std::string path = t.settings.directory + "/launch.bin";
    std::ofstream out(path + ".part", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&header), sizeof header);
    out.write(launch.name.data(), static_cast<std::streamsize>(launch.name.size()));
    out.write(reinterpret_cast<const char*>(records.data()),
              static_cast<std::streamsize>(records.size() * sizeof(RawRecord)));
    out.close();
    std::rename((path + ".part").c_str(), path.c_str());
    const auto cubin = t.cubins.find(launch.module);
    if (cubin != t.cubins.end()) {
        std::ofstream module(t.settings.directory + "/module.cubin", std::ios::binary);
        module.write(cubin->second.data(), static_cast<std::streamsize>(cubin->second.size()));
    } else {
        note("warning: the traced kernel's module was loaded before the tracer: no SASS text");
    }
}

void beginTracedLaunch(const Sanitizer_LaunchData& data) {
    Tracer& t = tracer();
    TracedLaunch& launch = t.traced;
    launch.context = data.context;
    launch.module = data.module;
    launch.function = data.function;
    launch.stream = data.hStream;
    launch.name = data.functionName != nullptr ? data.functionName : "";
    RawLaunchHeader& header = launch.header;
    std::memcpy(header.magic, kRawLaunchMagic, sizeof header.magic);
    header.version = kRawLaunchVersion;
    header.recordBytes = sizeof(RawRecord);
    header.grid[0] = data.gridDim_x;
    header.grid[1] = data.gridDim_y;
    header.grid[2] = data.gridDim_z;
    header.block[0] = data.blockDim_x;
    header.block[1] = data.blockDim_y;
    header.block[2] = data.blockDim_z;
    header.patchedAtModuleLoad = t.settings.patchAtLoad ? 1u : 0u;
    sanitizerGetFunctionPcAndSize(data.module, data.functionName, &header.functionPc,
                                  &header.functionBytes);
    if (!t.settings.patchAtLoad && !patchModule(data.context, data.module)) {
        t.done = true;
        return;
    }

    DeviceControl control{};
    control.capacity = t.settings.capacity;
    control.selection = t.settings.selection;
    const std::uint32_t threads = data.blockDim_x * data.blockDim_y * data.blockDim_z;
    control.warpsPerBlock = (threads + kRawLaneCount - 1) / kRawLaneCount;
    const unsigned long long totalWarps = static_cast<unsigned long long>(data.gridDim_x) *
                                          data.gridDim_y * data.gridDim_z * control.warpsPerBlock;
    control.sampleStride = static_cast<std::uint32_t>(
        std::max<unsigned long long>(1, totalWarps / std::max(1u, t.settings.sampleCount)));
    control.listCount = static_cast<std::uint32_t>(t.settings.warps.size());
    for (std::size_t i = 0; i < t.settings.warps.size(); ++i) {
        control.listBlock[i] = t.settings.warps[i].first;
        control.listWarp[i] = t.settings.warps[i].second;
    }
    void* records = nullptr;
    void* controlMemory = nullptr;
    const std::size_t recordBytes = sizeof(RawRecord) * control.capacity;
    if (sanitizerAlloc(data.context, &records, recordBytes) != SANITIZER_SUCCESS ||
        sanitizerAlloc(data.context, &controlMemory, sizeof control) != SANITIZER_SUCCESS) {
        note("error: could not allocate " + std::to_string(recordBytes) +
             " bytes of device memory for the records; lower --max-records");
        t.done = true;
        return;
    }
    control.records = static_cast<RawRecord*>(records);
    sanitizerMemcpyHostToDeviceAsync(controlMemory, &control, sizeof control, data.hStream);
    sanitizerStreamSynchronize(data.hStream);
    launch.deviceControl = static_cast<DeviceControl*>(controlMemory);
    launch.deviceRecords = control.records;
    sanitizerSetCallbackData(data.function, controlMemory);
    t.active = true;
}

void endTracedLaunch() {
    Tracer& t = tracer();
    TracedLaunch& launch = t.traced;
    t.active = false;
    t.done = true;
    std::vector<RawRecord> records;
    const SanitizerResult synced = sanitizerStreamSynchronize(launch.stream);
    DeviceControl control{};
    bool copied = synced == SANITIZER_SUCCESS &&
                  sanitizerMemcpyDeviceToHost(&control, launch.deviceControl, sizeof control,
                                              launch.stream) == SANITIZER_SUCCESS;
    if (copied) {
        const unsigned long long kept =
            std::min<unsigned long long>(control.attempts, control.capacity);
        launch.header.droppedRecords = control.attempts - kept;
        launch.header.dynamicSharedBytes = control.dynamicSharedBytes;
        records.resize(static_cast<std::size_t>(kept));
        copied = kept == 0 || sanitizerMemcpyDeviceToHost(records.data(), launch.deviceRecords,
                                                          kept * sizeof(RawRecord),
                                                          launch.stream) == SANITIZER_SUCCESS;
        if (!copied) {
            records.clear();
        }
    }
    if (synced != SANITIZER_SUCCESS) {
        note(std::string("error: the traced kernel failed: ") + resultText(synced));
    }
    launch.header.complete = copied && launch.header.droppedRecords == 0 ? 1u : 0u;
    writeRawLaunch(launch, records);
    sanitizerSetCallbackData(launch.function, nullptr);
    if (!t.settings.patchAtLoad) {
        sanitizerUnpatchModule(launch.module);
    }
    sanitizerFree(launch.context, launch.deviceRecords);
    sanitizerFree(launch.context, launch.deviceControl);
    // Nothing more to trace: the program's later launches and module loads run without the
    // tracer's callbacks, at native speed.
    if (sanitizerEnableDomain(0, t.handle, SANITIZER_CB_DOMAIN_LAUNCH) != SANITIZER_SUCCESS ||
        sanitizerEnableDomain(0, t.handle, SANITIZER_CB_DOMAIN_RESOURCE) != SANITIZER_SUCCESS) {
        note("the tracer's callbacks stay on for the rest of the program");
    }
}

void onModuleLoaded(const Sanitizer_ResourceModuleData& data) {
    Tracer& t = tracer();
    if (t.done) {
        return;
    }
    if (data.pCubin != nullptr && data.cubinSize > 0) {
        t.cubins[data.module].assign(data.pCubin, data.pCubin + data.cubinSize);
    }
    if (t.settings.patchAtLoad) {
        patchModule(data.context, data.module);
    }
}

void onLaunchBegin(const Sanitizer_LaunchData& data) {
    Tracer& t = tracer();
    if (t.done || t.active) {
        return;
    }
    auto known = t.functionMatches.find(data.function);
    if (known == t.functionMatches.end()) {
        const std::string name = data.functionName != nullptr ? data.functionName : "";
        if (t.kernelsSeen.size() < 1000 && t.kernelsSeen.insert(name).second) {
            appendLine("kernels.txt", name);
        }
        known = t.functionMatches.emplace(data.function, std::regex_search(name, t.settings.kernel))
                    .first;
    }
    if (known->second && ++t.matchingLaunches == t.settings.launch) {
        beginTracedLaunch(data);
    }
}

void SANITIZERAPI onCallback(void* /*userdata*/, Sanitizer_CallbackDomain domain,
                             Sanitizer_CallbackId id, const void* data) {
    Tracer& t = tracer();
    std::lock_guard<std::recursive_mutex> lock(t.mutex);
    if (domain == SANITIZER_CB_DOMAIN_RESOURCE && id == SANITIZER_CBID_RESOURCE_MODULE_LOADED) {
        onModuleLoaded(*static_cast<const Sanitizer_ResourceModuleData*>(data));
    } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && id == SANITIZER_CBID_LAUNCH_BEGIN) {
        onLaunchBegin(*static_cast<const Sanitizer_LaunchData*>(data));
    } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && id == SANITIZER_CBID_LAUNCH_END) {
        const auto& launch = *static_cast<const Sanitizer_LaunchData*>(data);
        if (t.active && launch.function == t.traced.function) {
            endTracedLaunch();
        }
    }
}

void atExit() {
    Tracer& t = tracer();
    std::lock_guard<std::recursive_mutex> lock(t.mutex);
    if (t.active) {
        // The program ended inside the traced launch (no launch-end callback came): keep what
        // is known, marked incomplete.
        t.active = false;
        t.traced.header.complete = 0;
        writeRawLaunch(t.traced, {});
    }
    note("exit");
}

} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
    static bool initialized = false;
    if (initialized) {
        return 1;
    }
    initialized = true;
    Tracer& t = tracer();
    t.settingsOk = readSettings(t.settings);
    if (!t.settingsOk) {
        if (!t.settings.directory.empty()) {
            note("error: the tracer's settings (WARPSCOPE_TRACE_*) are incomplete or wrong; run "
                 "the program through warpscope-trace");
        }
        return 0;
    }
    Sanitizer_SubscriberHandle& handle = t.handle;
    const SanitizerResult subscribed = sanitizerSubscribe(&handle, onCallback, nullptr);
    if (subscribed != SANITIZER_SUCCESS) {
        note(std::string("error: the CUDA runtime refused the Sanitizer API subscription: ") +
             resultText(subscribed));
        return 0;
    }
    sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_RESOURCE);
    sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_LAUNCH);
    std::atexit(atExit);
    note("loaded");
    return 1;
}
