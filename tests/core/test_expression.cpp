// Tests of the pattern language (core/src/expression.cpp): values with C's precedence and
// semantics, built-in names, parameters, every error kind with its exact column, the limits that
// keep hostile input harmless, isUniform and isValidParameterName.
// "C11 6.5.x" cites the section of the C standard the expectation comes from (CUDA C follows it).
#include "warpscope/expression.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace warpscope {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

/// One thread with a distinct value for every built-in name, so a mix-up shows.
ThreadEnvironment sampleThread() {
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

Result<std::int64_t> run(const std::string& text, const std::vector<std::string>& names = {},
                         const std::vector<std::int64_t>& values = {},
                         const ThreadEnvironment& env = sampleThread()) {
    auto expression = Expression::parse(text, names);
    if (!expression) {
        return expression.error();
    }
    return expression->evaluate(env, values);
}

// ---- Values ------------------------------------------------------------------------------------

struct ValueCase {
    const char* text;
    std::int64_t expected;
    const char* source;
};

void PrintTo(const ValueCase& c, std::ostream* os) {
    *os << c.text;
}

class ExpressionValue : public ::testing::TestWithParam<ValueCase> {};

TEST_P(ExpressionValue, EvaluatesAsInC) {
    const ValueCase& c = GetParam();
    auto value = run(c.text);
    ASSERT_TRUE(value.ok()) << c.text << ": " << value.error().describe();
    EXPECT_EQ(value.value(), c.expected) << c.text << " (" << c.source << ")";
}

const ValueCase kValueCases[] = {
    // Precedence and associativity (C11 6.5: the grammar's order, binary operators left to right).
    {"1 + 2 * 3", 7, "C11 6.5.5/6.5.6: * binds tighter than +"},
    {"(1 + 2) * 3", 9, "parentheses"},
    {"10 - 4 - 3", 3, "C11 6.5.6: left-associative"},
    {"100 / 10 / 5", 2, "C11 6.5.5: left-associative"},
    {"2 * 3 % 4", 2, "C11 6.5.5: * and % share a level, left to right"},
    {"1 << 2 + 1", 8, "C11 6.5.7: + binds tighter than <<"},
    {"1 + 1 << 1 + 1", 8, "C11 6.5.7"},
    {"1 << 3 < 9", 1, "C11 6.5.8: << binds tighter than <"},
    {"3 == 3 < 1", 0, "C11 6.5.9: < binds tighter than =="},
    {"1 < 2 == 1", 1, "C11 6.5.9"},
    {"6 & 2 == 2", 0, "C11 6.5.10: == binds tighter than & (the classic pitfall)"},
    {"6 & 3 ^ 5", 7, "C11 6.5.11: & binds tighter than ^"},
    {"1 | 2 ^ 3", 1, "C11 6.5.12: ^ binds tighter than |"},
    {"1 | 6 & 3", 3, "C11 6.5.12"},
    {"0 || 1 && 0", 0, "C11 6.5.14: && binds tighter than ||"},
    {"1 || 0 && 0", 1, "C11 6.5.14"},
    {"2 | 1 && 0", 0, "C11 6.5.13: | binds tighter than &&"},
    {"-2 * -3", 6, "C11 6.5.3.3: unary minus"},
    {"-3 + 2", -1, "unary binds tighter than binary"},
    {"2 - -2", 4, "C11 6.5.3.3"},
    {"2 - - - 2", 0, "repeated unary minus"},
    {"+-+3", -3, "C11 6.5.3.3: unary plus is the value"},
    {"!0 + 1", 2, "C11 6.5.3.3: ! gives 1 for 0"},
    {"!!5", 1, "C11 6.5.3.3"},
    {"!7", 0, "C11 6.5.3.3"},
    {"~0 & 7", 7, "C11 6.5.3.3: ~0 is all ones"},
    {"~5", -6, "two's complement"},
    {"-~0", 1, "C11 6.5.3.3"},
    {"~-1", 0, "two's complement"},
    // Ternary (C11 6.5.15): lowest precedence, right-associative.
    {"1 ? 2 : 3", 2, "C11 6.5.15"},
    {"0 ? 2 : 3", 3, "C11 6.5.15"},
    {"0 ? 1 : 0 ? 2 : 3", 3, "C11 6.5.15: a ? b : (c ? d : e)"},
    {"1 ? 2 : 0 ? 3 : 4", 2, "C11 6.5.15: right-associative"},
    {"1 ? 0 ? 4 : 5 : 6", 5, "C11 6.5.15: nested in the middle operand"},
    {"0 ? 1 : 2 + 10", 12, "C11 6.5.15: ?: binds loosest"},
    {"1 + 1 ? 5 : 6", 5, "C11 6.5.15"},
    {"0 || 0 ? 7 : 8", 8, "C11 6.5.15: || binds tighter than ?:"},
    {"-1 ? 7 : 8", 7, "C11 6.5.15: any non-zero condition is true"},
    // Division and remainder truncate toward zero (C11 6.5.5p6).
    {"7 / 2", 3, "C11 6.5.5p6"},
    {"-7 / 2", -3, "C11 6.5.5p6: truncation toward zero"},
    {"7 / -2", -3, "C11 6.5.5p6"},
    {"-7 / -2", 3, "C11 6.5.5p6"},
    {"7 % 3", 1, "C11 6.5.5p6"},
    {"-7 % 3", -1, "C11 6.5.5p6: the sign of the dividend"},
    {"7 % -3", 1, "C11 6.5.5p6"},
    {"-7 % -3", -1, "C11 6.5.5p6"},
    {"(-9223372036854775807 - 1) / 1", kMin, "INT64_MIN / 1 is defined"},
    {"(-9223372036854775807 - 1) % 1", 0, "INT64_MIN % 1 is defined"},
    // Shifts (C11 6.5.7; >> of a negative value is arithmetic in nvcc and C++20).
    {"-16 >> 2", -4, "arithmetic shift"},
    {"-17 >> 2", -5, "arithmetic shift rounds toward minus infinity"},
    {"-1 >> 63", -1, "arithmetic shift"},
    {"1 << 62", std::int64_t{1} << 62, "C11 6.5.7p4: representable"},
    {"-1 << 63", kMin, "-1 * 2^63 is representable"},
    {"-2 << 62", kMin, "-2 * 2^62 is representable"},
    {"3 << 0", 3, "shift by zero"},
    {"5 >> 0", 5, "shift by zero"},
    // Comparisons and logic give 0 or 1 (C11 6.5.8p6, 6.5.9p3, 6.5.13p3, 6.5.14p3).
    {"3 < 4", 1, "C11 6.5.8"},
    {"4 < 4", 0, "C11 6.5.8"},
    {"4 <= 4", 1, "C11 6.5.8"},
    {"5 > 4", 1, "C11 6.5.8"},
    {"4 >= 5", 0, "C11 6.5.8"},
    {"-1 < 0", 1, "signed comparison"},
    {"3 == 3", 1, "C11 6.5.9"},
    {"3 != 3", 0, "C11 6.5.9"},
    {"2 && 3", 1, "C11 6.5.13: the result is 1, not 3"},
    {"0 || 5", 1, "C11 6.5.14: the result is 1, not 5"},
    {"0 && 0", 0, "C11 6.5.13"},
    {"0 || 0", 0, "C11 6.5.14"},
    // Bitwise.
    {"0xF0 | 0x0F", 255, "C11 6.5.12"},
    {"0xFF ^ 0x0F", 240, "C11 6.5.11"},
    {"0xFF & 0x3C", 60, "C11 6.5.10"},
    {"-1 & 0xFF", 255, "two's complement"},
    // Functions.
    {"min(3, -4)", -4, "min"},
    {"max(3, -4)", 3, "max"},
    {"abs(-9)", 9, "abs"},
    {"abs(9)", 9, "abs"},
    {"min(max(1, 5), 3)", 3, "nested calls"},
    {"max(1 ? 2 : 3, 0)", 2, "a conditional as an argument"},
    {"abs(-9223372036854775807)", kMax, "abs of -INT64_MAX is representable"},
    {"min(-9223372036854775807 - 1, 0)", kMin, "min"},
    {"min(lane, 3)", 3, "min of a variable and a constant"},
    {"max(lane, gid)", 1234, "max of two variables"},
    {"min(warpSize, lane) + max(3, lane)", 14, "constant first, variable second"},
    // Literals.
    {"0", 0, "decimal"},
    {"0x1F", 31, "hexadecimal"},
    {"0X1f", 31, "hexadecimal, upper-case prefix and lower-case digit"},
    {"0b1011", 11, "binary (C++14, C23)"},
    {"0B11", 3, "binary, upper-case prefix"},
    {"10l + 10L + 10ll + 10LL", 40, "long and long long suffixes are accepted"},
    {"0x10ll", 16, "hexadecimal with a suffix"},
    {"9223372036854775807", kMax, "the largest literal"},
    {"0x7fffffffffffffff", kMax, "the largest hexadecimal literal"},
    {"-9223372036854775807 - 1", kMin, "INT64_MIN as C writes it"},
    {" \t1\n+\r 2 ", 3, "white space"},
    {"warpSize", 32, "CUDA's warpSize"},
    // Built-in names: sampleThread() gives each a distinct value.
    {"lane", 7, "ThreadEnvironment::lane"},
    {"warp", 3, "ThreadEnvironment::warp"},
    {"gid", 1234, "ThreadEnvironment::gid"},
    {"tid.x", 3, "threadIdx.x"},
    {"tid.y", 2, "threadIdx.y"},
    {"tid.z", 1, "threadIdx.z"},
    {"bdim.x", 8, "blockDim.x"},
    {"bdim.y", 4, "blockDim.y"},
    {"bdim.z", 2, "blockDim.z"},
    {"bid.x", 5, "blockIdx.x"},
    {"bid.y", 6, "blockIdx.y"},
    {"bid.z", 7, "blockIdx.z"},
    {"gdim.x", 9, "gridDim.x"},
    {"gdim.y", 10, "gridDim.y"},
    {"gdim.z", 11, "gridDim.z"},
    {"threadIdx.x", 3, "CUDA alias"},
    {"threadIdx.y", 2, "CUDA alias"},
    {"threadIdx.z", 1, "CUDA alias"},
    {"blockDim.x", 8, "CUDA alias"},
    {"blockDim.y", 4, "CUDA alias"},
    {"blockDim.z", 2, "CUDA alias"},
    {"blockIdx.x", 5, "CUDA alias"},
    {"blockIdx.y", 6, "CUDA alias"},
    {"blockIdx.z", 7, "CUDA alias"},
    {"gridDim.x", 9, "CUDA alias"},
    {"gridDim.y", 10, "CUDA alias"},
    {"gridDim.z", 11, "CUDA alias"},
    {"threadIdx . x", 3, "C allows spaces around the member dot"},
    {"(tid.y * bdim.x + tid.x) * 4", 76, "a 2-D tile index"},
    {"blockIdx.x * blockDim.x + threadIdx.x", 43, "the classic global index"},
    // Dead code: an error in a branch that is not taken is no error (C11 6.5.13-15).
    {"0 ? 1 / 0 : 7", 7, "C11 6.5.15: only the chosen operand is evaluated"},
    {"1 ? 7 : 1 / 0", 7, "C11 6.5.15"},
    {"0 && 1 / 0", 0, "C11 6.5.13: short-circuit"},
    {"1 || 1 / 0", 1, "C11 6.5.14: short-circuit"},
    {"lane == 7 || 1 / 0", 1, "C11 6.5.14: short-circuit at run time"},
    {"lane != 7 && 1 / 0", 0, "C11 6.5.13: short-circuit at run time"},
    {"lane == 7 ? 5 : 1 / 0", 5, "C11 6.5.15: at run time"},
    {"lane != 7 ? 1 / 0 : 6", 6, "C11 6.5.15: at run time"},
    {"lane && warp", 1, "&& of two non-zero run-time values is 1"},
    {"lane || 0", 1, "|| of a non-zero run-time value is 1"},
    {"0 || lane - 7", 0, "|| of zero and a run-time zero is 0"},
};

INSTANTIATE_TEST_SUITE_P(Table, ExpressionValue, ::testing::ValuesIn(kValueCases));

TEST(Expression, ParametersAreReadInTheOrderOfTheirNames) {
    const std::vector<std::string> names = {"offset", "stride", "x"};
    auto expression = Expression::parse("lane * stride + offset - x", names);
    ASSERT_TRUE(expression.ok()) << expression.error().describe();
    auto value = expression->evaluate(sampleThread(), {100, 4, 1});
    ASSERT_TRUE(value.ok());
    EXPECT_EQ(value.value(), 7 * 4 + 100 - 1);
    // Same expression, other values: nothing is baked in at parse time.
    value = expression->evaluate(sampleThread(), {0, 8, 0});
    ASSERT_TRUE(value.ok());
    EXPECT_EQ(value.value(), 56);
}

TEST(Expression, ShortCircuitGuardsADivisionByAParameter) {
    // The brief's example: x != 0 && 10 / x never divides by zero.
    const std::vector<std::string> names = {"x"};
    for (const char* text : {"x != 0 && 10 / x", "x == 0 || 10 / x", "x ? 10 / x : -1",
                             "x && (1 << 64)", "!x || 10 % x"}) {
        auto expression = Expression::parse(text, names);
        ASSERT_TRUE(expression.ok()) << text;
        auto zero = expression->evaluate(sampleThread(), {0});
        EXPECT_TRUE(zero.ok()) << text << ": " << (zero.ok() ? "" : zero.error().describe());
    }
    EXPECT_EQ(run("x != 0 && 10 / x", {"x"}, {5}).value(), 1);
    EXPECT_EQ(run("x ? 10 / x : -1", {"x"}, {5}).value(), 2);
    EXPECT_EQ(run("x ? 10 / x : -1", {"x"}, {0}).value(), -1);
}

TEST(Expression, CopiesShareTheCompiledProgram) {
    auto parsed = Expression::parse("lane * 4 + k", {"k"});
    ASSERT_TRUE(parsed.ok());
    const Expression copy = parsed.value();
    EXPECT_EQ(copy.text(), "lane * 4 + k");
    EXPECT_EQ(copy.evaluate(sampleThread(), {2}).value(), 30);
    EXPECT_EQ(parsed->evaluate(sampleThread(), {2}).value(), 30);
}

TEST(Expression, DefaultConstructedIsAnErrorNotACrash) {
    const Expression empty;
    auto value = empty.evaluate(sampleThread());
    ASSERT_FALSE(value.ok());
    EXPECT_EQ(value.error().code, ErrorCode::Syntax);
}

/// Every binary operator against C's own arithmetic on a grid of awkward values: where C defines
/// the result the language must give it, where C does not it must return the right error.
TEST(Expression, BinaryOperatorsAgreeWithC) {
    const std::vector<std::int64_t> samples = {kMin,
                                               kMin + 1,
                                               -(std::int64_t{1} << 32),
                                               -65,
                                               -64,
                                               -63,
                                               -7,
                                               -2,
                                               -1,
                                               0,
                                               1,
                                               2,
                                               3,
                                               7,
                                               31,
                                               62,
                                               63,
                                               64,
                                               65,
                                               std::int64_t{1} << 32,
                                               kMax - 1,
                                               kMax};
    struct OpCase {
        const char* symbol;
        // Returns false where C leaves the result undefined; sets `code` to the expected error.
        bool (*apply)(std::int64_t, std::int64_t, std::int64_t&, ErrorCode&);
    };
    const OpCase ops[] = {
        {"+",
         [](auto a, auto b, auto& r, auto& e) {
             e = ErrorCode::Overflow;
             return !__builtin_add_overflow(a, b, &r);
         }},
        {"-",
         [](auto a, auto b, auto& r, auto& e) {
             e = ErrorCode::Overflow;
             return !__builtin_sub_overflow(a, b, &r);
         }},
        {"*",
         [](auto a, auto b, auto& r, auto& e) {
             e = ErrorCode::Overflow;
             return !__builtin_mul_overflow(a, b, &r);
         }},
        {"/",
         [](auto a, auto b, auto& r, auto& e) {
             e = b == 0 ? ErrorCode::DivisionByZero : ErrorCode::Overflow;
             if (b == 0 || (a == kMin && b == -1))
                 return false;
             r = a / b;
             return true;
         }},
        {"%",
         [](auto a, auto b, auto& r, auto& e) {
             e = b == 0 ? ErrorCode::DivisionByZero : ErrorCode::Overflow;
             if (b == 0 || (a == kMin && b == -1))
                 return false;
             r = a % b;
             return true;
         }},
        {"<<",
         [](auto a, auto b, auto& r, auto& e) {
             e = ErrorCode::Overflow;
             if (b < 0 || b >= 64) {
                 return false;
             }
             // Defined when a * 2^b is representable (C11 6.5.7p4); 2^63 itself is not, so a
             // shift by 63 is defined only for 0 and -1.
             if (b == 63) {
                 r = a == 0 ? 0 : kMin;
                 return a == 0 || a == -1;
             }
             return !__builtin_mul_overflow(a, std::int64_t{1} << b, &r);
         }},
        {">>",
         [](auto a, auto b, auto& r, auto& e) {
             e = ErrorCode::Overflow;
             if (b < 0 || b >= 64)
                 return false;
             r = a >> b;
             return true;
         }},
        {"<",
         [](auto a, auto b, auto& r, auto&) {
             r = a < b;
             return true;
         }},
        {"<=",
         [](auto a, auto b, auto& r, auto&) {
             r = a <= b;
             return true;
         }},
        {">",
         [](auto a, auto b, auto& r, auto&) {
             r = a > b;
             return true;
         }},
        {">=",
         [](auto a, auto b, auto& r, auto&) {
             r = a >= b;
             return true;
         }},
        {"==",
         [](auto a, auto b, auto& r, auto&) {
             r = a == b;
             return true;
         }},
        {"!=",
         [](auto a, auto b, auto& r, auto&) {
             r = a != b;
             return true;
         }},
        {"&",
         [](auto a, auto b, auto& r, auto&) {
             r = a & b;
             return true;
         }},
        {"|",
         [](auto a, auto b, auto& r, auto&) {
             r = a | b;
             return true;
         }},
        {"^",
         [](auto a, auto b, auto& r, auto&) {
             r = a ^ b;
             return true;
         }},
        {"&&",
         [](auto a, auto b, auto& r, auto&) {
             r = a && b;
             return true;
         }},
        {"||",
         [](auto a, auto b, auto& r, auto&) {
             r = a || b;
             return true;
         }},
    };
    const std::vector<std::string> names = {"a", "b"};
    for (const OpCase& op : ops) {
        const std::string text = std::string("a ") + op.symbol + " b";
        auto expression = Expression::parse(text, names);
        ASSERT_TRUE(expression.ok()) << text;
        for (std::int64_t a : samples) {
            for (std::int64_t b : samples) {
                std::int64_t expected = 0;
                ErrorCode expectedError = ErrorCode::Syntax;
                const bool defined = op.apply(a, b, expected, expectedError);
                auto value = expression->evaluate(sampleThread(), {a, b});
                const std::string where =
                    std::to_string(a) + " " + op.symbol + " " + std::to_string(b);
                if (defined) {
                    ASSERT_TRUE(value.ok()) << where << ": " << value.error().describe();
                    EXPECT_EQ(value.value(), expected) << where;
                } else {
                    ASSERT_FALSE(value.ok()) << where << " gave " << value.value();
                    EXPECT_EQ(value.error().code, expectedError) << where;
                    EXPECT_EQ(value.error().column, 3) << where;
                }
            }
        }
    }
}

TEST(Expression, ConstantFoldingGivesTheSameValuesAsRunTime) {
    // The same arithmetic once on literals (folded while parsing) and once on parameters.
    const std::vector<std::string> folded = {"(3 + 4) * -2 % 5", "~(1 << 10) >> 3",
                                             "min(7, abs(-9)) ? 2 : 3", "!(5 > 2) || 4 & 6"};
    const std::vector<std::string> runtime = {"(a + b) * -c % d", "~(e << f) >> a",
                                              "min(b, abs(-g)) ? c : a", "!(d > c) || h & i"};
    const std::vector<std::string> names = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
    const std::vector<std::int64_t> values = {3, 4, 2, 5, 1, 10, 9, 4, 6};
    for (std::size_t i = 0; i < folded.size(); ++i) {
        auto constant = run(folded[i]);
        auto variable = run(runtime[i], names, values);
        ASSERT_TRUE(constant.ok() && variable.ok()) << folded[i];
        EXPECT_EQ(constant.value(), variable.value()) << folded[i] << " vs " << runtime[i];
    }
    EXPECT_EQ(run("(3 + 4) * -2 % 5").value(), -4);
    EXPECT_EQ(run("~(1 << 10) >> 3").value(), -129);
}

TEST(Expression, DeepButLegalExpressionsEvaluate) {
    // Right-nested sums need an evaluation stack deeper than the interpreter's inline one.
    std::string text;
    for (int i = 0; i < 200; ++i) {
        text += "lane + (";
    }
    text += "lane";
    text += std::string(200, ')');
    auto value = run(text);
    ASSERT_TRUE(value.ok()) << value.error().describe();
    EXPECT_EQ(value.value(), 201 * 7);

    // Long flat chains and long unary chains do not recurse.
    std::string chain;
    for (int i = 0; i < 12000; ++i) {
        chain += "lane+";
    }
    chain += "1";
    EXPECT_EQ(run(chain).value(), 12000 * 7 + 1);
    std::string negations;
    for (int i = 0; i < 30000; ++i) {
        negations += "- "; // "--" would be C's decrement
    }
    EXPECT_EQ(run(negations + "lane").value(), 7);
    EXPECT_EQ(run(std::string(60001, '!') + "lane").value(), 0);
    EXPECT_EQ(run(std::string(60000, '~') + "1").value(), 1);
}

TEST(Expression, NestingOf256LevelsIsAllowedAnd257IsNot) {
    const auto nested = [](int depth) {
        return std::string(static_cast<std::size_t>(depth), '(') + "lane" +
               std::string(static_cast<std::size_t>(depth), ')');
    };
    EXPECT_TRUE(run(nested(256)).ok());
    auto tooDeep = run(nested(257));
    ASSERT_FALSE(tooDeep.ok());
    EXPECT_EQ(tooDeep.error().code, ErrorCode::Syntax);
    EXPECT_EQ(tooDeep.error().column, 257); // the 257th '('
    EXPECT_NE(tooDeep.error().message.find("nested too deeply"), std::string::npos);

    // Hostile depth far beyond the limit: an error, not a stack overflow.
    auto hostile = run(std::string(30000, '(') + "1" + std::string(30000, ')'));
    ASSERT_FALSE(hostile.ok());
    EXPECT_EQ(hostile.error().column, 257);

    // Calls and conditionals count as nesting too.
    std::string calls;
    for (int i = 0; i < 300; ++i) {
        calls += "abs(";
    }
    calls += "1" + std::string(300, ')');
    auto deepCalls = run(calls);
    ASSERT_FALSE(deepCalls.ok());
    EXPECT_EQ(deepCalls.error().column, 4 * 256 + 1); // the 257th "abs"

    std::string conditionals;
    for (int i = 0; i < 300; ++i) {
        conditionals += "0 ? 1 : ";
    }
    conditionals += "2";
    auto deepConditionals = run(conditionals);
    ASSERT_FALSE(deepConditionals.ok());
    EXPECT_EQ(deepConditionals.error().column, 8 * 256 + 3); // the 257th '?'
    std::string shallow;
    for (int i = 0; i < 100; ++i) {
        shallow += "0 ? 1 : ";
    }
    EXPECT_EQ(run(shallow + "2").value(), 2);
}

TEST(Expression, TextLongerThan64KiBIsRejected) {
    std::string text(64 * 1024, ' ');
    text += "1";
    auto value = run(text);
    ASSERT_FALSE(value.ok());
    EXPECT_EQ(value.error().code, ErrorCode::Syntax);
    EXPECT_EQ(value.error().column, 64 * 1024 + 1);
    EXPECT_TRUE(run(std::string(64 * 1024 - 1, ' ') + "1").ok());
}

// ---- Errors ------------------------------------------------------------------------------------

struct ErrorCase {
    const char* text;
    ErrorCode code;
    int column;
    const char* messagePart; // a phrase the message must contain
    const char* why;
};

void PrintTo(const ErrorCase& c, std::ostream* os) {
    *os << c.text;
}

class ExpressionError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ExpressionError, ReportsCodeColumnAndMessage) {
    const ErrorCase& c = GetParam();
    // lane - 7 is zero in sampleThread(): run-time errors that constants cannot show.
    auto value = run(c.text, {"offset", "x"}, {0, 0});
    ASSERT_FALSE(value.ok()) << c.text << " gave " << value.value();
    EXPECT_EQ(value.error().code, c.code) << c.text << ": " << value.error().describe();
    EXPECT_EQ(value.error().column, c.column) << c.text << ": " << value.error().describe();
    EXPECT_NE(value.error().message.find(c.messagePart), std::string::npos)
        << c.text << ": " << value.error().message;
}

