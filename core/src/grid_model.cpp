// The grid model: every thread of every warp of a kernel's launch, counted as the per-warp modern
// model counts one warp, summed; footprints per buffer; the first out-of-bounds, negative or
// misaligned thread. docs/models.md ("The grid model") states the rules.
#include "grid_budget.h"
#include "grid_model_counting.h"
#include "grid_model_walker.h"
#include "kernel_internal.h"
#include "warpscope/kernel.h"

#include <algorithm>
#include <array>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

namespace warpscope {

namespace {

using detail::CopyCounts;
using detail::copySharedCounts;
using detail::distinctAddresses;
using detail::GridWalker;
using detail::SectorSet;
using detail::SectorStates;
using detail::SharedCounts;
using detail::sharedCounts;

/// The sectors of one warp's store that its active lanes write only in part: `sectors` holds the
/// request's `count` distinct sectors in ascending order, `addresses` all 32 lanes (inactive lanes
/// repeating an active lane, which changes no byte). Such a sector reaches L2 as a partial write
/// and is completed, if at all, by other requests. Writes them to `partial`; returns how many.
int partlyWrittenSectors(const std::int64_t* addresses, int width, const std::int64_t* sectors,
                         int count, std::int64_t* partial, std::uint32_t* partialBytes) {
    // Fast path: when every run of lanes storing consecutive elements starts and ends on a
    // sector boundary, each touched sector is covered whole (rows of a coalesced store).
    bool whole = (addresses[0] & 31) == 0;
    for (int lane = 1; lane < kWarpSize; ++lane) {
        const bool next = addresses[lane] == addresses[lane - 1] + width;
        whole &= next || (((addresses[lane - 1] + width) | addresses[lane]) & 31) == 0;
    }
    if (whole && ((addresses[kWarpSize - 1] + width) & 31) == 0) {
        return 0;
    }
    std::array<std::uint32_t, kWarpSize + 1> covered{};
    const std::uint64_t bytes = (std::uint64_t{1} << width) - 1;
    int at = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const std::int64_t sector = addresses[lane] >> 5;
        if (sectors[at] != sector) {
            at = static_cast<int>(std::lower_bound(sectors, sectors + count, sector) - sectors);
        }
        covered[static_cast<std::size_t>(at)] |=
            static_cast<std::uint32_t>(bytes << (addresses[lane] & 31));
    }
    int found = 0;
    for (int i = 0; i < count; ++i) {
        if (covered[static_cast<std::size_t>(i)] != 0xffffffffu) {
            partialBytes[found] = covered[static_cast<std::size_t>(i)];
            partial[found++] = sectors[i];
        }
    }
    return found;
}

bool isL1Cached(const AccessKind& kind) {
    // Async copies go through L1 (cp.async.ca) like a default load.
    return kind.op != AccessOp::Store && kind.cache != CachePath::CacheGlobal;
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

/// A SectorSet that is emptied after each block: remembers what it marked.
class BlockSectorSet {
public:
    explicit BlockSectorSet(std::int64_t sectors) : m_set(sectors) {}

    bool insert(std::int64_t sector) {
        if (!m_set.insert(sector)) {
            return false;
        }
        m_marked.push_back(sector);
        return true;
    }

    std::int64_t clear() {
        for (std::int64_t sector : m_marked) {
            m_set.erase(sector);
        }
        const auto count = static_cast<std::int64_t>(m_marked.size());
        m_marked.clear();
        return count;
    }

private:
    SectorSet m_set;
    std::vector<std::int64_t> m_marked;
};

/// The fill rule for sectors written in part (docs/models.md, "Sectors written in part"): L2
/// holds at most `capacity` sectors that stores have written in part and not yet completed; when
/// one more is opened, the one opened longest ago is evicted and, being incomplete, read from
/// DRAM to be merged (one fill). A sector is opened by a partial write of a sector the grid has
/// not read (a sector read before is whole in L2), completed when its 32 bytes are written (or a
/// store writes it whole). A filled sector is whole in L2 too, until the grid has touched more
/// sectors than the L2 holds (`l2Sectors`); a partial write after that opens it again. Sectors
/// still open when the kernel ends are written back later, outside the launch: no fill is
/// counted. Events are taken in the grid model's launch order (block, warp, access); the clock
/// that ages filled sectors counts the sectors of every global request.
class PartialSectors {
public:
    PartialSectors(std::size_t buffers, std::int64_t capacity, std::int64_t l2Sectors)
        : m_state(buffers), m_capacity(std::max<std::int64_t>(capacity, 0)), m_l2Sectors(l2Sectors),
          m_fills(buffers, 0) {}

    /// Every global request, in launch order: its sector count.
    void tick(int sectors) { m_clock += sectors; }

    /// A store request's partial sectors with the bytes it writes of each.
    void partial(std::size_t buffer, std::int64_t sectorCount, const std::int64_t* sectors,
                 const std::uint32_t* bytes, int count, const SectorSet& read) {
        std::unique_ptr<SectorStates>& state = m_state[buffer];
        if (!state) {
            state = std::make_unique<SectorStates>(sectorCount);
        }
        for (int i = 0; i < count; ++i) {
            const std::int64_t sector = sectors[i];
            if (read.contains(sector)) {
                continue; // whole in L2: the write completes it there
            }
            std::uint64_t& entry = state->at(sector);
            const auto written = static_cast<std::uint32_t>(entry);
            if (written != 0) { // open: merge
                const std::uint32_t now = written | bytes[i];
                entry = (entry & ~std::uint64_t{0xffffffffu}) | now;
                if (now == 0xffffffffu) {
                    close(entry);
                }
                continue;
            }
            if (!m_filledAt.empty()) {
                const auto filled = m_filledAt.find(key(buffer, sector));
                if (filled != m_filledAt.end()) {
                    if (m_clock - filled->second < m_l2Sectors) {
                        continue; // filled and still whole in L2
                    }
                    m_filledAt.erase(filled);
                }
            }
            const std::uint64_t serial = (entry >> 32) + 1;
            entry = serial << 32 | bytes[i];
            dropClosedFront(); // keeps the queue as short as the open sectors when they close
            m_open.push_back({buffer, sector, static_cast<std::uint32_t>(serial)});
            ++m_openCount;
            while (m_openCount > m_capacity) {
                evictOldest();
            }
        }
    }

    /// A store request that writes these sectors whole completes any that are open.
    void whole(std::size_t buffer, const std::int64_t* sectors, int count) {
        const std::unique_ptr<SectorStates>& state = m_state[buffer];
        if (!state) {
            return;
        }
        for (int i = 0; i < count; ++i) {
            const std::uint64_t* found = state->find(sectors[i]);
            if (found != nullptr && static_cast<std::uint32_t>(*found) != 0) {
                close(state->at(sectors[i]));
            }
        }
    }

    std::int64_t fills(std::size_t buffer) const { return m_fills[buffer]; }

private:
    struct Opened {
        std::size_t buffer;
        std::int64_t sector;
        std::uint32_t serial;
    };

    static std::uint64_t key(std::size_t buffer, std::int64_t sector) {
        return static_cast<std::uint64_t>(buffer) << 48 | static_cast<std::uint64_t>(sector);
    }

    void close(std::uint64_t& entry) {
        entry &= ~std::uint64_t{0xffffffffu};
        --m_openCount;
    }

    bool isOpen(const Opened& opened) const {
        const std::uint64_t entry = *m_state[opened.buffer]->find(opened.sector);
        return static_cast<std::uint32_t>(entry) != 0 &&
               static_cast<std::uint32_t>(entry >> 32) == opened.serial;
    }

    void dropClosedFront() {
        while (!m_open.empty() && !isOpen(m_open.front())) {
            m_open.pop_front();
        }
    }

    void evictOldest() {
        while (!m_open.empty()) {
            const Opened oldest = m_open.front();
            m_open.pop_front();
            if (isOpen(oldest)) {
                close(m_state[oldest.buffer]->at(oldest.sector));
                ++m_fills[oldest.buffer];
                m_filledAt[key(oldest.buffer, oldest.sector)] = m_clock;
                return;
            }
        }
        m_openCount = 0; // unreachable: every open sector has an entry
    }

    std::vector<std::unique_ptr<SectorStates>> m_state; // serial << 32 | bytes written
    std::deque<Opened> m_open; // opened sectors, oldest first (some closed)
    std::int64_t m_openCount = 0;
    std::int64_t m_capacity;
    std::int64_t m_l2Sectors;
    std::int64_t m_clock = 0;
    std::unordered_map<std::uint64_t, std::int64_t> m_filledAt; // sector -> clock at its fill
    std::vector<std::int64_t> m_fills;
};

} // namespace

Result<GridPrediction> predictGrid(const ResolvedKernel& kernel, const GridOptions& options) {
    if (auto overBudget = checkGridBudget(kernel, options.budget)) {
        return *overBudget;
    }
    const std::size_t accessCount = kernel.accesses.size();
    GridPrediction out;
    out.warps = kernel.warpCount();
    out.accesses.resize(accessCount);
    std::vector<WorstWarps> worst(accessCount, WorstWarps(options.worstWarpCount));

    std::vector<SectorSet> readSets;
    std::vector<SectorSet> writeSets;
    std::vector<SectorSet> partialSets;    // written sectors some store request writes in part
    std::vector<BlockSectorSet> blockSets; // sectors the block's L1-cached loads brought in
    for (const ResolvedBuffer& buffer : kernel.buffers) {
        GridBufferFootprint footprint;
        footprint.name = buffer.name;
        footprint.bytes = buffer.bytes;
        out.buffers.push_back(std::move(footprint));
        const std::int64_t sectors = (buffer.bytes + kSectorBytes - 1) / kSectorBytes;
        readSets.emplace_back(sectors);
        writeSets.emplace_back(sectors);
        partialSets.emplace_back(sectors);
        blockSets.emplace_back(sectors);
    }
    struct AccessPlan {
        AccessKind kind;
        std::size_t buffer = 0;
        bool global = false;
        bool cached = false;
        bool constant = false;
    };
    std::vector<AccessPlan> plans;
    for (const ResolvedAccess& access : kernel.accesses) {
        const AccessKind& kind = access.access.kind;
        plans.push_back(AccessPlan{kind, static_cast<std::size_t>(std::max(access.bufferIndex, 0)),
                                   usesSectors(kind.space), isL1Cached(kind),
                                   kind.space == MemorySpace::Constant});
    }

    std::array<std::int64_t, kWarpSize + 1> partial{};       // one store's sectors written in part
    std::array<std::uint32_t, kWarpSize + 1> partialBytes{}; // and the bytes it writes of each
    PartialSectors open(kernel.buffers.size(), options.partialSectorCapacityBytes / kSectorBytes,
                        options.l2Bytes / kSectorBytes);
    GridWalker walker(kernel, options, true);
    auto visit = [&](std::int64_t block, std::int64_t warp, std::size_t a, std::uint32_t mask,
                     const std::int64_t* addresses, const std::int64_t* sectors, int count,
                     const std::int64_t* shared) {
        const AccessPlan& plan = plans[a];
        GridAccessPrediction& acc = out.accesses[a];
        const int active = __builtin_popcount(mask);
        acc.activeThreads += active;
        acc.bytesRequested += std::int64_t{active} * plan.kind.widthBytes;
        int value = 0;
        if (mask != 0 && plan.kind.space == MemorySpace::Local) {
            // The interleaved addresses' requests and sectors (docs/models.md, "Local memory");
            // no buffer footprint: the thread's own array.
            acc.requests += 1;
            acc.sectors += count;
            value = count;
            for (std::uint32_t m = mask; m != 0; m &= m - 1) {
                out.localBytesPerThread =
                    std::max(out.localBytesPerThread,
                             localThreadOffset(addresses[__builtin_ctz(m)]) + plan.kind.widthBytes);
            }
        } else if (mask != 0 && plan.kind.space == MemorySpace::Texture) {
            // The texture rule (quads) under the texture counters, the global-load equivalent's
            // sectors kept beside it; a texture read goes through L1TEX like a cached load.
            WarpAccess quads;
            quads.kind = plan.kind;
            for (std::uint32_t m = mask; m != 0; m &= m - 1) {
                const int lane = __builtin_ctz(m);
                quads.addresses[static_cast<std::size_t>(lane)] = addresses[lane];
            }
            const TexturePrediction texture = predictTexture(quads);
            acc.requests += texture.requests;
            acc.sectors += texture.sectors;
            acc.globalEquivalentSectors += count;
            value = texture.sectors;
            SectorSet& set = readSets[plan.buffer];
            BlockSectorSet& seen = blockSets[plan.buffer];
            for (int i = 0; i < count; ++i) {
                set.insert(sectors[i]);
                seen.insert(sectors[i]);
            }
        } else if (mask != 0) {
            if (plan.constant) {
                // Served from the constant cache, one distinct address after another; no l1tex
                // traffic, and no footprint counted (constant data is loaded with the module).
                // 8- and 16-byte loads are 2 or 4 32-bit LDC instructions (ConstantPrediction).
                const int parts = std::max(1, plan.kind.widthBytes / 4);
                const int rounds = distinctAddresses(addresses);
                acc.requests += parts;
                acc.constantAddresses += std::int64_t{parts} * rounds;
                value = rounds;
            } else if (plan.global) {
                acc.requests += 1;
                acc.sectors += count;
                open.tick(count);
                value = count;
                GridBufferFootprint& footprint = out.buffers[plan.buffer];
                if (shared != nullptr) {
                    const CopyCounts copy =
                        copySharedCounts(plan.kind, mask, addresses, shared, sectors, count);
                    acc.wavefronts += copy.wavefronts;
                    acc.bankConflicts += copy.wavefronts - copy.phases;
                    out.sharedBytesPerBlock =
                        std::max(out.sharedBytesPerBlock, copy.highest + plan.kind.widthBytes);
                }
                if (plan.kind.op != AccessOp::Store) {
                    SectorSet& set = readSets[plan.buffer];
                    for (int i = 0; i < count; ++i) {
                        set.insert(sectors[i]);
                    }
                    if (plan.cached) {
                        BlockSectorSet& seen = blockSets[plan.buffer];
                        for (int i = 0; i < count; ++i) {
                            seen.insert(sectors[i]);
                        }
                    } else {
                        footprint.l2SectorsRead += count;
                    }
                } else {
                    SectorSet& set = writeSets[plan.buffer];
                    for (int i = 0; i < count; ++i) {
                        set.insert(sectors[i]);
                    }
                    footprint.l2SectorsWritten += count;
                    const int parts =
                        partlyWrittenSectors(addresses, plan.kind.widthBytes, sectors, count,
                                             partial.data(), partialBytes.data());
                    for (int i = 0; i < parts; ++i) {
                        partialSets[plan.buffer].insert(partial[static_cast<std::size_t>(i)]);
                    }
                    if (parts == 0) {
                        open.whole(plan.buffer, sectors, count);
                    } else if (parts < count) {
                        // The others are written whole (both lists ascend).
                        for (int i = 0, p = 0; i < count; ++i) {
                            if (p < parts && partial[static_cast<std::size_t>(p)] == sectors[i]) {
                                ++p;
                            } else {
                                open.whole(plan.buffer, sectors + i, 1);
                            }
                        }
                    }
                    if (parts > 0) {
                        open.partial(
                            plan.buffer, (footprint.bytes + kSectorBytes - 1) / kSectorBytes,
                            partial.data(), partialBytes.data(), parts, readSets[plan.buffer]);
                    }
                }
            } else {
                const SharedCounts counts = sharedCounts(plan.kind, mask, addresses);
                acc.wavefronts += counts.wavefronts;
                acc.bankConflicts += counts.wavefronts - counts.phases;
                value = counts.wavefronts;
                std::int64_t highest = 0;
                for (std::uint32_t m = mask; m != 0; m &= m - 1) {
                    highest = std::max(highest, addresses[__builtin_ctz(m)]);
                }
                out.sharedBytesPerBlock =
                    std::max(out.sharedBytesPerBlock, highest + plan.kind.widthBytes);
            }
        }
        acc.histogram[static_cast<std::size_t>(std::min(value, kHistogramBuckets - 1))] += 1;
        worst[a].offer(block, warp, value);
        if (options.warpValue) {
            options.warpValue(block, warp, static_cast<int>(a), value);
        }
    };
    auto blockDone = [&](std::int64_t) {
        for (std::size_t b = 0; b < blockSets.size(); ++b) {
            out.buffers[b].l2SectorsRead += blockSets[b].clear();
        }
    };
    if (auto error = walker.walk(visit, blockDone)) {
        return *error;
    }
    for (std::size_t a = 0; a < accessCount; ++a) {
        out.accesses[a].worstWarps = worst[a].take();
    }
    for (std::size_t b = 0; b < out.buffers.size(); ++b) {
        out.buffers[b].sectorsRead = readSets[b].count();
        out.buffers[b].sectorsWritten = writeSets[b].count();
        out.buffers[b].sectorsWrittenInPart = partialSets[b].count();
        out.buffers[b].sectorsFilled = open.fills(b);
    }
    out.metrics = gridMetrics(kernel, out);
    return out;
}

Result<std::int64_t> gridAddressExtent(const ResolvedKernel& kernel, int access,
                                       const GridOptions& options) {
    if (access < 0 || static_cast<std::size_t>(access) >= kernel.accesses.size()) {
        return Error{ErrorCode::InvalidValue,
                     "access " + std::to_string(access) + " does not exist", 0, "/accesses"};
    }
    if (auto overBudget = checkGridBudget(kernel, options.budget)) {
        return *overBudget;
    }
    const std::int64_t width =
        kernel.accesses[static_cast<std::size_t>(access)].access.kind.widthBytes;
    std::int64_t extent = 0;
    GridWalker walker(kernel, options, false);
    auto visit = [&](std::int64_t, std::int64_t, std::size_t a, std::uint32_t mask,
                     const std::int64_t* addresses, const std::int64_t*, int, const std::int64_t*) {
        if (a != static_cast<std::size_t>(access)) {
            return;
        }
        for (std::uint32_t m = mask; m != 0; m &= m - 1) {
            extent = std::max(extent, addresses[__builtin_ctz(m)] + width);
        }
    };
    if (auto error = walker.walk(visit, [](std::int64_t) {})) {
        return *error;
    }
    return extent;
}

} // namespace warpscope
