// What warpscope-probe's measurement commands (every experiment's, experiment_commands.h) share:
// the error line and exit status, and running the request with progress on stderr, Ctrl-C
// cancelling it and the probe's error mapped to an exit status.
#pragma once

#include "probe_cli.h"
#include "probe_protocol.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace warpscope::probe {

/// Prints "warpscope-probe: <message>" (and, for bad input, where --help is) to stderr; returns
/// `status`.
int commandFail(const std::string& message, int status);

/// A measurement request as serve() runs it (an experiment row's answer, experiment_table.h).
using MeasurementRequest = std::function<RequestResult<nlohmann::json>(
    const nlohmann::json& request, Backend& backend, const ProgressCallback& progress,
    const CancelCallback& cancelled)>;

/// Runs `request` with {"options": options} on a backend from `makeBackend`, telling `progress`
/// of each step; Ctrl-C cancels it. The answer, or (after printing the error) the exit status:
/// kExitNoGpu, kExitFatal, kExitBadInput (a bad request, out of memory) or kExitProbeError.
std::variant<nlohmann::json, int> runMeasurementCommand(const MeasurementRequest& request,
                                                        const nlohmann::json& options,
                                                        const BackendFactory& makeBackend,
                                                        const ProgressCallback& progress);

/// Reads one "--name value" of a command into the request's `options`: the exit status to stop
/// with (from commandFail) for a bad value or a name the command does not take, else nullopt.
using MeasurementOption = std::function<std::optional<int>(
    const std::string& name, const std::string& value, nlohmann::json& options)>;

/// Reads an option that takes no value into the request's options; false when `name` is none.
using MeasurementFlag = std::function<bool(const std::string& name, nlohmann::json& options)>;

/// A measurement command whole: reads `args` (--json; the names `flag` knows, alone; every other
/// name with the value after it, through `option`; a name without a value, or a stray word, is
/// refused), runs `request` (runMeasurementCommand, with `progress`) and prints the answer, as one
/// JSON line with --json, else through `print`. Returns the exit status.
int runMeasurementCommandLine(const std::vector<std::string>& args,
                              const BackendFactory& makeBackend, const MeasurementRequest& request,
                              const ProgressCallback& progress, const MeasurementOption& option,
                              const std::function<void(const nlohmann::json&)>& print,
                              const MeasurementFlag& flag = {});

} // namespace warpscope::probe
