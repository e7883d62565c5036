// warpscope-cli predict-kernel (one kernel per JSON line in, the grid model's answer per line
// out) and kernels (the built-in kernel presets).
#include "cli_common.h"
#include "commands.h"
#include "kernel_options.h"

#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace warpscope::cli {

namespace {

/// The grid model's answer for one kernel as a JSON line: metrics, then per access counts.
ordered_json kernelLine(const ResolvedKernel& kernel, const GridPrediction& prediction) {
    ordered_json metrics = ordered_json::object();
    for (const Metric& metric : prediction.metrics) {
        metrics[metric.name] = metricValue(metric.value);
    }
    ordered_json accesses = ordered_json::array();
    for (std::size_t a = 0; a < prediction.accesses.size(); ++a) {
        const GridAccessPrediction& p = prediction.accesses[a];
        const KernelAccess& access = kernel.kernel.accesses[a];
        ordered_json entry = ordered_json::object();
        entry["label"] = access.label;
        const AccessCounters names = nsightCountersFor(access.kind);
        if (access.kind.space == MemorySpace::Constant) {
            entry["warpscope__constant_requests"] = p.requests;
            entry["warpscope__constant_addresses"] = p.constantAddresses;
            entry["warpscope__constant_extra_requests"] = p.constantAddresses - p.requests;
        } else if (usesSectors(access.kind.space)) {
            entry[names.first] = p.requests;
            entry[names.second] = p.sectors;
            if (access.kind.space == MemorySpace::Texture) {
                entry["warpscope__global_equivalent_sectors"] = p.globalEquivalentSectors;
            }
        } else {
            entry[names.first] = p.wavefronts;
            entry[names.second] = p.bankConflicts;
        }
        entry["warpscope__active_threads"] = p.activeThreads;
        entry["warpscope__bytes_requested"] = p.bytesRequested;
        accesses.push_back(std::move(entry));
    }
    ordered_json out = ordered_json::object();
    out["metrics"] = std::move(metrics);
    out["accesses"] = std::move(accesses);
    return out;
}

} // namespace

int runPredictKernel(const std::vector<std::string>& args) {
    KernelOptions options;
    if (!parseKernelOptions(args, "predict-kernel", true, options)) {
        return kExitBadInput;
    }
    if (!options.positional.empty()) {
        return usageError("predict-kernel reads its kernels from stdin (or takes --preset ID) "
                          "and takes no argument '" +
                          options.positional.front() + "'");
    }
    if (!options.preset.empty()) {
        const KernelPreset* preset = findKernelPreset(options.preset);
        if (preset == nullptr) {
            return usageError("no kernel preset is called '" + options.preset +
                              "' (warpscope-cli kernels lists them)");
        }
        Kernel kernel = preset->kernel;
        if (auto error = applyParameters(kernel, options)) {
            return usageError(error->describe());
        }
        ResolvedKernel resolved;
        auto prediction = predictKernel(kernel, resolved);
        if (!prediction) {
            writeLine(errorLine(1, prediction.error()));
            return kExitSomeLinesFailed;
        }
        writeLine(answerLine(1, kernelLine(resolved, prediction.value())));
        return kExitOk;
    }
    return answerStdinLines("predict-kernel", [&](const std::string& line) -> Result<ordered_json> {
        auto kernel = kernelFromJsonText(line);
        if (!kernel) {
            return withinLine(kernel.error());
        }
        if (auto error = applyParameters(kernel.value(), options)) {
            return *error;
        }
        ResolvedKernel resolved;
        auto prediction = predictKernel(kernel.value(), resolved);
        if (!prediction) {
            return prediction.error();
        }
        return kernelLine(resolved, prediction.value());
    });
}

int runKernelPresets(const std::vector<std::string>& args) {
    if (!args.empty()) {
        return usageError("kernels takes no argument '" + args.front() + "'");
    }
    std::string topic;
    for (const KernelPreset& preset : builtinKernelPresets()) {
        if (preset.topic != topic) {
            topic = preset.topic;
            std::cout << (topic.empty() ? "" : "\n") << topic << "\n";
        }
        std::cout << "  " << std::left << std::setw(28) << preset.id << std::right << preset.title
                  << "  [" << preset.source << "]\n";
    }
    std::cout << "\nAnalyze one with: warpscope-cli analyze-kernel <id> [--param NAME=VALUE]\n";
    return kExitOk;
}

} // namespace warpscope::cli
