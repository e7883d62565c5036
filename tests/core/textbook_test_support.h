// Helpers shared by the textbook model's tests (test_textbook*.cpp).
#pragma once

#include "warpscope/model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::textbook_test {

// Short names for the figure tables.
inline constexpr auto Load = AccessOp::Load;
inline constexpr auto Store = AccessOp::Store;
inline constexpr auto CA = CachePath::CacheAll;
inline constexpr auto CG = CachePath::CacheGlobal;
inline constexpr auto NC = CachePath::NonCoherent;
inline constexpr auto Default = CachePath::Default;
inline constexpr auto Cached = TextbookRule::CachedLoad;
inline constexpr auto Uncached = TextbookRule::UncachedLoad;
inline constexpr auto StoreRule = TextbookRule::Store;

using LaneFunction = std::function<std::optional<std::int64_t>(int lane)>;

inline WarpAccess makeAccess(MemorySpace space, AccessOp op, int width, CachePath cache,
                             const LaneFunction& address) {
    WarpAccess access;
    access.kind = AccessKind{space, op, width, cache};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        access.addresses[static_cast<std::size_t>(lane)] = address(lane);
    }
    return access;
}

} // namespace warpscope::textbook_test
