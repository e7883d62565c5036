// The modern model (compute capability 7.0 and later): requests, sectors and lines for global
// accesses, wavefronts and bank conflicts for shared ones, counted the way Nsight Compute's l1tex
// counters count them. The rules are fitted to tests/data/hardware_table_h100.jsonl; every rule
// that was not obvious says what was measured.
#include "warpscope/model.h"

#include <algorithm>
#include <map>
#include <set>

namespace warpscope {
namespace {

std::int64_t floorTo(std::int64_t value, std::int64_t unit) {
    return value - value % unit;
}

GlobalPrediction predictGlobal(const WarpAccess& access) {
    GlobalPrediction result;
    const int width = access.kind.widthBytes;
    std::map<std::int64_t, SectorUse> sectors;
    std::map<std::int64_t, LineUse> lines;
    std::set<std::int64_t> bytes;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (!address) {
            continue;
        }
        result.bytesRequested += width;
        // Addresses are width-aligned and widths are at most 16, so an element never straddles a
        // sector or a line.
        const std::int64_t sectorAddress = floorTo(*address, kSectorBytes);
        const std::int64_t lineAddress = floorTo(*address, kLineBytes);
        SectorUse& sector = sectors[sectorAddress];
        sector.address = sectorAddress;
        sector.laneMask |= 1u << lane;
        LineUse& line = lines[lineAddress];
        line.address = lineAddress;
        line.laneMask |= 1u << lane;
        line.sectorMask = static_cast<std::uint8_t>(
            line.sectorMask | (1u << ((sectorAddress - lineAddress) / kSectorBytes)));
        for (int b = 0; b < width; ++b) {
            if (bytes.insert(*address + b).second) {
                ++sector.bytesUsed;
            }
        }
    }
    const bool anyActive = !sectors.empty();
    // Measured (H100, all widths, loads and stores, every cache path): one request per warp
    // instruction, whatever the addresses.
    result.requests = anyActive ? 1 : 0;
    result.sectors = static_cast<int>(sectors.size());
    result.lines = static_cast<int>(lines.size());
    result.uniqueBytesRequested = static_cast<std::int64_t>(bytes.size());
    result.bytesMoved = std::int64_t{result.sectors} * kSectorBytes;
    result.efficiency = result.bytesMoved > 0 ? static_cast<double>(result.uniqueBytesRequested) /
                                                    static_cast<double>(result.bytesMoved)
                                              : 0.0;
    for (auto& [address, sector] : sectors) {
        result.sectorList.push_back(sector);
    }
    for (auto& [address, line] : lines) {
        result.lineList.push_back(line);
    }
    return result;
}

// ---- shared memory -----------------------------------------------------------------------------

/// How many bytes one shared-memory wavefront moves at most: one 4-byte word from each of the 32
/// banks.
constexpr int kWavefrontBytes = kBankCount * kBankWordBytes;

/// Fixed phases of lanes: the whole warp for widths up to 4 bytes, half-warps for 8 bytes,
/// quarter-warps for 16 bytes (each phase then asks for at most 128 bytes).
std::vector<std::uint32_t> lanePhases(int widthBytes) {
    const int lanesPerPhase = std::min(kWarpSize, kWavefrontBytes / widthBytes);
    std::vector<std::uint32_t> phases;
    for (int first = 0; first < kWarpSize; first += lanesPerPhase) {
        const std::uint64_t bits = (std::uint64_t{1} << lanesPerPhase) - 1;
        phases.push_back(static_cast<std::uint32_t>(bits << first));
    }
    return phases;
}

/// True when every even/odd lane pair (2k, 2k+1) of the mask asks for at most one address: both
/// lanes on the same address, or only one of them active.
bool pairsShareAddresses(const WarpAccess& access, std::uint32_t mask) {
    for (int even = 0; even < kWarpSize; even += 2) {
        if (((mask >> even) & 3u) == 0) {
            continue;
        }
        const auto& a = access.addresses[static_cast<std::size_t>(even)];
        const auto& b = access.addresses[static_cast<std::size_t>(even + 1)];
        if (a && b && *a != *b) {
            return false;
        }
    }
    return true;
}

/// The phases an access is served in, only those with active lanes.
///
/// Stores use the fixed lane phases. Measured on the H100: a 16-byte store of 32 lanes to one
/// address costs 4 wavefronts, and two lanes of different quarter-warps never conflict.
///
/// Loads of 8 and 16 bytes start from the same phases, but when every even/odd lane pair of the
/// whole warp asks for at most one address, neighbouring phases are fused two by two (half-warps
/// 0+1; quarter-warps 0+1 and 2+3): each fused phase still asks for at most 128 bytes. Measured: a
/// 32-lane 8-byte broadcast load is one wavefront and a 16-byte one two; lanes 0 and 8 of a 16-byte
/// load on the same bank conflict (2 wavefronts, 1 conflict) while as a store they do not; the
/// same 16 addresses read by both half-warps (lane l and l + 16 alike) stay two wavefronts; and a
/// single pair with two addresses anywhere in the warp stops all fusion, even of two quarter-warps
/// whose own pairs all share. Rules fitted to the measured sets in turn and each checked on a set
/// measured after it (tests/data/hardware_table_h100.jsonl; docs/models.md tells the story).
std::vector<std::uint32_t> servicePhases(const WarpAccess& access) {
    std::vector<std::uint32_t> phases = lanePhases(access.kind.widthBytes);
    if (access.kind.op == AccessOp::Load && phases.size() > 1 &&
        pairsShareAddresses(access, 0xFFFFFFFFu)) {
        std::vector<std::uint32_t> fused;
        for (std::size_t i = 0; i + 1 < phases.size(); i += 2) {
            fused.push_back(phases[i] | phases[i + 1]);
        }
        phases = fused;
    }
    std::erase_if(phases, [&](std::uint32_t phase) { return (phase & access.activeMask()) == 0; });
    return phases;
}

/// Distinct 4-byte words a lane's access covers.
void wordsOf(std::int64_t address, int widthBytes, std::vector<std::int64_t>& out) {
    out.clear();
    const std::int64_t first = address / kBankWordBytes;
    const std::int64_t last = (address + widthBytes - 1) / kBankWordBytes;
    for (std::int64_t word = first; word <= last; ++word) {
        out.push_back(word);
    }
}

int bankOf(std::int64_t word) {
    return static_cast<int>(word % kBankCount);
}

/// Packs the lanes of one phase into wavefronts: a wavefront holds at most one distinct word per
/// bank; lanes asking for a word already in the wavefront are served by it (broadcast).
std::vector<Wavefront> packPhase(const WarpAccess& access, std::uint32_t phaseMask) {
    std::vector<Wavefront> waves;
    std::vector<std::int64_t> words;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (!address || !((phaseMask >> lane) & 1u)) {
            continue;
        }
        wordsOf(*address, access.kind.widthBytes, words);
        // A lane's words go to the first wavefront where every one of its banks is free or
        // already holds the same word.
        auto fits = [&](const Wavefront& wave) {
            return std::all_of(words.begin(), words.end(), [&](std::int64_t word) {
                const std::int64_t held = wave.bankWord[static_cast<std::size_t>(bankOf(word))];
                return held == -1 || held == word;
            });
        };
        auto it = std::find_if(waves.begin(), waves.end(), fits);
        if (it == waves.end()) {
            Wavefront wave;
            wave.bankWord.fill(-1);
            waves.push_back(wave);
            it = std::prev(waves.end());
        }
        it->laneMask |= 1u << lane;
        for (std::int64_t word : words) {
            it->bankWord[static_cast<std::size_t>(bankOf(word))] = word;
        }
    }
    return waves;
}

