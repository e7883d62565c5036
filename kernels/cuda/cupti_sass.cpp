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
/// a name is matched with or without ".sum". The per-opcode counts (Kind*) are configured as
/// they were on the H200 runs whose counts were checked against Nsight Compute's, and only
/// recorded: an instruction's space is told from its sectors and wavefronts (countsOf).
enum Role : std::size_t {
    Executed,
    Sectors,
    Wavefronts,
    Conflicts,
    WavefrontsIdeal,
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
        {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
         "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared"},
        {"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared",
         "smsp__sass_data_bank_conflicts_pipe_lsu_mem_shared"},
        {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
         "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_ideal"},
        {"smsp__sass_inst_executed_op_ldgsts"},
        {"smsp__sass_inst_executed_op_ldsm"},
        {"smsp__sass_inst_executed_op_global_ld"},
        {"smsp__sass_inst_executed_op_global_st"},
        {"smsp__sass_inst_executed_op_shared_ld"},
        {"smsp__sass_inst_executed_op_shared_st"},
    }};
    return candidates;
}

std::string withoutSum(std::string name) {
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0) {
        name.resize(name.size() - 4);
    }
    return name;
}

/// The metrics chosen for one chip: per role, the names CUPTI knows and their ids (a role
/// measured by several, one per operation, sums them).
struct ChosenMetrics {
    std::array<std::vector<std::string>, RoleCount> names;
    std::array<std::vector<std::uint64_t>, RoleCount> ids;
    std::size_t offered = 0; // how many SASS metrics CUPTI lists for the chip
    bool found(std::size_t role) const { return !ids[role].empty(); }
};

ProbeError sassError(const CuptiApi& cupti, CUptiResult result, const char* call) {
    ProbeError error = cuptiError(cupti, result, call);
    const std::string prefix = "hardware counters are unavailable: ";
    if (error.message.rfind(prefix, 0) == 0) {
        error.message =
            "CUPTI's SASS metrics are unavailable: " + error.message.substr(prefix.size());
    }
    return error;
}

bool contains(const std::string& text, const char* part) {
    return text.find(part) != std::string::npos;
}

/// Where the exact name is not offered, the shared-memory roles take what the chip lists under
/// another spelling: the one total (no "_op_"), else every per-operation metric, summed (an
/// instruction has one operation, so at most one of them counts it).
void chooseByPattern(const std::map<std::string, std::uint64_t>& byName, Role role,
                     ChosenMetrics& chosen) {
    std::vector<std::pair<std::string, std::uint64_t>> totals;
    std::vector<std::pair<std::string, std::uint64_t>> perOperation;
    for (const auto& [name, id] : byName) {
        const bool shared = contains(name, "mem_shared");
        const bool ideal = contains(name, "ideal");
        bool wanted = false;
        if (role == Wavefronts) {
            wanted = shared && contains(name, "wavefronts") && !ideal;
        } else if (role == Conflicts) {
            wanted = shared && contains(name, "bank_conflicts");
        } else if (role == WavefrontsIdeal) {
            wanted = shared && contains(name, "wavefronts") && ideal;
        }
        if (wanted && !contains(name, "ldgsts")) {
            (contains(name, "_op_") ? perOperation : totals).emplace_back(name, id);
        }
    }
    if (!totals.empty()) {
        perOperation.assign(1, totals.front()); // one total is enough
    }
    for (const auto& [name, id] : perOperation) {
        chosen.names[role].push_back(name);
        chosen.ids[role].push_back(id);
    }
}

std::optional<ProbeError> chooseMetrics(const CuptiApi& cupti, const SassApi& api, const char* chip,
                                        ChosenMetrics& chosen) {
    auto number = makeParams<CUpti_SassMetrics_GetNumOfMetrics_Params>(
        CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE);
    number.pChipName = chip;
    if (CUptiResult r = api.cuptiSassMetricsGetNumOfMetrics(&number); r != CUPTI_SUCCESS) {
        return sassError(cupti, r, "cuptiSassMetricsGetNumOfMetrics");
    }
    std::vector<CUpti_SassMetrics_MetricDetails> details(number.numOfMetrics);
    auto list = makeParams<CUpti_SassMetrics_GetMetrics_Params>(
        CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE);
    list.pChipName = chip;
    list.numOfMetrics = details.size();
    list.pMetricsList = details.data();
    if (CUptiResult r = api.cuptiSassMetricsGetMetrics(&list); r != CUPTI_SUCCESS) {
        return sassError(cupti, r, "cuptiSassMetricsGetMetrics");
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
                chosen.names[role].push_back(candidate);
                chosen.ids[role].push_back(found->second);
                break;
            }
        }
        if (!chosen.found(role)) {
            chooseByPattern(byName, static_cast<Role>(role), chosen);
        }
    }
    return std::nullopt;
}

