// Text for warpscope-probe's human output (probe_cli.cpp, run_kernel.cpp): numbers with fixed
// decimals and columns padded by display width.
#pragma once

#include <cstddef>
#include <string>

namespace warpscope::probe {

/// "12.3" with a fixed number of decimals.
std::string fixed(double value, int decimals);

/// A counter as an integer ("1024"); anything else, or a value too large for an exact integer,
/// with two decimals ("12.50").
std::string number(double value);

/// Pads a string to `width` display columns (the check marks are one column, three bytes);
/// `right` puts the padding in front.
std::string pad(const std::string& text, std::size_t width, bool right = false);

} // namespace warpscope::probe