const ErrorCase kErrorCases[] = {
    // Syntax.
    {"", ErrorCode::Syntax, 1, "empty expression", "nothing to parse"},
    {"   ", ErrorCode::Syntax, 4, "empty expression", "only white space"},
    {"1 +", ErrorCode::Syntax, 4, "expected a value, found end of expression", "missing operand"},
    {"* 3", ErrorCode::Syntax, 1, "expected a value, found '*'", "no left operand"},
    {"(1 + 2", ErrorCode::Syntax, 7, "missing ')' for the '(' at column 1", "unclosed ("},
    {"min(1, (2)", ErrorCode::Syntax, 11, "expected ',' or ')'", "unclosed call"},
    {"1 + 2)", ErrorCode::Syntax, 6, "after a complete expression", "trailing ')'"},
    {"1 2", ErrorCode::Syntax, 3, "after a complete expression", "trailing number"},
    {"lane lane", ErrorCode::Syntax, 6, "after a complete expression", "trailing name"},
    {"()", ErrorCode::Syntax, 2, "expected a value", "empty parentheses"},
    {"1 @ 2", ErrorCode::Syntax, 3, "unexpected character '@'", "not an operator"},
    {"1 + \x01", ErrorCode::Syntax, 5, "byte 0x01", "control character"},
    {"lane = 3", ErrorCode::Syntax, 6, "'=' is assignment", "assignment"},
    {"x++", ErrorCode::Syntax, 2, "increment", "C's ++ needs an lvalue"},
    {"1 --x", ErrorCode::Syntax, 3, "decrement", "C reads -- as one token"},
    {"1.5", ErrorCode::Syntax, 1, "floating-point", "no floats"},
    {"2 * 010", ErrorCode::Syntax, 5, "octal", "C's octal literal"},
    {"0x", ErrorCode::Syntax, 1, "hexadecimal digits", "prefix without digits"},
    {"0b", ErrorCode::Syntax, 1, "binary digits", "prefix without digits"},
    {"0b102", ErrorCode::Syntax, 1, "invalid digit '2'", "2 in binary"},
    {"12abc", ErrorCode::Syntax, 1, "invalid suffix 'abc'", "not a C suffix"},
    {"1 + 5u", ErrorCode::Syntax, 5, "unsigned suffix", "unsigned changes C's meaning"},
    {"0xFFULL", ErrorCode::Syntax, 1, "unsigned suffix", "unsigned changes C's meaning"},
    {"1lL", ErrorCode::Syntax, 1, "invalid suffix", "C has no lL suffix"},
    {"9223372036854775808", ErrorCode::Syntax, 1, "too large", "INT64_MAX + 1"},
    {"1 + 0x10000000000000000", ErrorCode::Syntax, 5, "too large", "2^64"},
    {"0x8000000000000000", ErrorCode::Syntax, 1, "too large", "2^63"},
    {"99999999999999999999999999", ErrorCode::Syntax, 1, "too large", "many digits"},
    {"1 ? 2", ErrorCode::Syntax, 6, "expected ':' of the '?' at column 3", "no ':'"},
    {"1 : 2", ErrorCode::Syntax, 3, "after a complete expression", "':' without '?'"},
    {"tid.", ErrorCode::Syntax, 5, "member name", "dot without member"},
    {"tid.1", ErrorCode::Syntax, 5, "member name", "dot with a number"},
    {"min(1)", ErrorCode::Syntax, 1, "min() takes 2 arguments, not 1", "too few arguments"},
    {"min()", ErrorCode::Syntax, 1, "min() takes 2 arguments, not 0", "no arguments"},
    {"abs(1, 2)", ErrorCode::Syntax, 1, "abs() takes 1 argument", "too many arguments"},
    {"1 + max(1, 2, 3)", ErrorCode::Syntax, 5, "max() takes 2 arguments", "too many arguments"},
    {"min(1 2)", ErrorCode::Syntax, 7, "expected ',' or ')'", "missing comma"},
    {"min(1,)", ErrorCode::Syntax, 7, "expected a value", "empty argument"},
    {"min + 1", ErrorCode::Syntax, 1, "is a function", "function without a call"},
    {"2 * lane(3)", ErrorCode::Syntax, 5, "'lane' is not a function", "variable called"},
    {"offset(3)", ErrorCode::Syntax, 1, "'offset' is not a function", "parameter called"},
    {"1 + (2 * (3 - ))", ErrorCode::Syntax, 15, "expected a value, found ')'", "nested"},
    // Unknown names, with suggestions.
    {"lanes + 1", ErrorCode::UnknownName, 1, "unknown name 'lanes'; did you mean 'lane'?",
     "one letter too many"},
    {"2 * tid.w", ErrorCode::UnknownName, 5, "did you mean 'tid.x'?", "no such member"},
    {"threadIdx", ErrorCode::UnknownName, 1, "did you mean 'threadIdx.x'?", "member missing"},
    {"tid + 1", ErrorCode::UnknownName, 1, "did you mean 'tid.x'?", "member missing"},
    {"threadidx.y", ErrorCode::UnknownName, 1, "did you mean 'threadIdx.y'?", "wrong case"},
    {"blockDim.x * blockidx.x", ErrorCode::UnknownName, 14, "did you mean 'blockIdx.x'?",
     "wrong case, second operand"},
    {"laneId", ErrorCode::UnknownName, 1, "did you mean 'lane'?", "CUDA programmers' spelling"},
    {"ofset * 4", ErrorCode::UnknownName, 1, "did you mean 'offset'?", "a parameter misspelt"},
    {"warpsize", ErrorCode::UnknownName, 1, "did you mean 'warpSize'?", "wrong case"},
    {"banana", ErrorCode::UnknownName, 1, "not a built-in name or a parameter", "nothing close"},
    {"lane.x", ErrorCode::UnknownName, 1, "unknown name 'lane.x'", "lane has no members"},
    {"mni(1, 2)", ErrorCode::UnknownName, 1, "unknown function 'mni'; did you mean 'min'?",
     "misspelt function"},
    {"foo(1)", ErrorCode::UnknownName, 1, "unknown function 'foo'", "no such function"},
    {"(lane) + y", ErrorCode::UnknownName, 10, "unknown name 'y'", "not a declared parameter"},
    // Division by zero at run time: the column of the operator.
    {"7 / 0", ErrorCode::DivisionByZero, 3, "division by zero", "C11 6.5.5p5: undefined"},
    {"7 % 0", ErrorCode::DivisionByZero, 3, "remainder by zero", "C11 6.5.5p5: undefined"},
    {"lane / (lane - 7)", ErrorCode::DivisionByZero, 6, "division by zero", "run-time zero"},
    {"1 + lane % x", ErrorCode::DivisionByZero, 10, "remainder by zero", "a zero parameter"},
    // Overflow: the column of the operator or function responsible.
    {"9223372036854775807 + 1", ErrorCode::Overflow, 21, "overflows", "C11 6.5p5"},
    {"lane + 9223372036854775807", ErrorCode::Overflow, 6, "overflows", "at run time"},
    {"-9223372036854775807 - 2", ErrorCode::Overflow, 22, "overflows", "C11 6.5p5"},
    {"4611686018427387904 * 2", ErrorCode::Overflow, 21, "overflows", "2^62 * 2"},
    {"(lane + 4611686018427387900) * -3", ErrorCode::Overflow, 30, "overflows", "at run time"},
    {"(-9223372036854775807 - 1) / -1", ErrorCode::Overflow, 28, "overflows", "INT64_MIN / -1"},
    {"(-9223372036854775807 - 1) % -1", ErrorCode::Overflow, 28, "overflows",
     "INT64_MIN % -1: undefined in C11 6.5.5p6"},
    {"-(-9223372036854775807 - 1)", ErrorCode::Overflow, 1, "overflows", "-INT64_MIN"},
    {"1 + abs(-9223372036854775807 - 1)", ErrorCode::Overflow, 5, "abs(", "abs(INT64_MIN)"},
    {"1 << 64", ErrorCode::Overflow, 3, "shift count 64", "C11 6.5.7p3"},
    {"1 << -1", ErrorCode::Overflow, 3, "shift count -1", "C11 6.5.7p3"},
    {"1 >> 64", ErrorCode::Overflow, 3, "shift count 64", "C11 6.5.7p3"},
    {"lane >> -1", ErrorCode::Overflow, 6, "shift count -1", "C11 6.5.7p3"},
    {"1 << 63", ErrorCode::Overflow, 3, "overflows", "2^63 is not representable"},
    {"3 << 62", ErrorCode::Overflow, 3, "overflows", "C11 6.5.7p4"},
    {"-3 << 62", ErrorCode::Overflow, 4, "overflows", "C11 6.5.7p4"},
    {"lane << 61", ErrorCode::Overflow, 6, "overflows", "7 * 2^61 at run time"},
    // The first error in reading order wins.
    {"1 / 0 + 9223372036854775807 + 1", ErrorCode::DivisionByZero, 3, "division by zero",
     "left operand first"},
};

