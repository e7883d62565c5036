// The grid model: every thread of every warp of a kernel's launch, counted as the per-warp modern
// model counts one warp, summed; footprints per buffer; the first out-of-bounds, negative or
// misaligned thread. docs/models.md ("The grid model") states the rules.
#include "grid_budget.h"
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

std::string decimal(std::int64_t value) {
    return std::to_string(value);
}

using detail::SectorSet;
using detail::SectorStates;

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

// ---- Per-warp counting without allocation (equal to predictModern: tests/core/test_kernel.cpp)

/// Sorts up to 64 values in place (insertion sort: a warp's values are usually nearly sorted).
inline void sortSmall(std::int64_t* values, int count) {
    for (int i = 1; i < count; ++i) {
        const std::int64_t v = values[i];
        int j = i - 1;
        if (values[j] <= v) {
            continue;
        }
        while (j >= 0 && values[j] > v) {
            values[j + 1] = values[j];
            --j;
        }
        values[j + 1] = v;
    }
}

/// Sorts a warp's 32 values made of a few ascending runs (a warp of 2 to 8 rows of a block) by
/// merging the runs pairwise; many runs fall back to insertion sort.
inline void sortWarp(std::int64_t* values) {
    std::array<int, kWarpSize + 1> starts{};
    int runs = 0;
    starts[static_cast<std::size_t>(runs++)] = 0;
    for (int i = 1; i < kWarpSize; ++i) {
        if (values[i] < values[i - 1]) {
            starts[static_cast<std::size_t>(runs++)] = i;
        }
    }
    if (runs > 8) {
        sortSmall(values, kWarpSize);
        return;
    }
    starts[static_cast<std::size_t>(runs)] = kWarpSize;
    std::int64_t buffer[kWarpSize];
    std::int64_t* from = values;
    std::int64_t* to = buffer;
    while (runs > 1) {
        int merged = 0;
        for (int r = 0; r < runs; r += 2) {
            const int begin = starts[static_cast<std::size_t>(r)];
            const int middle = starts[static_cast<std::size_t>(std::min(r + 1, runs))];
            const int end = starts[static_cast<std::size_t>(std::min(r + 2, runs))];
            std::merge(from + begin, from + middle, from + middle, from + end, to + begin);
            starts[static_cast<std::size_t>(merged++)] = begin;
        }
        starts[static_cast<std::size_t>(merged)] = kWarpSize;
        runs = merged;
        std::swap(from, to);
    }
    if (from != values) {
        std::copy(from, from + kWarpSize, values);
    }
}

/// Distinct sectors of a warp's 32 dense addresses (inactive lanes repeat an active lane's
/// address), ascending, into `sectors`; returns how many.
inline int distinctSectors(const std::int64_t* addresses, std::int64_t* sectors) {
    std::int64_t all[kWarpSize];
    bool unsorted = false;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        all[lane] = addresses[lane] >> 5;
    }
    for (int lane = 1; lane < kWarpSize; ++lane) {
        unsorted |= all[lane] < all[lane - 1];
    }
    if (unsorted) {
        sortWarp(all);
    }
    sectors[0] = all[0];
    int unique = 1;
    for (int lane = 1; lane < kWarpSize; ++lane) {
        sectors[unique] = all[lane];
        unique += all[lane] != all[lane - 1];
    }
    return unique;
}

/// Wavefronts of one phase: the largest number of distinct 4-byte words any bank holds.
inline int phaseWavefronts(std::uint32_t phase, const std::int64_t* addresses, int width) {
    std::int64_t words[kWarpSize * 4];
    int count = 0;
    std::uint32_t banks = 0;
    bool distinctBanks = true;
    const int perLane = std::max(1, width / kBankWordBytes);
    for (std::uint32_t m = phase; m != 0; m &= m - 1) {
        const int lane = __builtin_ctz(m);
        const std::int64_t first = addresses[lane] / kBankWordBytes;
        for (int i = 0; i < perLane; ++i) {
            const std::int64_t word = first + i;
            const std::uint32_t bit = 1u << (word % kBankCount);
            distinctBanks = distinctBanks && (banks & bit) == 0;
            banks |= bit;
            words[count++] = word;
        }
    }
    if (distinctBanks) {
        return count > 0 ? 1 : 0;
    }
    sortSmall(words, count);
    std::array<int, kBankCount> perBank{};
    int worst = 0;
    for (int i = 0; i < count; ++i) {
        if (i > 0 && words[i] == words[i - 1]) {
            continue;
        }
        worst = std::max(worst, ++perBank[static_cast<std::size_t>(words[i] % kBankCount)]);
    }
    return worst;
}

