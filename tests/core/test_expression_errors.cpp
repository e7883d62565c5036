// The pattern language's errors, each kind with its exact column, isUniform and
// isValidParameterName.
#include "expression_test_support.h"

namespace warpscope {
namespace {

using namespace expression_test;

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
