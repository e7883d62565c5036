// `warpscope-probe run-kernel` (run_kernel.h).
#include "run_kernel.h"

#include "kernel_codegen.h"
#include "kernel_request.h"
#include "per_instruction_cli.h"
#include "probe_protocol.h"
#include "probe_text.h"
#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace warpscope::probe {

const char* const kRunKernelUsage =
    R"(run-kernel Measures a whole kernel on the GPU: the kernel the argument names (a kernel
           preset id, `warpscope-cli kernels` lists them; a kernel file; or kernel JSON
           as `warpscope-cli predict-kernel` reads it), generated with NVRTC, one memory
           instruction per access, over buffers of their real sizes. Prints the grid model's
           prediction beside the measured counters (one launch, L2 flushed first), the median
           time of the timed launches (L2 flushed before each unless --warm) and the effective
           bandwidth (bytes read + written by active threads / time).
  --param NAME=VALUE     set a kernel parameter; repeat for several
  --grid X[,Y[,Z]]       override the launch's grid
  --block X[,Y[,Z]]      override the launch's block
  --sweep NAME=V1,V2,... run once per value; repeat with lists of the same length to sweep
                         several parameters together (a block shape: --sweep bx=32,16
                         --sweep by=32,16)
  --warm                 no L2 flush between timed launches (labelled warm)
  --flush clean|dirty|none  how L2 is emptied before the timed and the counted launches
                         (experiments on the cold state): clean (default) writes 2 x L2 and
                         reads it back, dirty only writes it (L2 full of dirty lines), none
                         flushes nothing (warm, the counted launch too)
  --no-counters          skip the counters
  --repetitions N        timed launches for the median (default 21)
  --json                 one JSON line per kernel: the measure_kernel answer
  --source               print the generated CUDA source (no GPU needed); with --json, the
                         source and its memory instructions as JSON
  --per-instruction FILE print the kernel's per-access table from rows recorded by
                         scripts/gpu/per_instruction.sh (model, the instruction's own count,
                         hardware, the difference named; no GPU needed)
  --per-instruction-live also count every access's own SASS instruction on the GPU (CUPTI's
                         SASS metrics: one more launch, patched) and print the same table
                         from this measurement
)";