/// Distinct values among a warp's 32 dense addresses (inactive lanes repeat an active lane's).
inline int distinctAddresses(const std::int64_t* addresses) {
    std::int64_t all[kWarpSize];
    std::copy(addresses, addresses + kWarpSize, all);
    sortWarp(all);
    int unique = 1;
    for (int lane = 1; lane < kWarpSize; ++lane) {
        unique += all[lane] != all[lane - 1];
    }
    return unique;
}

struct SharedCounts {
    int wavefronts = 0;
    int phases = 0;
};

/// The modern model's shared-memory phases (modern_model.cpp, servicePhases) and wavefronts.
inline SharedCounts sharedCounts(const AccessKind& kind, std::uint32_t mask,
                                 const std::int64_t* addresses) {
    SharedCounts counts;
    if (mask == 0) {
        return counts;
    }
    const int width = kind.widthBytes;
    if (width <= kBankWordBytes) {
        counts.phases = 1;
        counts.wavefronts = phaseWavefronts(mask, addresses, width);
        return counts;
    }
    int lanesPerPhase = kBankCount * kBankWordBytes / width; // 16 or 8
    if (kind.op == AccessOp::Load) {
        // Fused when every active lane shares its address with its active partner lane ^ 1, or
        // every one with lane ^ 2.
        auto partnersShare = [&](int distance) {
            for (int lane = 0; lane < kWarpSize; ++lane) {
                const int partner = lane ^ distance;
                if (((mask >> lane) & 1u) && ((mask >> partner) & 1u) &&
                    addresses[lane] != addresses[partner]) {
                    return false;
                }
            }
            return true;
        };
        if (partnersShare(1) || partnersShare(2)) {
            lanesPerPhase *= 2;
        }
    }
    const std::uint32_t phaseBits =
        static_cast<std::uint32_t>((std::uint64_t{1} << lanesPerPhase) - 1);
    for (int first = 0; first < kWarpSize; first += lanesPerPhase) {
        const std::uint32_t phase = (phaseBits << first) & mask;
        if (phase != 0) {
            ++counts.phases;
            counts.wavefronts += phaseWavefronts(phase, addresses, width);
        }
    }
    return counts;
}

struct CopyCounts {
    int wavefronts = 0;
    int phases = 0;
    std::int64_t highest = 0; // the largest active shared address
};

/// The shared side of one warp's async copy (modern_model.cpp, predictCopyShared): the lanes of
/// each global 128-byte line are written as a plain store of those lanes would be; conflicts
/// are counted against the phases of a store of the whole warp. `sectors` holds the warp's
/// distinct global sectors, ascending.
inline CopyCounts copySharedCounts(const AccessKind& kind, std::uint32_t mask,
                                   const std::int64_t* addresses, const std::int64_t* shared,
                                   const std::int64_t* sectors, int count) {
    const AccessKind store{MemorySpace::Shared, AccessOp::Store, kind.widthBytes,
                           CachePath::Default};
    CopyCounts out;
    out.phases = sharedCounts(store, mask, shared).phases;
    constexpr int kSectorsPerLine = kLineBytes / kSectorBytes;
    std::int64_t previousLine = -1;
    for (int i = 0; i < count; ++i) {
        const std::int64_t line = sectors[i] / kSectorsPerLine;
        if (line == previousLine) {
            continue;
        }
        previousLine = line;
        std::uint32_t group = 0;
        for (std::uint32_t m = mask; m != 0; m &= m - 1) {
            const int lane = __builtin_ctz(m);
            group |= static_cast<std::uint32_t>(addresses[lane] / kLineBytes == line) << lane;
        }
        out.wavefronts += sharedCounts(store, group, shared).wavefronts;
    }
    for (std::uint32_t m = mask; m != 0; m &= m - 1) {
        out.highest = std::max(out.highest, shared[__builtin_ctz(m)]);
    }
    return out;
}

