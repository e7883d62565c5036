// The textbook model: the Fermi/Kepler rules of the course notes (../shared/seeds), applied to one
// warp instruction. Cached loads move 128-byte lines, uncached loads 32-byte segments, stores 1-,
// 2- or 4-segment transactions, and shared memory is served in bank passes. The readings taken
// where the notes are vague or disagree are stated beside each rule and in docs/models.md.
#include "warpscope/model.h"

#include "warpscope/matrix_access.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace warpscope {

const char* toString(TextbookRule rule) {
    switch (rule) {
    case TextbookRule::CachedLoad:
        return "cached_load";
    case TextbookRule::UncachedLoad:
        return "uncached_load";
    case TextbookRule::Store:
        return "store";
    case TextbookRule::SharedMemory:
        return "shared_memory";
    case TextbookRule::ConstantCache:
        return "constant_cache";
    }
    return "cached_load";
}

namespace {

struct ActiveLane {
    int lane = 0;
    std::int64_t address = 0;
};

std::uint32_t laneBit(int lane) {
    return std::uint32_t{1} << lane;
}

bool isElementWidth(int width) {
    return width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
}

// The model is meant for validated accesses (pattern.h: validate()). Anything else (a bad width,
// a negative or misaligned address) gives an empty prediction rather than wrong arithmetic, so the
// function is safe on any input.
bool textbookWellFormed(const WarpAccess& access) {
    const int width = access.kind.widthBytes;
    if (!isElementWidth(width)) {
        return false;
    }
    for (const auto& address : access.addresses) {
        if (address && (*address < 0 || *address > std::numeric_limits<std::int64_t>::max() - 16 ||
                        *address % width != 0)) {
            return false;
        }
    }
    return true;
}

/// The active lanes, sorted by address (a fixed array: the models run on every edit and every
/// point of a sweep, so they allocate as little as they can).
struct ActiveLanes {
    std::array<ActiveLane, kWarpSize> lanes{};
    std::size_t count = 0;

    const ActiveLane* begin() const { return lanes.data(); }
    const ActiveLane* end() const { return lanes.data() + count; }
};

ActiveLanes activeLanes(const WarpAccess& access) {
    ActiveLanes active;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (const auto& address = access.addresses[static_cast<std::size_t>(lane)]) {
            active.lanes[active.count++] = {lane, *address};
        }
    }
    std::sort(active.lanes.begin(),
              active.lanes.begin() + static_cast<std::ptrdiff_t>(active.count),
              [](const ActiveLane& x, const ActiveLane& y) { return x.address < y.address; });
    return active;
}

// Distinct bytes the active lanes ask for: the union of their [address, address + width) ranges.
// The notes' figure 4-12 (seed 002: all lanes on one 4-byte word, 3.125 %) counts a word read by
// many lanes once, so efficiency is measured against distinct bytes, not lanes x width.
std::int64_t uniqueBytes(const ActiveLanes& lanes, int width) {
    std::int64_t total = 0;
    std::int64_t coveredEnd = std::numeric_limits<std::int64_t>::min();
    for (const ActiveLane& l : lanes) { // sorted by address
        const std::int64_t end = l.address + width;
        if (end <= coveredEnd) {
            continue;
        }
        total += end - std::max(l.address, coveredEnd);
        coveredEnd = end;
    }
    return total;
}

// One transaction of `granuleBytes` per distinct aligned granule touched. Addresses are multiples
// of the width (at most 16 bytes), so an element never straddles a 32- or 128-byte boundary.
std::vector<Transaction> granules(const ActiveLanes& lanes, std::int64_t granuleBytes) {
    std::vector<Transaction> transactions;
    transactions.reserve(lanes.count);
    for (const ActiveLane& l : lanes) { // sorted by address, so granules come in order
        const std::int64_t start = l.address / granuleBytes * granuleBytes;
        if (transactions.empty() || transactions.back().address != start) {
            transactions.push_back({start, static_cast<int>(granuleBytes), 0});
        }
        transactions.back().laneMask |= laneBit(l.lane);
    }
    return transactions;
}