namespace {

using json = nlohmann::json;

void printRunError(const std::string& message) {
    std::cerr << "warpscope-probe: " << message << "\n";
}

int runUsageError(const std::string& message) {
    printRunError(message);
    std::cerr << "Run 'warpscope-probe --help' for the commands and options.\n";
    return kExitBadInput;
}

int reportError(const RequestError& error) {
    const ProbeErrorCode code = error.error.code;
    printRunError(std::string(probeErrorCodeName(code)) + ": " + error.error.message);
    if (code == ProbeErrorCode::NoDriver || code == ProbeErrorCode::NoDevice ||
        code == ProbeErrorCode::DriverTooOld) {
        return kExitNoGpu;
    }
    if (error.error.fatal) {
        return kExitFatal;
    }
    if (code == ProbeErrorCode::BadRequest || code == ProbeErrorCode::PatternRefused ||
        code == ProbeErrorCode::OutOfMemory) {
        return kExitBadInput;
    }
    return kExitProbeError;
}

std::optional<std::int64_t> parseInteger(const std::string& text) {
    if (text.empty()) {
        return std::nullopt;
    }
    std::size_t used = 0;
    try {
        const long long value = std::stoll(text, &used, 10);
        if (used != text.size()) {
            return std::nullopt;
        }
        return value;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::optional<json> parseDims(const std::string& text) {
    json dims = json::array();
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        auto value = parseInteger(part);
        if (!value || *value < 1) {
            return std::nullopt;
        }
        dims.push_back(*value);
    }
    if (dims.empty() || dims.size() > 3) {
        return std::nullopt;
    }
    while (dims.size() < 3) {
        dims.push_back(1);
    }
    return dims;
}

/// The kernel the argument names: a preset id, a file, or JSON text.
std::optional<Kernel> findKernel(const std::string& subject, std::string& why) {
    if (const KernelPreset* preset = findKernelPreset(subject)) {
        return preset->kernel;
    }
    std::string text;
    if (!subject.empty() && subject.front() == '{') {
        text = subject;
    } else {
        std::error_code ignored;
        if (!std::filesystem::exists(subject, ignored)) {
            why = "'" + subject +
                  "' is neither a kernel preset id (warpscope-cli kernels lists them), a "
                  "kernel file nor kernel JSON";
            return std::nullopt;
        }
        // The one opener: a FIFO or a device is refused without blocking, the size is capped.
        auto read = readTextFile(subject);
        if (!read) {
            why = read.error().describe();
            return std::nullopt;
        }
        text = std::move(read).value();
    }
    auto kernel = kernelFromJsonText(text);
    if (!kernel) {
        why = subject.front() == '{' ? kernel.error().describe()
                                     : subject + ": " + kernel.error().describe();
        return std::nullopt;
    }
    return kernel.value();
}

bool isExactCounter(const std::string& name) {
    return name.rfind("l1tex__t_requests_pipe_lsu_mem_global", 0) == 0 ||
           name.rfind("l1tex__t_sectors_pipe_lsu_mem_global", 0) == 0 ||
           name == "warpscope__constant_extra_requests" ||
           name.rfind("l1tex__t_requests_pipe_lsu_mem_local", 0) == 0 ||
           name.rfind("l1tex__t_sectors_pipe_lsu_mem_local", 0) == 0 ||
           name.rfind("l1tex__t_requests_pipe_tex_mem_texture", 0) == 0 ||
           name.rfind("l1tex__t_sectors_pipe_tex_mem_texture", 0) == 0;
}

/// The counter table of one kernel; returns how many exact counters differ.
int printCounters(const json& m) {
    const json& predicted = m["predicted"];
    const json& counters = m["counters"];
    std::cout << pad("counter", 48) << pad("predicted", 14, true) << pad("measured", 14, true)
              << "  match\n";
    int mismatches = 0;
    std::vector<std::string> names = kernelCopyCounterNames();
    // Kernels with a constant access: the constant cache's counters and the one the model
    // predicts exactly from them.
    for (const std::string& name : constantCounterNames()) {
        names.push_back(name);
    }
    names.emplace_back("warpscope__constant_extra_requests");
    names.emplace_back("warpscope__constant_addresses");
    for (const std::string& name : names) {
        const bool hasPrediction = predicted.contains(name);
        const bool hasMeasurement = counters.contains(name);
        if (!hasPrediction && !hasMeasurement) {
            continue;
        }
        const double p = hasPrediction ? predicted[name].get<double>() : 0.0;
        const double v = hasMeasurement ? counters[name].get<double>() : 0.0;
        std::string match = "";
        if (hasPrediction && hasMeasurement) {
            if (isExactCounter(name)) {
                match = p == v ? "✓" : "✗";
                mismatches += p == v ? 0 : 1;
            } else if (p > 0.0) {
                match = (v >= p ? "+" : "") + fixed(100.0 * (v - p) / p, 1) + " %";
            }
        }
        std::cout << pad(name, 48) << pad(hasPrediction ? number(p) : "-", 14, true)
                  << pad(hasMeasurement ? number(v) : "-", 14, true) << "  " << match << "\n";
    }
    return mismatches;
}

void printTiming(const json& m) {
    const json& timing = m["timing"];
    const json& ms = timing["kernelMs"];
    std::cout << "\nTime (" << timing["label"].get<std::string>() << "), median of "
              << ms["samples"].get<int>() << " launches: " << fixed(ms["median"].get<double>(), 4)
              << " ms (min " << fixed(ms["min"].get<double>(), 4) << ", max "
              << fixed(ms["max"].get<double>(), 4) << ", spread "
              << fixed(ms["spreadPct"].get<double>(), 1) << " %)\n";
    std::cout << "Effective bandwidth: " << fixed(m["effectiveBandwidthGBs"].get<double>(), 1)
              << " GB/s (" << number(m["bytesRequested"].get<double>())
              << " bytes read + written by active threads)";
    if (!m["shareOfCopyBandwidthPct"].is_null()) {
        std::cout << ", " << fixed(m["shareOfCopyBandwidthPct"].get<double>(), 1)
                  << " % of the measured copy bandwidth ("
                  << fixed(m["copyBandwidthGBs"].get<double>(), 0) << " GB/s)";
    }
    if (!m["shareOfTheoreticalBandwidthPct"].is_null()) {
        std::cout << ", " << fixed(m["shareOfTheoreticalBandwidthPct"].get<double>(), 1)
                  << " % of the theoretical ("
                  << fixed(m["theoreticalBandwidthGBs"].get<double>(), 0) << " GB/s)";
    }
    std::cout << "\n";
}

std::string launchText(const json& m) {
    auto dims = [](const json& d) {
        return std::to_string(d[0].get<std::int64_t>()) + "x" +
               std::to_string(d[1].get<std::int64_t>()) + "x" +
               std::to_string(d[2].get<std::int64_t>());
    };
    std::string text = "grid " + dims(m["grid"]) + ", block " + dims(m["block"]);
    for (const auto& [name, value] : m["parameters"].items()) {
        text += ", " + name + "=" + std::to_string(value.get<std::int64_t>());
    }
    return text;
}

} // namespace

int runKernelCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend) {
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::int64_t>> params;
    std::optional<json> gridOverride;
    std::optional<json> blockOverride;
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> sweeps;
    KernelMeasureOptions options;
    bool asJson = false;
    bool sourceOnly = false;
    std::optional<std::string> perInstructionFile;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--per-instruction") {
            if (i + 1 >= args.size()) {
                return runUsageError("the option --per-instruction needs a file");
            }
            perInstructionFile = args[++i];
            continue;
        }
        if (arg == "--warm") {
            options.cold = false;
            continue;
        }
        if (arg == "--per-instruction-live") {
            options.perInstruction = true;
            continue;
        }
        if (arg == "--no-counters") {
            options.counters = false;
            continue;
        }
        if (arg == "--json") {
            asJson = true;
            continue;
        }
        if (arg == "--source") {
            sourceOnly = true;
            continue;
        }
        if (arg.rfind("--", 0) != 0) {
            positional.push_back(arg);
            continue;
        }
        if (arg != "--param" && arg != "--grid" && arg != "--block" && arg != "--sweep" &&
            arg != "--repetitions" && arg != "--flush") {
            return runUsageError("unknown option '" + arg + "' for run-kernel");
        }
        if (i + 1 >= args.size()) {
            return runUsageError("the option " + arg + " needs a value");
        }
        const std::string& value = args[++i];
        if (arg == "--flush") {
            if (value == "clean") {
                options.flush = KernelMeasureOptions::Flush::Clean;
            } else if (value == "dirty") {
                options.flush = KernelMeasureOptions::Flush::Dirty;
            } else if (value == "none") {
                options.flush = KernelMeasureOptions::Flush::None;
            } else {
                return runUsageError("--flush takes clean, dirty or none, not '" + value + "'");
            }
        } else if (arg == "--repetitions") {
            auto n = parseInteger(value);
            if (!n || *n < 1 || *n > 1000) {
                return runUsageError("--repetitions takes an integer from 1 to 1000, not '" +
                                     value + "'");
            }
            options.repetitions = static_cast<int>(*n);
        } else if (arg == "--grid" || arg == "--block") {
            auto dims = parseDims(value);
            if (!dims) {
                return runUsageError(arg + " takes X[,Y[,Z]] of positive integers, not '" + value +
                                     "'");
            }
            (arg == "--grid" ? gridOverride : blockOverride) = *dims;
        } else {
            const auto equals = value.find('=');
            if (equals == std::string::npos || equals == 0) {
                return runUsageError(arg + " takes NAME=VALUE" +
                                     (arg == "--sweep" ? std::string(",VALUE...") : "") +
                                     ", not '" + value + "'");
            }
            const std::string name = value.substr(0, equals);
            std::vector<std::int64_t> values;
            std::stringstream in(value.substr(equals + 1));
            std::string part;
            while (std::getline(in, part, ',')) {
                auto n = parseInteger(part);
                if (!n) {
                    return runUsageError(arg + " " + name + ": '" + part + "' is not an integer");
                }
                values.push_back(*n);
            }
            if (values.empty() || (arg == "--param" && values.size() != 1)) {
                return runUsageError(arg + " " + name + " needs " +
                                     (arg == "--param" ? "one integer value" : "values"));
            }
            if (arg == "--param") {
                params.emplace_back(name, values.front());
            } else {
                if (!sweeps.empty() && sweeps.front().second.size() != values.size()) {
                    return runUsageError("every --sweep needs as many values as the first (" +
                                         std::to_string(sweeps.front().second.size()) + ")");
                }
                sweeps.emplace_back(name, values);
            }
        }
    }
    if (positional.size() != 1) {
        return runUsageError(
            positional.empty() ? "run-kernel needs a kernel: a kernel preset id, a kernel file or "
                                 "kernel JSON"
                               : "run-kernel takes one kernel; found '" + positional[1] + "'");
    }
    if (perInstructionFile) {
        return printPerInstructionTable(positional.front(), *perInstructionFile);
    }
    std::string why;
    auto kernel = findKernel(positional.front(), why);
    if (!kernel) {
        printRunError(why);
        return kExitBadInput;
    }
    for (const auto& [name, value] : params) {
        const std::string& wanted = name; // clang 14 cannot capture a structured binding
        auto found = std::find_if(kernel->parameters.begin(), kernel->parameters.end(),
                                  [&](const Parameter& p) { return p.name == wanted; });
        if (found == kernel->parameters.end()) {
            return runUsageError("the kernel " + kernel->name + " has no parameter '" + name + "'");
        }
        found->value = value;
    }
    for (int axis = 0; axis < 3; ++axis) {
        if (gridOverride) {
            kernel->launch.grid[static_cast<std::size_t>(axis)] =
                std::to_string((*gridOverride)[static_cast<std::size_t>(axis)].get<std::int64_t>());
        }
        if (blockOverride) {
            kernel->launch.block[static_cast<std::size_t>(axis)] = std::to_string(
                (*blockOverride)[static_cast<std::size_t>(axis)].get<std::int64_t>());
        }
    }
    const json kernelJson = kernelToJson(*kernel);
    json sweep = json::array();
    if (!sweeps.empty()) {
        for (std::size_t i = 0; i < sweeps.front().second.size(); ++i) {
            json point = json::object();
            for (const auto& [name, values] : sweeps) {
                point[name] = values[i];
            }
            sweep.push_back(std::move(point));
        }
    }
    std::atomic<bool> cancelled{false};
    auto items = prepareKernelItems(kernelJson, sweeps.empty() ? nullptr : &sweep, &cancelled);
    if (auto* error = std::get_if<RequestError>(&items)) {
        return reportError(*error);
    }
    const auto& list = std::get<std::vector<KernelItem>>(items);

    if (sourceOnly) {
        for (const KernelItem& item : list) {
            const GeneratedKernel generated =
                generateKernelSource(item.kernel, item.prediction.localBytesPerThread);
            if (asJson) {
                json instructions = json::array();
                for (const std::string& instruction : generated.expectedMemoryInstructions) {
                    instructions.push_back(instruction);
                }
                std::cout << json{{"kernel", item.kernel.kernel.name},
                                  {"entryPoint", generated.entryPoint},
                                  {"sharedBytesPerBlock", item.prediction.sharedBytesPerBlock},
                                  {"memoryInstructions", std::move(instructions)},
                                  {"source", generated.source}}
                                 .dump()
                          << "\n";
            } else {
                std::cout << generated.source;
            }
        }
        return kExitOk;
    }

    auto backend = makeBackend();
    // Device facts open the counter session too; without counters and without JSON they are not
    // asked for, so that the probe can run under ncu and compute-sanitizer without CUPTI.
    DeviceInfo info;
    const bool wantInfo = options.counters || asJson;
    if (wantInfo) {
        auto device = backend->deviceInfo();
        if (auto* error = std::get_if<ProbeError>(&device)) {
            return reportError(RequestError(*error));
        }
        info = std::get<DeviceInfo>(device);
    }
    auto measured = backend->measureKernels(list, options,
                                            [&](int done, int total) {
                                                if (!asJson && total > 1) {
                                                    std::cerr << "\r" << done << " / " << total
                                                              << " kernels" << std::flush;
                                                    if (done == total) {
                                                        std::cerr << "\n";
                                                    }
                                                }
                                            },
                                            {});
    if (auto* error = std::get_if<ProbeError>(&measured)) {
        return reportError(RequestError(*error));
    }
    const auto& results = std::get<std::vector<KernelMeasurement>>(measured);
    int mismatches = 0;
    if (asJson) {
        for (std::size_t i = 0; i < results.size(); ++i) {
            json line = toJson(results[i], list[i]);
            line["device"] = toJson(info);
            std::cout << line.dump() << "\n";
            const json& predicted = line["predicted"];
            for (const auto& [name, value] : line["counters"].items()) {
                if (isExactCounter(name) && predicted.contains(name) && predicted[name] != value) {
                    ++mismatches;
                }
            }
        }
        return mismatches > 0 ? kExitMismatch : kExitOk;
    }
    if (wantInfo) {
        std::cout << "Device:   " << info.name << " (compute capability "
                  << info.computeCapabilityMajor << "." << info.computeCapabilityMinor << ", "
                  << info.smCount << " SMs, driver " << info.driverVersion << ")\n";
    }
    if (list.size() == 1) {
        const json m = toJson(results.front(), list.front());
        std::cout << "Kernel:   " << kernel->name << ": " << launchText(m) << "\n\n";
        if (m["countersMeasured"].get<bool>()) {
            mismatches += printCounters(m);
        } else {
            std::cout << "Counters not measured: "
                      << m["countersUnavailableReason"].get<std::string>() << "\n";
        }
        printTiming(m);
        if (m.contains("perInstruction")) {
            printLivePerInstruction(m);
        }
    } else {
        std::cout << "Kernel:   " << kernel->name << ", " << list.size() << " points ("
                  << (options.cold && options.flush != KernelMeasureOptions::Flush::None
                          ? "cold: L2 flushed before each launch"
                          : "warm")
                  << ")\n\n";
        std::cout << pad("launch", 48) << pad("ms", 10, true) << pad("GB/s", 10, true)
                  << pad("% copy", 9, true) << "  counters\n";
        for (std::size_t i = 0; i < results.size(); ++i) {
            const json m = toJson(results[i], list[i]);
            int differ = 0;
            for (const auto& [name, value] : m["counters"].items()) {
                if (isExactCounter(name) && m["predicted"].contains(name) &&
                    m["predicted"][name] != value) {
                    ++differ;
                }
            }
            mismatches += differ;
            const json& share = m["shareOfCopyBandwidthPct"];
            std::cout << pad(launchText(m), 48)
                      << pad(fixed(m["timing"]["kernelMs"]["median"].get<double>(), 4), 10, true)
                      << pad(fixed(m["effectiveBandwidthGBs"].get<double>(), 1), 10, true)
                      << pad(share.is_null() ? "-" : fixed(share.get<double>(), 1), 9, true) << "  "
                      << (!m["countersMeasured"].get<bool>() ? "-"
                          : differ == 0                      ? "✓ as predicted"
                                        : "✗ " + std::to_string(differ) + " differ")
                      << "\n";
        }
    }
    if (mismatches > 0) {
        std::cout << "\n"
                  << mismatches << " global request/sector counter"
                  << (mismatches == 1 ? " differs" : "s differ") << " from the grid model.\n";
        return kExitMismatch;
    }
    return kExitOk;
}

} // namespace warpscope::probe
