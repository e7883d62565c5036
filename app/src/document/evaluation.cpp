// Evaluation: resolve() then predictModern() and predictTextbook(), and look-ups from a lane to the
// core's lists (which sector, line, banks and wavefront serve it).
#include "document/evaluation.h"

#include <utility>

namespace warpscope::app {

bool isLaneInMask(std::uint32_t mask, int lane) {
    return lane >= 0 && lane < kWarpSize && ((mask >> lane) & 1u) != 0;
}

Result<Evaluation> evaluatePattern(const Pattern& pattern, const TextbookOptions& textbookOptions) {
    auto access = resolve(pattern);
    if (!access) {
        return access.error();
    }
    Evaluation evaluation;
    evaluation.pattern = pattern;
    evaluation.access = std::move(access).value();
    evaluation.textbookOptions = textbookOptions;
    evaluation.modern = predictModern(evaluation.access);
    evaluation.textbook = predictTextbook(evaluation.access, textbookOptions);
    return evaluation;
}

const SectorUse* Evaluation::sectorOfLane(int lane) const {
    if (!modern.global) {
        return nullptr;
    }
    for (const SectorUse& sector : modern.global->sectorList) {
        if (isLaneInMask(sector.laneMask, lane)) {
            return &sector;
        }
    }
    return nullptr;
}

const LineUse* Evaluation::lineOfLane(int lane) const {
    if (!modern.global) {
        return nullptr;
    }
    for (const LineUse& line : modern.global->lineList) {
        if (isLaneInMask(line.laneMask, lane)) {
            return &line;
        }
    }
    return nullptr;
}

int Evaluation::wavefrontOfLane(int lane) const {
    if (!modern.shared) {
        return -1;
    }
    const auto& list = modern.shared->wavefrontList;
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (isLaneInMask(list[i].laneMask, lane)) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

WarpAccess sharedSideOf(const WarpAccess& access) {
    if (!access.sharedAddresses) {
        return access;
    }
    WarpAccess shared;
    shared.kind = AccessKind{MemorySpace::Shared, AccessOp::Store, access.kind.widthBytes,
                             CachePath::Default};
    shared.addresses = *access.sharedAddresses;
    shared.threads = access.threads;
    return shared;
}

std::uint32_t Evaluation::banksOfLane(int lane) const {
    if (!modern.shared || lane < 0 || lane >= kWarpSize) {
        return 0;
    }
    // An async copy's banks are those of its shared side.
    const auto& address = access.sharedAddresses
                              ? (*access.sharedAddresses)[static_cast<std::size_t>(lane)]
                              : access.addresses[static_cast<std::size_t>(lane)];
    if (!address) {
        return 0;
    }
    // The lane's 4-byte words (its own bytes, plain geometry); the bank each is served from is
    // read from the wavefronts that serve the lane.
    const std::int64_t firstWord = *address / kBankWordBytes;
    const std::int64_t lastWord = (*address + access.kind.widthBytes - 1) / kBankWordBytes;
    std::uint32_t banks = 0;
    for (const Wavefront& wavefront : modern.shared->wavefrontList) {
        if (!isLaneInMask(wavefront.laneMask, lane)) {
            continue;
        }
        for (int bank = 0; bank < kBankCount; ++bank) {
            const std::int64_t word = wavefront.bankWord[static_cast<std::size_t>(bank)];
            if (word >= firstWord && word <= lastWord) {
                banks |= 1u << bank;
            }
        }
    }
    return banks;
}

} // namespace warpscope::app
