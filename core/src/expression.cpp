// The pattern language: a one-pass parser that compiles an expression into a small stack-machine
// program, and the interpreter that runs it for one thread. Semantics follow CUDA C on signed
// 64-bit values; everything C leaves undefined is an Error naming the column (docs/
// pattern-language.md is the user's reference).
#include "warpscope/expression.h"

#include "warpscope/swizzle.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

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

namespace {

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
std::int64_t packSwizzle(const Swizzle& swizzle) {
    return swizzle.bits | (swizzle.base << 8) | (swizzle.shift << 16);
}
Swizzle unpackSwizzle(std::int64_t arg) {
    return Swizzle{static_cast<int>(arg & 0xff), static_cast<int>((arg >> 8) & 0xff),
                   static_cast<int>((arg >> 16) & 0xff)};
}

/// Byte offset of a built-in variable's value in ThreadEnvironment, so that the interpreter reads
/// it without a switch.
std::int64_t variableOffset(Var var) {
    constexpr std::size_t tid = offsetof(ThreadEnvironment, tid);
    constexpr std::size_t bdim = offsetof(ThreadEnvironment, bdim);
    constexpr std::size_t bid = offsetof(ThreadEnvironment, bid);
    constexpr std::size_t gdim = offsetof(ThreadEnvironment, gdim);
    constexpr std::size_t x = offsetof(Dim3, x);
    constexpr std::size_t y = offsetof(Dim3, y);
    constexpr std::size_t z = offsetof(Dim3, z);
    constexpr std::array<std::size_t, kVarCount> offsets = {offsetof(ThreadEnvironment, lane),
                                                            offsetof(ThreadEnvironment, warp),
                                                            offsetof(ThreadEnvironment, gid),
                                                            tid + x,
                                                            tid + y,
                                                            tid + z,
                                                            bdim + x,
                                                            bdim + y,
                                                            bdim + z,
                                                            bid + x,
                                                            bid + y,
                                                            bid + z,
                                                            gdim + x,
                                                            gdim + y,
                                                            gdim + z};
    return static_cast<std::int64_t>(offsets[var]);
}

inline std::int64_t readVariable(const ThreadEnvironment& env, std::int64_t offset) {
    std::int64_t value = 0;
    std::memcpy(&value, reinterpret_cast<const char*>(&env) + offset, sizeof value);
    return value;
}

bool isThreadDependent(Var var) {
    return var == Lane || var == Gid || var == TidX || var == TidY || var == TidZ;
}

std::optional<Var> findVariable(std::string_view name) {
    for (const VariableName& v : kVariables) {
        if (v.name == name) {
            return v.var;
        }
    }
    return std::nullopt;
}

const FunctionName* findFunction(std::string_view name) {
    for (const FunctionName& f : kFunctions) {
        if (f.name == name) {
            return &f;
        }
    }
    return nullptr;
}

bool isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isIdentChar(char c) {
    return isIdentStart(c) || isDigit(c);
}
bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool isIdentifier(std::string_view name) {
    if (name.empty() || !isIdentStart(name.front())) {
        return false;
    }
    return std::all_of(name.begin(), name.end(), isIdentChar);
}

/// Edit distance counting a swap of neighbours as one edit (optimal string alignment), so that
/// "mni" is one edit from "min", for "did you mean".
std::size_t editDistance(std::string_view a, std::string_view b) {
    const std::size_t width = b.size() + 1;
    std::vector<std::size_t> d((a.size() + 1) * width);
    auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * width + j]; };
    for (std::size_t i = 0; i <= a.size(); ++i) {
        at(i, 0) = i;
    }
    for (std::size_t j = 0; j <= b.size(); ++j) {
        at(0, j) = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
            }
        }
    }
    return at(a.size(), b.size());
}

/// The closest known name to `name`, if one is close enough to be what the user meant.
std::optional<std::string> suggestName(std::string_view name,
                                       const std::vector<std::string>& parameterNames,
                                       bool wantFunction) {
    if (name.size() > 64) {
        return std::nullopt;
    }
    // "tid" or "threadIdx" alone: the user forgot the member.
    for (std::string_view base : kDottedBases) {
        if (base == name) {
            return std::string(name) + ".x";
        }
    }
    std::vector<std::string_view> candidates;
    if (wantFunction) {
        for (const FunctionName& f : kFunctions) {
            candidates.push_back(f.name);
        }
    } else {
        for (const VariableName& v : kVariables) {
            candidates.push_back(v.name);
        }
        candidates.push_back(kWarpSizeName);
        for (const std::string& p : parameterNames) {
            candidates.push_back(p);
        }
    }
    const std::size_t limit = name.size() <= 3 ? 1 : (name.size() <= 8 ? 2 : 3);
    std::optional<std::string> best;
    std::size_t bestDistance = limit + 1;
    for (std::string_view candidate : candidates) {
        const std::size_t d = editDistance(name, candidate);
        if (d < bestDistance) {
            bestDistance = d;
            best = std::string(candidate);
        }
    }
    return best;
}

std::string quoted(std::string_view text) {
    constexpr std::size_t kShown = 40;
    std::string out = "'";
    out.append(text.substr(0, kShown));
    if (text.size() > kShown) {
        out += "...";
    }
    out += "'";
    return out;
}

std::string describeChar(char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x21 && byte < 0x7f) {
        return std::string("'") + c + "'";
    }
    static constexpr char kHex[] = "0123456789abcdef";
    return std::string("byte 0x") + kHex[byte >> 4] + kHex[byte & 0xf];
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

const char* opSymbol(Op op) {
    switch (op) {
    case Op::Add:
        return "+";
    case Op::Sub:
        return "-";
    case Op::Mul:
        return "*";
    case Op::Div:
        return "/";
    case Op::Mod:
        return "%";
    case Op::Shl:
        return "<<";
    case Op::Shr:
        return ">>";
    default:
        return "?";
    }
}

constexpr const char* kRangeText = "the signed 64-bit range";

/// Why applyBinary() failed, as a person reads it.
[[gnu::cold]] Error binaryError(Op op, std::int64_t a, std::int64_t b, int column) {
    const std::string as = std::to_string(a);
    const std::string bs = std::to_string(b);
    if ((op == Op::Div || op == Op::Mod) && b == 0) {
        return Error{ErrorCode::DivisionByZero,
                     std::string(op == Op::Div ? "division" : "remainder") + " by zero: " + as +
                         " " + opSymbol(op) + " 0",
                     column,
                     {}};
    }
    if ((op == Op::Shl || op == Op::Shr) && (b < 0 || b >= 64)) {
        return Error{ErrorCode::Overflow,
                     "shift count " + bs + " is outside 0..63 (" + as + " " + opSymbol(op) + " " +
                         bs + " is undefined in C)",
                     column,
                     {}};
    }
    return Error{ErrorCode::Overflow,
                 as + " " + opSymbol(op) + " " + bs + " overflows " + kRangeText,
                 column,
                 {}};
}

