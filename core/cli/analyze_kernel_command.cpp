// warpscope-cli analyze-kernel: the grid model over every thread of a whole kernel, printed for
// a reader: per access the requests and sectors (or wavefronts), how the warps spread, the worst
// warp, each buffer's footprint and the totals under Nsight Compute's names. The estimate of the
// walk is printed before it starts, a launch over the grid model's budget is refused with it, and
// a long walk shows its progress and stops on Ctrl+C (grid_walk.h).
#include "cli_common.h"
#include "commands.h"
#include "grid_walk.h"
#include "kernel_options.h"

#include "warpscope/command_line_text.h"
#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"
#include "warpscope/model.h"
#include "warpscope/pattern.h"

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

std::string dimText(const Dim3& d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) +
           ")";
}

/// "4:131072 5:3" for the non-empty buckets of a histogram.
std::string histogramText(const std::array<std::int64_t, kHistogramBuckets>& histogram) {
    std::string text;
    for (std::size_t k = 0; k < histogram.size(); ++k) {
        if (histogram[k] != 0) {
            text += (text.empty() ? "" : "  ") + std::to_string(k) +
                    (k + 1 == histogram.size() ? "+" : "") + ": " + groupDigits(histogram[k]);
        }
    }
    return text.empty() ? "none" : text;
}

} // namespace

