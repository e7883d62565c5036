// The pattern language's built-in names, its "did you mean" and the words of its arithmetic
// errors (core/src/expression.cpp has the overview).
#include "expression_internal.h"

#include <algorithm>

namespace warpscope::expression_impl {

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

std::string quotedText(std::string_view text) {
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

} // namespace warpscope::expression_impl