[[gnu::cold]] Error unaryError(Op op, std::int64_t a, int column) {
    const std::string text =
        op == Op::Abs ? "abs(" + std::to_string(a) + ")" : "-(" + std::to_string(a) + ")";
    return Error{ErrorCode::Overflow, text + " overflows " + kRangeText, column, {}};
}

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

const BinaryInfo* findBinary(const Token& token) {
    if (token.kind != Tok::Punct) {
        return nullptr;
    }
    for (const BinaryInfo& info : kBinaryOps) {
        if (info.symbol == token.text) {
            return &info;
        }
    }
    return nullptr;
}

class Compiler {
public:
    Compiler(std::string_view text, const std::vector<std::string>& parameterNames)
        : m_text(text), m_parameterNames(parameterNames) {}

    Result<std::shared_ptr<const detail::Node>> compile() {
        auto node = std::make_shared<detail::Node>();
        m_node = node.get();
        node->parameterNames = m_parameterNames;
        if (!advance()) {
            return *m_error;
        }
        if (m_token.kind == Tok::End) {
            return Error{ErrorCode::Syntax, "empty expression", m_token.column, {}};
        }
        Operand result;
        if (!parseConditional(result)) {
            return *m_error;
        }
        if (m_token.kind != Tok::End) {
            return Error{ErrorCode::Syntax,
                         "unexpected " + describe(m_token) + " after a complete expression",
                         m_token.column,
                         {}};
        }
        computeMaxStack(*node);
        return std::shared_ptr<const detail::Node>(std::move(node));
    }

    /// All tokens of the text, in order (for Expression::toCSource; the text is known to lex).
    std::vector<Token> tokenize() {
        std::vector<Token> tokens;
        while (advance() && m_token.kind != Tok::End) {
            tokens.push_back(m_token);
        }
        return tokens;
    }

private:
    /// What the parser knows about a compiled subexpression: where its code starts, and its value
    /// when it is a constant (its code is then exactly one Const instruction).
    struct Operand {
        std::size_t start = 0;
        bool isConst = false;
        std::int64_t value = 0;
    };

    // -- lexing

    bool fail(ErrorCode code, std::string message, int column) {
        if (!m_error) {
            m_error = Error{code, std::move(message), column, {}};
        }
        return false;
    }

    int columnAt(std::size_t pos) const { return static_cast<int>(pos) + 1; }

    void skipSpaces() {
        while (m_pos < m_text.size() && isSpace(m_text[m_pos])) {
            ++m_pos;
        }
    }

    static std::string describe(const Token& token) {
        switch (token.kind) {
        case Tok::End:
            return "end of expression";
        case Tok::Number:
            return "number " + quoted(token.text);
        case Tok::Name:
            return "name " + quoted(token.text);
        case Tok::Punct:
            return quoted(token.text);
        }
        return "token";
    }

    /// Read the next token into m_token.
    bool advance() {
        skipSpaces();
        m_token = Token{};
        m_token.column = columnAt(m_pos);
        if (m_pos >= m_text.size()) {
            m_token.kind = Tok::End;
            return true;
        }
        const char c = m_text[m_pos];
        if (isDigit(c)) {
            return lexNumber();
        }
        if (isIdentStart(c)) {
            return lexName();
        }
        static constexpr std::array<std::string_view, 10> kTwoChar = {
            "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--"};
        const std::string_view rest = m_text.substr(m_pos);
        for (std::string_view symbol : kTwoChar) {
            if (rest.substr(0, 2) == symbol) {
                if (symbol == "++" || symbol == "--") {
                    return fail(ErrorCode::Syntax,
                                std::string("'") + std::string(symbol) +
                                    "' (increment/decrement) is not part of the language; write "
                                    "'" +
                                    symbol[0] + " " + symbol[0] + "x' for a double sign",
                                m_token.column);
                }
                m_token.kind = Tok::Punct;
                m_token.text = std::string(symbol);
                m_pos += 2;
                return true;
            }
        }
        static constexpr std::string_view kOneChar = "+-*/%<>&|^~!?:(),";
        if (kOneChar.find(c) != std::string_view::npos) {
            m_token.kind = Tok::Punct;
            m_token.text = std::string(1, c);
            ++m_pos;
            return true;
        }
        if (c == '=') {
            return fail(ErrorCode::Syntax,
                        "'=' is assignment, which an expression cannot do; compare with '=='",
                        m_token.column);
        }
        return fail(ErrorCode::Syntax, "unexpected character " + describeChar(c), m_token.column);
    }

    bool lexName() {
        std::size_t end = m_pos;
        while (end < m_text.size() && isIdentChar(m_text[end])) {
            ++end;
        }
        m_token.kind = Tok::Name;
        m_token.text = std::string(m_text.substr(m_pos, end - m_pos));
        m_pos = end;
        // A member access, as in threadIdx.x (C allows spaces around the dot).
        std::size_t look = m_pos;
        while (look < m_text.size() && isSpace(m_text[look])) {
            ++look;
        }
        if (look < m_text.size() && m_text[look] == '.') {
            std::size_t member = look + 1;
            while (member < m_text.size() && isSpace(m_text[member])) {
                ++member;
            }
            if (member >= m_text.size() || !isIdentStart(m_text[member])) {
                return fail(ErrorCode::Syntax, "expected a member name after '.'",
                            columnAt(member));
            }
            std::size_t memberEnd = member;
            while (memberEnd < m_text.size() && isIdentChar(m_text[memberEnd])) {
                ++memberEnd;
            }
            m_token.text += '.';
            m_token.text += m_text.substr(member, memberEnd - member);
            m_pos = memberEnd;
        }
        return true;
    }