INSTANTIATE_TEST_SUITE_P(Table, ExpressionError, ::testing::ValuesIn(kErrorCases));

TEST(Expression, ErrorDescriptionNamesTheColumn) {
    auto value = run("lane / 0");
    ASSERT_FALSE(value.ok());
    EXPECT_EQ(value.error().describe(), "division by zero: 7 / 0 (column 6)");
}

TEST(Expression, InvalidParameterNamesAreRejectedAtParse) {
    for (const char* name : {"lane", "tid", "tid.x", "threadIdx", "min", "warpSize", "2x", ""}) {
        auto expression = Expression::parse("1", {name});
        ASSERT_FALSE(expression.ok()) << name;
        EXPECT_EQ(expression.error().code, ErrorCode::InvalidValue) << name;
    }
    auto twice = Expression::parse("k", {"k", "k"});
    ASSERT_FALSE(twice.ok());
    EXPECT_EQ(twice.error().code, ErrorCode::InvalidValue);
    EXPECT_NE(twice.error().message.find("twice"), std::string::npos);
}

TEST(Expression, MissingParameterValueIsAnError) {
    auto expression = Expression::parse("a + b", {"a", "b"});
    ASSERT_TRUE(expression.ok());
    auto value = expression->evaluate(sampleThread(), {1});
    ASSERT_FALSE(value.ok());
    EXPECT_EQ(value.error().code, ErrorCode::InvalidValue);
    EXPECT_NE(value.error().message.find("'b'"), std::string::npos);
    // A declared but unused parameter needs no value.
    auto unused = Expression::parse("a * 2", {"a", "b"});
    ASSERT_TRUE(unused.ok());
    EXPECT_EQ(unused->evaluate(sampleThread(), {21}).value(), 42);
}

