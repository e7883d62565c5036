// The probe protocol's errors, declared once (docs/protocol.md, "Errors"): the stable codes with
// their wire names, and ProbeError, made by named constructors so that a fatal error says so by
// its name (ProbeError::kernelFault) rather than by a positional bool.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace warpscope::protocol {

/// Stable error codes of the probe protocol. Never renumber or rename.
enum class ProbeErrorCode {
    BadRequest,           // the request is not valid JSON or not a known operation
    PatternRefused,       // the pattern would fault (address outside the arena, misaligned)
    NoDriver,             // no NVIDIA driver (libcuda) could be loaded
    NoDevice,             // a driver, but no CUDA device
    DriverTooOld,         // the driver is older than the CUDA runtime the probe was built with
    CountersNotPermitted, // CUPTI refuses: profiling is restricted to administrators
    CountersBusy,         // another profiler holds the counters
    CountersUnavailable,  // CUPTI missing or failing for another reason
    CompileError,         // NVRTC could not compile a generated kernel
    KernelFault, // a launch faulted; the context is lost and the probe exits after answering
    Timeout,     // the GPU did not finish within the time allowed
    Cancelled,   // a request was cancelled
    Internal,    // anything else
    OutOfMemory, // a kernel's buffers do not fit the device's free memory (never launched)
};

/// The code's stable snake_case name, as in responses ("bad_request").
const char* probeErrorCodeName(ProbeErrorCode code);
/// The code of a name; nullopt for an unknown name.
std::optional<ProbeErrorCode> probeErrorCodeFromName(std::string_view name);
/// no_driver, no_device and driver_too_old: no GPU to measure on (model-only mode).
bool isNoGpu(ProbeErrorCode code);

struct ProbeError {
    ProbeErrorCode code = ProbeErrorCode::Internal;
    std::string message;
    /// True when the CUDA context is unusable (sticky error): the probe must answer and exit.
    bool fatal = false;

    static ProbeError badRequest(std::string message);
    static ProbeError patternRefused(std::string message);
    static ProbeError noDriver(std::string message);
    static ProbeError noDevice(std::string message);
    static ProbeError driverTooOld(std::string message);
    static ProbeError countersNotPermitted(std::string message);
    static ProbeError countersBusy(std::string message);
    static ProbeError countersUnavailable(std::string message);
    static ProbeError compileError(std::string message);
    static ProbeError timeout(std::string message);
    static ProbeError cancelled(std::string message = "cancelled");
    static ProbeError internal(std::string message);
    static ProbeError outOfMemory(std::string message);
    /// A launch faulted: fatal, the probe answers and exits.
    static ProbeError kernelFault(std::string message);
    /// Any code, not fatal.
    static ProbeError of(ProbeErrorCode code, std::string message);
    /// Any code, fatal: the CUDA context is lost (a sticky error).
    static ProbeError fatalOf(ProbeErrorCode code, std::string message);
};

template <class T> using ProbeResult = std::variant<T, ProbeError>;

} // namespace warpscope::protocol