// Stores (seed 000 "Global Memory Writes", seed 002 figures 4-19 to 4-21): 32-byte segments,
// issued in transactions of 1, 2 or 4 segments.
//
// Reading taken (the notes conflict): the touched segments are split into maximal runs of
// consecutive segments, and each run is cut greedily, in address order, into transactions of 4,
// then 2, then 1 segments. This reproduces every store figure of the notes:
//   - 128 consecutive aligned bytes: one 4-segment transaction (seed 002, figure 4-19);
//   - lanes over a 192-byte range on three non-adjacent segments: three 1-segment transactions
//     (figure 4-20);
//   - an aligned 64-byte range: one 2-segment transaction (figure 4-21);
//   - writeSegment at offset 11 (bytes 44..171, segments 1 to 5): one 4-segment and one
//     1-segment transaction, 160 bytes moved for 128 requested, 80 % (seed 002, "Cause of
//     Efficiency Drop at Offset 11").
// Seed 000 also states a per-128-byte-region rule ("two addresses in the same 128-byte region but
// not within an aligned 64-byte region -> one four-segment transaction"). Applied to offset 11 it
// gives a 4-segment transaction for bytes 0..127 and a 2-segment one for 128..191 (192 bytes,
// 67 %), contradicting the 80 % the notes measured, so the figures win.
std::vector<Transaction> storeTransactions(const ActiveLanes& lanes) {
    const std::vector<Transaction> segments = granules(lanes, kSectorBytes);
    std::vector<Transaction> transactions;
    std::size_t i = 0;
    while (i < segments.size()) {
        // The run of consecutive segments starting at i.
        std::size_t runEnd = i + 1;
        while (runEnd < segments.size() &&
               segments[runEnd].address == segments[runEnd - 1].address + kSectorBytes) {
            ++runEnd;
        }
        while (i < runEnd) {
            const std::size_t left = runEnd - i;
            const std::size_t take = left >= 4 ? 4 : (left >= 2 ? 2 : 1);
            Transaction t{segments[i].address, static_cast<int>(take) * kSectorBytes, 0};
            for (std::size_t k = i; k < i + take; ++k) {
                t.laneMask |= segments[k].laneMask;
            }
            transactions.push_back(t);
            i += take;
        }
    }
    return transactions;
}

// Shared memory (seed 004: bank = (address / bank_size) % 32, 4- and 8-byte bank modes; seed 003:
// 32 banks, broadcast, compute capability 3.x's 64-bit banks, padding [TILE_DIM][TILE_DIM+1]).
//
// An access covers ceil(width / bankWidth) consecutive bank-words (bank-word = address /
// bankWidth), each in bank (bank-word % 32). Lanes on the same bank-word are served together
// (broadcast or multicast, seed 003 "Broadcast"), so a bank's cost is the number of distinct
// bank-words it must deliver, and the conflict degree is the largest such number over the banks
// (seed 004: offset 32 puts every lane in one bank on different words, a 32-way conflict).
//
// Each bank delivers one bank-word per pass, so the k-th distinct word of every bank (in address
// order) goes to pass k. An access wider than the bank path needs more than one pass even without
// a conflict: passes = max(degree, ceil(uniqueBytes / (32 x bankWidth))). Under this reading the
// second term never exceeds the first (distinct words <= 32 x degree), so in practice passes ==
// degree; e.g. 8-byte elements at stride 1 in 4-byte mode touch two words in every bank (lanes i
// and i + 16): two passes, degree 2. Elements are aligned to their width, so a lane's words
// always have the same rank in their banks and every lane is served in exactly one pass.
void predictShared(const ActiveLanes& lanes, int width, int bankWidth, TextbookPrediction& out) {
    const std::int64_t wordsPerAccess = (width + bankWidth - 1) / bankWidth;

    // Every bank-word asked for (at most 32 lanes x 4 words), sorted and made distinct.
    constexpr std::size_t kMaxWords = std::size_t{kWarpSize} * 4;
    std::array<std::int64_t, kMaxWords> words{};
    std::size_t wordCount = 0;
    for (const ActiveLane& l : lanes) {
        const std::int64_t first = l.address / bankWidth;
        for (std::int64_t w = first; w < first + wordsPerAccess; ++w) {
            words[wordCount++] = w;
        }
    }
    std::sort(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(wordCount));
    wordCount = static_cast<std::size_t>(
        std::unique(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(wordCount)) -
        words.begin());
    // The rank of each distinct word among its bank's words, in address order: its pass.
    std::array<int, kMaxWords> rank{};
    std::array<int, kBankCount> perBank{};
    int degree = 0;
    for (std::size_t i = 0; i < wordCount; ++i) {
        int& seen = perBank[static_cast<std::size_t>(words[i] % kBankCount)];
        rank[i] = seen++;
        degree = std::max(degree, seen);
    }

    const std::int64_t passBytes = std::int64_t{kBankCount} * bankWidth;
    const auto bandwidthPasses =
        static_cast<int>((out.uniqueBytesRequested + passBytes - 1) / passBytes);
    const int passes = std::max(degree, bandwidthPasses);

    out.bankConflictDegree = degree;
    out.transactions.assign(static_cast<std::size_t>(passes), Transaction{});
    std::array<std::int64_t, kMaxWords> lowestWord{};
    lowestWord.fill(std::numeric_limits<std::int64_t>::max());
    const auto wordsEnd = words.begin() + static_cast<std::ptrdiff_t>(wordCount);
    for (const ActiveLane& l : lanes) {
        const std::int64_t first = l.address / bankWidth;
        for (std::int64_t w = first; w < first + wordsPerAccess; ++w) {
            const auto index = static_cast<std::size_t>(
                std::lower_bound(words.begin(), wordsEnd, w) - words.begin());
            const auto pass = static_cast<std::size_t>(rank[index]);
            out.transactions[pass].laneMask |= laneBit(l.lane);
            lowestWord[pass] = std::min(lowestWord[pass], w);
        }
    }
    // A pass's address is the lowest byte it serves; its size the bank-words it delivers.
    for (std::size_t i = 0; i < wordCount; ++i) {
        out.transactions[static_cast<std::size_t>(rank[i])].sizeBytes += bankWidth;
    }
    for (std::size_t pass = 0; pass < out.transactions.size(); ++pass) {
        if (lowestWord[pass] != std::numeric_limits<std::int64_t>::max()) {
            out.transactions[pass].address = lowestWord[pass] * bankWidth;
        }
    }
}

} // namespace