// ---- isUniform, names ---------------------------------------------------------------------------

struct UniformCase {
    const char* text;
    bool uniform;
};

TEST(Expression, IsUniformWhenNoThreadDependentNameIsUsed) {
    const UniformCase cases[] = {
        {"4", true},
        {"bdim.x * bdim.y * bdim.z + warp + bid.x + bid.y + bid.z", true},
        {"gdim.x + gdim.y + gdim.z + blockDim.x + blockIdx.y + gridDim.z", true},
        {"offset * 4 + warpSize", true},
        {"lane", false},
        {"gid", false},
        {"tid.x", false},
        {"tid.y", false},
        {"tid.z", false},
        {"threadIdx.x", false},
        {"threadIdx.z * 0", false},
        {"offset + (warp ? 1 : lane)", false},
        {"0 && lane", false}, // the name appears: counted as thread-dependent (conservative)
    };
    for (const UniformCase& c : cases) {
        auto expression = Expression::parse(c.text, {"offset"});
        ASSERT_TRUE(expression.ok()) << c.text;
        EXPECT_EQ(expression->isUniform(), c.uniform) << c.text;
    }
}

TEST(Expression, ValidParameterNames) {
    for (const char* name : {"offset", "_a1", "Lane", "stride2", "x", "tidx", "minimum", "n_"}) {
        EXPECT_TRUE(isValidParameterName(name)) << name;
    }
    for (const char* name :
         {"",         "1a",        "a-b",      "a b",      "a.b",     "lane",
          "warp",     "gid",       "tid",      "bdim",     "bid",     "gdim",
          "tid.x",    "threadIdx", "blockDim", "blockIdx", "gridDim", "threadIdx.x",
          "warpSize", "min",       "max",      "abs",      "é"}) {
        EXPECT_FALSE(isValidParameterName(name)) << name;
    }
}

