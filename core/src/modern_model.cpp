// The modern model (compute capability 7.0 and later): requests, sectors and lines for global
// accesses, wavefronts and bank conflicts for shared ones, counted the way Nsight Compute's l1tex
// counters count them. The rules are fitted to tests/data/hardware_table_h100.jsonl; every rule
// that was not obvious says what was measured.
#include "warpscope/model.h"

#include "warpscope/matrix_access.h"

#include <algorithm>
#include <array>
#include <limits>

namespace warpscope {
namespace {

/// What validate() checks, without copying the access or writing a message: a width of 1, 2, 4,
/// 8 or 16 bytes and every address non-negative, aligned to it and far from the int64 limit.
bool modernWellFormed(const WarpAccess& access) {
    if (isMatrixAccess(access.kind)) {
        return isWellFormedMatrix(access);
    }
    const int width = access.kind.widthBytes;
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) {
        return false;
    }
    const auto fine = [&](const auto& address) {
        return !address ||
               (*address >= 0 && *address <= std::numeric_limits<std::int64_t>::max() - 16 &&
                *address % width == 0);
    };
    if (!std::all_of(access.addresses.begin(), access.addresses.end(), fine)) {
        return false;
    }
    if (access.kind.op != AccessOp::CopyAsync) {
        return true;
    }
    if (!access.sharedAddresses || access.kind.space != MemorySpace::Global ||
        !isValidCopyWidth(width)) {
        return false;
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& shared = (*access.sharedAddresses)[static_cast<std::size_t>(lane)];
        if (shared.has_value() != access.addresses[static_cast<std::size_t>(lane)].has_value() ||
            !fine(shared)) {
            return false;
        }
    }
    return true;
}

std::int64_t floorTo(std::int64_t value, std::int64_t unit) {
    return value - value % unit;
}

GlobalPrediction predictGlobal(const WarpAccess& access) {
    GlobalPrediction result;
    const int width = access.kind.widthBytes;
    // Elements are aligned to their width (validate() guarantees it) and widths are at most 16
    // bytes, so two lanes' elements are either the same bytes or disjoint, and an element never
    // straddles a sector or a line. Sorting the active lanes by address gives everything.
    struct LaneAddress {
        std::int64_t address;
        int lane;
    };
    std::array<LaneAddress, kWarpSize> active{};
    std::size_t count = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (const auto& address = access.addresses[static_cast<std::size_t>(lane)]) {
            active[count++] = LaneAddress{*address, lane};
        }
    }
    std::sort(active.begin(), active.begin() + static_cast<std::ptrdiff_t>(count),
              [](const LaneAddress& x, const LaneAddress& y) { return x.address < y.address; });
    result.bytesRequested = static_cast<std::int64_t>(count) * width;
    result.sectorList.reserve(count);
    result.lineList.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::int64_t address = active[i].address;
        const std::uint32_t laneBit = 1u << active[i].lane;
        const bool newElement = i == 0 || active[i - 1].address != address;
        const std::int64_t sectorAddress = floorTo(address, kSectorBytes);
        const std::int64_t lineAddress = floorTo(address, kLineBytes);
        if (result.sectorList.empty() || result.sectorList.back().address != sectorAddress) {
            result.sectorList.push_back(SectorUse{sectorAddress, 0, 0});
        }
        if (result.lineList.empty() || result.lineList.back().address != lineAddress) {
            result.lineList.push_back(LineUse{lineAddress, 0, 0});
        }
        SectorUse& sector = result.sectorList.back();
        LineUse& line = result.lineList.back();
        sector.laneMask |= laneBit;
        line.laneMask |= laneBit;
        line.sectorMask = static_cast<std::uint8_t>(
            line.sectorMask | (1u << ((sectorAddress - lineAddress) / kSectorBytes)));
        if (newElement) {
            sector.bytesUsed += width;
            result.uniqueBytesRequested += width;
        }
    }
    // Measured (H100, all widths, loads and stores, every cache path): one request per warp
    // instruction, whatever the addresses; one sector per distinct 32-byte sector.
    result.requests = count > 0 ? 1 : 0;
    result.sectors = static_cast<int>(result.sectorList.size());
    result.lines = static_cast<int>(result.lineList.size());
    result.bytesMoved = std::int64_t{result.sectors} * kSectorBytes;
    result.efficiency = result.bytesMoved > 0 ? static_cast<double>(result.uniqueBytesRequested) /
                                                    static_cast<double>(result.bytesMoved)
                                              : 0.0;
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

