// measure_kernel's request and response (kernel_request.h).
#include "kernel_request.h"

#include "probe_protocol_internal.h"

#include "warpscope/model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>

namespace warpscope::probe {
namespace {

using json = nlohmann::json;

constexpr int kMaxKernelRepetitions = 1000;

using detail::badRequest;
using detail::coreError;
using protocol::numberJson;

RequestError requestError(ProbeErrorCode code, std::string message, std::string where = "") {
    RequestError error(ProbeError::of(code, std::move(message)));
    error.where = std::move(where);
    return error;
}

const char* flushName(KernelMeasureOptions::Flush flush) {
    switch (flush) {
    case KernelMeasureOptions::Flush::Dirty:
        return "dirty";
    case KernelMeasureOptions::Flush::None:
        return "none";
    case KernelMeasureOptions::Flush::Clean:
        break;
    }
    return "clean";
}

std::string typeName(const json& value) {
    return value.is_null()      ? "null"
           : value.is_boolean() ? "a boolean"
           : value.is_number()  ? "a number"
           : value.is_string()  ? "a string"
           : value.is_array()   ? "an array"
                                : "an object";
}

json statsJson(const Stats& stats) {
    return json{
        {"median", stats.median},
        {"min", stats.min},
        {"max", stats.max},
        {"samples", stats.samples},
        {"spreadPct", stats.median > 0.0 ? 100.0 * (stats.max - stats.min) / stats.median : 0.0}};
}

json dimJson(const Dim3& d) {
    return json::array({d.x, d.y, d.z});
}

/// A sweep point's [x, y, z] (1 to 3 positive integers; missing ones are 1) as launch strings.
std::optional<RequestError> readDims(const json& value, const std::string& where,
                                     std::array<std::string, 3>& out) {
    if (!value.is_array() || value.empty() || value.size() > 3) {
        return badRequest("must be an array of 1 to 3 positive integers; found " + typeName(value),
                          where);
    }
    std::array<std::string, 3> dims{"1", "1", "1"};
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_number_integer() || value[i].get<std::int64_t>() < 1) {
            return badRequest("must be an array of 1 to 3 positive integers",
                              where + "/" + std::to_string(i));
        }
        dims[i] = std::to_string(value[i].get<std::int64_t>());
    }
    out = dims;
    return std::nullopt;
}

/// Resolves one kernel and runs the grid model over it.
RequestResult<KernelItem> prepareOne(const Kernel& kernel, const std::string& pointer,
                                     const std::atomic<bool>* cancelled) {
    auto resolved = resolveKernel(kernel);
    if (!resolved) {
        return coreError(resolved.error(), pointer, ProbeErrorCode::BadRequest);
    }
    GridOptions options;
    options.cancelled = cancelled;
    auto prediction = predictGrid(resolved.value(), options);
    if (!prediction) {
        if (cancelled != nullptr && cancelled->load()) {
            return requestError(ProbeErrorCode::Cancelled, "the request was cancelled");
        }
        // Every failure of the grid model is an address some thread would fault on (outside its
        // buffer, negative, misaligned) or cannot compute: never launched.
        RequestError refused =
            coreError(prediction.error(), pointer, ProbeErrorCode::PatternRefused);
        refused.error.message += "; the kernel was not launched";
        return refused;
    }
    return KernelItem{std::move(resolved).value(), std::move(prediction).value(), pointer};
}

} // namespace

RequestResult<KernelMeasureOptions> parseKernelOptions(const json& request) {
    KernelMeasureOptions options;
    const auto found = request.find("options");
    if (found == request.end()) {
        return options;
    }
    if (!found->is_object()) {
        return badRequest("\"options\" must be an object; found " + typeName(*found), "/options");
    }
    for (const auto& [key, value] : found->items()) {
        const std::string where = "/options/" + key;
        if (key == "per_instruction") {
            if (!value.is_boolean()) {
                return badRequest(
                    "\"per_instruction\" must be true or false; found " + typeName(value), where);
            }
            options.perInstruction = value.get<bool>();
        } else if (key == "counters" || key == "warm") {
            if (!value.is_boolean()) {
                return badRequest("\"" + key + "\" must be true or false; found " + typeName(value),
                                  where);
            }
            if (key == "counters") {
                options.counters = value.get<bool>();
            } else {
                options.cold = !value.get<bool>();
            }
        } else if (key == "repetitions") {
            if (!value.is_number_integer() || value.get<std::int64_t>() < 1 ||
                value.get<std::int64_t>() > kMaxKernelRepetitions) {
                return badRequest("\"repetitions\" must be an integer from 1 to " +
                                      std::to_string(kMaxKernelRepetitions) + "; found " +
                                      (value.is_number() ? value.dump() : typeName(value)),
                                  where);
            }
            options.repetitions = static_cast<int>(value.get<std::int64_t>());
        } else {
            return badRequest("unknown option \"" + key +
                                  "\"; the options of measure_kernel are counters, warm, "
                                  "repetitions and per_instruction",
                              where);
        }
    }
    return options;
}

