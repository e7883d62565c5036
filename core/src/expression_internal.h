// The pattern language's internals, shared by its translation units: the compiled program's
// instructions, the built-in names, C's arithmetic without undefined behaviour and the tokens.
// Nothing outside core/src/expression*.cpp includes this.
#pragma once

#include "warpscope/expression.h"
#include "warpscope/swizzle.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

namespace detail {

enum class Op : std::uint8_t {
    Const, // push arg
    Var,   // push built-in variable number arg
    Param, // push parameter number arg
    Neg,
    BitNot,
    Not,
    Abs,
    ToBool, // replace top with top != 0
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    Min,
    Max,
    Swizzle,    // unary: arg packs the constant B | M << 8 | S << 16 (swizzle.h)
    AndJump,    // pop a; if a == 0: push 0, jump to arg
    OrJump,     // pop a; if a != 0: push 1, jump to arg
    JumpIfZero, // pop a; if a == 0: jump to arg
    Jump,       // jump to arg
    LogicalAnd, // only used while parsing: the pending && / || operators
    LogicalOr,
};

/// Whether `op` replaces the top of the stack with a function of it (pops one, pushes one).
constexpr bool isUnaryOp(Op op) {
    return op == Op::Neg || op == Op::BitNot || op == Op::Not || op == Op::Abs ||
           op == Op::ToBool || op == Op::Swizzle;
}

/// Where a binary instruction takes its right operand from: the stack, or (saving the dispatch of
/// a separate push) straight from a constant, a built-in variable or a parameter named by arg.
enum class Src : std::uint8_t { Stack, Const, Var, Param };

struct Instr {
    Op op = Op::Const;
    Src src = Src::Stack;
    std::int32_t column = 0; // 1-based column of the operator or function, for error messages
    std::int64_t arg = 0;    // Var: the byte offset of the value in ThreadEnvironment
};

/// The compiled program an Expression shares between its copies.
struct Node {
    std::vector<Instr> code;
    std::vector<std::string> parameterNames;
    std::size_t requiredParameters = 0; // 1 + the highest parameter number the code reads
    std::size_t maxStack = 0;
    std::size_t jumpCount = 0; // AndJump, OrJump and JumpIfZero instructions (warp evaluation)
    bool uniform = true;
};

} // namespace detail

namespace expression_impl {

using detail::Instr;
using detail::Op;
using detail::Src;

constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::size_t kMaxTextLength = 64 * 1024;
constexpr int kMaxNesting = 256;
constexpr std::size_t kInlineStack = 32;

// ---- Names -------------------------------------------------------------------------------------

enum Var : std::uint8_t {
    Lane,
    Warp,
    Gid,
    TidX,
    TidY,
    TidZ,
    BdimX,
    BdimY,
    BdimZ,
    BidX,
    BidY,
    BidZ,
    GdimX,
    GdimY,
    GdimZ,
    kVarCount
};

struct VariableName {
    std::string_view name;
    Var var;
};

// The short names first, then the CUDA spellings as aliases.
constexpr std::array<VariableName, 27> kVariables = {{
    {"lane", Lane},        {"warp", Warp},        {"gid", Gid},          {"tid.x", TidX},
    {"tid.y", TidY},       {"tid.z", TidZ},       {"bdim.x", BdimX},     {"bdim.y", BdimY},
    {"bdim.z", BdimZ},     {"bid.x", BidX},       {"bid.y", BidY},       {"bid.z", BidZ},
    {"gdim.x", GdimX},     {"gdim.y", GdimY},     {"gdim.z", GdimZ},     {"threadIdx.x", TidX},
    {"threadIdx.y", TidY}, {"threadIdx.z", TidZ}, {"blockDim.x", BdimX}, {"blockDim.y", BdimY},
    {"blockDim.z", BdimZ}, {"blockIdx.x", BidX},  {"blockIdx.y", BidY},  {"blockIdx.z", BidZ},
    {"gridDim.x", GdimX},  {"gridDim.y", GdimY},  {"gridDim.z", GdimZ},
}};

// CUDA's warpSize, a constant.
constexpr std::string_view kWarpSizeName = "warpSize";

// The part before the dot of the dotted names: not names on their own, not parameter names either.
constexpr std::array<std::string_view, 8> kDottedBases = {
    "tid", "bdim", "bid", "gdim", "threadIdx", "blockDim", "blockIdx", "gridDim"};

struct FunctionName {
    std::string_view name;
    Op op;
    int arity;
    std::string_view usage;
};
constexpr std::array<FunctionName, 4> kFunctions = {{
    {"min", Op::Min, 2, "min(a, b)"},
    {"max", Op::Max, 2, "max(a, b)"},
    {"abs", Op::Abs, 1, "abs(a)"},
    {"swizzle", Op::Swizzle, 4, "swizzle(x, B, M, S)"},
}};
constexpr int kMaxArity = 4;

/// swizzle()'s constant arguments, packed into an instruction's arg.
std::int64_t packSwizzle(const Swizzle& swizzle);
Swizzle unpackSwizzle(std::int64_t arg);
/// Byte offset of a built-in variable's value in ThreadEnvironment, so that the interpreter reads
/// it without a switch.
std::int64_t variableOffset(Var var);
bool isThreadDependent(Var var);
std::optional<Var> findVariable(std::string_view name);
const FunctionName* findFunction(std::string_view name);
bool isIdentifier(std::string_view name);
/// The closest known name to `name`, if one is close enough to be what the user meant.
std::optional<std::string> suggestName(std::string_view name,
                                       const std::vector<std::string>& parameterNames,
                                       bool wantFunction);
std::string quotedText(std::string_view text);
std::string describeChar(char c);

inline std::int64_t readVariable(const ThreadEnvironment& env, std::int64_t offset) {
    std::int64_t value = 0;
    std::memcpy(&value, reinterpret_cast<const char*>(&env) + offset, sizeof value);
    return value;
}

inline bool isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

inline bool isIdentChar(char c) {
    return isIdentStart(c) || isDigit(c);
}

inline bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// ---- Arithmetic with C's meaning and no undefined behaviour ------------------------------------

/// Apply a binary operator; false when C would leave the result undefined (overflow, division
/// by zero, shift count out of range).
inline bool applyBinary(Op op, std::int64_t a, std::int64_t b, std::int64_t& r) {
    switch (op) {
    case Op::Add:
        return !__builtin_add_overflow(a, b, &r);
    case Op::Sub:
        return !__builtin_sub_overflow(a, b, &r);
    case Op::Mul:
        return !__builtin_mul_overflow(a, b, &r);
    case Op::Div:
        if (b == 0 || (a == kInt64Min && b == -1)) {
            return false;
        }
        r = a / b; // C and C++ truncate toward zero
        return true;
    case Op::Mod:
        // INT64_MIN % -1 is undefined in C (the quotient overflows), so it is an error here too.
        if (b == 0 || (a == kInt64Min && b == -1)) {
            return false;
        }
        r = a % b; // the sign of the dividend
        return true;
    case Op::Shl: {
        if (b < 0 || b >= 64) {
            return false;
        }
        // Defined only when a * 2^b fits: shift as unsigned, then check that shifting back
        // (arithmetically) gives a again.
        r = static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << b);
        return (r >> b) == a;
    }
    case Op::Shr:
        if (b < 0 || b >= 64) {
            return false;
        }
        r = a >> b; // arithmetic on negative values, as nvcc does (and C++20 requires)
        return true;
    case Op::Lt:
        r = a < b;
        return true;
    case Op::Le:
        r = a <= b;
        return true;
    case Op::Gt:
        r = a > b;
        return true;
    case Op::Ge:
        r = a >= b;
        return true;
    case Op::Eq:
        r = a == b;
        return true;
    case Op::Ne:
        r = a != b;
        return true;
    case Op::BitAnd:
        r = a & b;
        return true;
    case Op::BitXor:
        r = a ^ b;
        return true;
    case Op::BitOr:
        r = a | b;
        return true;
    case Op::Min:
        r = std::min(a, b);
        return true;
    case Op::Max:
        r = std::max(a, b);
        return true;
    case Op::LogicalAnd:
        r = (a != 0) && (b != 0);
        return true;
    case Op::LogicalOr:
        r = (a != 0) || (b != 0);
        return true;
    default:
        return false;
    }
}

