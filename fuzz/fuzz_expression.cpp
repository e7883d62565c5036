// libFuzzer target for the pattern language (core/src/expression.cpp) and resolve(): any bytes
// must parse to an Expression or an Error, and evaluate to a value or an Error, never a crash,
// a hang or undefined behaviour; toCSource writes any parsed expression as balanced C. It also
// checks what the API promises: error columns lie inside the text, a uniform expression gives
// every thread the same value, copies agree.
// Seeds: fuzz/corpus/expression/.
#include "fuzz_check.h"
#include "warpscope/expression.h"
#include "warpscope/pattern.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

std::vector<warpscope::ThreadEnvironment> threads() {
    std::vector<warpscope::ThreadEnvironment> list;
    warpscope::ThreadEnvironment env;
    env.bdim = {32, 4, 2};
    env.gdim = {8, 2, 1};
    env.bid = {3, 1, 0};
    env.warp = 5;
    for (std::int64_t lane : {0, 1, 17, 31}) {
        env.lane = lane;
        env.tid = {lane, 1, 1};
        env.gid = 7 * 256 + 160 + lane;
        list.push_back(env);
    }
    // Extreme values, to reach the overflow checks through the variables too.
    env.lane = kMax;
    env.tid = {kMin, kMax, -1};
    env.gid = kMin;
    list.push_back(env);
    return list;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<warpscope::ThreadEnvironment> kThreads = threads();
    static const std::vector<std::string> kNames = {"offset", "stride"};
    static const std::vector<std::vector<std::int64_t>> kValues = {
        {0, 0}, {11, 4}, {-1, 1}, {kMin, kMax}, {kMax, -1}};

    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto columnLimit = static_cast<int>(std::min<std::size_t>(size, 64 * 1024) + 1);

    auto parsed = warpscope::Expression::parse(text, kNames);
    if (!parsed) {
        const warpscope::Error& error = parsed.error();
        check(!error.message.empty());
        check(error.column >= 1 && error.column <= columnLimit);
        return 0;
    }
    const warpscope::Expression expression = parsed.value(); // a copy shares the program
    check(expression.text() == text);

    // The C source the probe's grid kernels are generated from (kernels/cuda/grid_kernels.cpp):
    // every name through the callback, parentheses balanced, never a crash however deep.
    std::size_t names = 0;
    const std::string cSource = expression.toCSource([&](std::string_view name) {
        ++names;
        check(!name.empty());
        return "v_" + std::string(name);
    });
    check(!cSource.empty());
    std::ptrdiff_t depth = 0;
    for (char c : cSource) {
        depth += c == '(' ? 1 : (c == ')' ? -1 : 0);
        check(depth >= 0);
    }
    check(depth == 0);
    check(names <= size);
    for (const auto& values : kValues) {
        bool first = true;
        std::int64_t uniformValue = 0;
        for (const auto& env : kThreads) {
            auto value = expression.evaluate(env, values);
            auto again = parsed->evaluate(env, values);
            check(value.ok() == again.ok());
            if (!value) {
                check(!value.error().message.empty());
                check(value.error().column >= 1 && value.error().column <= columnLimit);
                continue;
            }
            check(value.value() == again.value());
            // bdim, gdim, bid and warp are the same for every thread here.
            if (expression.isUniform()) {
                check(first || value.value() == uniformValue);
                uniformValue = value.value();
                first = false;
            }
        }
    }

    // The same text as a pattern's address and active expressions.
    warpscope::Pattern pattern;
    warpscope::PatternSource source;
    source.addressExpression = std::string(text);
    source.activeExpression = std::string(text);
    source.parameters = {{"offset", 11, 0, 0, 64}, {"stride", 4, 1, 1, 64}};
    source.blockDim = {16, 4, 1};
    source.warpIndex = 1;
    pattern.source = source;
    auto access = warpscope::resolve(pattern);
    if (access) {
        check(access->threads.has_value());
    } else {
        check(!access.error().message.empty());
    }
    return 0;
}