RequestResult<std::vector<KernelItem>> prepareKernelItems(const json& kernelJson, const json* sweep,
                                                          const std::atomic<bool>* cancelled) {
    if (!kernelJson.is_object()) {
        return badRequest("\"kernel\" must be a kernel object; found " + typeName(kernelJson),
                          "/kernel");
    }
    auto kernel = kernelFromJson(kernelJson, "/kernel");
    if (!kernel) {
        // The core's pointer already starts with "/kernel".
        return coreError(kernel.error(), "", ProbeErrorCode::BadRequest);
    }
    std::vector<KernelItem> items;
    if (sweep == nullptr) {
        auto item = prepareOne(kernel.value(), "/kernel", cancelled);
        if (auto* error = std::get_if<RequestError>(&item)) {
            return *error;
        }
        items.push_back(std::get<KernelItem>(std::move(item)));
        return items;
    }
    if (!sweep->is_array()) {
        return badRequest("\"sweep\" must be an array of sweep points; found " + typeName(*sweep),
                          "/sweep");
    }
    if (sweep->size() > static_cast<std::size_t>(kMaxKernelSweepPoints)) {
        return badRequest("a sweep takes at most " + std::to_string(kMaxKernelSweepPoints) +
                              " points; found " + std::to_string(sweep->size()),
                          "/sweep");
    }
    std::map<std::string, std::size_t> evaluated; // kernel text -> index into items
    for (std::size_t i = 0; i < sweep->size(); ++i) {
        const std::string pointer = "/sweep/" + std::to_string(i);
        const json& point = (*sweep)[i];
        if (!point.is_object()) {
            return badRequest("a sweep point must be an object (parameter name -> value, \"grid\", "
                              "\"block\"); found " +
                                  typeName(point),
                              pointer);
        }
        Kernel variant = kernel.value();
        for (const auto& [key, value] : point.items()) {
            const std::string where = pointer + "/" + key;
            if (key == "grid" || key == "block") {
                if (auto error = readDims(
                        value, where, key == "grid" ? variant.launch.grid : variant.launch.block)) {
                    return *error;
                }
                continue;
            }
            const std::string& name = key; // clang 14 cannot capture a structured binding
            auto parameter = std::find_if(variant.parameters.begin(), variant.parameters.end(),
                                          [&](const Parameter& p) { return p.name == name; });
            if (parameter == variant.parameters.end()) {
                std::string known;
                for (const Parameter& p : variant.parameters) {
                    known += (known.empty() ? "" : ", ") + p.name;
                }
                return badRequest("the kernel has no parameter \"" + key + "\" (its parameters: " +
                                      (known.empty() ? "none" : known) + ")",
                                  where);
            }
            if (!value.is_number_integer()) {
                return badRequest(
                    "a parameter's value must be an integer; found " + typeName(value), where);
            }
            parameter->value = value.get<std::int64_t>();
        }
        // A point repeated (a sweep measured several times over) is evaluated once.
        const std::string key = kernelToJsonText(variant);
        if (auto seen = evaluated.find(key); seen != evaluated.end()) {
            KernelItem copy = items[seen->second];
            copy.where = pointer;
            items.push_back(std::move(copy));
            continue;
        }
        auto item = prepareOne(variant, pointer, cancelled);
        if (auto* error = std::get_if<RequestError>(&item)) {
            return *error;
        }
        evaluated.emplace(key, items.size());
        items.push_back(std::get<KernelItem>(std::move(item)));
    }
    return items;
}

void addConstantExtraRequests(std::map<std::string, double>& counters) {
    const auto requests = counters.find("idc__requests.sum");
    const auto instructions = counters.find("smsp__inst_executed_op_ldc_pred_on_any.sum");
    if (requests != counters.end() && instructions != counters.end()) {
        counters["warpscope__constant_extra_requests"] = requests->second - instructions->second;
    }
}

std::map<std::string, double> predictedKernelMetrics(const GridPrediction& prediction) {
    std::map<std::string, double> metrics;
    for (const Metric& metric : prediction.metrics) {
        metrics[metric.name] = metric.value;
    }
    return metrics;
}

