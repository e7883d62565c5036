// "Open as pattern": the affine fit of a traced warp's addresses and its expressions.
#include "document/tracepattern.h"

#include <bit>
#include <cstdio>
#include <limits>

namespace warpscope::app {

namespace {

bool multiplyAdd(std::int64_t base, std::int64_t stride, std::int64_t lane, std::int64_t& out) {
    std::int64_t product = 0;
    return !__builtin_mul_overflow(stride, lane, &product) &&
           !__builtin_add_overflow(base, product, &out);
}

std::string number(std::int64_t value) {
    // Addresses of the size of a virtual address read better in hexadecimal.
    if (value >= (std::int64_t{1} << 32)) {
        char text[32];
        std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
        return text;
    }
    return std::to_string(value);
}

} // namespace

std::optional<AffineLanes> fitAffineLanes(const LaneAddresses& addresses) {
    int first = -1;
    int second = -1;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!addresses[static_cast<std::size_t>(lane)]) {
            continue;
        }
        if (first < 0) {
            first = lane;
        } else if (second < 0) {
            second = lane;
        }
    }
    if (first < 0) {
        return std::nullopt;
    }
    const std::int64_t firstAddress = *addresses[static_cast<std::size_t>(first)];
    AffineLanes affine;
    if (second >= 0) {
        std::int64_t difference = 0;
        if (__builtin_sub_overflow(*addresses[static_cast<std::size_t>(second)], firstAddress,
                                   &difference) ||
            difference % (second - first) != 0) {
            return std::nullopt;
        }
        affine.stride = difference / (second - first);
    }
    std::int64_t offset = 0;
    if (__builtin_mul_overflow(affine.stride, std::int64_t{first}, &offset) ||
        __builtin_sub_overflow(firstAddress, offset, &affine.base)) {
        return std::nullopt;
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = addresses[static_cast<std::size_t>(lane)];
        std::int64_t expected = 0;
        if (address &&
            (!multiplyAdd(affine.base, affine.stride, lane, expected) || expected != *address)) {
            return std::nullopt;
        }
    }
    return affine;
}

std::string affineExpression(const AffineLanes& affine) {
    if (affine.stride == 0) {
        return number(affine.base);
    }
    const std::int64_t magnitude = affine.stride == std::numeric_limits<std::int64_t>::min()
                                       ? affine.stride
                                       : (affine.stride < 0 ? -affine.stride : affine.stride);
    const std::string term = (magnitude == 1 ? std::string() : number(magnitude) + " * ") + "lane";
    if (affine.base == 0 && affine.stride > 0) {
        return term;
    }
    return number(affine.base) + (affine.stride < 0 ? " - " : " + ") + term;
}

std::string activeLaneExpression(std::uint32_t mask) {
    if (mask == 0xFFFFFFFFu) {
        return "1";
    }
    if (mask == 0) {
        return "0";
    }
    const int low = std::countr_zero(mask);
    const int high = 32 - std::countl_zero(mask); // one past the highest lane
    const std::uint32_t run =
        (high - low == 32 ? 0xFFFFFFFFu : ((std::uint32_t{1} << (high - low)) - 1u)) << low;
    if (run == mask) {
        if (low == 0) {
            return "lane < " + std::to_string(high);
        }
        if (high == 32) {
            return "lane >= " + std::to_string(low);
        }
        return "lane >= " + std::to_string(low) + " && lane < " + std::to_string(high);
    }
    char text[48];
    std::snprintf(text, sizeof text, "(0x%08x >> lane) & 1", mask);
    return text;
}

Result<Pattern> editableTracedPattern(const TraceInstruction& instruction,
                                      const TraceRecord& record) {
    auto literal = tracedPattern(instruction, record);
    if (!literal) {
        return literal.error();
    }
    const auto affine = fitAffineLanes(literal.value().addresses);
    if (!affine) {
        return literal;
    }
    Pattern pattern = literal.value();
    PatternSource source;
    source.addressExpression = affineExpression(*affine);
    std::uint32_t mask = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (pattern.addresses[static_cast<std::size_t>(lane)]) {
            mask |= std::uint32_t{1} << lane;
        }
    }
    source.activeExpression = activeLaneExpression(mask);
    pattern.source = source;
    pattern.addresses = {};
    // The expression is kept only where it gives exactly the traced warp.
    const auto fromExpression = resolve(pattern);
    const auto fromLiteral = resolve(literal.value());
    if (!fromExpression || !fromLiteral ||
        fromExpression.value().addresses != fromLiteral.value().addresses) {
        return literal;
    }
    return pattern;
}

} // namespace warpscope::app
