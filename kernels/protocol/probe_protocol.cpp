// The probe protocol's JSON forms (docs/protocol.md): patterns of a request resolved through
// the core, the prediction sent beside a measurement, build facts and errors. The answer types
// themselves and their JSON are core's (warpscope/protocol/).
#include "probe_protocol_internal.h"

#include "warpscope/model.h"

namespace warpscope::probe {

using json = nlohmann::json;
using detail::badRequest;
using detail::describeJsonType;
using detail::dumpLine;

namespace {

/// The place of a core error inside a request: a JSON pointer when the core gave one, else the
/// pattern's pointer followed by the core's words ("/pattern (lane 7)").
std::string combineWhere(const std::string& pointer, const std::string& coreWhere) {
    if (coreWhere.empty()) {
        return pointer;
    }
    if (coreWhere.front() == '/') {
        return pointer + coreWhere;
    }
    return pointer.empty() ? coreWhere : pointer + " (" + coreWhere + ")";
}

} // namespace

namespace detail {

RequestError coreError(const Error& error, const std::string& pointer, ProbeErrorCode code) {
    Error placed = error;
    placed.where = combineWhere(pointer, error.where);
    RequestError result(ProbeError::of(code, placed.describe()));
    result.where = placed.where;
    result.column = error.column;
    result.coreCode = errorCodeName(error.code);
    return result;
}

} // namespace detail

RequestError badRequestAt(std::string message, std::string where) {
    return badRequest(std::move(message), std::move(where));
}

RequestResult<ResolvedPattern> resolveNamedPattern(const NamedPattern& named,
                                                   const std::string& pointer) {
    auto access = resolve(named.pattern);
    if (!access) {
        // A pattern that would fault is refused; one that cannot even be evaluated is malformed.
        const ErrorCode code = access.error().code;
        const bool wouldFault = code == ErrorCode::NegativeAddress || code == ErrorCode::Misaligned;
        return detail::coreError(access.error(), pointer,
                                 wouldFault ? ProbeErrorCode::PatternRefused
                                            : ProbeErrorCode::BadRequest);
    }
    if (access->kind.op == AccessOp::CopyAsync) {
        // The one-warp replay and timing kernels load or store; an async copy has a shared side
        // they do not have. Its kernel (measure_kernel) generates the copy itself.
        RequestError refused(ProbeError::patternRefused(
            "an async copy (copy_async) is measured as a kernel (measure_kernel), not replayed as "
            "one warp"));
        refused.where = pointer + "/op";
        return refused;
    }
    return ResolvedPattern{named, std::move(access).value()};
}

RequestResult<ResolvedPattern> resolvePatternJson(const json& pattern, const std::string& pointer) {
    if (!pattern.is_object()) {
        return badRequest("a pattern must be a JSON object; found " + describeJsonType(pattern),
                          pointer);
    }
    auto named = patternFromJsonText(dumpLine(pattern));
    if (!named) {
        return detail::coreError(named.error(), pointer, ProbeErrorCode::BadRequest);
    }
    if (named->pattern.kind.space == MemorySpace::Constant) {
        // The replay kernels read global and shared memory; a constant load is generated as a
        // whole kernel with a __constant__ array.
        return badRequest("a constant-memory pattern is measured as a kernel: send it with "
                          "measure_kernel (the app does so on F5)",
                          pointer + "/space");
    }
    return resolveNamedPattern(named.value(), pointer);
}

std::map<std::string, double> predictedMetrics(const WarpAccess& access) {
    std::map<std::string, double> metrics;
    for (const Metric& metric : modernMetrics(predictModern(access))) {
        metrics[metric.name] = metric.value;
    }
    return metrics;
}

json toJson(const BuildInfo& info) {
    return json{{"backend", info.backend},
                {"cudaRuntime", info.cudaRuntimeVersion},
                {"cupti", info.cupti},
                {"nvrtc", info.nvrtc}};
}

json toJson(const Measurement& measurement, const WarpAccess& access) {
    Measurement answered = measurement;
    answered.predicted = predictedMetrics(access);
    return protocol::toJson(answered);
}

json toJson(const RequestError& error) {
    json result{{"code", probeErrorCodeName(error.error.code)}, {"message", error.error.message}};
    if (!error.where.empty()) {
        result["where"] = error.where;
    }
    if (error.column > 0) {
        result["column"] = error.column;
    }
    if (!error.coreCode.empty()) {
        result["coreCode"] = error.coreCode;
    }
    if (error.error.fatal) {
        result["fatal"] = true;
    }
    return result;
}

} // namespace warpscope::probe