// ---- Walking the grid --------------------------------------------------------------------------

/// Evaluates every warp of the launch, access by access, 32 lanes at a time. For each warp and
/// access it hands the visitor the active mask and the 32 addresses (only active lanes are
/// meaningful), after checking each active address: not negative, a multiple of the width, and
/// (when `checkBounds`) inside its buffer. Any lane that fails, or whose expressions fail, is
/// re-evaluated by resolveWarp() to name the first offender exactly.
class GridWalker {
public:
    GridWalker(const ResolvedKernel& kernel, const GridOptions& options, bool checkBounds)
        : m_kernel(kernel), m_options(options), m_checkBounds(checkBounds) {
        // Identical expressions (a transpose's two accesses share their active expression) are
        // evaluated once per warp.
        for (const ResolvedAccess& access : kernel.accesses) {
            m_addressSlot.push_back(slotFor(access.address));
            m_activeSlot.push_back(slotFor(access.active));
            m_sharedSlot.push_back(access.sharedAddress ? slotFor(*access.sharedAddress) : kNoSlot);
        }
        m_values.resize(m_expressions.size());
        m_poison.resize(m_expressions.size());
        m_evaluated.resize(m_expressions.size());
        m_maskReady.resize(m_expressions.size());
        m_mask.resize(m_expressions.size());
        // The thread indices of every thread of a block, and the lane numbers.
        const Dim3& b = kernel.block;
        const std::int64_t threads = kernel.warpsPerBlock() * kWarpSize;
        m_tidX.resize(static_cast<std::size_t>(threads));
        m_tidY.resize(static_cast<std::size_t>(threads));
        m_tidZ.resize(static_cast<std::size_t>(threads));
        for (std::int64_t t = 0; t < threads; ++t) {
            m_tidX[static_cast<std::size_t>(t)] = t % b.x;
            m_tidY[static_cast<std::size_t>(t)] = (t / b.x) % b.y;
            m_tidZ[static_cast<std::size_t>(t)] = t / (b.x * b.y);
        }
        for (int lane = 0; lane < kWarpSize; ++lane) {
            m_lane[static_cast<std::size_t>(lane)] = lane;
        }
    }