/// The lowest active lane whose active partner `lane ^ distance` asks for another address, or -1
/// when every active lane shares its address with its partner or the partner is inactive: with
/// distance 1 the even/odd pairs (2k, 2k+1), with distance 2 the lanes two apart in each group of
/// four (4k with 4k+2, 4k+1 with 4k+3).
int firstSplitLane(const WarpAccess& access, int distance) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& a = access.addresses[static_cast<std::size_t>(lane)];
        const auto& b = access.addresses[static_cast<std::size_t>(lane ^ distance)];
        if (a && b && *a != *b) {
            return lane;
        }
    }
    return -1;
}

/// The phases an access is served in, only those with active lanes.
///
/// Stores use the fixed lane phases. Measured on the H100: a 16-byte store of 32 lanes to one
/// address costs 4 wavefronts, and two lanes of different quarter-warps never conflict.
///
/// Loads of 8 and 16 bytes start from the same phases, but neighbouring phases are fused two by
/// two (half-warps 0+1; quarter-warps 0+1 and 2+3) when the whole warp asks for at most one
/// address per partner pair, partners being either every even/odd pair (2k, 2k+1) or every pair
/// of lanes two apart (l, l ^ 2); an inactive partner never splits a pair. Each fused phase then
/// still asks for at most 128 bytes. Measured: a 32-lane 8-byte broadcast load is one wavefront and
/// a 16-byte one two; lanes 0 and 8 of a 16-byte load on the same bank conflict (2 wavefronts,
/// 1 conflict) while as a store they do not; the same 16 addresses read by both half-warps (lane
/// l and l + 16 alike) stay two wavefronts; a single pair with two addresses anywhere in the warp
/// stops all fusion, even of two quarter-warps whose own pairs all share; lanes l and l ^ 2 on one
/// address fuse too, while l and l ^ 3, l ^ 4, l ^ 8, l ^ 16 or (2k+1, 2k+2) do not. Rules fitted
/// to the measured sets in turn and each checked on a set measured after it
/// (tests/data/hardware_table_h100.jsonl; docs/models.md tells the story).
std::vector<std::uint32_t> servicePhases(const WarpAccess& access, PhaseFusion& fusion) {
    fusion = PhaseFusion{};
    if (isMatrixAccess(access.kind)) {
        // ldmatrix / stmatrix: one phase per matrix, its 8 rows packed as any 16-byte lanes are
        // (measured on the H200, docs/models.md "ldmatrix and stmatrix").
        return matrixPhases(access.kind.matrices);
    }
    std::vector<std::uint32_t> phases = lanePhases(access.kind.widthBytes);
    fusion.considered = access.kind.op == AccessOp::Load && phases.size() > 1;
    if (fusion.considered) {
        fusion.splitLane = {firstSplitLane(access, 1), firstSplitLane(access, 2)};
        fusion.partnerDistance = fusion.splitLane[0] < 0 ? 1 : fusion.splitLane[1] < 0 ? 2 : 0;
    }
    if (fusion.partnerDistance > 0) {
        std::vector<std::uint32_t> fused;
        for (std::size_t i = 0; i + 1 < phases.size(); i += 2) {
            fused.push_back(phases[i] | phases[i + 1]);
        }
        phases = fused;
    }
    std::erase_if(phases, [&](std::uint32_t phase) { return (phase & access.activeMask()) == 0; });
    return phases;
}

int bankOf(std::int64_t word) {
    return static_cast<int>(word % kBankCount);
}

/// The 4-byte words of a lane's element: first and count (1 to 4; elements are width-aligned).
struct WordRange {
    std::int64_t first = 0;
    int count = 0;
};

WordRange wordsOf(std::int64_t address, int widthBytes) {
    const std::int64_t first = address / kBankWordBytes;
    const std::int64_t last = (address + widthBytes - 1) / kBankWordBytes;
    return WordRange{first, static_cast<int>(last - first + 1)};
}

