// Byte units the tests write sizes in (4 * kKiB, 80 * kGiB), declared once for every test.
#pragma once

#include <cstdint>

namespace warpscope::test_units {

inline constexpr std::int64_t kKiB = 1024;
inline constexpr std::int64_t kMiB = 1024 * kKiB;
inline constexpr std::int64_t kGiB = 1024 * kMiB;

} // namespace warpscope::test_units
