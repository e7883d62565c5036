// What the experiments' command lines share (experiments/command_line.h): lists, sizes and the
// columns of their text reports.
#include "warpscope/experiments/command_line.h"

#include <cctype>
#include <iomanip>
#include <limits>
#include <locale>
#include <sstream>

namespace warpscope::experiments {

std::vector<std::string> splitOptionList(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        items.push_back(item);
    }
    return items;
}

long long parseOptionByteSize(const std::string& text) {
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) {
        ++digits;
    }
    if (digits == 0 || digits > 15) {
        return -1;
    }
    const long long value = std::stoll(text.substr(0, digits));
    std::string unit = text.substr(digits);
    for (char& c : unit) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    int shift = -1;
    if (unit.empty() || unit == "B") {
        shift = 0;
    } else if (unit == "K" || unit == "KIB") {
        shift = 10;
    } else if (unit == "M" || unit == "MIB") {
        shift = 20;
    } else if (unit == "G" || unit == "GIB") {
        shift = 30;
    }
    // A size that would not fit in 64 bits is no size (rather than a wrapped one).
    if (shift < 0 || value > (std::numeric_limits<long long>::max() >> shift)) {
        return -1;
    }
    return value << shift;
}

std::string fixedDecimals(double value, int decimals) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << std::fixed << std::setprecision(decimals) << value;
    return out.str();
}

std::string padColumns(const std::string& text, std::size_t width, bool right) {
    std::size_t columns = 0;
    for (const char c : text) {
        // Continuation bytes (10xxxxxx) do not start a character.
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    }
    const std::string fill(columns < width ? width - columns : 0, ' ');
    return right ? fill + text : text + fill;
}

} // namespace warpscope::experiments