/// Packs the lanes of one phase into wavefronts: a wavefront holds at most one distinct word per
/// bank; lanes asking for a word already in the wavefront are served by it (broadcast). A lane's
/// words go to the first wavefront where each of its banks is free or holds the same word. Since
/// elements are aligned, this needs exactly as many wavefronts as the worst bank has distinct
/// words, which is what the hardware was measured to take.
void packPhase(const WarpAccess& access, std::uint32_t phaseMask, std::vector<Wavefront>& out,
               int& worstDegree) {
    const std::size_t firstWave = out.size();
    std::array<int, kBankCount> distinct{}; // distinct words seen per bank in this phase
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (!address || !((phaseMask >> lane) & 1u)) {
            continue;
        }
        const WordRange words = wordsOf(*address, access.kind.widthBytes);
        auto fits = [&](const Wavefront& wave) {
            for (int i = 0; i < words.count; ++i) {
                const std::int64_t word = words.first + i;
                const std::int64_t held = wave.bankWord[static_cast<std::size_t>(bankOf(word))];
                if (held != -1 && held != word) {
                    return false;
                }
            }
            return true;
        };
        std::size_t wave = firstWave;
        while (wave < out.size() && !fits(out[wave])) {
            ++wave;
        }
        if (wave == out.size()) {
            Wavefront fresh;
            fresh.bankWord.fill(-1);
            out.push_back(fresh);
        }
        Wavefront& target = out[wave];
        target.laneMask |= 1u << lane;
        for (int i = 0; i < words.count; ++i) {
            const std::int64_t word = words.first + i;
            auto& held = target.bankWord[static_cast<std::size_t>(bankOf(word))];
            if (held == -1) {
                held = word;
                const int degree = ++distinct[static_cast<std::size_t>(bankOf(word))];
                worstDegree = std::max(worstDegree, degree);
            }
        }
    }
}

/// Constant memory (seed 003): one round per distinct address, its lanes served together.
ConstantPrediction predictConstant(const WarpAccess& access) {
    ConstantPrediction result;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (!address) {
            continue;
        }
        result.bytesRequested += access.kind.widthBytes;
        auto round = std::find_if(result.rounds.begin(), result.rounds.end(),
                                  [&](const ConstantRound& r) { return r.address == *address; });
        if (round == result.rounds.end()) {
            result.rounds.push_back(ConstantRound{*address, 0});
            round = result.rounds.end() - 1;
        }
        round->laneMask |= 1u << lane;
    }
    // ptxas compiles an 8- or 16-byte constant load into 2 or 4 32-bit LDC instructions (H100,
    // CUDA 13: smsp__inst_executed_op_ldc counts them); each serves the warp's distinct addresses.
    const int parts = std::max(1, access.kind.widthBytes / 4);
    result.requests = result.rounds.empty() ? 0 : parts;
    result.distinctAddresses = static_cast<int>(result.rounds.size());
    result.cacheRequests = result.requests * result.distinctAddresses;
    result.extraRequests = result.cacheRequests - result.requests;
    return result;
}

SharedPrediction predictShared(const WarpAccess& access) {
    SharedPrediction result;
    result.phases = servicePhases(access, result.fusion);
    for (std::uint32_t phase : result.phases) {
        // Within a phase, a bank serves one distinct 4-byte word per wavefront; lanes asking for a
        // word already being read or written share it (broadcast). Measured: a phase costs exactly
        // its worst bank's number of distinct words, for every width.
        ++result.idealWavefronts;
        packPhase(access, phase, result.wavefrontList, result.worstBankDegree);
    }
    result.wavefronts = static_cast<int>(result.wavefrontList.size());
    // Nsight Compute counts as conflicts the wavefronts beyond one per phase.
    result.bankConflicts = result.wavefronts - result.idealWavefronts;
    return result;
}

