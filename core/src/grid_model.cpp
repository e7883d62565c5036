// The grid model: every thread of every warp of a kernel's launch, counted as the per-warp modern
// model counts one warp, summed; footprints per buffer; the first out-of-bounds, negative or
// misaligned thread. docs/models.md ("The grid model") states the rules.
#include "warpscope/kernel.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace warpscope {

namespace {

std::string decimal(std::int64_t value) {
    return std::to_string(value);
}

/// A set of 32-byte sectors of one buffer: a bitmap in 64 KiB pages allocated when first touched,
/// so that a large buffer touched in a few places costs little.
class SectorSet {
public:
    explicit SectorSet(std::int64_t sectors)
        : m_pages(static_cast<std::size_t>((sectors + kPageSectors - 1) / kPageSectors)) {}

    /// Marks the sector; true when it was not marked before.
    bool insert(std::int64_t sector) {
        auto& page = m_pages[static_cast<std::size_t>(sector / kPageSectors)];
        if (!page) {
            page = std::make_unique<std::uint64_t[]>(kPageWords);
        }
        const std::int64_t bit = sector % kPageSectors;
        std::uint64_t& word = page[static_cast<std::size_t>(bit / 64)];
        const std::uint64_t mask = std::uint64_t{1} << (bit % 64);
        if (word & mask) {
            return false;
        }
        word |= mask;
        ++m_count;
        return true;
    }

    std::int64_t count() const { return m_count; }

private:
    static constexpr std::int64_t kPageSectors = std::int64_t{1} << 19; // 64 KiB of bits
    static constexpr std::size_t kPageWords = kPageSectors / 64;
    std::vector<std::unique_ptr<std::uint64_t[]>> m_pages;
    std::int64_t m_count = 0;
};

bool isL1Cached(const AccessKind& kind) {
    return kind.op == AccessOp::Load && kind.cache != CachePath::CacheGlobal;
}

Dim3 blockIndex(const ResolvedKernel& kernel, std::int64_t blockLinear) {
    const Dim3& g = kernel.grid;
    return Dim3{blockLinear % g.x, (blockLinear / g.x) % g.y, blockLinear / (g.x * g.y)};
}

Dim3 threadIndex(const ResolvedKernel& kernel, std::int64_t linear) {
    const Dim3& b = kernel.block;
    return Dim3{linear % b.x, (linear / b.x) % b.y, linear / (b.x * b.y)};
}

std::string dimText(const Dim3& d) {
    return "(" + decimal(d.x) + ", " + decimal(d.y) + ", " + decimal(d.z) + ")";
}

/// "access 1 ("store out"), block (3, 0, 0), thread (5, 2, 0)": the place of one thread's access.
std::string threadPlace(const ResolvedKernel& kernel, int access, std::int64_t blockLinear,
                        std::int64_t threadLinear) {
    const KernelAccess& a = kernel.kernel.accesses[static_cast<std::size_t>(access)];
    std::string text = "/accesses/" + std::to_string(access);
    if (!a.label.empty()) {
        text += " (" + a.label + ")";
    }
    return text + ", block " + dimText(blockIndex(kernel, blockLinear)) + ", thread " +
           dimText(threadIndex(kernel, threadLinear));
}

/// Keeps the `limit` warps with the largest values, worst first; among equals the earliest.
class WorstWarps {
public:
    explicit WorstWarps(int limit) : m_limit(static_cast<std::size_t>(std::max(limit, 0))) {}

    void offer(std::int64_t block, std::int64_t warp, int value) {
        if (m_limit == 0 || value <= 0) {
            return;
        }
        if (m_list.size() == m_limit && value <= m_list.back().value) {
            return;
        }
        const auto at = std::upper_bound(m_list.begin(), m_list.end(), value,
                                         [](int v, const WarpRef& ref) { return v > ref.value; });
        m_list.insert(at, WarpRef{block, warp, value});
        if (m_list.size() > m_limit) {
            m_list.pop_back();
        }
    }

    std::vector<WarpRef> take() { return std::move(m_list); }

private:
    std::size_t m_limit;
    std::vector<WarpRef> m_list;
};

Error cancelledError() {
    return Error{ErrorCode::Cancelled, "the grid model was cancelled", 0, {}};
}

} // namespace

