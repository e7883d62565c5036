// The argument rules of CuTe's Swizzle<B, M, S> (cute/swizzle.hpp: B >= 0, M >= 0, |S| >= B),
// restricted to S >= 0, with messages a user of the pattern language can act on.
#include "warpscope/swizzle.h"

namespace warpscope {

Swizzle Swizzle::forSpanBytes(int spanBytes) {
    switch (spanBytes) {
    case 32:
        return Swizzle{1, 4, 3};
    case 64:
        return Swizzle{2, 4, 3};
    case 128:
        return Swizzle{3, 4, 3};
    default:
        return Swizzle{0, 4, 3}; // no swizzle: the identity
    }
}

std::optional<SwizzleProblem> checkSwizzle(std::int64_t bits, std::int64_t base,
                                           std::int64_t shift) {
    const std::string value = " (B " + std::to_string(bits) + ", M " + std::to_string(base) +
                              ", S " + std::to_string(shift) + ")";
    if (bits < 0) {
        return SwizzleProblem{1, "swizzle(x, B, M, S): B, the number of bits XORed, must be 0 or "
                                 "more" +
                                     value};
    }
    if (base < 0) {
        return SwizzleProblem{2, "swizzle(x, B, M, S): M, the lowest bit XORed, must be 0 or more" +
                                     value};
    }
    if (shift < 0) {
        return SwizzleProblem{3, "swizzle(x, B, M, S): S must be 0 or more; CuTe's negative shifts "
                                 "are not supported" +
                                     value};
    }
    if (shift < bits) {
        return SwizzleProblem{3, "swizzle(x, B, M, S): S must be at least B, so that the bits read "
                                 "[M+S, M+S+B) do not overlap the bits XORed [M, M+B)" +
                                     value};
    }
    if (base > Swizzle::kMaxTotalBits || shift > Swizzle::kMaxTotalBits ||
        bits + base + shift > Swizzle::kMaxTotalBits) {
        return SwizzleProblem{3, "swizzle(x, B, M, S): B + M + S must be at most 63, so that every "
                                 "bit read lies below the sign bit" +
                                     value};
    }
    return std::nullopt;
}

} // namespace warpscope