/// The shared side of an async copy (LDGSTS). Measured on the H100
/// (tests/data/copy_async_h100.txt): the copy writes shared memory one global 128-byte line at a
/// time. The lanes whose global elements lie in one line are written together, in the phases and
/// wavefronts a plain store of those lanes to their shared addresses would take; the warp's
/// wavefronts are the sum over its lines. Nsight Compute counts as bank conflicts the wavefronts
/// beyond one per phase of a plain store of the whole warp
/// (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum), so a copy whose global side
/// spans several lines conflicts even when its shared addresses do not.
SharedPrediction predictCopyShared(const WarpAccess& access) {
    WarpAccess store;
    store.kind = AccessKind{MemorySpace::Shared, AccessOp::Store, access.kind.widthBytes,
                            CachePath::Default};
    store.addresses = *access.sharedAddresses;
    SharedPrediction result;
    PhaseFusion ignored;
    result.phases = servicePhases(store, ignored);
    result.idealWavefronts = static_cast<int>(result.phases.size());
    std::vector<std::int64_t> lines;
    for (const auto& address : access.addresses) {
        if (address) {
            lines.push_back(*address / kLineBytes);
        }
    }
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    for (std::int64_t line : lines) {
        WarpAccess part = store;
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const auto& global = access.addresses[static_cast<std::size_t>(lane)];
            if (!global || *global / kLineBytes != line) {
                part.addresses[static_cast<std::size_t>(lane)].reset();
            }
        }
        PhaseFusion none;
        for (std::uint32_t phase : servicePhases(part, none)) {
            packPhase(part, phase, result.wavefrontList, result.worstBankDegree);
        }
    }
    result.wavefronts = static_cast<int>(result.wavefrontList.size());
    result.bankConflicts = result.wavefronts - result.idealWavefronts;
    return result;
}

} // namespace

bool usesSectors(MemorySpace space) {
    switch (space) {
    case MemorySpace::Global:
    case MemorySpace::Local:
    case MemorySpace::Texture:
        return true;
    case MemorySpace::Shared:
    case MemorySpace::Constant:
        break;
    }
    return false;
}

TexturePrediction predictTexture(const WarpAccess& access) {
    // Measured on an H100 (tests/data/loctex): every warp-wide read is 8 requests, and its
    // sectors are the sum over the quads of each quad's distinct sectors (a row of 32 texels:
    // 8, not a global load's 4; a column: 32).
    TexturePrediction out;
    for (int quad = 0; quad < kWarpSize / 4; ++quad) {
        std::array<std::int64_t, 4> seen{};
        int distinct = 0;
        for (int lane = quad * 4; lane < quad * 4 + 4; ++lane) {
            const auto& address = access.addresses[static_cast<std::size_t>(lane)];
            if (!address) {
                continue;
            }
            const std::int64_t sector = *address / kSectorBytes;
            if (std::find(seen.begin(), seen.begin() + distinct, sector) ==
                seen.begin() + distinct) {
                seen[static_cast<std::size_t>(distinct++)] = sector;
            }
        }
        out.requests += distinct > 0 ? 1 : 0;
        out.sectors += distinct;
    }
    return out;
}

ModernPrediction predictModern(const WarpAccess& access) {
    ModernPrediction prediction;
    prediction.kind = access.kind;
    // Like predictTextbook, the model is meant for validated accesses (pattern.h: validate());
    // anything else (a width of 0 would divide by zero, 256 would never finish a phase; a
    // negative or misaligned address would straddle sectors) gives an empty prediction.
    const bool sectors = usesSectors(access.kind.space);
    if (!modernWellFormed(access)) {
        if (sectors) {
            prediction.global = GlobalPrediction{};
        } else if (access.kind.space == MemorySpace::Shared) {
            prediction.shared = SharedPrediction{};
        } else if (access.kind.space == MemorySpace::Constant) {
            prediction.constant = ConstantPrediction{};
        }
        if (access.kind.space == MemorySpace::Texture) {
            prediction.texture = TexturePrediction{};
        }
        if (access.kind.op == AccessOp::CopyAsync) {
            prediction.shared = SharedPrediction{};
        }
        return prediction;
    }
    switch (access.kind.space) {
    case MemorySpace::Global:
    case MemorySpace::Local:
        prediction.global = predictGlobal(access);
        if (access.kind.op == AccessOp::CopyAsync) {
            prediction.shared = predictCopyShared(access);
        }
        break;
    case MemorySpace::Texture:
        prediction.global = predictGlobal(access);
        prediction.texture = predictTexture(access);
        break;
    case MemorySpace::Shared:
        prediction.shared = predictShared(access);
        break;
    case MemorySpace::Constant:
        prediction.constant = predictConstant(access);
        break;
    }
    return prediction;
}

} // namespace warpscope
