// The grid model's walk over every warp of a launch (grid_model.cpp): evaluates each access's
// expressions 32 lanes at a time and checks every active address before the counting sees it.
#pragma once

#include "grid_budget.h"
#include "grid_model_counting.h"
#include "kernel_internal.h"
#include "warpscope/kernel.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::detail {

inline std::string decimal(std::int64_t value) {
    return std::to_string(value);
}

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

} // namespace warpscope::detail
