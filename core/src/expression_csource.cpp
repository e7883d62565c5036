// An expression as C source, for the generated CUDA kernels (core/src/expression.cpp has the
// overview).
#include "expression_internal.h"

#include <functional>
#include <utility>

namespace warpscope {

using namespace expression_impl;

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
    return CSourceWriter(tokenizeExpression(m_text), nameFor).write();
}

} // namespace warpscope
