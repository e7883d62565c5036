// Error descriptions for people and stable error-code names for JSON.
#include "warpscope/result.h"

namespace warpscope {

const char* errorCodeName(ErrorCode code) {
    switch (code) {
    case ErrorCode::Syntax:
        return "syntax";
    case ErrorCode::UnknownName:
        return "unknown_name";
    case ErrorCode::DivisionByZero:
        return "division_by_zero";
    case ErrorCode::Overflow:
        return "overflow";
    case ErrorCode::NegativeAddress:
        return "negative_address";
    case ErrorCode::Misaligned:
        return "misaligned";
    case ErrorCode::InvalidValue:
        return "invalid_value";
    case ErrorCode::FileFormat:
        return "file_format";
    case ErrorCode::Io:
        return "io";
    case ErrorCode::OutOfBounds:
        return "out_of_bounds";
    case ErrorCode::Cancelled:
        return "cancelled";
    case ErrorCode::OverBudget:
        return "over_budget";
    }
    return "unknown";
}

std::string Error::describe() const {
    std::string text;
    if (!where.empty()) {
        text = where + ": ";
    }
    text += message;
    if (column > 0) {
        text += " (column " + std::to_string(column) + ")";
    }
    return text;
}

} // namespace warpscope