json toJson(const KernelMeasurement& measurement, const KernelItem& item) {
    const ResolvedKernel& kernel = item.kernel;
    json parameters = json::object();
    for (std::size_t i = 0; i < kernel.kernel.parameters.size(); ++i) {
        parameters[kernel.kernel.parameters[i].name] = kernel.parameterValues[i];
    }
    json predicted = json::object();
    for (const auto& [name, value] : predictedKernelMetrics(item.prediction)) {
        predicted[name] = numberJson(value);
    }
    json accesses = json::array();
    for (std::size_t i = 0; i < item.prediction.accesses.size(); ++i) {
        const GridAccessPrediction& access = item.prediction.accesses[i];
        const KernelAccess& described = kernel.kernel.accesses[i];
        accesses.push_back(json{{"label", described.label},
                                {"space", toString(described.kind.space)},
                                {"op", toString(described.kind.op)},
                                {"width", described.kind.widthBytes},
                                {"requests", access.requests},
                                {"sectors", access.sectors},
                                {"wavefronts", access.wavefronts},
                                {"bankConflicts", access.bankConflicts},
                                {"bytesRequested", access.bytesRequested},
                                {"activeThreads", access.activeThreads},
                                {"constantAddresses", access.constantAddresses}});
    }
    json buffers = json::array();
    for (const GridBufferFootprint& buffer : item.prediction.buffers) {
        buffers.push_back(json{{"name", buffer.name},
                               {"bytes", buffer.bytes},
                               {"sectorsRead", buffer.sectorsRead},
                               {"sectorsWritten", buffer.sectorsWritten},
                               {"l2SectorsRead", buffer.l2SectorsRead},
                               {"l2SectorsWritten", buffer.l2SectorsWritten}});
    }
    json counters = json::object();
    for (const auto& [name, value] : measurement.counters) {
        counters[name] = numberJson(value);
    }
    json instructions = json::array();
    for (const std::string& instruction : measurement.memoryInstructions) {
        instructions.push_back(instruction);
    }
    json samples = json::array();
    for (double ms : measurement.samplesMs) {
        samples.push_back(ms);
    }
    auto share = [](double value, double ceiling) {
        return ceiling > 0.0 ? json(100.0 * value / ceiling) : json(nullptr);
    };
    json answer{
        {"kernel", kernel.kernel.name},
        {"parameters", std::move(parameters)},
        {"grid", dimJson(kernel.grid)},
        {"block", dimJson(kernel.block)},
        {"threads", kernel.threadCount()},
        {"warps", kernel.warpCount()},
        {"sharedBytesPerBlock", item.prediction.sharedBytesPerBlock},
        {"deviceBytes", measurement.deviceBytes},
        {"memoryInstructions", std::move(instructions)},
        {"predicted", std::move(predicted)},
        {"accesses", std::move(accesses)},
        {"buffers", std::move(buffers)},
        {"counters", std::move(counters)},
        {"countersMeasured", measurement.countersMeasured},
        {"countersUnavailableReason", measurement.countersUnavailableReason},
        {"countersCold", measurement.flush != KernelMeasureOptions::Flush::None},
        {"l2Flush", flushName(measurement.flush)},
        {"timing",
         json{{"kernelMs", statsJson(measurement.kernelMs)},
              {"samplesMs", std::move(samples)},
              {"cold", measurement.cold},
              {"label", !measurement.cold ? "warm: no flush between launches (data may be in L2)"
                        : measurement.flush == KernelMeasureOptions::Flush::Dirty
                            ? "cold: L2 filled with dirty unrelated lines before each launch"
                            : "cold: L2 flushed before each launch"}}},
        {"bytesRequested", numberJson(measurement.bytesRequested)},
        {"effectiveBandwidthGBs", measurement.effectiveBandwidthGBs},
        {"copyBandwidthGBs", measurement.copyBandwidthGBs},
        {"theoreticalBandwidthGBs", measurement.theoreticalBandwidthGBs},
        {"shareOfCopyBandwidthPct",
         share(measurement.effectiveBandwidthGBs, measurement.copyBandwidthGBs)},
        {"shareOfTheoreticalBandwidthPct",
         share(measurement.effectiveBandwidthGBs, measurement.theoreticalBandwidthGBs)},
    };
    // Only when asked for: answers without the option stay as they were.
    if (!measurement.perInstruction.is_null() ||
        !measurement.perInstructionUnavailableReason.empty()) {
        answer["perInstruction"] =
            json{{"measured", measurement.perInstruction.is_array()},
                 {"source", measurement.perInstructionSource},
                 {"unavailableReason", measurement.perInstructionUnavailableReason},
                 {"ms", measurement.perInstructionMs},
                 {"rows", measurement.perInstruction.is_array() ? measurement.perInstruction
                                                                : json::array()}};
    }
    return answer;
}

} // namespace warpscope::probe