TEST(Expression, BuiltinNamesListsEveryNameTheParserKnows) {
    const auto& names = builtinNames();
    for (const char* name :
         {"lane",      "warp",     "gid",    "tid.x",       "tid.y",      "tid.z",
          "bdim.x",    "bdim.y",   "bdim.z", "bid.x",       "bid.y",      "bid.z",
          "gdim.x",    "gdim.y",   "gdim.z", "threadIdx.x", "blockDim.y", "blockIdx.z",
          "gridDim.x", "warpSize", "min",    "max",         "abs"}) {
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    }
    // Every listed variable parses on its own (functions need a call).
    for (const std::string& name : names) {
        const bool isFunction = name == "min" || name == "max" || name == "abs";
        auto expression =
            Expression::parse(name == "swizzle" ? name + "(1, 3, 4, 3)"
                              : isFunction      ? name + "(1" + (name == "abs" ? ")" : ", 2)")
                                                : name);
        EXPECT_TRUE(expression.ok()) << name;
        EXPECT_FALSE(isValidParameterName(name)) << name;
    }
}

} // namespace
} // namespace warpscope

// ---- C source for generated kernels ----------------------------------------------------------

namespace {

std::string cSourceOf(const std::string& text, const std::vector<std::string>& params = {}) {
    auto parsed = warpscope::Expression::parse(text, params);
    EXPECT_TRUE(parsed.ok()) << text;
    if (!parsed.ok()) {
        return {};
    }
    return parsed->toCSource([](std::string_view name) { return "v_" + std::string(name); });
}

} // namespace