int runAnalyzeKernel(const std::vector<std::string>& args) {
    KernelOptions options;
    if (!parseKernelOptions(args, "analyze-kernel", false, options)) {
        return kExitBadInput;
    }
    if (options.positional.size() != 1) {
        return usageError("analyze-kernel takes one kernel preset id or kernel file, e.g. "
                          "warpscope-cli analyze-kernel transpose-naivecol");
    }
    const std::string& subject = options.positional.front();
    Kernel kernel;
    std::string source;
    if (const KernelPreset* preset = findKernelPreset(subject)) {
        kernel = preset->kernel;
        source = preset->title + " (" + preset->source + ")";
    } else {
        auto text = readTextFile(subject);
        if (!text) {
            printError("'" + subject +
                       "' is neither a kernel preset (warpscope-cli kernels lists them) nor a "
                       "readable file: " +
                       text.error().message);
            return kExitBadInput;
        }
        auto parsed = kernelFromJsonText(text.value());
        if (!parsed) {
            printError(subject + ": " + parsed.error().describe());
            return kExitBadInput;
        }
        kernel = std::move(parsed).value();
        source = subject;
    }
    if (auto error = applyParameters(kernel, options)) {
        return usageError(error->describe());
    }
    auto resolvedKernel = resolveKernel(kernel);
    if (!resolvedKernel) {
        printError(resolvedKernel.error().describe());
        return kExitBadInput;
    }
    const ResolvedKernel& resolved = resolvedKernel.value();
    std::cout << "Kernel "
              << (kernel.name.empty() ? std::string("(unnamed)") : terminalText(kernel.name))
              << ": " << terminalText(source) << "\n";
    if (!kernel.parameters.empty()) {
        std::cout << "Parameters:";
        for (const Parameter& p : kernel.parameters) {
            std::cout << " " << p.name << "=" << p.value;
        }
        std::cout << "\n";
    }
    std::cout << "Launch: grid " << dimText(resolved.grid) << ", block " << dimText(resolved.block)
              << ": " << groupDigits(resolved.threadCount()) << " threads, "
              << groupDigits(resolved.warpCount()) << " warps\n";
    for (const ResolvedBuffer& buffer : resolved.buffers) {
        std::cout << "Buffer " << buffer.name << ": " << groupDigits(buffer.bytes) << " bytes\n";
    }
    // What the walk costs, before it starts: a reader sees at once why a huge launch is refused
    // or takes long.
    std::cout << estimateLine(resolved, estimateGrid(resolved)) << std::endl;
    if (auto overBudget = checkGridBudget(resolved)) {
        printError(overBudget->describe());
        return kExitBadInput;
    }
    auto prediction = walkGrid(resolved, progressWanted(options.progress));
    if (!prediction) {
        printError(prediction.error().describe());
        return prediction.error().code == ErrorCode::Cancelled ? kExitInterrupted : kExitBadInput;
    }
    const GridPrediction& grid = prediction.value();
    if (grid.sharedBytesPerBlock > 0) {
        std::cout << "Shared memory: " << groupDigits(grid.sharedBytesPerBlock)
                  << " bytes per block\n";
    }
    if (grid.localBytesPerThread > 0) {
        std::cout << "Local memory: " << groupDigits(grid.localBytesPerThread)
                  << " bytes per thread (interleaved: a warp's same word side by side)\n";
    }
    std::cout << "\n";
    for (std::size_t a = 0; a < grid.accesses.size(); ++a) {
        const KernelAccess& access = kernel.accesses[a];
        const GridAccessPrediction& p = grid.accesses[a];
        std::cout << "Access " << a << (access.label.empty() ? "" : " (" + access.label + ")")
                  << ": " << describeAccessKind(access.kind)
                  << (access.buffer.empty() ? "" : ", buffer " + access.buffer) << "\n";
        std::cout << "  address  " << access.addressExpression << "\n";
        if (access.kind.op == AccessOp::CopyAsync) {
            std::cout << "  shared   " << access.sharedAddressExpression << "\n";
        }
        if (access.activeExpression != "1") {
            std::cout << "  active   " << access.activeExpression << "\n";
        }
        std::cout << "  active threads   " << std::setw(16) << groupDigits(p.activeThreads) << "\n";
        if (usesSectors(access.kind.space)) {
            std::cout << "  requests         " << std::setw(16) << groupDigits(p.requests) << "\n"
                      << "  sectors          " << std::setw(16) << groupDigits(p.sectors) << "\n";
            if (access.kind.space == MemorySpace::Texture) {
                std::cout << "  global-load equivalent sectors " << std::setw(16)
                          << groupDigits(p.globalEquivalentSectors) << "\n";
            }
            if (p.requests > 0) {
                std::cout << "  sectors/request  " << std::setw(16) << std::fixed
                          << std::setprecision(2)
                          << static_cast<double>(p.sectors) / static_cast<double>(p.requests)
                          << "\n";
            }
            if (access.kind.op == AccessOp::CopyAsync) {
                std::cout << "  shared side (written one global line at a time):\n"
                          << "  wavefronts       " << std::setw(16) << groupDigits(p.wavefronts)
                          << "\n"
                          << "  bank conflicts   " << std::setw(16) << groupDigits(p.bankConflicts)
                          << "\n";
            }
        } else if (access.kind.space == MemorySpace::Constant) {
            std::cout << "  requests         " << std::setw(16) << groupDigits(p.requests) << "\n"
                      << "  distinct addr.   " << std::setw(16) << groupDigits(p.constantAddresses)
                      << "   (constant-cache rounds, served one after another)\n";
            if (p.requests > 0) {
                std::cout << "  rounds/request   " << std::setw(16) << std::fixed
                          << std::setprecision(2)
                          << static_cast<double>(p.constantAddresses) /
                                 static_cast<double>(p.requests)
                          << "\n";
            }
        } else {
            std::cout << "  wavefronts       " << std::setw(16) << groupDigits(p.wavefronts) << "\n"
                      << "  bank conflicts   " << std::setw(16) << groupDigits(p.bankConflicts)
                      << "\n";
        }
        std::cout << "  bytes requested  " << std::setw(16) << groupDigits(p.bytesRequested)
                  << "\n";
        std::cout << "  warps by "
                  << (usesSectors(access.kind.space)               ? "sectors per request"
                      : access.kind.space == MemorySpace::Constant ? "distinct addresses"
                                                                   : "wavefronts")
                  << ": " << histogramText(p.histogram) << "\n";
        if (!p.worstWarps.empty()) {
            const WarpRef& worst = p.worstWarps.front();
            std::cout << "  worst warp: block " << groupDigits(worst.blockLinear) << ", warp "
                      << worst.warpInBlock << " (" << worst.value << ")\n";
        }
        std::cout << "\n";
    }
    std::cout << "Buffers (footprint: distinct 32-byte sectors; L2: sectors L1 asks L2 for, "
                 "estimated; in part: written sectors some store request writes only in part)\n";
    std::cout << "  " << std::left << std::setw(12) << "buffer" << std::right << std::setw(14)
              << "read" << std::setw(14) << "written" << std::setw(14) << "L2 read" << std::setw(14)
              << "L2 written" << std::setw(14) << "in part"
              << "\n";
    std::int64_t footprintRead = 0;
    std::int64_t inPart = 0;
    std::int64_t filled = 0;
    for (const GridBufferFootprint& b : grid.buffers) {
        std::cout << "  " << std::left << std::setw(12) << b.name << std::right << std::setw(14)
                  << groupDigits(b.sectorsRead) << std::setw(14) << groupDigits(b.sectorsWritten)
                  << std::setw(14) << groupDigits(b.l2SectorsRead) << std::setw(14)
                  << groupDigits(b.l2SectorsWritten) << std::setw(14)
                  << groupDigits(b.sectorsWrittenInPart) << "\n";
        footprintRead += b.sectorsRead;
        inPart += b.sectorsWrittenInPart;
        filled += b.sectorsFilled;
    }
    std::cout << "DRAM read of a cold launch: at least the footprint, "
              << groupDigits(footprintRead * 32) << " bytes";
    if (inPart > 0) {
        std::cout << ", plus DRAM fills of the sectors written in part that L2 evicts before "
                     "they are complete (predicted: "
                  << groupDigits(filled * 32)
                  << " bytes, by a rule that does not see warps drift apart; "
                  << groupDigits(inPart * 32)
                  << " bytes if each were filled once; docs/models.md, \"Sectors written in "
                     "part\")";
    }
    std::cout << "\n";
    std::cout << "\nTotals (Nsight Compute names; warpscope__ extras in docs/metrics.md)\n";
    for (const Metric& metric : grid.metrics) {
        std::cout << "  " << std::left << std::setw(58) << metric.name << std::right
                  << std::setw(18) << groupDigits(static_cast<std::int64_t>(metric.value)) << "\n";
    }
    return kExitOk;
}

} // namespace warpscope::cli
