// warpscope-probe's commands (probe_cli.h): serve, run, selfcheck, info, --help, --version.
#include "probe_cli.h"

#include "experiment_commands.h"
#include "probe_protocol.h"
#include "probe_text.h"
#include "run_kernel.h"
#include "serve_cli.h"
#include "tma_check_cli.h"
#include "warpscope/command_line_text.h"
#include "warpscope/file_format.h"
#include "warpscope/model.h"
#include "warpscope/pattern.h"
#include "warpscope/pattern_arguments.h"
#include "warpscope/preset.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include <unistd.h>

#ifndef WARPSCOPE_VERSION
#define WARPSCOPE_VERSION "unknown"
#endif

namespace warpscope::probe {

namespace {

const char* const kUsage =
    R"(warpscope-probe )" WARPSCOPE_VERSION
    R"( - runs warpscope's access patterns on the local NVIDIA GPU and measures them.

Usage:
  warpscope-probe [serve]                 JSON-lines server on stdin/stdout (what the app runs)
  warpscope-probe run <preset | file.json | expression> [options]
  warpscope-probe run-kernel <kernel preset | kernel file | kernel JSON> [options]
@EXPERIMENT_LIST@
  warpscope-probe selfcheck               the built-in hardware table, ldmatrix and TMA checks
  warpscope-probe tma-check [options]     one TMA tile load against the layout model
  warpscope-probe info                    what this GPU is
  warpscope-probe --help | --version

run        Measures one pattern on the GPU and prints the modern model's prediction beside the
           hardware counters (Nsight Compute names), then the latency of one warp.
           The argument is tried as a preset id (`warpscope-cli presets` lists them), then as a
           pattern file, then as an address expression giving each lane's byte address.
  --width N              element width in bytes: 1, 2, 4, 8 or 16 (default 4)
  --op load|store        (default load)
  --space global|shared  (default global)
  --cache default|ca|cg|nc
                         global-load cache operator, as PTX ld.global.ca/.cg/.nc
  --param NAME=VALUE     set an expression parameter; repeat for several
  --block X[,Y[,Z]]      block shape (default 32,1,1)
  --warp N               which warp of the block (default 0)
  --active EXPR          only lanes where EXPR is non-zero execute the access
  --no-counters          skip the hardware counters (timing only)
  --no-latency           skip the latency measurement
  --grid                 also run the expression over the whole grid (effective bandwidth)
  --repetitions N        timed repetitions for the medians (default 21)

@RUN_KERNEL@
@EXPERIMENTS@
selfcheck  Runs every pattern of the hardware table compiled into the probe (measured with
           Nsight Compute on an NVIDIA H100) and compares each counter exactly; measures a few
           ldmatrix/stmatrix patterns and TMA loads against the model. Prints one line per model
           check, one per failing pattern, then the line `N passed, M failed`.

serve      Reads one JSON request per line on stdin and answers one JSON line each on stdout;
           see docs/protocol.md. Example:
             echo '{"id":1,"op":"hello"}' | warpscope-probe

Examples:
  warpscope-probe info
  warpscope-probe run 'lane * 4'                  coalesced 4-byte loads
  warpscope-probe run '(lane + 11) * 4' --cache cg
  warpscope-probe run 'lane * 128' --space shared a 32-way bank conflict
  warpscope-probe selfcheck

Without a GPU, warpscope still works in model-only mode (warpscope-cli, the app); the probe then
answers every GPU request with a no_driver or no_device error.

Exit status: 0 success; 1 a measured counter differs (run, selfcheck); 2 bad usage or a pattern
that cannot be measured; 3 a fatal GPU error; 4 no driver, no device or a driver too old;
5 another probe error (counters unavailable, compile error, timeout). serve: 0 at the end of
input or after shutdown, 3 after a fatal error.
)";

void printError(const std::string& message) {
    writeCommandError(std::cerr, "warpscope-probe", message);
}

int usageError(const std::string& message) {
    writeUsageError(std::cerr, "warpscope-probe", message);
    return kExitBadInput;
}

/// `prefix: message`, unless the message already says it ("No NVIDIA driver on ...").
void printWithPrefix(const std::string& prefix, const std::string& message) {
    const auto lower = [](std::string text) {
        std::transform(text.begin(), text.end(), text.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return text;
    };
    printError(lower(message).rfind(lower(prefix), 0) == 0 ? message : prefix + ": " + message);
}

/// Prints a probe error for a person and returns the exit status it maps to.
int reportProbeError(const ProbeError& error) {
    switch (error.code) {
    case ProbeErrorCode::NoDriver:
        printWithPrefix("no NVIDIA driver", error.message);
        break;
    case ProbeErrorCode::NoDevice:
        printWithPrefix("no CUDA device", error.message);
        break;
    case ProbeErrorCode::DriverTooOld:
        printWithPrefix("the NVIDIA driver is too old", error.message);
        break;
    default:
        printError(std::string(probeErrorCodeName(error.code)) + ": " + error.message);
        break;
    }
    if (protocol::isNoGpu(error.code)) {
        if (error.message.find("model-only") == std::string::npos) {
            std::cerr << "(warpscope still works in model-only mode: 'warpscope-cli analyze' and "
                         "the app predict without a GPU)\n";
        }
        return kExitNoGpu;
    }
    if (error.fatal) {
        return kExitFatal;
    }
    if (error.code == ProbeErrorCode::BadRequest || error.code == ProbeErrorCode::PatternRefused) {
        return kExitBadInput;
    }
    return kExitProbeError;
}

int reportRequestError(const RequestError& error) {
    if (error.error.code == ProbeErrorCode::BadRequest ||
        error.error.code == ProbeErrorCode::PatternRefused) {
        printError(error.error.message);
        return kExitBadInput;
    }
    return reportProbeError(error.error);
}

std::string bytesText(std::int64_t bytes) {
    if (bytes >= (std::int64_t{1} << 30)) {
        return fixed(static_cast<double>(bytes) / static_cast<double>(1 << 30), 1) + " GiB";
    }
    if (bytes >= (std::int64_t{1} << 20)) {
        return fixed(static_cast<double>(bytes) / static_cast<double>(1 << 20), 1) + " MiB";
    }
    return std::to_string(bytes) + " bytes";
}

std::string deviceLine(const DeviceInfo& info) {
    return info.name + " (compute capability " + std::to_string(info.computeCapabilityMajor) + "." +
           std::to_string(info.computeCapabilityMinor) + ", " + std::to_string(info.smCount) +
           " SMs, driver " + info.driverVersion + ")";
}

/// The expression with a caret under the error's 1-based column (UTF-8 and tabs kept aligned).
void printCaret(const std::string& text, const RequestError& error) {
    printError(error.error.message);
    std::cerr << "  " << text << "\n  " << caretPadding(text, error.column) << "^\n";
}

// ---- run ---------------------------------------------------------------------------------------

struct RunOptions {
    std::string subject;
    PatternArguments pattern;
    MeasureOptions measure;
};

/// Parses run's arguments; returns an exit status on a mistake (already printed).
std::optional<int> parseRunOptions(const std::vector<std::string>& args, RunOptions& options) {
    std::vector<std::string> positional;
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (optionsEnded || arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
            positional.push_back(arg);
            continue;
        }
        if (arg == "--") {
            optionsEnded = true;
            continue;
        }
        std::optional<std::string> inlineValue;
        if (const std::size_t eq = arg.find('='); eq != std::string::npos) {
            inlineValue = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        if (arg == "--no-counters" || arg == "--no-latency" || arg == "--grid") {
            if (inlineValue) {
                return usageError("the option " + arg + " takes no value");
            }
            if (arg == "--no-counters") {
                options.measure.counters = false;
            } else if (arg == "--no-latency") {
                options.measure.latency = false;
            } else {
                options.measure.grid = true;
            }
            continue;
        }
        std::string value;
        if (inlineValue) {
            value = *inlineValue;
        } else if (i + 1 < args.size()) {
            value = args[++i];
        } else {
            return usageError("the option " + arg + " needs a value");
        }
        const auto bad = [&](const std::string& expected) {
            return usageError("the option " + arg + " takes " + expected + ", not '" + value + "'");
        };
        if (isPatternOption(arg)) {
            if (auto error = parsePatternOption(arg, value, options.pattern)) {
                return usageError(error->message);
            }
        } else if (arg == "--repetitions") {
            const auto count = parseInt64(value);
            if (!count || *count < 1 || *count > 1000) {
                return bad("an integer from 1 to 1000");
            }
            options.measure.repetitions = static_cast<int>(*count);
        } else {
            return usageError("unknown option '" + arg + "' for run");
        }
    }
    if (positional.size() != 1) {
        return usageError(positional.empty()
                              ? "run needs a pattern: a preset id, a pattern file or an expression"
                              : "run takes one pattern; found " +
                                    std::to_string(positional.size()) +
                                    " arguments (quote an expression that has spaces)");
    }
    options.subject = positional.front();
    return std::nullopt;
}

/// The pattern `subject` names (a preset id, else a pattern file, else an address expression),
/// with the command line's overrides applied; an exit status on a mistake (already printed).
std::variant<NamedPattern, int> findPattern(const RunOptions& options) {
    auto found = patternSubject(options.subject);
    if (!found) {
        printError(found.error().describe());
        return kExitBadInput;
    }
    NamedPattern named = found->named;
    if (auto error = applyPatternArguments(options.pattern, options.subject, named)) {
        printError(error->message);
        return kExitBadInput;
    }
    return named;
}

/// Predicted beside measured, one row per counter of the access's space (and any other counter
/// the GPU reported). Returns the number of counters that differ.
int printCounterTable(const Measurement& measurement, const WarpAccess& access) {
    const std::map<std::string, double> predicted = predictedMetrics(access);
    const std::string spaceTag =
        access.kind.space == MemorySpace::Global ? "mem_global" : "mem_shared";
    std::vector<std::string> names;
    for (const std::string& name : nsightCounterNames()) {
        if (name.find(spaceTag) != std::string::npos) {
            names.push_back(name);
        }
    }
    for (const auto& [name, value] : measurement.counters) {
        (void)value;
        if (std::find(names.begin(), names.end(), name) == names.end() &&
            std::find(nsightCounterNames().begin(), nsightCounterNames().end(), name) ==
                nsightCounterNames().end()) {
            names.push_back(name);
        }
    }
    std::size_t nameWidth = std::string_view("counter").size();
    for (const std::string& name : names) {
        nameWidth = std::max(nameWidth, name.size());
    }
    std::cout << pad("counter", nameWidth) << "  " << pad("predicted", 10, true) << "  "
              << pad("measured", 10, true) << "  match\n";
    int mismatches = 0;
    for (const std::string& name : names) {
        const auto p = predicted.find(name);
        const auto m = measurement.counters.find(name);
        const std::string predictedText = p == predicted.end() ? "-" : number(p->second);
        const std::string measuredText = !measurement.countersMeasured     ? "-"
                                         : m == measurement.counters.end() ? "?"
                                                                           : number(m->second);
        std::string match;
        if (measurement.countersMeasured && p != predicted.end()) {
            const bool same = m != measurement.counters.end() && m->second == p->second;
            match = same ? "\u2713" : "\u2717";
            mismatches += same ? 0 : 1;
        }
        std::cout << pad(name, nameWidth) << "  " << pad(predictedText, 10, true) << "  "
                  << pad(measuredText, 10, true) << "  " << match << "\n";
    }
    if (!measurement.countersMeasured) {
        std::cout << "Counters not measured: "
                  << (measurement.countersUnavailableReason.empty()
                          ? std::string("no reason given")
                          : measurement.countersUnavailableReason)
                  << "\n";
    }
    return mismatches;
}

std::string latencyText(const Stats& cycles, double smClockKHz) {
    std::string text = number(cycles.median) + " cycles";
    if (const auto ns = cyclesToNs(cycles.median, smClockKHz)) {
        text += " (" + fixed(*ns, 1) + " ns)";
    }
    return text + ", spread " + number(cycles.min) + " to " + number(cycles.max);
}

void printTimings(const Measurement& measurement) {
    if (measurement.latencyColdCycles || measurement.latencyWarmCycles) {
        const int samples = measurement.latencyColdCycles ? measurement.latencyColdCycles->samples
                                                          : measurement.latencyWarmCycles->samples;
        std::cout << "\nLatency of one warp (clock64, median of " << samples << " runs";
        if (measurement.smClockKHz > 0.0) {
            std::cout << ", SM clock " << fixed(measurement.smClockKHz / 1000.0, 0) << " MHz";
        }
        std::cout << "):\n";
        if (measurement.latencyColdCycles) {
            std::cout << "  cold  "
                      << latencyText(*measurement.latencyColdCycles, measurement.smClockKHz)
                      << "\n";
        }
        if (measurement.latencyWarmCycles) {
            std::cout << "  warm  "
                      << latencyText(*measurement.latencyWarmCycles, measurement.smClockKHz)
                      << "\n";
        }
    }
    if (measurement.gridKernelMs) {
        const Stats& ms = *measurement.gridKernelMs;
        std::cout << "\nGrid run of the expression (median of " << ms.samples << " runs):\n"
                  << "  kernel time          " << fixed(ms.median, 4) << " ms, spread "
                  << fixed(ms.min, 4) << " to " << fixed(ms.max, 4) << " ms\n"
                  << "  effective bandwidth  " << fixed(measurement.gridEffectiveBandwidthGBs, 1)
                  << " GB/s (" << number(measurement.gridBytesRequested) << " bytes requested)\n"
                  << "  bytes moved          " << fixed(measurement.gridMovedBandwidthGBs, 1)
                  << " GB/s (" << number(measurement.gridBytesMoved)
                  << " bytes in 32-byte sectors, from the model)\n";
    }
}

int runCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend) {
    RunOptions options;
    if (auto status = parseRunOptions(args, options)) {
        return *status;
    }
    auto found = findPattern(options);
    if (const int* status = std::get_if<int>(&found)) {
        return *status;
    }
    auto resolved = resolveNamedPattern(std::get<NamedPattern>(found));
    if (auto* error = std::get_if<RequestError>(&resolved)) {
        const auto& source = std::get<NamedPattern>(found).pattern.source;
        if (source && error->column > 0) {
            const bool active = error->where.find("activeExpression") != std::string::npos;
            printCaret(active ? source->activeExpression : source->addressExpression, *error);
            return kExitBadInput;
        }
        return reportRequestError(*error);
    }
    const auto& pattern = std::get<ResolvedPattern>(resolved);
    if (options.measure.grid && !pattern.named.pattern.source) {
        return usageError("--grid needs a pattern written as an address expression");
    }

    auto backend = makeBackend();
    auto device = backend->deviceInfo();
    if (auto* error = std::get_if<ProbeError>(&device)) {
        return reportProbeError(*error);
    }
    auto measured = backend->measure(pattern.named, pattern.access, options.measure);
    if (auto* error = std::get_if<ProbeError>(&measured)) {
        return reportProbeError(*error);
    }
    const auto& measurement = std::get<Measurement>(measured);

    std::cout << "Device:   " << deviceLine(std::get<DeviceInfo>(device)) << "\n"
              << "Pattern:  "
              << (pattern.named.title.empty() ? options.subject : pattern.named.title)
              << "\n          " << describeAccessKind(pattern.access.kind) << ", "
              << pattern.access.activeLaneCount() << " active lanes\n\n";
    int mismatches = 0;
    if (options.measure.counters) {
        mismatches = printCounterTable(measurement, pattern.access);
    }
    printTimings(measurement);
    if (mismatches > 0) {
        std::cout << "\n"
                  << mismatches << (mismatches == 1 ? " counter differs" : " counters differ")
                  << " from the modern model's prediction.\n";
        return kExitMismatch;
    }
    return kExitOk;
}

// ---- selfcheck, info ---------------------------------------------------------------------------

int selfcheckCommand(const BackendFactory& makeBackend) {
    auto backend = makeBackend();
    auto result = runSelfcheck(*backend, embeddedHardwareTable(), nullptr, nullptr);
    if (auto* error = std::get_if<ProbeError>(&result)) {
        return reportProbeError(*error);
    }
    const auto& report = std::get<SelfcheckReport>(result);
    std::cout << "Self-check on " << deviceLine(report.device) << "\n"
              << "against the table measured on " << report.tableGpu << " (driver "
              << report.tableDriver << ", Nsight Compute " << report.tableNcu << ")\n";
    if (report.device.name != report.tableGpu) {
        std::cout << "note: this GPU is not the one the table was measured on; counters of "
                     "another architecture may differ\n";
    }
    // The model checks first: the count line of the table stays the last line.
    const int modelDiffer = printModelChecks(report.modelChecks);
    for (const SelfcheckFailure& failure : report.failures) {
        std::cout << "FAIL " << failure.row << " " << failure.name << ":";
        const char* separator = " ";
        for (const CounterMismatch& mismatch : failure.mismatches) {
            std::cout << separator << mismatch.counter << " expected " << number(mismatch.expected)
                      << ", measured "
                      << (mismatch.measured ? number(*mismatch.measured) : "nothing");
            separator = "; ";
        }
        std::cout << "\n";
    }
    std::cout << report.passed << " passed, " << report.failed << " failed\n";
    return report.failed == 0 && modelDiffer == 0 ? kExitOk : kExitMismatch;
}

int infoCommand(const BackendFactory& makeBackend) {
    auto backend = makeBackend();
    const BuildInfo build = backend->buildInfo();
    auto device = backend->deviceInfo();
    if (auto* error = std::get_if<ProbeError>(&device)) {
        return reportProbeError(*error);
    }
    const DeviceInfo& info = std::get<DeviceInfo>(device);
    const auto row = [](const char* label, const std::string& value) {
        std::cout << pad(label, 26) << value << "\n";
    };
    row("GPU", info.name);
    row("Compute capability", std::to_string(info.computeCapabilityMajor) + "." +
                                  std::to_string(info.computeCapabilityMinor));
    row("SMs", std::to_string(info.smCount));
    row("L2 cache", bytesText(info.l2Bytes));
    row("Global memory", bytesText(info.globalMemoryBytes));
    row("Memory bus", std::to_string(info.memoryBusWidthBits) + " bits at " +
                          fixed(info.memoryClockKHz / 1000.0, 0) + " MHz");
    row("Theoretical bandwidth",
        fixed(info.theoreticalBandwidthGBs, 1) + " GB/s (2 x memory clock x bus width)");
    row("Measured copy bandwidth", info.measuredCopyBandwidthGBs > 0.0
                                       ? fixed(info.measuredCopyBandwidthGBs, 1) +
                                             " GB/s (device-to-device copy, read + write)"
                                       : std::string("not measured"));
    row("Driver / runtime", info.driverVersion + " / " + info.runtimeVersion);
    row("Hardware counters", info.countersAvailable
                                 ? std::string("available")
                                 : "not available: " + info.countersUnavailableReason);
    row("Probe build", build.backend + " backend, CUPTI " + (build.cupti ? "yes" : "no") +
                           ", NVRTC " + (build.nvrtc ? "yes" : "no"));
    return kExitOk;
}

int versionCommand(const BackendFactory& makeBackend) {
    auto backend = makeBackend();
    const BuildInfo build = backend->buildInfo();
    std::cout << "warpscope-probe " << WARPSCOPE_VERSION << "\n"
              << "protocol " << kProtocolVersion << ", " << build.backend << " backend"
              << (build.cudaRuntimeVersion.empty() ? std::string()
                                                   : ", CUDA runtime " + build.cudaRuntimeVersion)
              << ", CUPTI " << (build.cupti ? "yes" : "no") << ", NVRTC "
              << (build.nvrtc ? "yes" : "no") << "\n";
    return kExitOk;
}

} // namespace