    bool lexNumber() {
        const std::size_t start = m_pos;
        std::size_t end = m_pos;
        bool hasDot = false;
        // A C preprocessing number: digits, letters, underscores and dots.
        while (end < m_text.size() && (isIdentChar(m_text[end]) || m_text[end] == '.')) {
            hasDot = hasDot || m_text[end] == '.';
            ++end;
        }
        const std::string_view text = m_text.substr(start, end - start);
        m_token.kind = Tok::Number;
        m_token.text = std::string(text);
        m_pos = end;
        if (hasDot) {
            return fail(ErrorCode::Syntax,
                        "floating-point numbers are not supported: " + quoted(text) +
                            " (the language computes with integers)",
                        m_token.column);
        }
        int base = 10;
        std::size_t i = 0;
        if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
            base = 16;
            i = 2;
        } else if (text.size() >= 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
            base = 2;
            i = 2;
        }
        const std::size_t digitsStart = i;
        std::uint64_t value = 0;
        bool tooLarge = false;
        for (; i < text.size(); ++i) {
            const char d = text[i];
            int digit = -1;
            if (isDigit(d)) {
                digit = d - '0';
            } else if (base == 16 && d >= 'a' && d <= 'f') {
                digit = d - 'a' + 10;
            } else if (base == 16 && d >= 'A' && d <= 'F') {
                digit = d - 'A' + 10;
            }
            if (digit < 0) {
                break;
            }
            if (digit >= base) {
                return fail(ErrorCode::Syntax,
                            std::string("invalid digit '") + d + "' in binary number " +
                                quoted(text),
                            m_token.column);
            }
            constexpr auto kMax =
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
            if (value >
                (kMax - static_cast<std::uint64_t>(digit)) / static_cast<std::uint64_t>(base)) {
                tooLarge = true;
            } else {
                value =
                    value * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(digit);
            }
        }
        if (i == digitsStart) {
            return fail(ErrorCode::Syntax,
                        quoted(text.substr(0, 2)) + " must be followed by " +
                            (base == 16 ? "hexadecimal" : "binary") + " digits",
                        m_token.column);
        }
        const std::string_view suffix = text.substr(i);
        if (suffix.find_first_of("uU") != std::string_view::npos &&
            suffix.find_first_not_of("uUlL") == std::string_view::npos) {
            return fail(ErrorCode::Syntax,
                        "unsigned suffix in " + quoted(text) +
                            " is not supported: every value is a signed 64-bit integer",
                        m_token.column);
        }
        // l, L, ll, LL: long and long long, which is what every value is anyway.
        if (!suffix.empty() && suffix != "l" && suffix != "L" && suffix != "ll" && suffix != "LL") {
            return fail(ErrorCode::Syntax,
                        "invalid suffix " + quoted(suffix) + " on number " + quoted(text),
                        m_token.column);
        }
        if (base == 10 && i > 1 && text[0] == '0') {
            // C reads 010 as octal 8; accepting it silently either way would surprise someone.
            return fail(ErrorCode::Syntax,
                        "numbers may not start with 0: C reads " + quoted(text.substr(0, i)) +
                            " as octal; write it in decimal or with 0x",
                        m_token.column);
        }
        if (tooLarge) {
            return fail(ErrorCode::Syntax,
                        "number " + quoted(text) + " is too large for a signed 64-bit value",
                        m_token.column);
        }
        m_token.value = static_cast<std::int64_t>(value);
        return true;
    }

    bool isPunct(std::string_view symbol) const {
        return m_token.kind == Tok::Punct && m_token.text == symbol;
    }

    // -- code emission

    std::size_t emit(Op op, int column, std::int64_t arg = 0) {
        m_node->code.push_back(Instr{op, Src::Stack, column, arg});
        return m_node->code.size() - 1;
    }

    /// Emit a binary operator (or min/max) whose right operand `rhs` was just compiled: a lone
    /// constant, variable or parameter becomes the instruction's own operand.
    void emitBinary(Op op, int column, const Operand& rhs) {
        auto& code = m_node->code;
        const Instr last = code.back();
        if (rhs.start + 1 == code.size() &&
            (last.op == Op::Const || last.op == Op::Var || last.op == Op::Param)) {
            code.pop_back();
            const Src src =
                last.op == Op::Const ? Src::Const : (last.op == Op::Var ? Src::Var : Src::Param);
            code.push_back(Instr{op, src, column, last.arg});
            return;
        }
        emit(op, column);
    }

    Operand emitConst(std::size_t start, std::int64_t value) {
        m_node->code.resize(start);
        emit(Op::Const, 0, value);
        return Operand{start, true, value};
    }

    void patchJump(std::size_t at) {
        m_node->code[at].arg = static_cast<std::int64_t>(m_node->code.size());
    }

    bool enter(int column) {
        if (++m_nesting > kMaxNesting) {
            return fail(ErrorCode::Syntax,
                        "expression nested too deeply (more than " + std::to_string(kMaxNesting) +
                            " levels)",
                        column);
        }
        return true;
    }
    void leave() { --m_nesting; }

    // -- grammar

    /// conditional := binary ( '?' conditional ':' conditional )?
    bool parseConditional(Operand& out) {
        Operand condition;
        if (!parseBinary(condition)) {
            return false;
        }
        if (!isPunct("?")) {
            out = condition;
            return true;
        }
        const int questionColumn = m_token.column;
        if (!enter(questionColumn) || !advance()) {
            return false;
        }
        const std::size_t jumpToElse = emit(Op::JumpIfZero, questionColumn);
        Operand whenTrue;
        if (!parseConditional(whenTrue)) {
            return false;
        }
        if (!isPunct(":")) {
            return fail(ErrorCode::Syntax,
                        "expected ':' of the '?' at column " + std::to_string(questionColumn) +
                            ", found " + describe(m_token),
                        m_token.column);
        }
        if (!advance()) {
            return false;
        }
        const std::size_t jumpToEnd = emit(Op::Jump, questionColumn);
        patchJump(jumpToElse);
        Operand whenFalse;
        if (!parseConditional(whenFalse)) { // right-associative
            return false;
        }
        patchJump(jumpToEnd);
        leave();
        if (condition.isConst) {
            const Operand& chosen = condition.value != 0 ? whenTrue : whenFalse;
            if (chosen.isConst) {
                out = emitConst(condition.start, chosen.value);
                return true;
            }
        }
        out = Operand{condition.start, false, 0};
        return true;
    }

    struct PendingOp {
        const BinaryInfo* info = nullptr;
        int column = 0;
        std::size_t jumpAt = 0; // the AndJump / OrJump of && and ||
    };

    /// Operator-precedence parsing with explicit stacks, so that a long chain of operators does
    /// not recurse. Precedences on the operator stack strictly increase, so 16 slots suffice.
    bool parseBinary(Operand& out) {
        std::array<Operand, 16> operands;
        std::array<PendingOp, 16> pending;
        std::size_t operandCount = 0;
        std::size_t pendingCount = 0;

        auto reduce = [&] {
            const PendingOp op = pending[--pendingCount];
            const Operand rhs = operands[--operandCount];
            const Operand lhs = operands[operandCount - 1];
            Operand& result = operands[operandCount - 1];
            const Op code = op.info->op;
            if (code == Op::LogicalAnd || code == Op::LogicalOr) {
                const bool isAnd = code == Op::LogicalAnd;
                // Short-circuit: a constant left side that decides alone makes the right dead.
                if (lhs.isConst && ((isAnd && lhs.value == 0) || (!isAnd && lhs.value != 0))) {
                    result = emitConst(lhs.start, isAnd ? 0 : 1);
                    return;
                }
                std::int64_t folded = 0;
                if (lhs.isConst && rhs.isConst && applyBinary(code, lhs.value, rhs.value, folded)) {
                    result = emitConst(lhs.start, folded);
                    return;
                }
                emit(Op::ToBool, op.column);
                patchJump(op.jumpAt);
                result = Operand{lhs.start, false, 0};
                return;
            }
            std::int64_t folded = 0;
            if (lhs.isConst && rhs.isConst && applyBinary(code, lhs.value, rhs.value, folded)) {
                result = emitConst(lhs.start, folded);
                return;
            }
            // A constant that would fail (1 / 0) stays code: it may sit in a branch never taken.
            emitBinary(code, op.column, rhs);
            result = Operand{lhs.start, false, 0};
        };

        if (!parseUnary(operands[operandCount++])) {
            return false;
        }
        while (const BinaryInfo* info = findBinary(m_token)) {
            while (pendingCount > 0 &&
                   pending[pendingCount - 1].info->precedence >= info->precedence) {
                reduce();
            }
            PendingOp op{info, m_token.column, 0};
            if (info->op == Op::LogicalAnd) {
                op.jumpAt = emit(Op::AndJump, op.column);
            } else if (info->op == Op::LogicalOr) {
                op.jumpAt = emit(Op::OrJump, op.column);
            }
            pending[pendingCount++] = op;
            if (!advance()) {
                return false;
            }
            if (!parseUnary(operands[operandCount++])) {
                return false;
            }
        }
        while (pendingCount > 0) {
            reduce();
        }
        out = operands[0];
        return true;
    }

    /// unary := ( '-' | '+' | '~' | '!' )* primary, read without recursion.
    bool parseUnary(Operand& out) {
        struct Prefix {
            char symbol;
            int column;
        };
        std::vector<Prefix> prefixes;
        while (isPunct("-") || isPunct("+") || isPunct("~") || isPunct("!")) {
            prefixes.push_back(Prefix{m_token.text[0], m_token.column});
            if (!advance()) {
                return false;
            }
        }
        if (!parsePrimary(out)) {
            return false;
        }
        for (auto it = prefixes.rbegin(); it != prefixes.rend(); ++it) {
            if (it->symbol == '+') {
                continue; // +x is x
            }
            const Op op = it->symbol == '-' ? Op::Neg : (it->symbol == '~' ? Op::BitNot : Op::Not);
            std::int64_t folded = 0;
            if (out.isConst && applyUnary(op, out.value, folded)) {
                out = emitConst(out.start, folded);
            } else {
                emit(op, it->column);
                out.isConst = false;
            }
        }
        return true;
    }

    bool parsePrimary(Operand& out) {
        out = Operand{m_node->code.size(), false, 0};
        switch (m_token.kind) {
        case Tok::Number: {
            const std::int64_t value = m_token.value;
            out = emitConst(out.start, value);
            return advance();
        }
        case Tok::Name:
            return parseName(out);
        case Tok::Punct:
            if (isPunct("(")) {
                const int openColumn = m_token.column;
                if (!enter(openColumn) || !advance()) {
                    return false;
                }
                if (!parseConditional(out)) {
                    return false;
                }
                if (!isPunct(")")) {
                    return fail(ErrorCode::Syntax,
                                "missing ')' for the '(' at column " + std::to_string(openColumn) +
                                    ", found " + describe(m_token),
                                m_token.column);
                }
                leave();
                return advance();
            }
            break;
        case Tok::End:
            break;
        }
        return fail(ErrorCode::Syntax, "expected a value, found " + describe(m_token),
                    m_token.column);
    }

    bool parseName(Operand& out) {
        const std::string name = m_token.text;
        const int column = m_token.column;
        if (!advance()) {
            return false;
        }
        const bool called = isPunct("(");
        if (const FunctionName* function = findFunction(name)) {
            if (!called) {
                return fail(ErrorCode::Syntax,
                            "'" + name + "' is a function: write " + std::string(function->usage),
                            column);
            }
            return parseCall(*function, column, out);
        }
        if (called) {
            if (findVariable(name) || name == kWarpSizeName || isParameter(name)) {
                return fail(ErrorCode::Syntax, "'" + name + "' is not a function", column);
            }
            return unknownName(name, column, true);
        }
        if (auto var = findVariable(name)) {
            emit(Op::Var, column, variableOffset(*var));
            if (isThreadDependent(*var)) {
                m_node->uniform = false;
            }
            return true;
        }
        if (name == kWarpSizeName) {
            out = emitConst(out.start, kWarpSize);
            return true;
        }
        for (std::size_t i = 0; i < m_parameterNames.size(); ++i) {
            if (m_parameterNames[i] == name) {
                emit(Op::Param, column, static_cast<std::int64_t>(i));
                m_node->requiredParameters = std::max(m_node->requiredParameters, i + 1);
                return true;
            }
        }
        return unknownName(name, column, false);
    }

    bool isParameter(const std::string& name) const {
        return std::find(m_parameterNames.begin(), m_parameterNames.end(), name) !=
               m_parameterNames.end();
    }

    bool unknownName(const std::string& name, int column, bool isCall) {
        std::string message =
            std::string(isCall ? "unknown function " : "unknown name ") + quoted(name);
        if (auto suggestion = suggestName(name, m_parameterNames, isCall)) {
            message += "; did you mean '" + *suggestion + "'?";
        } else if (!isCall) {
            message += " (not a built-in name or a parameter)";
        }
        return fail(ErrorCode::UnknownName, std::move(message), column);
    }

    bool parseCall(const FunctionName& function, int column, Operand& out) {
        if (!enter(column) || !advance()) { // past '('
            return false;
        }
        std::array<Operand, kMaxArity> args;
        std::array<int, kMaxArity> argColumns{};
        int count = 0;
        if (!isPunct(")")) {
            while (true) {
                Operand arg;
                const int argColumn = m_token.column;
                if (!parseConditional(arg)) {
                    return false;
                }
                if (count < kMaxArity) {
                    args[static_cast<std::size_t>(count)] = arg;
                    argColumns[static_cast<std::size_t>(count)] = argColumn;
                }
                ++count;
                if (count > function.arity) {
                    return fail(ErrorCode::Syntax,
                                std::string(function.name) + "() takes " +
                                    std::to_string(function.arity) + " argument" +
                                    (function.arity == 1 ? "" : "s"),
                                column);
                }
                if (isPunct(",")) {
                    if (!advance()) {
                        return false;
                    }
                    continue;
                }
                if (isPunct(")")) {
                    break;
                }
                return fail(ErrorCode::Syntax,
                            "expected ',' or ')' in the call of " + std::string(function.name) +
                                "(), found " + describe(m_token),
                            m_token.column);
            }
        }
        if (count != function.arity) {
            return fail(ErrorCode::Syntax,
                        std::string(function.name) + "() takes " + std::to_string(function.arity) +
                            " argument" + (function.arity == 1 ? "" : "s") + ", not " +
                            std::to_string(count),
                        column);
        }
        leave();
        if (!advance()) { // past ')'
            return false;
        }
        if (function.op == Op::Swizzle) {
            return finishSwizzle(args, argColumns, column, out);
        }
        std::int64_t folded = 0;
        if (function.arity == 1) {
            if (args[0].isConst && applyUnary(function.op, args[0].value, folded)) {
                out = emitConst(out.start, folded);
                return true;
            }
        } else if (args[0].isConst && args[1].isConst &&
                   applyBinary(function.op, args[0].value, args[1].value, folded)) {
            out = emitConst(out.start, folded);
            return true;
        }
        if (function.arity == 2) {
            emitBinary(function.op, column, args[1]);
        } else {
            emit(function.op, column);
        }
        out.isConst = false;
        return true;
    }

    /// swizzle(x, B, M, S): B, M and S must be constants (their code, one Const each, is dropped
    /// and packed into the instruction); an error points at the first argument that is wrong.
    bool finishSwizzle(const std::array<Operand, kMaxArity>& args,
                       const std::array<int, kMaxArity>& argColumns, int column, Operand& out) {
        static constexpr std::array<std::string_view, 3> kRoles = {
            "B (the number of bits XORed)", "M (the lowest bit XORed)",
            "S (how far above them the bits XORed in lie)"};
        for (std::size_t i = 1; i < 4; ++i) {
            if (!args[i].isConst) {
                return fail(ErrorCode::InvalidValue,
                            "swizzle(x, B, M, S): " + std::string(kRoles[i - 1]) +
                                " must be a constant (a number or an expression of numbers)",
                            argColumns[i]);
            }
        }
        if (auto problem = checkSwizzle(args[1].value, args[2].value, args[3].value)) {
            return fail(ErrorCode::InvalidValue, problem->message,
                        argColumns[static_cast<std::size_t>(problem->argument)]);
        }
        const Swizzle swizzle{static_cast<int>(args[1].value), static_cast<int>(args[2].value),
                              static_cast<int>(args[3].value)};
        if (args[0].isConst) {
            out = emitConst(out.start, swizzle.apply(args[0].value));
            return true;
        }
        m_node->code.resize(args[1].start); // drop the constants' pushes
        emit(Op::Swizzle, column, packSwizzle(swizzle));
        out.isConst = false;
        return true;
    }

    /// The deepest the evaluation stack gets. Jumps only go forward, so one pass in order sees
    /// every instruction's stack depth before it runs.
    static void computeMaxStack(detail::Node& node) {
        const std::size_t n = node.code.size();
        std::vector<std::int64_t> depthAt(n + 1, -1);
        depthAt[0] = 0;
        std::int64_t maxDepth = 0;
        for (std::size_t pc = 0; pc < n; ++pc) {
            std::int64_t d = std::max<std::int64_t>(depthAt[pc], 0);
            const Instr& in = node.code[pc];
            auto reach = [&](std::size_t target, std::int64_t depth) {
                if (depthAt[target] < 0) {
                    depthAt[target] = depth;
                }
            };
            switch (in.op) {
            case Op::Const:
            case Op::Var:
            case Op::Param:
                ++d;
                break;
            case Op::Neg:
            case Op::BitNot:
            case Op::Not:
            case Op::Abs:
            case Op::ToBool:
            case Op::Swizzle:
                break;
            case Op::AndJump:
            case Op::OrJump:
                reach(static_cast<std::size_t>(in.arg), d);
                --d;
                break;
            case Op::JumpIfZero:
                --d;
                reach(static_cast<std::size_t>(in.arg), d);
                break;
            case Op::Jump:
                reach(static_cast<std::size_t>(in.arg), d);
                maxDepth = std::max(maxDepth, d);
                continue; // no fall-through
            default:      // binary operators
                if (in.src == Src::Stack) {
                    --d;
                }
                break;
            }
            maxDepth = std::max(maxDepth, d);
            reach(pc + 1, d);
        }
        node.maxStack = static_cast<std::size_t>(maxDepth);
        node.jumpCount = static_cast<std::size_t>(
            std::count_if(node.code.begin(), node.code.end(), [](const Instr& in) {
                return in.op == Op::AndJump || in.op == Op::OrJump || in.op == Op::JumpIfZero;
            }));
    }

    std::string_view m_text;
    const std::vector<std::string>& m_parameterNames;
    std::size_t m_pos = 0;
    Token m_token;
    int m_nesting = 0;
    std::optional<Error> m_error;
    detail::Node* m_node = nullptr;
};

} // namespace