Result<GridPrediction> predictGrid(const ResolvedKernel& kernel, const GridOptions& options) {
    const std::size_t accessCount = kernel.accesses.size();
    const std::int64_t blocks = kernel.grid.count();
    const std::int64_t warpsPerBlock = kernel.warpsPerBlock();
    const std::int64_t totalWarps = kernel.warpCount();

    GridPrediction out;
    out.warps = totalWarps;
    out.accesses.resize(accessCount);
    std::vector<WorstWarps> worst(accessCount, WorstWarps(options.worstWarpCount));

    std::vector<SectorSet> readSets;
    std::vector<SectorSet> writeSets;
    for (const ResolvedBuffer& buffer : kernel.buffers) {
        out.buffers.push_back(GridBufferFootprint{buffer.name, buffer.bytes, 0, 0, 0, 0});
        const std::int64_t sectors = (buffer.bytes + kSectorBytes - 1) / kSectorBytes;
        readSets.emplace_back(sectors);
        writeSets.emplace_back(sectors);
    }
    // Sectors the L1-cached loads of the current block asked for, per buffer.
    std::vector<std::vector<std::int64_t>> blockCachedSectors(kernel.buffers.size());

    std::int64_t done = 0;
    constexpr std::int64_t kPollEvery = 2048;
    for (std::int64_t block = 0; block < blocks; ++block) {
        for (std::int64_t warp = 0; warp < warpsPerBlock; ++warp) {
            if (done % kPollEvery == 0) {
                if (options.cancelled != nullptr && options.cancelled->load()) {
                    return cancelledError();
                }
                if (options.progress && done > 0) {
                    options.progress(done, totalWarps);
                }
            }
            ++done;
            for (std::size_t a = 0; a < accessCount; ++a) {
                const ResolvedAccess& access = kernel.accesses[a];
                const AccessKind& kind = access.access.kind;
                auto resolved = resolveWarp(kernel, static_cast<int>(a), block, warp);
                if (!resolved) {
                    return resolved.error();
                }
                const WarpAccess& wa = resolved.value();
                GridAccessPrediction& acc = out.accesses[a];
                const int active = wa.activeLaneCount();
                acc.activeThreads += active;
                acc.bytesRequested += std::int64_t{active} * kind.widthBytes;
                // Bounds.
                for (int lane = 0; lane < kWarpSize; ++lane) {
                    const auto& address = wa.addresses[static_cast<std::size_t>(lane)];
                    if (!address) {
                        continue;
                    }
                    if (kind.space == MemorySpace::Shared) {
                        out.sharedBytesPerBlock =
                            std::max(out.sharedBytesPerBlock, *address + kind.widthBytes);
                        continue;
                    }
                    const ResolvedBuffer& buffer =
                        kernel.buffers[static_cast<std::size_t>(access.bufferIndex)];
                    if (*address + kind.widthBytes > buffer.bytes) {
                        return Error{ErrorCode::OutOfBounds,
                                     "address " + decimal(*address) + " + " +
                                         std::to_string(kind.widthBytes) +
                                         " bytes is past the end of '" + buffer.name + "' (" +
                                         decimal(buffer.bytes) + " bytes)",
                                     0,
                                     threadPlace(kernel, static_cast<int>(a), block,
                                                 warp * kWarpSize + lane)};
                    }
                }
                const ModernPrediction prediction = predictModern(wa);
                int value = 0;
                if (prediction.global) {
                    const GlobalPrediction& g = *prediction.global;
                    acc.requests += g.requests;
                    acc.sectors += g.sectors;
                    value = g.sectors;
                    auto& footprint = out.buffers[static_cast<std::size_t>(access.bufferIndex)];
                    SectorSet& set = kind.op == AccessOp::Load
                                         ? readSets[static_cast<std::size_t>(access.bufferIndex)]
                                         : writeSets[static_cast<std::size_t>(access.bufferIndex)];
                    for (const SectorUse& s : g.sectorList) {
                        set.insert(s.address / kSectorBytes);
                        if (isL1Cached(kind)) {
                            blockCachedSectors[static_cast<std::size_t>(access.bufferIndex)]
                                .push_back(s.address / kSectorBytes);
                        }
                    }
                    if (kind.op == AccessOp::Store) {
                        footprint.l2SectorsWritten += g.sectors;
                    } else if (!isL1Cached(kind)) {
                        footprint.l2SectorsRead += g.sectors;
                    }
                } else if (prediction.shared) {
                    acc.wavefronts += prediction.shared->wavefronts;
                    acc.bankConflicts += prediction.shared->bankConflicts;
                    value = prediction.shared->wavefronts;
                }
                acc.histogram[static_cast<std::size_t>(std::min(value, kHistogramBuckets - 1))] +=
                    1;
                worst[a].offer(block, warp, value);
            }
        }
        for (std::size_t b = 0; b < blockCachedSectors.size(); ++b) {
            auto& sectors = blockCachedSectors[b];
            std::sort(sectors.begin(), sectors.end());
            out.buffers[b].l2SectorsRead +=
                std::unique(sectors.begin(), sectors.end()) - sectors.begin();
            sectors.clear();
        }
    }
    if (options.progress) {
        options.progress(totalWarps, totalWarps);
    }
    for (std::size_t a = 0; a < accessCount; ++a) {
        out.accesses[a].worstWarps = worst[a].take();
    }
    for (std::size_t b = 0; b < out.buffers.size(); ++b) {
        out.buffers[b].sectorsRead = readSets[b].count();
        out.buffers[b].sectorsWritten = writeSets[b].count();
    }
    out.metrics = gridMetrics(kernel, out);
    return out;
}

