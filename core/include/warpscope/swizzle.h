// CuTe's Swizzle<B, M, S> on an offset, the XOR that tensor-core kernels and the TMA's swizzle
// modes use to spread a tile's 16-byte chunks over the shared-memory banks: bits [M, M+B) of the
// offset are XORed with bits [M+S, M+S+B). The pattern language's swizzle(x, B, M, S) and the TMA
// tile-layout model (tma_layout.h) both use it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace warpscope {

struct Swizzle {
    int bits = 0;  // B: how many bits are XORed
    int base = 0;  // M: the lowest bit XORed (4 for 16-byte chunks of a byte offset)
    int shift = 0; // S: how far above them the bits XORed in lie

    /// x ^ ((x >> S) & (((1 << B) - 1) << M)), on a two's-complement 64-bit value (>> is
    /// arithmetic, as CUDA C's on long long). Never overflows.
    std::int64_t apply(std::int64_t x) const {
        const std::int64_t mask = ((std::int64_t{1} << bits) - 1) << base;
        return x ^ ((x >> shift) & mask);
    }

    /// The bits a 16-byte-chunk swizzle mode of the TMA uses on a byte address: 32B is
    /// Swizzle<1,4,3>, 64B is Swizzle<2,4,3>, 128B is Swizzle<3,4,3>.
    static Swizzle forSpanBytes(int spanBytes);

    /// The largest B + M + S accepted: every bit read or written lies below the sign bit.
    static constexpr int kMaxTotalBits = 63;
};

/// What is wrong with swizzle arguments (B, M, S), or nullopt when they are a valid swizzle:
/// 0 <= B, 0 <= M, B <= S (the bits read lie above the bits written, as CuTe requires; CuTe's
/// negative S is not supported) and B + M + S <= 63. `argument` is 1 for B, 2 for M, 3 for S,
/// the argument the message is about.
struct SwizzleProblem {
    int argument = 0;
    std::string message;
};
std::optional<SwizzleProblem> checkSwizzle(std::int64_t bits, std::int64_t base,
                                           std::int64_t shift);

} // namespace warpscope