namespace {

/// Writes a valid expression's tokens as fully parenthesised C over 64-bit integers. C gives
/// comparisons and ! and && || the type int, where the pattern language keeps 64 bits, so their
/// results are cast back to long long (`(a < b) << 40` must shift a 64-bit value); && || and ?:
/// stay C's own operators, so they still short-circuit exactly as the interpreter does.
class CSourceWriter {
public:
    CSourceWriter(std::vector<Token> tokens,
                  const std::function<std::string(std::string_view)>& nameFor)
        : m_tokens(std::move(tokens)), m_nameFor(nameFor) {}

    std::string write() { return conditional(); }

private:
    const Token& peek() const {
        static const Token end{};
        return m_pos < m_tokens.size() ? m_tokens[m_pos] : end;
    }
    bool isPunct(std::string_view text) const {
        return peek().kind == Tok::Punct && peek().text == text;
    }
    Token take() { return m_pos < m_tokens.size() ? m_tokens[m_pos++] : Token{}; }

    std::string conditional() {
        std::string condition = binary(1);
        if (!isPunct("?")) {
            return condition;
        }
        take();
        std::string whenTrue = conditional();
        take(); // ':'
        std::string whenFalse = conditional();
        return "((" + condition + ") ? (" + whenTrue + ") : (" + whenFalse + "))";
    }

