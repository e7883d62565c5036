// Per-instruction counts with CUPTI's SASS Metrics API (cupti_sass.h).
#include "cupti_sass.h"

#include "cupti_api.h"
#include "warpscope/per_instruction_live.h"

#include <cupti_sass_metrics.h>
#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::probe {

namespace {

#define WS_SASS_FUNCTIONS(X)                                                                       \
    X(cuptiSassMetricsGetNumOfMetrics)                                                             \
    X(cuptiSassMetricsGetMetrics)                                                                  \
    X(cuptiSassMetricsGetProperties)                                                               \
    X(cuptiSassMetricsSetConfig)                                                                   \
    X(cuptiSassMetricsUnsetConfig)                                                                 \
    X(cuptiSassMetricsEnable)                                                                      \
    X(cuptiSassMetricsDisable)                                                                     \
    X(cuptiSassMetricsGetDataProperties)                                                           \
    X(cuptiSassMetricsFlushData)

struct SassApi {
#define WS_DECLARE(name) decltype(&::name) name = nullptr;
    WS_SASS_FUNCTIONS(WS_DECLARE)
#undef WS_DECLARE
};

/// The SASS Metrics functions of the CUPTI that loadCupti() opened, once; null (and why) where
/// CUPTI or the API is missing.
const SassApi* loadSassApi(const CuptiApi*& cupti, std::string& why) {
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    static SassApi api;
    static const CuptiApi* base = nullptr;
    static std::string error;
    static bool tried = false;
    if (!tried) {
        tried = true;
        base = loadCupti(error);
        if (base != nullptr) {
#define WS_RESOLVE(name)                                                                           \
    api.name = reinterpret_cast<decltype(api.name)>(dlsym(base->library, #name));                  \
    if (!api.name && error.empty()) {                                                              \
        error = "this CUPTI has no SASS Metrics API (" #name " is missing; CUDA 12.5 or later "    \
                "has it)";                                                                         \
    }
            WS_SASS_FUNCTIONS(WS_RESOLVE)
#undef WS_RESOLVE
        }
    }
    cupti = base;
    why = error;
    return base != nullptr && error.empty() ? &api : nullptr;
}

/// What each SASS metric is for. The names CUPTI lists on the H200 (CUDA 13.0) come first;
/// a name is matched with or without ".sum".
enum Role : std::size_t {
    Executed,
    Sectors,
    Wavefronts,
    Conflicts,
    KindLdgsts,
    KindLdsm,
    KindGlobalLoad,
    KindGlobalStore,
    KindSharedLoad,
    KindSharedStore,
    RoleCount
};

const std::array<std::vector<const char*>, RoleCount>& roleCandidates() {
    static const std::array<std::vector<const char*>, RoleCount> candidates{{
        {"smsp__sass_inst_executed"},
        {"smsp__sass_sectors_mem_global"},
        {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared"},
        {"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared",
         "smsp__sass_data_bank_conflicts_pipe_lsu_mem_shared"},
        {"smsp__sass_inst_executed_op_ldgsts"},
        {"smsp__sass_inst_executed_op_ldsm"},
        {"smsp__sass_inst_executed_op_global_ld"},
        {"smsp__sass_inst_executed_op_global_st"},
        {"smsp__sass_inst_executed_op_shared_ld"},
        {"smsp__sass_inst_executed_op_shared_st"},
    }};
    return candidates;
}

constexpr std::array<SassOpKind, RoleCount> kKindOfRole{
    SassOpKind::None,       SassOpKind::None,       SassOpKind::None,       SassOpKind::None,
    SassOpKind::Ldgsts,     SassOpKind::Ldsm,       SassOpKind::GlobalLoad, SassOpKind::GlobalStore,
    SassOpKind::SharedLoad, SassOpKind::SharedStore};

std::string withoutSum(std::string name) {
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0) {
        name.resize(name.size() - 4);
    }
    return name;
}

/// The metrics chosen for one chip: per role, the name CUPTI knows and its id.
struct ChosenMetrics {
    std::array<std::string, RoleCount> names;
    std::array<std::uint64_t, RoleCount> ids{};
    std::array<bool, RoleCount> found{};
    std::size_t offered = 0; // how many SASS metrics CUPTI lists for the chip
};

std::optional<ProbeError> chooseMetrics(const CuptiApi& cupti, const SassApi& api, const char* chip,
                                        ChosenMetrics& chosen) {
    auto number = makeParams<CUpti_SassMetrics_GetNumOfMetrics_Params>(
        CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE);
    number.pChipName = chip;
    if (CUptiResult r = api.cuptiSassMetricsGetNumOfMetrics(&number); r != CUPTI_SUCCESS) {
        return cuptiError(cupti, r, "cuptiSassMetricsGetNumOfMetrics");
    }
    std::vector<CUpti_SassMetrics_MetricDetails> details(number.numOfMetrics);
    auto list = makeParams<CUpti_SassMetrics_GetMetrics_Params>(
        CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE);
    list.pChipName = chip;
    list.numOfMetrics = details.size();
    list.pMetricsList = details.data();
    if (CUptiResult r = api.cuptiSassMetricsGetMetrics(&list); r != CUPTI_SUCCESS) {
        return cuptiError(cupti, r, "cuptiSassMetricsGetMetrics");
    }
    chosen.offered = details.size();
    std::map<std::string, std::uint64_t> byName;
    std::ofstream listing;
    if (const char* path = std::getenv("WARPSCOPE_SASS_METRICS_LIST")) {
        listing.open(path);
    }
    for (const CUpti_SassMetrics_MetricDetails& metric : details) {
        if (metric.pMetricName == nullptr) {
            continue;
        }
        byName[withoutSum(metric.pMetricName)] = metric.metricId;
        if (listing) {
            listing << metric.pMetricName << "\t" << metric.metricId << "\t"
                    << (metric.pMetricDescription ? metric.pMetricDescription : "") << "\n";
        }
    }
    for (std::size_t role = 0; role < RoleCount; ++role) {
        for (const char* candidate : roleCandidates()[role]) {
            const auto found = byName.find(candidate);
            if (found != byName.end()) {
                chosen.names[role] = candidate;
                chosen.ids[role] = found->second;
                chosen.found[role] = true;
                break;
            }
        }
    }
    return std::nullopt;
}

/// Undoes cuptiSassMetricsSetConfig and Enable however the measurement ends.
struct ConfigGuard {
    const SassApi* api = nullptr;
    std::uint32_t device = 0;
    bool configured = false;
    bool enabled = false;
    ~ConfigGuard() {
        if (enabled) {
            auto disable = makeParams<CUpti_SassMetricsDisable_Params>(
                CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
            api->cuptiSassMetricsDisable(&disable);
        }
        if (configured) {
            auto unset = makeParams<CUpti_SassMetricsUnsetConfig_Params>(
                CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE);
            unset.deviceIndex = device;
            api->cuptiSassMetricsUnsetConfig(&unset);
        }
    }
};

using InstructionValues = std::map<std::uint32_t, std::map<std::uint64_t, std::uint64_t>>;

/// Collects one launch: pc offset -> metric id -> value (summed over instances), for the
/// function `entryPoint` only (the L2 flush runs outside the range, but is filtered anyway).
ProbeResult<InstructionValues> collect(const CuptiApi& cupti, const SassApi& api,
                                       std::uint32_t device, const ChosenMetrics& chosen,
                                       const std::string& entryPoint,
                                       const std::function<bool()>& before,
                                       const std::function<bool()>& launchAndWait) {
    std::vector<CUpti_SassMetrics_Config> configs;
    for (std::size_t role = 0; role < RoleCount; ++role) {
        if (chosen.found[role]) {
            configs.push_back({chosen.ids[role], CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
        }
    }
    ConfigGuard guard;
    guard.api = &api;
    guard.device = device;
    auto set = makeParams<CUpti_SassMetricsSetConfig_Params>(
        CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE);
    set.numOfMetricConfig = configs.size();
    set.pConfigs = configs.data();
    set.deviceIndex = device;
    if (CUptiResult r = api.cuptiSassMetricsSetConfig(&set); r != CUPTI_SUCCESS) {
        return cuptiError(cupti, r, "cuptiSassMetricsSetConfig");
    }
    guard.configured = true;
    if (before && !before()) {
        return ProbeError::internal("the L2 flush before the per-instruction launch failed");
    }
    auto enable =
        makeParams<CUpti_SassMetricsEnable_Params>(CUpti_SassMetricsEnable_Params_STRUCT_SIZE);
    enable.enableLazyPatching = 1;
    if (CUptiResult r = api.cuptiSassMetricsEnable(&enable); r != CUPTI_SUCCESS) {
        return cuptiError(cupti, r, "cuptiSassMetricsEnable");
    }
    guard.enabled = true;
    if (!launchAndWait()) {
        return ProbeError::internal("the kernel's per-instruction launch failed");
    }
    auto properties = makeParams<CUpti_SassMetricsGetDataProperties_Params>(
        CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE);
    if (CUptiResult r = api.cuptiSassMetricsGetDataProperties(&properties); r != CUPTI_SUCCESS) {
        return cuptiError(cupti, r, "cuptiSassMetricsGetDataProperties");
    }
    InstructionValues values;
    const std::size_t records = properties.numOfPatchedInstructionRecords;
    const std::size_t instances = properties.numOfInstances;
    if (records == 0 || instances == 0) {
        return values;
    }
    // Room for every metric's instances in each record: CUPTI fills what it has, each value
    // naming its metric; the rest keeps an id no metric has.
    constexpr std::uint64_t kUnused = std::numeric_limits<std::uint64_t>::max();
    const std::size_t slots = instances * configs.size();
    std::vector<CUpti_SassMetrics_InstanceValue> storage(
        records * slots, CUpti_SassMetrics_InstanceValue{kUnused, 0});
    std::vector<CUpti_SassMetrics_Data> data(records);
    for (std::size_t i = 0; i < records; ++i) {
        data[i].structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;
        data[i].pInstanceValues = storage.data() + i * slots;
    }
    auto flush = makeParams<CUpti_SassMetricsFlushData_Params>(
        CUpti_SassMetricsFlushData_Params_STRUCT_SIZE);
    flush.numOfPatchedInstructionRecords = records;
    flush.numOfInstances = instances;
    flush.pMetricsData = data.data();
    if (CUptiResult r = api.cuptiSassMetricsFlushData(&flush); r != CUPTI_SUCCESS) {
        return cuptiError(cupti, r, "cuptiSassMetricsFlushData");
    }
    for (std::size_t i = 0; i < records; ++i) {
        if (data[i].functionName == nullptr || entryPoint != data[i].functionName) {
            continue;
        }
        auto& instruction = values[data[i].pcOffset];
        for (std::size_t s = 0; s < slots; ++s) {
            const CUpti_SassMetrics_InstanceValue& value = data[i].pInstanceValues[s];
            if (value.metricId != kUnused) {
                instruction[value.metricId] += value.value;
            }
        }
    }
    return values;
}

std::vector<SassInstructionCounts> countsOf(const InstructionValues& values,
                                            const ChosenMetrics& chosen) {
    std::vector<SassInstructionCounts> counts;
    for (const auto& [pcOffset, metrics] : values) {
        auto valueOf = [&](Role role) -> std::uint64_t {
            if (!chosen.found[role]) {
                return 0;
            }
            const auto found = metrics.find(chosen.ids[role]);
            return found == metrics.end() ? 0 : found->second;
        };
        SassInstructionCounts instruction;
        instruction.pcOffset = pcOffset;
        instruction.executed = valueOf(Executed);
        instruction.sectors = valueOf(Sectors);
        instruction.wavefronts = valueOf(Wavefronts);
        instruction.conflicts = valueOf(Conflicts);
        // The first per-opcode count that is not zero names the kind (LDGSTS and LDSM before
        // the plain loads and stores, in case CUPTI counts them under those too).
        for (std::size_t role = KindLdgsts; role < RoleCount; ++role) {
            if (valueOf(static_cast<Role>(role)) > 0) {
                instruction.kind = kKindOfRole[role];
                break;
            }
        }
        counts.push_back(instruction);
    }
    return counts;
}

} // namespace

void measurePerInstruction(int device, const std::string& entryPoint, const KernelItem& item,
                           const std::function<bool()>& before,
                           const std::function<bool()>& launchAndWait, KernelMeasurement& result) {
    const auto start = std::chrono::steady_clock::now();
    auto finish = [&] {
        result.perInstructionMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
    };
    const CuptiApi* cupti = nullptr;
    std::string why;
    const SassApi* api = loadSassApi(cupti, why);
    if (api == nullptr) {
        result.perInstructionUnavailableReason = why;
        finish();
        return;
    }
    if (CUptiResult r = initialiseProfilerOnce(*cupti); r != CUPTI_SUCCESS) {
        result.perInstructionUnavailableReason =
            cuptiError(*cupti, r, "cuptiProfilerInitialize").message;
        finish();
        return;
    }
    // The chip's metric ids, found once per device and process.
    static std::mutex mutex;
    static std::map<int, ChosenMetrics> chosenByDevice;
    ChosenMetrics chosen;
    {
        const std::lock_guard lock(mutex);
        auto known = chosenByDevice.find(device);
        if (known == chosenByDevice.end()) {
            auto chip = makeParams<CUpti_Device_GetChipName_Params>(
                CUpti_Device_GetChipName_Params_STRUCT_SIZE);
            chip.deviceIndex = static_cast<std::size_t>(device);
            if (CUptiResult r = cupti->cuptiDeviceGetChipName(&chip); r != CUPTI_SUCCESS) {
                result.perInstructionUnavailableReason =
                    cuptiError(*cupti, r, "cuptiDeviceGetChipName").message;
                finish();
                return;
            }
            ChosenMetrics fresh;
            if (auto error = chooseMetrics(*cupti, *api, chip.pChipName, fresh)) {
                result.perInstructionUnavailableReason = error->message;
                finish();
                return;
            }
            known = chosenByDevice.emplace(device, fresh).first;
        }
        chosen = known->second;
    }
    std::string missing;
    for (std::size_t role = 0; role < RoleCount; ++role) {
        if (!chosen.found[role]) {
            missing += (missing.empty() ? "" : ", ") + std::string(roleCandidates()[role][0]);
        }
    }
    if (!chosen.found[Executed]) {
        result.perInstructionUnavailableReason =
            "this GPU's CUPTI offers no per-instruction execution count (" + missing + ")";
        finish();
        return;
    }
    auto collected = collect(*cupti, *api, static_cast<std::uint32_t>(device), chosen, entryPoint,
                             before, launchAndWait);
    if (auto* error = std::get_if<ProbeError>(&collected)) {
        result.perInstructionUnavailableReason = error->message;
        finish();
        return;
    }
    result.perInstruction =
        livePerInstructionJson(item.kernel, item.prediction, result.counters,
                               countsOf(std::get<InstructionValues>(collected), chosen));
    result.perInstructionSource = "CUPTI SASS metrics (one more launch, lazily patched; " +
                                  std::to_string(chosen.offered) + " metrics offered" +
                                  (missing.empty() ? std::string() : "; missing: " + missing) + ")";
    finish();
}

} // namespace warpscope::probe
