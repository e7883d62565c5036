// The probe protocol's error codes and their names (errors.h).
#include "warpscope/protocol/errors.h"

#include <utility>

namespace warpscope::protocol {

namespace {

struct CodeName {
    ProbeErrorCode code;
    const char* name;
};

// The stable names; docs/protocol.md lists them. Never rename one.
constexpr CodeName kCodeNames[] = {
    {ProbeErrorCode::BadRequest, "bad_request"},
    {ProbeErrorCode::PatternRefused, "pattern_refused"},
    {ProbeErrorCode::NoDriver, "no_driver"},
    {ProbeErrorCode::NoDevice, "no_device"},
    {ProbeErrorCode::DriverTooOld, "driver_too_old"},
    {ProbeErrorCode::CountersNotPermitted, "counters_not_permitted"},
    {ProbeErrorCode::CountersBusy, "counters_busy"},
    {ProbeErrorCode::CountersUnavailable, "counters_unavailable"},
    {ProbeErrorCode::CompileError, "compile_error"},
    {ProbeErrorCode::KernelFault, "kernel_fault"},
    {ProbeErrorCode::Timeout, "timeout"},
    {ProbeErrorCode::Cancelled, "cancelled"},
    {ProbeErrorCode::Internal, "internal"},
    {ProbeErrorCode::OutOfMemory, "out_of_memory"},
};

} // namespace

const char* probeErrorCodeName(ProbeErrorCode code) {
    for (const CodeName& entry : kCodeNames) {
        if (entry.code == code) {
            return entry.name;
        }
    }
    return "internal";
}

std::optional<ProbeErrorCode> probeErrorCodeFromName(std::string_view name) {
    for (const CodeName& entry : kCodeNames) {
        if (name == entry.name) {
            return entry.code;
        }
    }
    return std::nullopt;
}

bool isNoGpu(ProbeErrorCode code) {
    return code == ProbeErrorCode::NoDriver || code == ProbeErrorCode::NoDevice ||
           code == ProbeErrorCode::DriverTooOld;
}

ProbeError ProbeError::of(ProbeErrorCode code, std::string message) {
    ProbeError error;
    error.code = code;
    error.message = std::move(message);
    return error;
}

ProbeError ProbeError::fatalOf(ProbeErrorCode code, std::string message) {
    ProbeError error = of(code, std::move(message));
    error.fatal = true;
    return error;
}

ProbeError ProbeError::badRequest(std::string message) {
    return of(ProbeErrorCode::BadRequest, std::move(message));
}
ProbeError ProbeError::patternRefused(std::string message) {
    return of(ProbeErrorCode::PatternRefused, std::move(message));
}
ProbeError ProbeError::noDriver(std::string message) {
    return of(ProbeErrorCode::NoDriver, std::move(message));
}
ProbeError ProbeError::noDevice(std::string message) {
    return of(ProbeErrorCode::NoDevice, std::move(message));
}
ProbeError ProbeError::driverTooOld(std::string message) {
    return of(ProbeErrorCode::DriverTooOld, std::move(message));
}
ProbeError ProbeError::countersNotPermitted(std::string message) {
    return of(ProbeErrorCode::CountersNotPermitted, std::move(message));
}
ProbeError ProbeError::countersBusy(std::string message) {
    return of(ProbeErrorCode::CountersBusy, std::move(message));
}
ProbeError ProbeError::countersUnavailable(std::string message) {
    return of(ProbeErrorCode::CountersUnavailable, std::move(message));
}
ProbeError ProbeError::compileError(std::string message) {
    return of(ProbeErrorCode::CompileError, std::move(message));
}
ProbeError ProbeError::timeout(std::string message) {
    return of(ProbeErrorCode::Timeout, std::move(message));
}
ProbeError ProbeError::cancelled(std::string message) {
    return of(ProbeErrorCode::Cancelled, std::move(message));
}
ProbeError ProbeError::internal(std::string message) {
    return of(ProbeErrorCode::Internal, std::move(message));
}
ProbeError ProbeError::outOfMemory(std::string message) {
    return of(ProbeErrorCode::OutOfMemory, std::move(message));
}
ProbeError ProbeError::kernelFault(std::string message) {
    return fatalOf(ProbeErrorCode::KernelFault, std::move(message));
}

} // namespace warpscope::protocol