    /// visit(block, warp, access, mask, addresses, sectors, sectorCount, shared) for every
    /// warp-access in order (the distinct sectors of the active lanes, ascending; `shared` the
    /// 32 shared addresses of an async copy, dense as `addresses` are, else null); blockDone(block)
    /// after each block. Returns the first error.
    template <class Visit, class BlockDone>
    std::optional<Error> walk(Visit&& visit, BlockDone&& blockDone) {
        const ResolvedKernel& k = m_kernel;
        const std::int64_t blocks = k.grid.count();
        const std::int64_t warpsPerBlock = k.warpsPerBlock();
        const std::int64_t threadsPerBlock = k.block.count();
        const std::int64_t totalWarps = k.warpCount();
        const std::size_t accessCount = k.accesses.size();
        const std::int64_t* params = k.parameterValues.data();
        const std::size_t paramCount = k.parameterValues.size();

        WarpEnvironment env;
        env.uniform.bdim = k.block;
        env.uniform.gdim = k.grid;
        env.lane = m_lane.data();
        env.gid = m_gid.data();
        std::int64_t done = 0;
        constexpr std::int64_t kPollEvery = 1024;
        for (std::int64_t block = 0; block < blocks; ++block) {
            env.uniform.bid = Dim3{block % k.grid.x, (block / k.grid.x) % k.grid.y,
                                   block / (k.grid.x * k.grid.y)};
            for (std::int64_t warp = 0; warp < warpsPerBlock; ++warp, ++done) {
                if (auto overBudget = detail::footprintOverBudget(m_options.budget)) {
                    return *overBudget;
                }
                if (done % kPollEvery == 0) {
                    if (m_options.cancelled != nullptr && m_options.cancelled->load()) {
                        return Error{ErrorCode::Cancelled, "the grid model was cancelled", 0, {}};
                    }
                    if (m_options.progress && done > 0) {
                        m_options.progress(done, totalWarps);
                    }
                }
                const std::int64_t firstThread = warp * kWarpSize;
                env.uniform.warp = warp;
                env.tidX = m_tidX.data() + firstThread;
                env.tidY = m_tidY.data() + firstThread;
                env.tidZ = m_tidZ.data() + firstThread;
                const std::int64_t gidBase = block * threadsPerBlock + firstThread;
                for (int lane = 0; lane < kWarpSize; ++lane) {
                    m_gid[static_cast<std::size_t>(lane)] = gidBase + lane;
                }
                const std::int64_t inBlock = threadsPerBlock - firstThread;
                const std::uint32_t exists = inBlock >= kWarpSize
                                                 ? 0xFFFFFFFFu
                                                 : static_cast<std::uint32_t>((1u << inBlock) - 1);
                std::fill(m_evaluated.begin(), m_evaluated.end(), 0);
                std::fill(m_maskReady.begin(), m_maskReady.end(), 0);
                m_denseKey.valid = false;
                for (std::size_t a = 0; a < accessCount; ++a) {
                    const std::size_t activeSlot = m_activeSlot[a];
                    const std::size_t addressSlot = m_addressSlot[a];
                    evaluateSlot(activeSlot, env, params, paramCount);
                    if (!m_maskReady[activeSlot]) {
                        const auto& activeValues = m_values[activeSlot];
                        std::uint32_t bits = 0;
                        for (int lane = 0; lane < kWarpSize; ++lane) {
                            bits |= static_cast<std::uint32_t>(
                                        activeValues[static_cast<std::size_t>(lane)] != 0)
                                    << lane;
                        }
                        m_mask[activeSlot] = bits;
                        m_maskReady[activeSlot] = 1;
                    }
                    std::uint32_t mask = m_mask[activeSlot] & exists;
                    bool suspect = (m_poison[activeSlot] & exists) != 0;
                    const std::int64_t* addresses = nullptr;
                    const std::int64_t* shared = nullptr;
                    if (!suspect && mask != 0) {
                        evaluateSlot(addressSlot, env, params, paramCount);
                        suspect = (m_poison[addressSlot] & mask) != 0 ||
                                  !densifyOnce(a, addressSlot, mask);
                        addresses = m_dense.data();
                        const std::size_t sharedSlot = m_sharedSlot[a];
                        if (!suspect && sharedSlot != kNoSlot) {
                            evaluateSlot(sharedSlot, env, params, paramCount);
                            suspect = (m_poison[sharedSlot] & mask) != 0 ||
                                      !densifyShared(a, mask, m_values[sharedSlot].data());
                            shared = m_sharedDense.data();
                        }
                    }
                    if (suspect) {
                        if (auto error = diagnose(a, block, warp)) {
                            return error;
                        }
                        // Not reached when the checks above agree with resolveWarp (they do);
                        // kept so that a disagreement could never count wrong values.
                        auto resolved = resolveWarp(k, static_cast<int>(a), block, warp);
                        mask = resolved->activeMask();
                        for (int lane = 0; lane < kWarpSize; ++lane) {
                            m_fallback[static_cast<std::size_t>(lane)] =
                                resolved->addresses[static_cast<std::size_t>(lane)].value_or(0);
                        }
                        addresses = m_fallback.data();
                        m_denseKey.valid = false;
                        if (mask != 0) {
                            densify(a, mask, m_fallback.data());
                            addresses = m_dense.data();
                        }
                        if (resolved->sharedAddresses && mask != 0) {
                            std::array<std::int64_t, kWarpSize> values{};
                            for (int lane = 0; lane < kWarpSize; ++lane) {
                                values[static_cast<std::size_t>(lane)] =
                                    (*resolved->sharedAddresses)[static_cast<std::size_t>(lane)]
                                        .value_or(0);
                            }
                            densifyShared(a, mask, values.data());
                            shared = m_sharedDense.data();
                        }
                    }
                    visit(block, warp, a, mask, addresses, m_sectors.data(),
                          mask != 0 ? m_sectorCount : 0, shared);
                }
            }
            blockDone(block);
        }
        if (m_options.progress) {
            m_options.progress(totalWarps, totalWarps);
        }
        return std::nullopt;
    }

private:
    std::size_t slotFor(const Expression& expression) {
        for (std::size_t i = 0; i < m_expressions.size(); ++i) {
            if (m_expressions[i].text() == expression.text()) {
                return i;
            }
        }
        m_expressions.push_back(expression);
        return m_expressions.size() - 1;
    }