int probeMain(int argc, char** argv, const BackendFactory& makeBackend) {
    std::ios::sync_with_stdio(false);
    std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + std::max(argc, 1));
    const std::string command = args.empty() ? "serve" : args.front();
    const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
    if (command == "--help" || command == "-h" || command == "help") {
        std::string usage = kUsage;
        usage.replace(usage.find("@RUN_KERNEL@\n"), 13, kRunKernelUsage);
        usage.replace(usage.find("@EXPERIMENT_LIST@\n"), 18, experimentSynopses());
        usage.replace(usage.find("@EXPERIMENTS@\n"), 14, experimentUsages() + kTmaCheckUsage);
        std::cout << usage;
        return kExitOk;
    }
    if (command == "--version") {
        return versionCommand(makeBackend);
    }
    if (command == "run") {
        return runCommand(rest, makeBackend);
    }
    if (command == "run-kernel") {
        return runKernelCommand(rest, makeBackend);
    }
    if (command == "experiment") {
        return experimentCommand(rest, makeBackend);
    }
    // Each experiment's name is a command of its own too (`warpscope-probe transfers`): the
    // names scripts and docs used before `experiment NAME`.
    if (const experiments::Experiment* experiment = experiments::findExperiment(command)) {
        return runExperimentCommand(*experiment, rest, makeBackend);
    }
    if (command == "tma-check") {
        return tmaCheckCommand(rest, makeBackend);
    }
    const auto noArguments = [&](int (*body)(const BackendFactory&)) {
        if (!rest.empty()) {
            return usageError(command + " takes no arguments; found '" + rest.front() + "'");
        }
        return body(makeBackend);
    };
    if (command == "serve") {
        return noArguments(serveCommand);
    }
    if (command == "selfcheck") {
        return noArguments(selfcheckCommand);
    }
    if (command == "info") {
        return noArguments(infoCommand);
    }
    return usageError("unknown command '" + command + "'");
}

} // namespace warpscope::probe
