// The grid model's footprint structures and what they may cost (grid_budget.cpp estimates it
// before a walk, kernel.h's GridBudget bounds it). Both are paged: a page is allocated when the
// grid first touches it, so their memory follows the bytes touched, never a buffer's declared
// size. A buffer of at most kFlatPages pages keeps its pages in a flat table (the fast path of
// every kernel the course notes measure); a larger one in a hash map behind a one-page cache.
#pragma once

#include "warpscope/kernel.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace warpscope::detail {

/// Bytes of footprint pages allocated by this thread's grid walk so far: the walk starts it at 0
/// and stops with an over-budget error once it passes the memory limit (the estimate before the
/// walk is a lower bound: where a grid's sectors fall on pages is known only by walking it).
inline thread_local std::int64_t footprintBytesAllocated = 0;

/// The error to stop the walk with once footprintBytesAllocated passes the budget's memory limit.
std::optional<Error> footprintOverBudget(const GridBudget& budget);

/// Pages of `Word`s over `entries` entries (one entry per 32-byte sector), zero until written.
template <class Word, int kPageBits> class PagedWords {
public:
    static constexpr std::int64_t kPageEntries = std::int64_t{1} << kPageBits;
    static constexpr std::size_t kPageBytes = sizeof(Word) * static_cast<std::size_t>(kPageEntries);
    /// Above this many pages the table is a hash map: at most 32 KiB of pointers per structure.
    static constexpr std::int64_t kFlatPages = 4096;

    explicit PagedWords(std::int64_t entries) {
        const std::int64_t pages = (entries + kPageEntries - 1) / kPageEntries;
        if (pages <= kFlatPages) {
            m_flat.resize(static_cast<std::size_t>(pages));
        }
        m_hashed = pages > kFlatPages;
    }

    /// The word of `entry`, its page allocated (zeroed) when first touched. The page last used
    /// is cached: a warp's sectors usually share one.
    Word& at(std::int64_t entry) {
        const auto index = static_cast<std::uint64_t>(entry);
        const std::uint64_t number = index >> kPageBits;
        Word* p = number == m_cachedNumber ? m_cached : page(number);
        return p[index & kMask];
    }

    /// The word of `entry`, or nullptr when its page was never touched.
    const Word* find(std::int64_t entry) const {
        const auto index = static_cast<std::uint64_t>(entry);
        const std::uint64_t number = index >> kPageBits;
        if (number == m_cachedNumber) {
            return &m_cached[index & kMask];
        }
        if (!m_hashed) {
            const auto& p = m_flat[static_cast<std::size_t>(number)];
            return p ? &p[index & kMask] : nullptr;
        }
        const auto found = m_pages.find(number);
        return found == m_pages.end() ? nullptr : &found->second[index & kMask];
    }

    /// Pages allocated so far (what the estimate bounds).
    std::size_t pageCount() const { return m_pageCount; }

private:
    static constexpr std::uint64_t kMask = static_cast<std::uint64_t>(kPageEntries) - 1;
    /// A hash map entry and the allocation's own bookkeeping, roughly.
    static constexpr std::int64_t kPageOverheadBytes = 64;

    Word* page(std::uint64_t number) {
        std::unique_ptr<Word[]>& p =
            m_hashed ? m_pages[number] : m_flat[static_cast<std::size_t>(number)];
        if (!p) {
            p = std::make_unique<Word[]>(static_cast<std::size_t>(kPageEntries));
            ++m_pageCount;
            footprintBytesAllocated += static_cast<std::int64_t>(kPageBytes) + kPageOverheadBytes;
        }
        m_cachedNumber = number;
        m_cached = p.get();
        return m_cached;
    }

    bool m_hashed = false;
    std::vector<std::unique_ptr<Word[]>> m_flat;
    std::unordered_map<std::uint64_t, std::unique_ptr<Word[]>> m_pages;
    std::uint64_t m_cachedNumber = ~std::uint64_t{0}; // no page: no entry has this number
    Word* m_cached = nullptr;
    std::size_t m_pageCount = 0;
};

/// A set of 32-byte sectors of one buffer: a bitmap in 4 KiB pages (2^15 sectors, 1 MiB of the
/// buffer each).
class SectorSet {
public:
    using Bits = PagedWords<std::uint64_t, 9>; // 512 words of 64 sectors
    static constexpr int kSectorsPerWordBits = 6;
    static constexpr std::int64_t kPageSectors = Bits::kPageEntries << kSectorsPerWordBits;
    static constexpr std::size_t kPageBytes = Bits::kPageBytes;

    explicit SectorSet(std::int64_t sectors) : m_bits((sectors + 63) / 64) {}

    /// Marks the sector; true when it was not marked before.
    bool insert(std::int64_t sector) {
        std::uint64_t& word = m_bits.at(sector >> kSectorsPerWordBits);
        const std::uint64_t mask = std::uint64_t{1} << (sector & 63);
        if (word & mask) {
            return false;
        }
        word |= mask;
        ++m_count;
        return true;
    }

    /// Unmarks a sector that insert() marked.
    void erase(std::int64_t sector) {
        m_bits.at(sector >> kSectorsPerWordBits) &= ~(std::uint64_t{1} << (sector & 63));
        --m_count;
    }

    std::int64_t count() const { return m_count; }

    bool contains(std::int64_t sector) const {
        const std::uint64_t* word = m_bits.find(sector >> kSectorsPerWordBits);
        return word != nullptr && (*word >> (sector & 63) & 1);
    }

private:
    Bits m_bits;
    std::int64_t m_count = 0;
};

/// One 64-bit state per sector (the partial-write rule's serial and bytes written), in 32 KiB
/// pages of 2^12 sectors.
using SectorStates = PagedWords<std::uint64_t, 12>;

/// How many footprint structures of each kind predictGrid keeps per buffer.
inline constexpr int kSectorSetsPerBuffer = 4; // read, written, written in part, the block's
inline constexpr int kSectorStatesPerStoredBuffer = 1;

} // namespace warpscope::detail
