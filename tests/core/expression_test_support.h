// Helpers shared by the pattern language's tests (test_expression*.cpp).
#pragma once

#include "warpscope/expression.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace warpscope::expression_test {

inline constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

/// One thread with a distinct value for every built-in name, so a mix-up shows.
inline ThreadEnvironment sampleThread() {
    ThreadEnvironment env;
    env.lane = 7;
    env.warp = 3;
    env.gid = 1234;
    env.tid = {3, 2, 1};
    env.bdim = {8, 4, 2};
    env.bid = {5, 6, 7};
    env.gdim = {9, 10, 11};
    return env;
}

inline Result<std::int64_t> run(const std::string& text, const std::vector<std::string>& names = {},
                                const std::vector<std::int64_t>& values = {},
                                const ThreadEnvironment& env = sampleThread()) {
    auto expression = Expression::parse(text, names);
    if (!expression) {
        return expression.error();
    }
    return expression->evaluate(env, values);
}

} // namespace warpscope::expression_test
