// The one byte formatter (warpscope/format.h). Integer arithmetic throughout: the count is split
// into the whole units and the remainder, so a tie ("2.25 MiB" at one decimal) is found exactly
// and rounded away from zero, as Qt rounds the same double, and no locale is consulted.
#include "warpscope/format.h"

#include <algorithm>
#include <array>

namespace warpscope {

namespace {

constexpr std::array<const char*, 5> kUnitNames = {"B", "KiB", "MiB", "GiB", "TiB"};

int unitIndex(ByteUnit unit) {
    return static_cast<int>(unit);
}

/// `magnitude` / `divisor` with `decimals` decimals, ties away from zero, without the unit.
std::string fixedQuotient(std::uint64_t magnitude, std::uint64_t divisor, int decimals) {
    std::uint64_t scale = 1;
    for (int d = 0; d < decimals; ++d) {
        scale *= 10;
    }
    const std::uint64_t whole = magnitude / divisor;
    const std::uint64_t remainder = magnitude % divisor;
    // The remainder is below the divisor (at most 2^40), so remainder * 10 cannot overflow.
    const std::uint64_t scaled = remainder * scale;
    std::uint64_t fraction = scaled / divisor;
    const std::uint64_t rest = scaled % divisor;
    std::uint64_t wholePart = whole;
    if (rest >= divisor - rest) { // rest >= divisor / 2, exactly: a tie rounds up
        ++fraction;
        if (fraction == scale) {
            fraction = 0;
            ++wholePart;
        }
    }
    std::string text = std::to_string(wholePart);
    if (decimals > 0) {
        std::string digits = std::to_string(fraction);
        text += '.';
        text.append(static_cast<std::size_t>(decimals) - digits.size(), '0');
        text += digits;
    }
    return text;
}

} // namespace

std::string formatBytes(std::int64_t bytes, const ByteFormat& format) {
    const int smallest = unitIndex(format.smallest);
    const int largest = std::max(smallest, unitIndex(format.largest));
    // The magnitude as unsigned, so that INT64_MIN has one too.
    const bool negative = bytes < 0;
    const std::uint64_t magnitude = negative ? std::uint64_t{0} - static_cast<std::uint64_t>(bytes)
                                             : static_cast<std::uint64_t>(bytes);
    // A negative count stays in the smallest unit (as the callers' loops, which compared the
    // signed value with 1024, left it).
    int unit = smallest;
    while (!negative && unit < largest && (magnitude >> (10 * (unit + 1))) > 0) {
        ++unit;
    }
    const std::uint64_t divisor = std::uint64_t{1} << (10 * unit);
    int decimals = 0;
    if (unit != smallest) {
        switch (format.decimals) {
        case ByteDecimals::OneUnlessWhole:
            decimals = magnitude % divisor == 0 ? 0 : 1;
            break;
        case ByteDecimals::OneBelowTen:
            decimals = magnitude / divisor < 10 ? 1 : 0;
            break;
        case ByteDecimals::One:
            decimals = 1;
            break;
        }
    }
    std::string text = fixedQuotient(magnitude, divisor, decimals);
    if (negative && text.find_first_not_of("0.") != std::string::npos) {
        text.insert(text.begin(), '-');
    }
    return text + ' ' + kUnitNames[static_cast<std::size_t>(unit)];
}

} // namespace warpscope
