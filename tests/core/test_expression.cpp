// Tests of the pattern language (core/src/expression.cpp): values with C's precedence and
// semantics, built-in names, parameters, every error kind with its exact column, the limits that
// keep hostile input harmless, isUniform and isValidParameterName.
// "C11 6.5.x" cites the section of the C standard the expectation comes from (CUDA C follows it).
// This file: values (test_expression_errors.cpp: errors, isUniform and names;
// test_expression_csource.cpp: the expression as C source).
#include "expression_test_support.h"

namespace warpscope {
namespace {

using namespace expression_test;

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

} // namespace
} // namespace warpscope