TEST(ExpressionCSource, NamesGoThroughTheCallbackInTheirShortSpelling) {
    EXPECT_EQ(cSourceOf("threadIdx.x"), "v_tid.x");
    EXPECT_EQ(cSourceOf("tid.y + blockDim.x"), "((v_tid.y) + (v_bdim.x))");
    EXPECT_EQ(cSourceOf("offset * 4", {"offset"}), "((v_offset) * (4LL))");
    EXPECT_EQ(cSourceOf("min(lane, 3)"), "v_min(v_lane, 3LL)");
    EXPECT_EQ(cSourceOf("warpSize"), "v_warpSize");
}

TEST(ExpressionCSource, LiteralsBecomeDecimalLongLong) {
    EXPECT_EQ(cSourceOf("0x10"), "16LL");
    EXPECT_EQ(cSourceOf("0b101"), "5LL");
    EXPECT_EQ(cSourceOf("9223372036854775807"), "9223372036854775807LL");
}

TEST(ExpressionCSource, ComparisonsAndLogicStaySixtyFourBitsAndShortCircuit) {
    // C types a comparison as int; the language keeps 64 bits, so the result is cast back.
    EXPECT_EQ(cSourceOf("(lane < 3) << 40"), "(((((long long)((v_lane) < (3LL))))) << (40LL))");
    EXPECT_EQ(cSourceOf("!lane"), "((long long)!(v_lane))");
    // && stays C's && so the right side is not evaluated when the left is 0.
    EXPECT_EQ(cSourceOf("lane != 0 && 10 / lane"),
              "((long long)((((long long)((v_lane) != (0LL)))) && (((10LL) / (v_lane)))))");
    EXPECT_EQ(cSourceOf("lane ? 1 : 2 ? 3 : 4"), "((v_lane) ? (1LL) : (((2LL) ? (3LL) : (4LL))))");
}

