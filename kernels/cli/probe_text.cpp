#include "probe_text.h"

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <sstream>

namespace warpscope::probe {

std::string fixed(double value, int decimals) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(decimals) << value;
    return out.str();
}

std::string number(double value) {
    if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 9e15) {
        return std::to_string(static_cast<std::int64_t>(value));
    }
    return fixed(value, 2);
}

std::string pad(const std::string& text, std::size_t width, bool right) {
    std::size_t columns = 0;
    for (const char c : text) {
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    }
    const std::string fill(columns < width ? width - columns : 0, ' ');
    return right ? fill + text : text + fill;
}

} // namespace warpscope::probe
