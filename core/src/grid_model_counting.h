// Per-warp counting without allocation for the grid model (grid_model.cpp): the modern model's
// rules for one warp over 32 dense addresses, equal to predictModern (tests/core/test_kernel.cpp).
#pragma once

#include "warpscope/kernel.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace warpscope::detail {

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

} // namespace warpscope::detail