TEST(ExpressionCSource, PrecedenceIsMadeExplicit) {
    EXPECT_EQ(cSourceOf("1 + 2 * 3"), "((1LL) + (((2LL) * (3LL))))");
    EXPECT_EQ(cSourceOf("8 - 4 - 2"), "((((8LL) - (4LL))) - (2LL))");
    EXPECT_EQ(cSourceOf("-(lane) + ~1"), "(((-((v_lane)))) + ((~(1LL))))");
    EXPECT_EQ(cSourceOf("a & b == c", {"a", "b", "c"}),
              "((v_a) & (((long long)((v_b) == (v_c)))))");
}

namespace {

/// Runs work on a thread with a 512 KiB stack (less than a main thread's 8 MiB), so code that
/// recurses once per token crashes here on every build type instead of only on some.
void onSmallStack(const std::function<void()>& work) {
    pthread_attr_t attributes;
    ASSERT_EQ(pthread_attr_init(&attributes), 0);
    ASSERT_EQ(pthread_attr_setstacksize(&attributes, 512 * 1024), 0);
    pthread_t thread;
    auto body = [](void* argument) -> void* {
        (*static_cast<const std::function<void()>*>(argument))();
        return nullptr;
    };
    ASSERT_EQ(pthread_create(&thread, &attributes, body,
                             const_cast<void*>(static_cast<const void*>(&work))),
              0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attributes);
}

} // namespace