/// The largest number of distinct words one bank holds among the lanes of a phase.
int worstBankDegree(const WarpAccess& access, std::uint32_t phaseMask) {
    std::array<std::set<std::int64_t>, kBankCount> perBank;
    std::vector<std::int64_t> words;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (!address || !((phaseMask >> lane) & 1u)) {
            continue;
        }
        wordsOf(*address, access.kind.widthBytes, words);
        for (std::int64_t word : words) {
            perBank[static_cast<std::size_t>(bankOf(word))].insert(word);
        }
    }
    std::size_t worst = 0;
    for (const auto& bank : perBank) {
        worst = std::max(worst, bank.size());
    }
    return static_cast<int>(worst);
}

SharedPrediction predictShared(const WarpAccess& access) {
    SharedPrediction result;
    result.phases = servicePhases(access);
    for (std::uint32_t phase : result.phases) {
        // Within a phase, a bank serves one distinct 4-byte word per wavefront; lanes asking for a
        // word already being read or written share it (broadcast). Measured: a phase costs exactly
        // its worst bank's number of distinct words, for every width.
        ++result.idealWavefronts;
        result.worstBankDegree = std::max(result.worstBankDegree, worstBankDegree(access, phase));
        for (Wavefront& wave : packPhase(access, phase)) {
            result.wavefrontList.push_back(wave);
        }
    }
    result.wavefronts = static_cast<int>(result.wavefrontList.size());
    // Nsight Compute counts as conflicts the wavefronts beyond one per phase.
    result.bankConflicts = result.wavefronts - result.idealWavefronts;
    return result;
}

} // namespace

ModernPrediction predictModern(const WarpAccess& access) {
    ModernPrediction prediction;
    prediction.kind = access.kind;
    if (access.kind.space == MemorySpace::Global) {
        prediction.global = predictGlobal(access);
    } else {
        prediction.shared = predictShared(access);
    }
    return prediction;
}

} // namespace warpscope