    void evaluateSlot(std::size_t slot, const WarpEnvironment& env, const std::int64_t* params,
                      std::size_t paramCount) {
        if (m_evaluated[slot]) {
            return;
        }
        m_evaluated[slot] = 1;
        m_poison[slot] =
            m_expressions[slot].evaluateWarp(env, params, paramCount, m_values[slot].data());
    }

    /// densify() of an access's addresses, unless the access before it in this warp already
    /// did it for the same addresses, lanes, width and bounds (loads of A[k] and B[k]).
    bool densifyOnce(std::size_t access, std::size_t addressSlot, std::uint32_t mask) {
        const ResolvedAccess& a = m_kernel.accesses[access];
        const bool local = a.access.kind.space == MemorySpace::Local;
        DenseKey key{addressSlot,
                     mask,
                     a.access.kind.widthBytes,
                     a.bufferIndex >= 0 && m_checkBounds
                         ? m_kernel.buffers[static_cast<std::size_t>(a.bufferIndex)].bytes
                         : -1,
                     local,
                     true};
        if (m_denseKey.valid && key == m_denseKey) {
            return true;
        }
        m_denseKey.valid = false;
        const std::int64_t* values = m_values[addressSlot].data();
        if (local) {
            // The thread's offsets are checked as written, then interleaved (resolveWarp does
            // the same, so a bad offset is diagnosed there).
            const std::int64_t width = a.access.kind.widthBytes;
            for (int lane = 0; lane < kWarpSize; ++lane) {
                const std::int64_t offset = values[lane];
                if (((mask >> lane) & 1u) != 0) {
                    if (offset < 0 || offset > (std::int64_t{1} << 40) || offset % width != 0) {
                        return false;
                    }
                    m_local[static_cast<std::size_t>(lane)] = localInterleavedAddress(offset, lane);
                }
            }
            values = m_local.data();
        }
        if (!densify(access, mask, values)) {
            return false;
        }
        m_denseKey = key;
        return true;
    }

