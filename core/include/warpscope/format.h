// The one byte formatter: a byte count as the app's views, its experiment summaries and the
// probe's messages print it ("512 B", "2.5 KiB", "64 MiB"). Binary units (1 KiB = 1024 B), a
// C-locale decimal point whatever the user's locale, ties rounded away from zero (as Qt's
// QString::arg and QLocale::toString round, which the figures and the lecture deck were drawn
// with). Plain C++: the probe uses it too.
#pragma once

#include <cstdint>
#include <string>

namespace warpscope {

enum class ByteUnit { B, KiB, MiB, GiB, TiB };

/// How many decimals a number in KiB or above gets. The smallest unit allowed is always whole.
enum class ByteDecimals {
    OneUnlessWhole, // "2 MiB", "2.5 MiB", "1.0 MiB" for 1,048,575 B (transfers, L2, the probe)
    OneBelowTen,    // "2.5 KiB", "12 KiB", "9.8 MiB" (the warp and bank views, predictions)
    One,            // "2.0 MiB", "2.5 MiB" (the streams experiment)
};

struct ByteFormat {
    /// Smaller counts are shown in this unit anyway, whole ("0 KiB" for 100 B when it is KiB).
    ByteUnit smallest = ByteUnit::B;
    /// Larger counts are shown in this unit anyway ("2048 MiB" when it is MiB).
    ByteUnit largest = ByteUnit::TiB;
    ByteDecimals decimals = ByteDecimals::OneUnlessWhole;
};

/// `bytes` in the largest unit (from `format.smallest` to `format.largest`) in which the number is
/// below 1024, with the unit's name after a space ("2.5 MiB"); a negative count keeps its sign.
std::string formatBytes(std::int64_t bytes, const ByteFormat& format = {});

} // namespace warpscope