    /// A chain of operators of one precedence level is read in a loop (the recursion is one
    /// call per precedence level, never one per operator) and written in linear time: the
    /// opening parentheses of all its operators first, then the operands with their closings.
    std::string binary(int minPrecedence) {
        std::string first = unary();
        std::vector<std::pair<bool, std::string>> rest; // (int result, ") op (right)))")
        std::size_t restLength = 0;
        while (const BinaryInfo* info = findBinary(peek())) {
            if (info->precedence < minPrecedence) {
                break;
            }
            const std::string symbol = take().text;
            std::string right = binary(info->precedence + 1); // all binary operators are left-assoc
            const bool intResult = info->precedence <= 2 || info->precedence == 6 ||
                                   info->precedence == 7; // && || == != < <= > >=
            std::string tail = ") " + symbol + " (" + right + (intResult ? ")))" : "))");
            restLength += tail.size() + 16;
            rest.emplace_back(intResult, std::move(tail));
        }
        if (rest.empty()) {
            return first;
        }
        std::string out;
        out.reserve(first.size() + restLength);
        for (auto it = rest.rbegin(); it != rest.rend(); ++it) {
            out += it->first ? "((long long)((" : "((";
        }
        out += first;
        for (const auto& op : rest) {
            out += op.second;
        }
        return out;
    }

    /// Prefix operators are read in a loop, like the parser reads them, so that 30,000 of them
    /// neither recurse nor copy the text once per operator.
    std::string unary() {
        std::string opening;
        std::size_t prefixCount = 0;
        while (isPunct("-") || isPunct("+") || isPunct("~") || isPunct("!")) {
            const std::string symbol = take().text;
            opening += symbol == "!" ? "((long long)!(" : "(" + symbol + "(";
            ++prefixCount;
        }
        std::string operand = primary();
        if (prefixCount == 0) {
            return operand;
        }
        operand.insert(0, opening);
        operand.append(2 * prefixCount, ')');
        return operand;
    }

