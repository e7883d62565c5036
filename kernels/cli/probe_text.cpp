#include "probe_text.h"

#include "warpscope/experiments/command_line.h"

#include <cmath>
#include <cstdint>

namespace warpscope::probe {

std::string fixed(double value, int decimals) {
    return experiments::fixedDecimals(value, decimals);
}

std::string number(double value) {
    if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < 9e15) {
        return std::to_string(static_cast<std::int64_t>(value));
    }
    return fixed(value, 2);
}

std::string pad(const std::string& text, std::size_t width, bool right) {
    return experiments::padColumns(text, width, right);
}

} // namespace warpscope::probe
