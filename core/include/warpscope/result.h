// Error values for the core: every failure a user can cause comes back as an Error with a code,
// a message meant for a person, and where it happened (expression column or file location).
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace warpscope {

enum class ErrorCode {
    Syntax,          // the expression does not parse
    UnknownName,     // a variable or function that does not exist
    DivisionByZero,  // x / 0 or x % 0
    Overflow,        // a result outside the signed 64-bit range, or a shift out of range
    NegativeAddress, // an active lane's address is below zero
    Misaligned,      // an address is not a multiple of the element width
    InvalidValue,    // a value outside what the pattern allows (width 3, warp index -1, ...)
    FileFormat,      // a pattern or session file that is not what it claims to be
    Io,              // a file that cannot be read or written
    OutOfBounds,     // an active lane's address falls outside its buffer
    Cancelled,       // a long computation stopped because the caller asked it to
    OverBudget,      // the work or memory a computation would need is above its limit
};

/// Stable lower-case name of an error code, used in JSON output.
const char* errorCodeName(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::InvalidValue;
    std::string message;
    /// 1-based column in the expression the error points at; 0 when it is not about a column.
    int column = 0;
    /// Where in a file or pattern the error is ("addressExpression", "/patterns/3/width"); may be
    /// empty.
    std::string where;

    /// One line for a person: "where: message (column N)".
    std::string describe() const;
};

/// Either a value or an Error. Small on purpose: the core has no exceptions on its paths for bad
/// input, and C++20 has no std::expected.
template <class T> class Result {
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(Error error) : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    const T& value() const& {
        assert(ok());
        return std::get<T>(m_state);
    }
    T& value() & {
        assert(ok());
        return std::get<T>(m_state);
    }
    T&& value() && {
        assert(ok());
        return std::get<T>(std::move(m_state));
    }
    const Error& error() const {
        assert(!ok());
        return std::get<Error>(m_state);
    }

    const T& operator*() const& { return value(); }
    const T* operator->() const { return &value(); }

private:
    std::variant<T, Error> m_state;
};

} // namespace warpscope