/// Ends the enabled range however the measurement ends. The configuration stays: on the H200
/// (CUDA 13.0) a second cuptiSassMetricsSetConfig after UnsetConfig fails with
/// CUPTI_ERROR_OUT_OF_MEMORY, so each device is configured once per process, with every metric
/// chosen, and only enabled around a measurement.
struct EnableGuard {
    const SassApi* api = nullptr;
    bool enabled = false;
    ~EnableGuard() {
        if (enabled) {
            auto disable = makeParams<CUpti_SassMetricsDisable_Params>(
                CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
            api->cuptiSassMetricsDisable(&disable);
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
    std::size_t configured = 0;
    for (std::size_t role = 0; role < RoleCount; ++role) {
        configured += chosen.ids[role].size();
    }
    static std::mutex mutex;
    static std::map<std::uint32_t, std::optional<ProbeError>> configuredDevices;
    {
        const std::lock_guard lock(mutex);
        auto known = configuredDevices.find(device);
        if (known == configuredDevices.end()) {
            std::vector<CUpti_SassMetrics_Config> configs;
            for (std::size_t role = 0; role < RoleCount; ++role) {
                for (std::uint64_t id : chosen.ids[role]) {
                    configs.push_back({id, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
                }
            }
            auto set = makeParams<CUpti_SassMetricsSetConfig_Params>(
                CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE);
            set.numOfMetricConfig = configs.size();
            set.pConfigs = configs.data();
            set.deviceIndex = device;
            std::optional<ProbeError> failed;
            if (CUptiResult r = api.cuptiSassMetricsSetConfig(&set); r != CUPTI_SUCCESS) {
                failed = sassError(cupti, r, "cuptiSassMetricsSetConfig");
            }
            known = configuredDevices.emplace(device, failed).first;
        }
        if (known->second) {
            return *known->second;
        }
    }
    EnableGuard guard;
    guard.api = &api;
    if (before && !before()) {
        return ProbeError::internal("the L2 flush before the per-instruction launch failed");
    }
    auto enable =
        makeParams<CUpti_SassMetricsEnable_Params>(CUpti_SassMetricsEnable_Params_STRUCT_SIZE);
    enable.enableLazyPatching = 1;
    if (CUptiResult r = api.cuptiSassMetricsEnable(&enable); r != CUPTI_SUCCESS) {
        return sassError(cupti, r, "cuptiSassMetricsEnable");
    }
    guard.enabled = true;
    if (!launchAndWait()) {
        return ProbeError::internal("the kernel's per-instruction launch failed");
    }
    auto properties = makeParams<CUpti_SassMetricsGetDataProperties_Params>(
        CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE);
    if (CUptiResult r = api.cuptiSassMetricsGetDataProperties(&properties); r != CUPTI_SUCCESS) {
        return sassError(cupti, r, "cuptiSassMetricsGetDataProperties");
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
    const std::size_t slots = instances * configured;
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
        return sassError(cupti, r, "cuptiSassMetricsFlushData");
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
            std::uint64_t sum = 0;
            for (std::uint64_t id : chosen.ids[role]) {
                const auto found = metrics.find(id);
                sum += found == metrics.end() ? 0 : found->second;
            }
            return sum;
        };
        SassInstructionCounts instruction;
        instruction.pcOffset = pcOffset;
        instruction.executed = valueOf(Executed);
        instruction.sectors = valueOf(Sectors);
        instruction.wavefronts = valueOf(Wavefronts);
        // Conflicts as Nsight Compute's source page counts them: wavefronts beyond the ideal,
        // where the chip offers no conflict metric of its own.
        const std::uint64_t ideal = valueOf(WavefrontsIdeal);
        instruction.conflicts = chosen.found(Conflicts) ? valueOf(Conflicts)
                                : chosen.found(WavefrontsIdeal) && instruction.wavefronts > ideal
                                    ? instruction.wavefronts - ideal
                                    : 0;
        // The space from the counts themselves: on the H200 (CUDA 13.0) the per-opcode counts
        // (smsp__sass_inst_executed_op_global_ld, ...) came back under other opcodes' ids when
        // configured beside the wavefront metrics, while every instruction's executions, sectors
        // and wavefronts equalled Nsight Compute's for the same offset (docs/benchmarks.md).
        instruction.kind = instruction.sectors > 0      ? SassOpKind::Global
                           : instruction.wavefronts > 0 ? SassOpKind::Shared
                                                        : SassOpKind::None;
        counts.push_back(instruction);
    }
    return counts;
}

} // namespace

void measurePerInstruction(int device, const std::string& entryPoint, const KernelItem& item,
                           const std::function<bool()>& before,
                           const std::function<bool()>& launchAndWait, KernelMeasurement& result) {
    const auto start = std::chrono::steady_clock::now();
    KernelPerInstruction& perInstruction = result.perInstruction.emplace();
    auto finish = [&] {
        perInstruction.ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
    };
    const CuptiApi* cupti = nullptr;
    std::string why;
    const SassApi* api = loadSassApi(cupti, why);
    if (api == nullptr) {
        perInstruction.unavailableReason = why;
        finish();
        return;
    }
    if (CUptiResult r = initialiseProfilerOnce(*cupti); r != CUPTI_SUCCESS) {
        perInstruction.unavailableReason = sassError(*cupti, r, "cuptiProfilerInitialize").message;
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
                perInstruction.unavailableReason =
                    sassError(*cupti, r, "cuptiDeviceGetChipName").message;
                finish();
                return;
            }
            ChosenMetrics fresh;
            if (auto error = chooseMetrics(*cupti, *api, chip.pChipName, fresh)) {
                perInstruction.unavailableReason = error->message;
                finish();
                return;
            }
            known = chosenByDevice.emplace(device, fresh).first;
        }
        chosen = known->second;
    }
    std::string missing;
    for (std::size_t role = 0; role < RoleCount; ++role) {
        // Only what the counts need: conflicts can come from the ideal wavefronts, and the
        // per-opcode counts are not used.
        const bool needed = role == Executed || role == Sectors || role == Wavefronts ||
                            (role == Conflicts && !chosen.found(WavefrontsIdeal));
        if (needed && !chosen.found(role)) {
            missing += (missing.empty() ? "" : ", ") + std::string(roleCandidates()[role][0]);
        }
    }
    if (!chosen.found(Executed)) {
        perInstruction.unavailableReason =
            "this GPU's CUPTI offers no per-instruction execution count (" + missing + ")";
        finish();
        return;
    }
    auto collected = collect(*cupti, *api, static_cast<std::uint32_t>(device), chosen, entryPoint,
                             before, launchAndWait);
    if (auto* error = std::get_if<ProbeError>(&collected)) {
        perInstruction.unavailableReason = error->message;
        finish();
        return;
    }
    perInstruction.measured = true;
    perInstruction.rows =
        livePerInstructionJson(item.kernel, item.prediction, result.counters,
                               countsOf(std::get<InstructionValues>(collected), chosen));
    auto listed = [&](Role role) {
        std::string text;
        for (const std::string& name : chosen.names[role]) {
            text += (text.empty() ? "" : " + ") + name;
        }
        return text.empty() ? std::string("none") : text;
    };
    perInstruction.source =
        "CUPTI SASS metrics (one more launch, lazily patched; shared wavefronts: " +
        listed(Wavefronts) + "; conflicts: " +
        (chosen.found(Conflicts) ? listed(Conflicts) : "wavefronts - " + listed(WavefrontsIdeal)) +
        (missing.empty() ? std::string() : "; missing: " + missing) + ")";
    finish();
}

} // namespace warpscope::probe