inline bool applyUnary(Op op, std::int64_t a, std::int64_t& r) {
    switch (op) {
    case Op::Neg:
        if (a == kInt64Min) {
            return false;
        }
        r = -a;
        return true;
    case Op::Abs:
        if (a == kInt64Min) {
            return false;
        }
        r = a < 0 ? -a : a;
        return true;
    case Op::BitNot:
        r = ~a;
        return true;
    case Op::Not:
        r = a == 0;
        return true;
    case Op::ToBool:
        r = a != 0;
        return true;
    default:
        return false;
    }
}

const char* opSymbol(Op op);
/// Why applyBinary() failed, as a person reads it.
[[gnu::cold]] Error binaryError(Op op, std::int64_t a, std::int64_t b, int column);
[[gnu::cold]] Error unaryError(Op op, std::int64_t a, int column);

// ---- Lexer -------------------------------------------------------------------------------------

enum class Tok { End, Number, Name, Punct };

struct Token {
    Tok kind = Tok::End;
    std::string text; // the name (dotted names without spaces), the punctuator, the number's text
    std::int64_t value = 0;
    int column = 1;
};

struct BinaryInfo {
    std::string_view symbol;
    int precedence; // higher binds tighter; C's order
    Op op;
};

constexpr std::array<BinaryInfo, 18> kBinaryOps = {{
    {"||", 1, Op::LogicalOr},
    {"&&", 2, Op::LogicalAnd},
    {"|", 3, Op::BitOr},
    {"^", 4, Op::BitXor},
    {"&", 5, Op::BitAnd},
    {"==", 6, Op::Eq},
    {"!=", 6, Op::Ne},
    {"<", 7, Op::Lt},
    {"<=", 7, Op::Le},
    {">", 7, Op::Gt},
    {">=", 7, Op::Ge},
    {"<<", 8, Op::Shl},
    {">>", 8, Op::Shr},
    {"+", 9, Op::Add},
    {"-", 9, Op::Sub},
    {"*", 10, Op::Mul},
    {"/", 10, Op::Div},
    {"%", 10, Op::Mod},
}};

const BinaryInfo* findBinary(const Token& token);

/// Compiles a checked text (its length and parameter names already validated) into a program.
Result<std::shared_ptr<const detail::Node>>
compileExpression(std::string_view text, const std::vector<std::string>& parameterNames);
/// All tokens of a text known to lex, in order (for Expression::toCSource).
std::vector<Token> tokenizeExpression(std::string_view text);

} // namespace expression_impl
} // namespace warpscope