    /// Copies the active lanes' addresses into m_dense, each inactive lane taking the address of
    /// the active lane before it (or the first active one): duplicates change no count, and the
    /// per-warp counting then runs over all 32 lanes without branches. In the same pass, the
    /// warp's distinct sectors go to m_sectors (ascending). False when an active address is
    /// negative, misaligned, too large, or (with bounds) outside its buffer.
    bool densify(std::size_t access, std::uint32_t mask, const std::int64_t* addresses) {
        const ResolvedAccess& a = m_kernel.accesses[access];
        const std::int64_t width = a.access.kind.widthBytes;
        std::int64_t limit = std::numeric_limits<std::int64_t>::max() - 16;
        if (m_checkBounds && a.bufferIndex >= 0) {
            limit = m_kernel.buffers[static_cast<std::size_t>(a.bufferIndex)].bytes - width;
        }
        std::int64_t last = addresses[__builtin_ctz(mask)];
        std::int64_t lowest = last;
        std::int64_t highest = last;
        std::uint64_t lowBits = 0;
        std::int64_t previous = std::numeric_limits<std::int64_t>::min();
        bool unsorted = false;
        int unique = 0;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            last = ((mask >> lane) & 1u) ? addresses[lane] : last;
            m_dense[static_cast<std::size_t>(lane)] = last;
            lowest = std::min(lowest, last);
            highest = std::max(highest, last);
            lowBits |= static_cast<std::uint64_t>(last);
            const std::int64_t sector = last >> 5;
            unsorted |= sector < previous;
            m_sectors[static_cast<std::size_t>(unique)] = sector;
            unique += sector != previous;
            previous = sector;
        }
        if (lowest < 0 || highest > limit ||
            (lowBits & static_cast<std::uint64_t>(width - 1)) != 0) {
            return false;
        }
        m_sectorCount = unsorted ? distinctSectors(m_dense.data(), m_sectors.data()) : unique;
        return true;
    }

    /// An async copy's shared addresses into m_sharedDense, inactive lanes repeating the active
    /// lane before them (as densify does). False when an active one is negative, misaligned or
    /// too large.
    bool densifyShared(std::size_t access, std::uint32_t mask, const std::int64_t* addresses) {
        const std::int64_t width = m_kernel.accesses[access].access.kind.widthBytes;
        std::int64_t last = addresses[__builtin_ctz(mask)];
        bool fine = true;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            last = ((mask >> lane) & 1u) ? addresses[lane] : last;
            m_sharedDense[static_cast<std::size_t>(lane)] = last;
            fine = fine && last >= 0 && last <= std::numeric_limits<std::int64_t>::max() - 16 &&
                   last % width == 0;
        }
        return fine;
    }

    /// The exact error of a warp-access the fast checks flagged, or nullopt if there is none.
    std::optional<Error> diagnose(std::size_t access, std::int64_t block, std::int64_t warp) const {
        auto resolved = resolveWarp(m_kernel, static_cast<int>(access), block, warp);
        if (!resolved) {
            return resolved.error();
        }
        const ResolvedAccess& a = m_kernel.accesses[access];
        if (!m_checkBounds || a.bufferIndex < 0) {
            return std::nullopt;
        }
        const ResolvedBuffer& buffer = m_kernel.buffers[static_cast<std::size_t>(a.bufferIndex)];
        const int width = a.access.kind.widthBytes;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const auto& address = resolved->addresses[static_cast<std::size_t>(lane)];
            if (address && *address > buffer.bytes - width) {
                return Error{ErrorCode::OutOfBounds,
                             "address " + decimal(*address) + " + " + std::to_string(width) +
                                 " bytes is past the end of '" + buffer.name + "' (" +
                                 decimal(buffer.bytes) + " bytes)",
                             0,
                             detail::threadPlace(m_kernel, static_cast<int>(access), block,
                                                 warp * kWarpSize + lane, "address")};
            }
        }
        return std::nullopt;
    }

    const ResolvedKernel& m_kernel;
    const GridOptions& m_options;
    bool m_checkBounds;
    std::vector<Expression> m_expressions;
    std::vector<std::size_t> m_addressSlot;
    std::vector<std::size_t> m_activeSlot;
    static constexpr std::size_t kNoSlot = static_cast<std::size_t>(-1);
    std::vector<std::size_t> m_sharedSlot; // kNoSlot unless the access is an async copy
    std::vector<std::array<std::int64_t, kWarpSize>> m_values;
    std::vector<std::uint32_t> m_poison;
    std::vector<char> m_evaluated;
    std::vector<char> m_maskReady;
    std::vector<std::uint32_t> m_mask;
    struct DenseKey {
        std::size_t addressSlot = 0;
        std::uint32_t mask = 0;
        int width = 0;
        std::int64_t bytes = 0;
        bool local = false;
        bool valid = false;
        bool operator==(const DenseKey&) const = default;
    };
    DenseKey m_denseKey;
    std::vector<std::int64_t> m_tidX;
    std::vector<std::int64_t> m_tidY;
    std::vector<std::int64_t> m_tidZ;
    std::array<std::int64_t, kWarpSize> m_lane{};
    std::array<std::int64_t, kWarpSize> m_gid{};
    std::array<std::int64_t, kWarpSize> m_fallback{};
    std::array<std::int64_t, kWarpSize> m_dense{};
    std::array<std::int64_t, kWarpSize> m_local{};
    std::array<std::int64_t, kWarpSize> m_sharedDense{};
    std::array<std::int64_t, kWarpSize + 1> m_sectors{};
    int m_sectorCount = 0;
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
        out.buffers.push_back(GridBufferFootprint{buffer.name, buffer.bytes, 0, 0, 0, 0});
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