    std::string primary() {
        if (peek().kind == Tok::Punct) {
            const std::string symbol = peek().text;
            if (symbol == "(") {
                take();
                std::string inner = conditional();
                take(); // ')'
                return "(" + inner + ")";
            }
        }
        const Token token = take();
        if (token.kind == Tok::Number) {
            return std::to_string(token.value) + "LL";
        }
        const bool swizzle = token.text == "swizzle";
        if (swizzle || findFunction(token.text)) {
            // swizzle is written out rather than called, so that a generated kernel needs no
            // helper for it: the lambda takes x, B, M and S (each evaluated once, in the caller's
            // scope).
            std::string call =
                swizzle ? "[](long long ws_x, long long ws_b, long long ws_m, long long ws_s) "
                          "{ return ws_x ^ ((ws_x >> ws_s) & (((1LL << ws_b) - 1LL) << "
                          "ws_m)); }("
                        : m_nameFor(token.text) + "(";
            take(); // '('
            call += conditional();
            while (isPunct(",")) {
                take();
                call += ", " + conditional();
            }
            take(); // ')'
            return call + ")";
        }
        if (auto var = findVariable(token.text)) {
            return m_nameFor(kVariables[static_cast<std::size_t>(*var)].name);
        }
        return m_nameFor(token.text); // warpSize or a parameter
    }

    std::vector<Token> m_tokens;
    std::size_t m_pos = 0;
    const std::function<std::string(std::string_view)>& m_nameFor;
};

} // namespace

std::string
Expression::toCSource(const std::function<std::string(std::string_view)>& nameFor) const {
    if (!m_root) {
        return "0LL";
    }
    Compiler compiler(m_text, m_root->parameterNames);
    return CSourceWriter(compiler.tokenize(), nameFor).write();
}

const std::vector<std::string>& builtinNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> list;
        for (const VariableName& v : kVariables) {
            list.emplace_back(v.name);
        }
        list.emplace_back(kWarpSizeName);
        for (const FunctionName& f : kFunctions) {
            list.emplace_back(f.name);
        }
        return list;
    }();
    return names;
}

bool isValidParameterName(std::string_view name) {
    if (!isIdentifier(name)) {
        return false;
    }
    const auto& names = builtinNames();
    if (std::find(names.begin(), names.end(), name) != names.end()) {
        return false;
    }
    return std::find(kDottedBases.begin(), kDottedBases.end(), name) == kDottedBases.end();
}

Result<Expression> Expression::parse(std::string_view text,
                                     const std::vector<std::string>& parameterNames) {
    if (text.size() > kMaxTextLength) {
        return Error{ErrorCode::Syntax,
                     "expression is longer than " + std::to_string(kMaxTextLength) + " characters",
                     static_cast<int>(kMaxTextLength) + 1,
                     {}};
    }
    for (std::size_t i = 0; i < parameterNames.size(); ++i) {
        const std::string& name = parameterNames[i];
        if (!isValidParameterName(name)) {
            return Error{ErrorCode::InvalidValue,
                         quoted(name) + " cannot be a parameter name (a C identifier that is not "
                                        "a built-in name or function)",
                         0,
                         {}};
        }
        if (std::find(parameterNames.begin(),
                      parameterNames.begin() + static_cast<std::ptrdiff_t>(i),
                      name) != parameterNames.begin() + static_cast<std::ptrdiff_t>(i)) {
            return Error{
                ErrorCode::InvalidValue, "parameter " + quoted(name) + " is declared twice", 0, {}};
        }
    }
    Compiler compiler(text, parameterNames);
    auto program = compiler.compile();
    if (!program) {
        return program.error();
    }
    Expression expression;
    expression.m_text = std::string(text);
    expression.m_root = std::move(program).value();
    return expression;
}

bool Expression::isUniform() const {
    return !m_root || m_root->uniform;
}

Result<std::int64_t> Expression::evaluate(const ThreadEnvironment& env,
                                          const std::vector<std::int64_t>& parameterValues) const {
    if (!m_root) {
        return Error{ErrorCode::Syntax, "empty expression", 1, {}};
    }
    const detail::Node& node = *m_root;
    if (parameterValues.size() < node.requiredParameters) {
        return Error{ErrorCode::InvalidValue,
                     "parameter " + quoted(node.parameterNames[parameterValues.size()]) +
                         " has no value",
                     0,
                     {}};
    }
    std::array<std::int64_t, kInlineStack> inlineStack;
    std::unique_ptr<std::int64_t[]> heapStack;
    std::int64_t* stack = inlineStack.data();
    if (node.maxStack > kInlineStack) {
        heapStack = std::make_unique<std::int64_t[]>(node.maxStack);
        stack = heapStack.get();
    }
    std::size_t sp = 0;
    const std::int64_t* params = parameterValues.data();
    const Instr* const code = node.code.data();
    const Instr* const end = code + node.code.size();

    for (const Instr* ip = code; ip != end;) {
        const Instr& in = *ip++;
        switch (in.op) {
        case Op::Const:
            stack[sp++] = in.arg;
            break;
        case Op::Var:
            stack[sp++] = readVariable(env, in.arg);
            break;
        case Op::Param:
            stack[sp++] = params[in.arg];
            break;
        case Op::Neg:
        case Op::BitNot:
        case Op::Not:
        case Op::Abs:
        case Op::ToBool: {
            std::int64_t& a = stack[sp - 1];
            if (!applyUnary(in.op, a, a)) {
                return unaryError(in.op, a, in.column);
            }
            break;
        }
        case Op::Swizzle:
            stack[sp - 1] = unpackSwizzle(in.arg).apply(stack[sp - 1]);
            break;
        case Op::AndJump:
            if (stack[--sp] == 0) {
                stack[sp++] = 0;
                ip = code + in.arg;
            }
            break;
        case Op::OrJump:
            if (stack[--sp] != 0) {
                stack[sp++] = 1;
                ip = code + in.arg;
            }
            break;
        case Op::JumpIfZero:
            if (stack[--sp] == 0) {
                ip = code + in.arg;
            }
            break;
        case Op::Jump:
            ip = code + in.arg;
            break;
        default: { // binary operators
            std::int64_t b = 0;
            switch (in.src) {
            case Src::Stack:
                b = stack[--sp];
                break;
            case Src::Const:
                b = in.arg;
                break;
            case Src::Var:
                b = readVariable(env, in.arg);
                break;
            case Src::Param:
                b = params[in.arg];
                break;
            }
            std::int64_t& a = stack[sp - 1];
            std::int64_t r = 0;
            bool ok = false;
            // The common operators inline; the rest through applyBinary().
            if (in.op == Op::Add) {
                ok = !__builtin_add_overflow(a, b, &r);
            } else if (in.op == Op::Mul) {
                ok = !__builtin_mul_overflow(a, b, &r);
            } else {
                ok = applyBinary(in.op, a, b, r);
            }
            if (!ok) {
                return binaryError(in.op, a, b, in.column);
            }
            a = r;
            break;
        }
        }
    }
    return stack[0];
}

// ---- Warp-wide evaluation -----------------------------------------------------------------------

