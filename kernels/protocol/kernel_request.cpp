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

RequestError requestError(ProbeErrorCode code, std::string message, std::string where = "") {
    RequestError error(ProbeError::of(code, std::move(message)));
    error.where = std::move(where);
    return error;
}

std::string typeName(const json& value) {
    return value.is_null()      ? "null"
           : value.is_boolean() ? "a boolean"
           : value.is_number()  ? "a number"
           : value.is_string()  ? "a string"
           : value.is_array()   ? "an array"
                                : "an object";
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

KernelMeasurement describeKernelRun(KernelMeasurement measurement, const KernelItem& item) {
    const ResolvedKernel& kernel = item.kernel;
    KernelMeasurement& m = measurement;
    m.kernelName = kernel.kernel.name;
    m.parameters.clear();
    for (std::size_t i = 0; i < kernel.kernel.parameters.size(); ++i) {
        m.parameters[kernel.kernel.parameters[i].name] = kernel.parameterValues[i];
    }
    m.grid = {kernel.grid.x, kernel.grid.y, kernel.grid.z};
    m.block = {kernel.block.x, kernel.block.y, kernel.block.z};
    m.threads = kernel.threadCount();
    m.warps = kernel.warpCount();
    m.sharedBytesPerBlock = item.prediction.sharedBytesPerBlock;
    m.predicted = predictedKernelMetrics(item.prediction);
    m.accesses.clear();
    for (std::size_t i = 0; i < item.prediction.accesses.size(); ++i) {
        const GridAccessPrediction& access = item.prediction.accesses[i];
        const KernelAccess& described = kernel.kernel.accesses[i];
        protocol::KernelAccessMeasurement a;
        a.label = described.label;
        a.space = toString(described.kind.space);
        a.op = toString(described.kind.op);
        a.width = described.kind.widthBytes;
        a.requests = static_cast<double>(access.requests);
        a.sectors = static_cast<double>(access.sectors);
        a.wavefronts = static_cast<double>(access.wavefronts);
        a.bankConflicts = static_cast<double>(access.bankConflicts);
        a.bytesRequested = static_cast<double>(access.bytesRequested);
        a.activeThreads = static_cast<double>(access.activeThreads);
        a.constantAddresses = static_cast<double>(access.constantAddresses);
        m.accesses.push_back(std::move(a));
    }
    m.buffers.clear();
    for (const GridBufferFootprint& buffer : item.prediction.buffers) {
        // The answer carries the footprint without the partial-sector counts.
        m.buffers.push_back(static_cast<const BufferFootprint&>(buffer));
    }
    // The probe states its timing and bandwidths in every answer (0: unknown).
    if (!m.kernelMs) {
        m.kernelMs = Stats{};
    }
    for (std::optional<double>* number : {&m.bytesRequested, &m.effectiveBandwidthGBs,
                                          &m.copyBandwidthGBs, &m.theoreticalBandwidthGBs}) {
        if (!*number) {
            *number = 0.0;
        }
    }
    return measurement;
}

json toJson(const KernelMeasurement& measurement, const KernelItem& item) {
    return protocol::toJson(describeKernelRun(measurement, item));
}

} // namespace warpscope::probe