std::vector<Metric> gridMetrics(const ResolvedKernel& kernel, const GridPrediction& prediction) {
    const std::vector<std::string>& names = nsightCounterNames();
    std::vector<double> counters(names.size(), 0.0);
    double bytesRead = 0.0;
    double bytesWritten = 0.0;
    double sharedBytes = 0.0;
    for (std::size_t a = 0; a < prediction.accesses.size(); ++a) {
        const AccessKind& kind = kernel.accesses[a].access.kind;
        const GridAccessPrediction& p = prediction.accesses[a];
        const AccessCounters which = nsightCountersFor(kind);
        const auto index = [&](const std::string& name) {
            return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) -
                                            names.begin());
        };
        if (kind.space == MemorySpace::Global) {
            counters[index(which.first)] += static_cast<double>(p.requests);
            counters[index(which.second)] += static_cast<double>(p.sectors);
            (kind.op == AccessOp::Load ? bytesRead : bytesWritten) +=
                static_cast<double>(p.bytesRequested);
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
    for (const GridBufferFootprint& b : prediction.buffers) {
        l2Read += static_cast<double>(b.l2SectorsRead);
        l2Write += static_cast<double>(b.l2SectorsWritten);
        footprintRead += static_cast<double>(b.sectorsRead);
        footprintWritten += static_cast<double>(b.sectorsWritten);
    }
    metrics.push_back({"lts__t_sectors_srcunit_tex_op_read.sum", l2Read});
    metrics.push_back({"lts__t_sectors_srcunit_tex_op_write.sum", l2Write});
    metrics.push_back({"dram__bytes_read.sum", footprintRead * kSectorBytes});
    metrics.push_back({"dram__bytes_write.sum", footprintWritten * kSectorBytes});
    metrics.push_back({"warpscope__bytes_requested_read", bytesRead});
    metrics.push_back({"warpscope__bytes_requested_write", bytesWritten});
    metrics.push_back({"warpscope__bytes_requested", bytesRead + bytesWritten});
    metrics.push_back({"warpscope__shared_bytes_requested", sharedBytes});
    metrics.push_back(
        {"warpscope__shared_bytes_per_block", static_cast<double>(prediction.sharedBytesPerBlock)});
    metrics.push_back({"warpscope__threads", static_cast<double>(kernel.threadCount())});
    metrics.push_back({"warpscope__warps", static_cast<double>(prediction.warps)});
    return metrics;
}

Result<std::int64_t> gridAddressExtent(const ResolvedKernel& kernel, int access,
                                       const GridOptions& options) {
    std::int64_t extent = 0;
    const std::int64_t blocks = kernel.grid.count();
    const std::int64_t warpsPerBlock = kernel.warpsPerBlock();
    const int width = kernel.accesses.at(static_cast<std::size_t>(access)).access.kind.widthBytes;
    std::int64_t done = 0;
    for (std::int64_t block = 0; block < blocks; ++block) {
        for (std::int64_t warp = 0; warp < warpsPerBlock; ++warp, ++done) {
            if (done % 2048 == 0 && options.cancelled != nullptr && options.cancelled->load()) {
                return cancelledError();
            }
            auto resolved = resolveWarp(kernel, access, block, warp);
            if (!resolved) {
                return resolved.error();
            }
            for (const auto& address : resolved->addresses) {
                if (address) {
                    extent = std::max(extent, *address + width);
                }
            }
        }
    }
    return extent;
}

} // namespace warpscope
