// The pattern language's lexer: reads a text into tokens, with an error naming the column for
// anything that is not part of the language (core/src/expression.cpp has the overview). Included
// only by expression_compiler.cpp, whose Compiler reads its tokens.
#pragma once

#include "expression_internal.h"

namespace warpscope::expression_impl {

class Lexer {
public:
    explicit Lexer(std::string_view text) : m_text(text) {}

    /// All tokens of the text, in order (for Expression::toCSource; the text is known to lex).
    std::vector<Token> tokenize() {
        std::vector<Token> tokens;
        while (advance() && m_token.kind != Tok::End) {
            tokens.push_back(m_token);
        }
        return tokens;
    }

protected:
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
            return "number " + quotedText(token.text);
        case Tok::Name:
            return "name " + quotedText(token.text);
        case Tok::Punct:
            return quotedText(token.text);
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
                        "floating-point numbers are not supported: " + quotedText(text) +
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
                                quotedText(text),
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
                        quotedText(text.substr(0, 2)) + " must be followed by " +
                            (base == 16 ? "hexadecimal" : "binary") + " digits",
                        m_token.column);
        }
        const std::string_view suffix = text.substr(i);
        if (suffix.find_first_of("uU") != std::string_view::npos &&
            suffix.find_first_not_of("uUlL") == std::string_view::npos) {
            return fail(ErrorCode::Syntax,
                        "unsigned suffix in " + quotedText(text) +
                            " is not supported: every value is a signed 64-bit integer",
                        m_token.column);
        }
        // l, L, ll, LL: long and long long, which is what every value is anyway.
        if (!suffix.empty() && suffix != "l" && suffix != "L" && suffix != "ll" && suffix != "LL") {
            return fail(ErrorCode::Syntax,
                        "invalid suffix " + quotedText(suffix) + " on number " + quotedText(text),
                        m_token.column);
        }
        if (base == 10 && i > 1 && text[0] == '0') {
            // C reads 010 as octal 8; accepting it silently either way would surprise someone.
            return fail(ErrorCode::Syntax,
                        "numbers may not start with 0: C reads " + quotedText(text.substr(0, i)) +
                            " as octal; write it in decimal or with 0x",
                        m_token.column);
        }
        if (tooLarge) {
            return fail(ErrorCode::Syntax,
                        "number " + quotedText(text) + " is too large for a signed 64-bit value",
                        m_token.column);
        }
        m_token.value = static_cast<std::int64_t>(value);
        return true;
    }

    bool isPunct(std::string_view symbol) const {
        return m_token.kind == Tok::Punct && m_token.text == symbol;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    Token m_token;
    std::optional<Error> m_error;
};

} // namespace warpscope::expression_impl