namespace {

constexpr int kLanes = kWarpSize;
constexpr std::uint32_t kAllLanes = 0xFFFFFFFFu;

/// One value of the evaluation stack for the 32 lanes: a lane-uniform value keeps only v[0]; a
/// thread built-in not yet operated on refers to the environment's array instead of a copy.
struct LaneSlot {
    std::int64_t v[kLanes];
    const std::int64_t* ref;
    std::uint32_t poison; // lanes whose value is not valid (an error on a path they take)
    bool uniform;

    const std::int64_t* data() const { return ref != nullptr ? ref : v; }
};

/// Gives the slot its own copy of a referenced array, before lanes of it are written.
inline void materialize(LaneSlot& slot) {
    if (slot.ref != nullptr) {
        std::memcpy(slot.v, slot.ref, sizeof slot.v);
        slot.ref = nullptr;
    }
}

/// A pending && / || / ?: of the eager evaluation: its left side or condition, waiting for the
/// instruction at `target` to combine it with the other side.
struct LaneJoin {
    LaneSlot first;  // && ||: the left side; ?: the condition
    LaneSlot second; // ?: the value when true
    Op kind = Op::AndJump;
    std::int64_t target = -1; // -1: a ?: whose true branch is still being evaluated
};

inline void broadcast(LaneSlot& slot) {
    if (slot.uniform) {
        const std::int64_t value = slot.v[0];
        for (int i = 1; i < kLanes; ++i) {
            slot.v[i] = value;
        }
        slot.poison = slot.poison ? kAllLanes : 0;
        slot.uniform = false;
        slot.ref = nullptr;
    }
}

inline std::int64_t laneValue(const LaneSlot& slot, int lane) {
    return slot.uniform ? slot.v[0] : slot.data()[lane];
}

/// a = a op b over the lanes, with b given as an array (or nullptr and a scalar when uniform).
template <class F>
inline void laneBinary(LaneSlot& a, const std::int64_t* b, std::int64_t bScalar,
                       std::uint32_t bPoison, F f) {
    if (a.uniform && b == nullptr) {
        std::int64_t r = 0;
        if (!f(a.v[0], bScalar, r)) {
            a.poison = kAllLanes;
            r = 0;
        }
        a.v[0] = r;
        a.poison |= bPoison ? kAllLanes : 0;
        return;
    }
    // Failures are rare: note them per lane as bytes (no shifts in the loop), pack only if any.
    std::uint8_t failed[kLanes];
    std::uint8_t any = 0;
    if (a.uniform) {
        // A uniform left side against lanes: no need to spread it out first.
        const std::int64_t x = a.v[0];
        a.poison = a.poison ? kAllLanes : 0;
        a.uniform = false;
        a.ref = nullptr;
        for (int i = 0; i < kLanes; ++i) {
            std::int64_t r = 0;
            const auto laneFailed = static_cast<std::uint8_t>(!f(x, b[i], r));
            a.v[i] = r;
            failed[i] = laneFailed;
            any |= laneFailed;
        }
    } else if (b == nullptr) {
        const std::int64_t* x = a.data();
        a.ref = nullptr;
        for (int i = 0; i < kLanes; ++i) {
            std::int64_t r = 0;
            const auto laneFailed = static_cast<std::uint8_t>(!f(x[i], bScalar, r));
            a.v[i] = r;
            failed[i] = laneFailed;
            any |= laneFailed;
        }
    } else {
        const std::int64_t* x = a.data();
        a.ref = nullptr;
        for (int i = 0; i < kLanes; ++i) {
            std::int64_t r = 0;
            const auto laneFailed = static_cast<std::uint8_t>(!f(x[i], b[i], r));
            a.v[i] = r;
            failed[i] = laneFailed;
            any |= laneFailed;
        }
    }
    std::uint32_t bad = 0;
    if (any != 0) {
        for (int i = 0; i < kLanes; ++i) {
            bad |= static_cast<std::uint32_t>(failed[i]) << i;
        }
    }
    a.poison |= bad | bPoison;
}

inline bool safeDiv(std::int64_t a, std::int64_t b, std::int64_t& r) {
    if (b == 0 || (a == kInt64Min && b == -1)) {
        r = 0;
        return false;
    }
    r = a / b;
    return true;
}

inline bool safeMod(std::int64_t a, std::int64_t b, std::int64_t& r) {
    if (b == 0 || (a == kInt64Min && b == -1)) {
        r = 0;
        return false;
    }
    r = a % b;
    return true;
}

void applyLaneBinary(Op op, LaneSlot& a, const std::int64_t* b, std::int64_t bScalar,
                     std::uint32_t bPoison) {
    switch (op) {
    case Op::Add:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            return !__builtin_add_overflow(x, y, &r);
        });
        return;
    case Op::Sub:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            return !__builtin_sub_overflow(x, y, &r);
        });
        return;
    case Op::Mul:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            return !__builtin_mul_overflow(x, y, &r);
        });
        return;
    case Op::Div:
        laneBinary(a, b, bScalar, bPoison, safeDiv);
        return;
    case Op::Mod:
        laneBinary(a, b, bScalar, bPoison, safeMod);
        return;
    case Op::Lt:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            r = x < y;
            return true;
        });
        return;
    case Op::Eq:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            r = x == y;
            return true;
        });
        return;
    case Op::BitAnd:
        laneBinary(a, b, bScalar, bPoison, [](std::int64_t x, std::int64_t y, std::int64_t& r) {
            r = x & y;
            return true;
        });
        return;
    default:
        laneBinary(a, b, bScalar, bPoison, [op](std::int64_t x, std::int64_t y, std::int64_t& r) {
            if (!applyBinary(op, x, y, r)) {
                r = 0;
                return false;
            }
            return true;
        });
        return;
    }
}

void applyLaneUnary(Op op, LaneSlot& a) {
    materialize(a);
    const int lanes = a.uniform ? 1 : kLanes;
    std::uint32_t bad = 0;
    for (int i = 0; i < lanes; ++i) {
        std::int64_t r = 0;
        if (!applyUnary(op, a.v[i], r)) {
            r = 0;
            bad |= 1u << i;
        }
        a.v[i] = r;
    }
    a.poison |= a.uniform ? (bad ? kAllLanes : 0) : bad;
}

/// The array of a thread-dependent built-in, or nullptr for a uniform one.
const std::int64_t* laneVariable(const WarpEnvironment& env, std::int64_t offset) {
    if (offset == variableOffset(Lane)) {
        return env.lane;
    }
    if (offset == variableOffset(Gid)) {
        return env.gid;
    }
    if (offset == variableOffset(TidX)) {
        return env.tidX;
    }
    if (offset == variableOffset(TidY)) {
        return env.tidY;
    }
    if (offset == variableOffset(TidZ)) {
        return env.tidZ;
    }
    return nullptr;
}