TextbookPrediction predictTextbook(const WarpAccess& access, const TextbookOptions& options) {
    TextbookPrediction out;
    out.kind = access.kind;
    out.bankWidthBytes = options.bankMode == SharedBankMode::EightByte ? 8 : 4;
    if (isMatrixAccess(access.kind)) {
        // PTX ldmatrix needs compute capability 7.5 (Turing's tensor cores), stmatrix 9.0; the
        // notes teach Fermi (2.x) and Kepler (3.x).
        out.rule = TextbookRule::SharedMemory;
        out.notInNotes = std::string(opName(access.kind)) +
                         " is not in the notes' era: the course notes teach Fermi and Kepler "
                         "GPUs, and this warp-wide matrix instruction came with the tensor cores "
                         "of compute capability " +
                         (access.kind.op == AccessOp::Store ? "9.0" : "7.5") +
                         "; only the modern model counts it";
        return out;
    }

    if (access.kind.space == MemorySpace::Shared) {
        out.rule = TextbookRule::SharedMemory;
    } else if (access.kind.space == MemorySpace::Constant) {
        // Seed 003 "Constant Memory": best when a warp reads few distinct locations; one
        // location is as fast as a register: one pass per distinct address, broadcast to its
        // lanes.
        out.rule = TextbookRule::ConstantCache;
    } else if (access.kind.op == AccessOp::Store) {
        // Seed 000: "The L1 cache is not used for store operations on either Fermi or Kepler".
        out.rule = TextbookRule::Store;
    } else {
        // Seed 000 / 002 "Cache Behavior and Compiler Options": -dlcm=ca caches loads in L1
        // (128-byte transactions), -dlcm=cg sends them to L2 only (32-byte segments); a plain load
        // is cached on Fermi and not on K40 and later. .nc goes through Kepler's read-only
        // (texture) path, which is 32-byte granular like an L2-only load.
        switch (access.kind.cache) {
        case CachePath::CacheAll:
            out.rule = TextbookRule::CachedLoad;
            break;
        case CachePath::CacheGlobal:
        case CachePath::NonCoherent:
            out.rule = TextbookRule::UncachedLoad;
            break;
        case CachePath::Default:
            out.rule =
                options.defaultLoadsCached ? TextbookRule::CachedLoad : TextbookRule::UncachedLoad;
            break;
        }
    }

    if (!textbookWellFormed(access)) {
        return out;
    }
    const int width = access.kind.widthBytes;
    const ActiveLanes lanes = activeLanes(access);
    out.bytesRequested = static_cast<std::int64_t>(lanes.count) * width;
    out.uniqueBytesRequested = uniqueBytes(lanes, width);

    switch (out.rule) {
    case TextbookRule::CachedLoad:
        // Seed 000 "Cached Loads": serviced at the granularity of an L1 line, 128 bytes.
        out.transactions = granules(lanes, kLineBytes);
        break;
    case TextbookRule::UncachedLoad:
        // Seed 002 "Uncached Loads": memory segments of 32 bytes, not lines of 128.
        out.transactions = granules(lanes, kSectorBytes);
        break;
    case TextbookRule::Store:
        out.transactions = storeTransactions(lanes);
        break;
    case TextbookRule::SharedMemory:
        predictShared(lanes, width, out.bankWidthBytes, out);
        return out; // bytesMoved and efficiency are global-memory quantities
    case TextbookRule::ConstantCache:
        for (const ActiveLane& lane : lanes) {
            auto found =
                std::find_if(out.transactions.begin(), out.transactions.end(),
                             [&](const Transaction& t) { return t.address == lane.address; });
            if (found == out.transactions.end()) {
                out.transactions.push_back(Transaction{lane.address, width, 0});
                found = out.transactions.end() - 1;
            }
            found->laneMask |= laneBit(lane.lane);
        }
        return out; // served from the constant cache: no bytes moved in the notes' sense
    }

    for (const Transaction& t : out.transactions) {
        out.bytesMoved += t.sizeBytes;
    }
    // Seed 002: gld_efficiency = requested / required throughput.
    out.efficiency = out.bytesMoved > 0 ? static_cast<double>(out.uniqueBytesRequested) /
                                              static_cast<double>(out.bytesMoved)
                                        : 0.0;
    return out;
}

} // namespace warpscope
