// The grid model's counters: a grid prediction's totals under Nsight Compute's names and
// warpscope's own (docs/models.md, "The grid model"), and the lists of those names.
#include "kernel_internal.h"
#include "warpscope/kernel.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace warpscope {

std::vector<Metric> gridMetrics(const ResolvedKernel& kernel, const GridPrediction& prediction) {
    const std::vector<std::string>& names = nsightCounterNames();
    std::vector<double> counters(names.size(), 0.0);
    double bytesRead = 0.0;
    double bytesWritten = 0.0;
    double sharedBytes = 0.0;
    bool hasConstant = false;
    double constantRequests = 0.0;
    double constantAddresses = 0.0;
    double constantBytes = 0.0;
    double localBytes = 0.0;
    double equivalentSectors = 0.0;
    std::vector<double> localCounters(localCounterNames().size(), 0.0);
    std::vector<double> textureCounters(textureCounterNames().size(), 0.0);
    bool anyLocal = false;
    bool anyTexture = false;
    for (const ResolvedAccess& access : kernel.accesses) {
        anyLocal = anyLocal || access.access.kind.space == MemorySpace::Local;
        anyTexture = anyTexture || access.access.kind.space == MemorySpace::Texture;
    }
    bool anyCopy = false;
    std::array<double, 4> copy{}; // copyAsyncCounterNames(), in order
    for (std::size_t a = 0; a < prediction.accesses.size(); ++a) {
        const AccessKind& kind = kernel.accesses[a].access.kind;
        const GridAccessPrediction& p = prediction.accesses[a];
        if (kind.space == MemorySpace::Constant) {
            hasConstant = true;
            constantRequests += static_cast<double>(p.requests);
            constantAddresses += static_cast<double>(p.constantAddresses);
            constantBytes += static_cast<double>(p.bytesRequested);
            continue;
        }
        const AccessCounters which = nsightCountersFor(kind);
        const auto index = [&](const std::string& name) {
            return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) -
                                            names.begin());
        };
        if (kind.space == MemorySpace::Local || kind.space == MemorySpace::Texture) {
            const bool local = kind.space == MemorySpace::Local;
            std::vector<double>& extra = local ? localCounters : textureCounters;
            const std::vector<std::string>& extraNames =
                local ? localCounterNames() : textureCounterNames();
            const auto at = [&](const std::string& name) {
                return static_cast<std::size_t>(
                    std::find(extraNames.begin(), extraNames.end(), name) - extraNames.begin());
            };
            extra[at(which.first)] += static_cast<double>(p.requests);
            extra[at(which.second)] += static_cast<double>(p.sectors);
            if (local) {
                localBytes += static_cast<double>(p.bytesRequested);
            } else {
                bytesRead += static_cast<double>(p.bytesRequested);
                equivalentSectors += static_cast<double>(p.globalEquivalentSectors);
            }
        } else if (kind.space == MemorySpace::Global) {
            counters[index(which.first)] += static_cast<double>(p.requests);
            counters[index(which.second)] += static_cast<double>(p.sectors);
            (kind.op != AccessOp::Store ? bytesRead : bytesWritten) +=
                static_cast<double>(p.bytesRequested);
            if (kind.op == AccessOp::CopyAsync) {
                anyCopy = true;
                copy[0] += static_cast<double>(p.requests);
                copy[1] += static_cast<double>(p.sectors);
                copy[2] += static_cast<double>(p.wavefronts);
                copy[3] += static_cast<double>(p.bankConflicts);
                sharedBytes += static_cast<double>(p.bytesRequested);
            }
        } else {
            counters[index(which.first)] += static_cast<double>(p.wavefronts);
            counters[index(which.second)] += static_cast<double>(p.bankConflicts);
            sharedBytes += static_cast<double>(p.bytesRequested);
        }
    }
    std::vector<Metric> metrics;
    for (std::size_t i = 0; i < names.size(); ++i) {
        metrics.push_back({names[i], counters[i]});
    }
    double l2Read = 0.0;
    double l2Write = 0.0;
    double footprintRead = 0.0;
    double footprintWritten = 0.0;
    double writtenInPart = 0.0;
    double filled = 0.0;
    for (const GridBufferFootprint& b : prediction.buffers) {
        writtenInPart += static_cast<double>(b.sectorsWrittenInPart);
        filled += static_cast<double>(b.sectorsFilled);
        l2Read += static_cast<double>(b.l2SectorsRead);
        l2Write += static_cast<double>(b.l2SectorsWritten);
        footprintRead += static_cast<double>(b.sectorsRead);
        footprintWritten += static_cast<double>(b.sectorsWritten);
    }
    if (anyCopy) {
        // Only for kernels with an async copy, so that a measurement of any other kernel
        // requests no extra counter.
        for (std::size_t i = 0; i < copy.size(); ++i) {
            metrics.push_back({copyAsyncCounterNames()[i], copy[i]});
        }
    }
    metrics.push_back({"lts__t_sectors_srcunit_tex_op_read.sum", l2Read});
    metrics.push_back({"lts__t_sectors_srcunit_tex_op_write.sum", l2Write});
    metrics.push_back({"dram__bytes_read.sum", (footprintRead + filled) * kSectorBytes});
    metrics.push_back({"dram__bytes_write.sum", footprintWritten * kSectorBytes});
    metrics.push_back({"warpscope__bytes_requested_read", bytesRead});
    metrics.push_back({"warpscope__bytes_requested_write", bytesWritten});
    metrics.push_back({"warpscope__bytes_requested", bytesRead + bytesWritten});
    metrics.push_back({"warpscope__shared_bytes_requested", sharedBytes});
    metrics.push_back(
        {"warpscope__shared_bytes_per_block", static_cast<double>(prediction.sharedBytesPerBlock)});
    metrics.push_back({"warpscope__threads", static_cast<double>(kernel.threadCount())});
    metrics.push_back({"warpscope__warps", static_cast<double>(prediction.warps)});
    metrics.push_back({"warpscope__sectors_written_in_part", writtenInPart});
    metrics.push_back({"warpscope__sectors_filled", filled});
    metrics.push_back({"warpscope__footprint_bytes_read", footprintRead * kSectorBytes});
    if (hasConstant) {
        // Only for kernels with a constant access, so other kernels' metric lists are unchanged.
        metrics.push_back({"warpscope__constant_requests", constantRequests});
        metrics.push_back({"warpscope__constant_addresses", constantAddresses});
        metrics.push_back(
            {"warpscope__constant_extra_requests", constantAddresses - constantRequests});
        metrics.push_back({"warpscope__constant_bytes_requested", constantBytes});
    }
    // Only kernels with local or texture accesses carry these names (the probe measures them
    // for such kernels only).
    if (anyLocal) {
        for (std::size_t i = 0; i < localCounters.size(); ++i) {
            metrics.push_back({localCounterNames()[i], localCounters[i]});
        }
        metrics.push_back({"warpscope__local_bytes_requested", localBytes});
        metrics.push_back({"warpscope__local_bytes_per_thread",
                           static_cast<double>(prediction.localBytesPerThread)});
    }
    if (anyTexture) {
        for (std::size_t i = 0; i < textureCounters.size(); ++i) {
            metrics.push_back({textureCounterNames()[i], textureCounters[i]});
        }
        metrics.push_back({"warpscope__texture_global_equivalent_sectors", equivalentSectors});
    }
    return metrics;
}
const std::vector<std::string>& gridCounterNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list = nsightCounterNames();
        list.emplace_back("lts__t_sectors_srcunit_tex_op_read.sum");
        list.emplace_back("lts__t_sectors_srcunit_tex_op_write.sum");
        return list;
    }();
    return names;
}

const std::vector<std::string>& kernelCounterNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list = gridCounterNames();
        for (const char* name : {"dram__bytes_read.sum", "dram__bytes_write.sum",
                                 "l1tex__t_sector_hit_rate.pct", "gpu__time_duration.sum"}) {
            list.emplace_back(name);
        }
        return list;
    }();
    return names;
}

const std::vector<std::string>& kernelCopyCounterNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list = kernelCounterNames();
        // The shared side's wavefronts and conflicts exist per instruction only as SASS-patched
        // metrics, which Nsight Compute measures and CUPTI's range profiler does not; the probe
        // reads the hardware conflict counter instead, which also counts conflicts with other
        // warps' traffic (at least the model's; docs/metrics.md).
        const std::vector<std::string>& copy = copyAsyncCounterNames();
        list.push_back(copy[0]);
        list.push_back(copy[1]);
        list.emplace_back(kCopyAsyncHardwareConflicts);
        return list;
    }();
    return names;
}

} // namespace warpscope