/// The lanes where `taken(condition lane)` holds take `value(lane)`, poisoned where
/// `valuePoison` is; the others keep `top`'s value and poison. The condition's poison spreads to
/// every lane.
template <typename Taken, typename Value>
void joinLanes(const LaneSlot& condition, LaneSlot& top, std::uint32_t valuePoison, Taken taken,
               Value value) {
    broadcast(top);
    materialize(top);
    const std::int64_t* c = condition.data();
    std::uint32_t mask = 0;
    for (int i = 0; i < kLanes; ++i) {
        const bool t = taken(c[i]);
        mask |= static_cast<std::uint32_t>(t) << i;
        if (t) {
            top.v[i] = value(i);
        }
    }
    top.poison = condition.poison | (valuePoison & mask) | (top.poison & ~mask);
}

/// Combines a finished && / || / ?: with the value on top of the stack.
void join(LaneJoin& pending, LaneSlot& top) {
    const LaneSlot& first = pending.first;
    if (pending.kind == Op::AndJump || pending.kind == Op::OrJump) {
        const bool isAnd = pending.kind == Op::AndJump;
        if (first.uniform) {
            // The left side decides for every lane at once.
            const bool decides = isAnd ? first.v[0] == 0 : first.v[0] != 0;
            if (decides) {
                top.uniform = true;
                top.ref = nullptr;
                top.v[0] = isAnd ? 0 : 1;
                top.poison = first.poison;
            } else {
                top.poison |= first.poison ? kAllLanes : 0;
            }
            return;
        }
        // A lane whose left side decides takes 0 (&&) or 1 (||), not poisoned.
        const std::int64_t decided = isAnd ? 0 : 1;
        joinLanes(
            first, top, 0, [isAnd](std::int64_t left) { return isAnd ? left == 0 : left != 0; },
            [decided](int) { return decided; });
        return;
    }
    // ?: -- `first` the condition, `second` the value when true, `top` the value when false.
    const LaneSlot& whenTrue = pending.second;
    if (first.uniform) {
        if (first.v[0] != 0) {
            top = whenTrue;
        }
        top.poison |= first.poison ? kAllLanes : 0;
        return;
    }
    const std::uint32_t truePoison =
        whenTrue.uniform ? (whenTrue.poison ? kAllLanes : 0) : whenTrue.poison;
    joinLanes(
        first, top, truePoison, [](std::int64_t condition) { return condition != 0; },
        [&whenTrue](int lane) { return laneValue(whenTrue, lane); });
}

} // namespace

std::uint32_t Expression::evaluateWarp(const WarpEnvironment& env,
                                       const std::int64_t* parameterValues,
                                       std::size_t parameterCount, std::int64_t* out) const {
    if (!m_root || parameterCount < m_root->requiredParameters) {
        return kAllLanes;
    }
    const detail::Node& node = *m_root;
    // Deep expressions are rare: the stack and joins live on the heap only for them.
    constexpr std::size_t kInlineSlots = 12;
    std::array<LaneSlot, kInlineSlots> inlineStack;
    std::array<LaneJoin, 6> inlineJoins;
    std::vector<LaneSlot> heapStack;
    std::vector<LaneJoin> heapJoins;
    LaneSlot* stack = inlineStack.data();
    LaneJoin* joins = inlineJoins.data();
    const std::size_t depth = node.maxStack + 1;
    if (depth > kInlineSlots) {
        heapStack.resize(depth);
        stack = heapStack.data();
    }
    if (node.jumpCount > inlineJoins.size()) {
        heapJoins.resize(node.jumpCount);
        joins = heapJoins.data();
    }
    std::size_t sp = 0;
    std::size_t jp = 0;
    const std::size_t n = node.code.size();
    for (std::size_t pc = 0; pc <= n; ++pc) {
        while (jp > 0 && joins[jp - 1].target == static_cast<std::int64_t>(pc)) {
            join(joins[jp - 1], stack[sp - 1]);
            --jp;
        }
        if (pc == n) {
            break;
        }
        const Instr& in = node.code[pc];
        switch (in.op) {
        case Op::Const:
        case Op::Param: {
            LaneSlot& slot = stack[sp++];
            slot.uniform = true;
            slot.ref = nullptr;
            slot.poison = 0;
            slot.v[0] =
                in.op == Op::Const ? in.arg : parameterValues[static_cast<std::size_t>(in.arg)];
            break;
        }
        case Op::Var: {
            LaneSlot& slot = stack[sp++];
            slot.poison = 0;
            if (const std::int64_t* values = laneVariable(env, in.arg)) {
                slot.uniform = false;
                slot.ref = values;
            } else {
                slot.uniform = true;
                slot.ref = nullptr;
                slot.v[0] = readVariable(env.uniform, in.arg);
            }
            break;
        }
        case Op::Neg:
        case Op::BitNot:
        case Op::Not:
        case Op::Abs:
        case Op::ToBool:
            applyLaneUnary(in.op, stack[sp - 1]);
            break;
        case Op::Swizzle: {
            LaneSlot& slot = stack[sp - 1];
            materialize(slot);
            const Swizzle swizzle = unpackSwizzle(in.arg);
            for (int i = 0, lanes = slot.uniform ? 1 : kLanes; i < lanes; ++i) {
                slot.v[i] = swizzle.apply(slot.v[i]);
            }
            break;
        }
        case Op::AndJump:
        case Op::OrJump:
        case Op::JumpIfZero: {
            LaneJoin& pending = joins[jp++];
            pending.first = stack[--sp];
            pending.kind = in.op;
            pending.target = in.op == Op::JumpIfZero ? -1 : in.arg;
            break;
        }
        case Op::Jump: {
            // The end of a ?:'s true branch: keep its value, evaluate the false branch.
            LaneJoin& pending = joins[jp - 1];
            pending.second = stack[--sp];
            pending.target = in.arg;
            break;
        }
        default: { // binary operators
            const std::int64_t* b = nullptr;
            std::int64_t bScalar = 0;
            std::uint32_t bPoison = 0;
            LaneSlot* bSlot = nullptr;
            switch (in.src) {
            case Src::Stack:
                bSlot = &stack[--sp];
                if (bSlot->uniform) {
                    bScalar = bSlot->v[0];
                    bPoison = bSlot->poison ? kAllLanes : 0;
                } else {
                    b = bSlot->data();
                    bPoison = bSlot->poison;
                }
                break;
            case Src::Const:
                bScalar = in.arg;
                break;
            case Src::Var:
                b = laneVariable(env, in.arg);
                if (b == nullptr) {
                    bScalar = readVariable(env.uniform, in.arg);
                }
                break;
            case Src::Param:
                bScalar = parameterValues[static_cast<std::size_t>(in.arg)];
                break;
            }
            applyLaneBinary(in.op, stack[sp - 1], b, bScalar, bPoison);
            break;
        }
        }
    }
    const LaneSlot& result = stack[0];
    if (result.uniform) {
        for (int i = 0; i < kLanes; ++i) {
            out[i] = result.v[0];
        }
        return result.poison ? kAllLanes : 0;
    }
    std::memcpy(out, result.data(), sizeof result.v);
    return result.poison;
}

} // namespace warpscope
