// The pattern language: C-like integer expressions over signed 64-bit values, with the meaning
// CUDA C gives them (division truncates toward zero, % takes the sign of the dividend, >> is
// arithmetic, comparisons give 0 or 1, && || ?: short-circuit). Anything C leaves undefined
// (overflow, division by zero, shifting by a negative amount or by 64 or more) is an Error value
// naming the column, never undefined behaviour.
#pragma once

#include "warpscope/pattern.h"
#include "warpscope/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

/// The values the built-in names take for one thread.
struct ThreadEnvironment {
    std::int64_t lane = 0;
    std::int64_t warp = 0;
    Dim3 tid{0, 0, 0};
    Dim3 bdim{1, 1, 1};
    Dim3 bid{0, 0, 0};
    Dim3 gdim{1, 1, 1};
    std::int64_t gid = 0;
};

/// The built-in values of a warp's 32 threads at once, for Expression::evaluateWarp(): the
/// thread-dependent ones as arrays of 32 (lane i at index i), the rest in `uniform` (whose lane,
/// tid and gid are ignored).
struct WarpEnvironment {
    ThreadEnvironment uniform;
    const std::int64_t* lane = nullptr;
    const std::int64_t* gid = nullptr;
    const std::int64_t* tidX = nullptr;
    const std::int64_t* tidY = nullptr;
    const std::int64_t* tidZ = nullptr;
};

/// Names the language knows besides the user's parameters:
/// lane warp gid tid.x tid.y tid.z bdim.x bdim.y bdim.z bid.x bid.y bid.z gdim.x gdim.y gdim.z,
/// and the functions min(a, b), max(a, b), abs(a), swizzle(x, B, M, S) (swizzle.h; B, M and S
/// constants).
const std::vector<std::string>& builtinNames();

namespace detail {
struct Node;
}

/// A parsed expression, ready to evaluate for many threads. Cheap to copy (shared, immutable).
class Expression {
public:
    /// Parse `text`. `parameterNames` are the user's parameters the expression may use; any other
    /// identifier that is not built in is an UnknownName error at its column. Parameter names may
    /// not shadow built-in names.
    static Result<Expression> parse(std::string_view text,
                                    const std::vector<std::string>& parameterNames = {});

    /// Evaluate for one thread. `parameterValues` are in the order of the names given to parse().
    Result<std::int64_t> evaluate(const ThreadEnvironment& env,
                                  const std::vector<std::int64_t>& parameterValues = {}) const;

    /// Evaluate for the 32 threads of a warp at once (the grid model's fast path): out[i] is
    /// lane i's value. Every lane is evaluated, both sides of && || ?: included, but a failure
    /// (overflow, division by zero, a bad shift) only counts for a lane that C would have
    /// evaluated there. Returns the mask of lanes whose evaluation failed (0: all values valid);
    /// evaluate() on such a lane gives its Error. Missing parameters fail every lane.
    std::uint32_t evaluateWarp(const WarpEnvironment& env, const std::int64_t* parameterValues,
                               std::size_t parameterCount, std::int64_t* out) const;

    const std::string& text() const { return m_text; }

    /// The expression as C source over signed 64-bit values, for generated CUDA kernels: the same
    /// tokens in the same order, with every name given to `nameFor` in its short spelling
    /// ("tid.x" for threadIdx.x as well; "min", "max", "abs" for the functions; "warpSize"), each
    /// integer literal written as a decimal `LL` literal, and parentheses kept as written.
    /// swizzle(x, B, M, S) is written out as an immediately called lambda, so that a generated
    /// kernel needs no helper function for it.
    std::string toCSource(const std::function<std::string(std::string_view)>& nameFor) const;

    /// True when the value does not depend on the thread (no lane, tid, gid ... inside).
    bool isUniform() const;

private:
    std::string m_text;
    std::shared_ptr<const detail::Node> m_root;
};

/// A parameter name must look like a C identifier, not be a built-in name and not use a dot.
bool isValidParameterName(std::string_view name);

} // namespace warpscope