TEST(ExpressionCSource, ThirtyThousandPrefixOperatorsNeitherRecurseNorCrash) {
    // The probe's kernel_source request once died (SIGSEGV) on this: the parser reads prefix
    // operators in a loop, the C source writer recursed once per operator.
    const std::string text = std::string(30000, '~') + "(gid*4)";
    std::string source;
    onSmallStack([&] { source = cSourceOf(text); });
    const std::string expected = [] {
        std::string s;
        for (int i = 0; i < 30000; ++i) {
            s += "(~(";
        }
        s += "(((v_gid) * (4LL)))";
        s += std::string(60000, ')');
        return s;
    }();
    EXPECT_EQ(source, expected);

    std::string mixed;
    onSmallStack([&] { mixed = cSourceOf("-!~+lane"); });
    EXPECT_EQ(mixed, "(-(((long long)!((~((+(v_lane))))))))");
}

TEST(ExpressionCSource, LongOperatorChainsAreWrittenInOnePass) {
    // 20,000 additions: left-associative, so the first sum is the innermost.
    std::string text = "lane";
    for (int i = 0; i < 20000; ++i) {
        text += "+1";
    }
    std::string source;
    onSmallStack([&] { source = cSourceOf(text); });
    EXPECT_EQ(source.rfind(std::string(40000, '('), 0), 0u);
    EXPECT_EQ(source.substr(40000, 16), "v_lane) + (1LL))");
    EXPECT_EQ(cSourceOf("1 < 2 < 3"), "((long long)((((long long)((1LL) < (2LL)))) < (3LL)))");
}
