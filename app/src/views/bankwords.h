// The words each shared-memory bank serves in one phase of a warp's access: what the bank view's
// conflict degrees and the tile view's conflicted lanes are counted from.
#pragma once

#include <warpscope/model.h>

#include <array>
#include <cstdint>
#include <set>

namespace warpscope::app {

/// The distinct words each bank serves to the lanes of `phase` (a lane mask), over the wavefronts
/// of `shared` that serve any of them: a bank's conflict degree in that phase is its set's size.
inline std::array<std::set<std::int64_t>, kBankCount> phaseBankWords(const SharedPrediction& shared,
                                                                     std::uint32_t phase) {
    std::array<std::set<std::int64_t>, kBankCount> words;
    for (const Wavefront& wavefront : shared.wavefrontList) {
        if ((wavefront.laneMask & phase) == 0) {
            continue;
        }
        for (int bank = 0; bank < kBankCount; ++bank) {
            const std::int64_t word = wavefront.bankWord[static_cast<std::size_t>(bank)];
            if (word >= 0) {
                words[static_cast<std::size_t>(bank)].insert(word);
            }
        }
    }
    return words;
}

} // namespace warpscope::app
