// The helpers every warpscope-cli command shares (cli_common.h).
#include "cli_common.h"

#include "warpscope/command_line_text.h"

#include <cmath>
#include <iostream>

namespace warpscope::cli {

void printError(const std::string& message) {
    writeCommandError(std::cerr, "warpscope-cli", message);
}

int usageError(const std::string& message) {
    writeUsageError(std::cerr, "warpscope-cli", message);
    return kExitBadInput;
}

/// A metric value as JSON: counters as integers, the rest as numbers (null when not finite).
ordered_json metricValue(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15) {
        return static_cast<std::int64_t>(value);
    }
    return value;
}

void writeLine(const ordered_json& value) {
    const std::string text = value.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout); // a caller may be waiting for this answer before sending the next line
}

ordered_json errorLine(std::size_t lineNumber, const Error& error) {
    ordered_json details = ordered_json::object();
    details["code"] = errorCodeName(error.code);
    details["message"] = error.message;
    details["where"] = error.where;
    if (error.column > 0) {
        details["column"] = error.column;
    }
    ordered_json out = ordered_json::object();
    out["line"] = lineNumber;
    out["error"] = std::move(details);
    return out;
}

ordered_json answerLine(std::size_t lineNumber, const ordered_json& answer) {
    ordered_json out = ordered_json::object();
    out["line"] = lineNumber;
    for (const auto& [key, value] : answer.items()) {
        out[key] = value;
    }
    return out;
}

Error withinLine(Error error) {
    if (error.where.rfind("line 1, column ", 0) == 0) {
        error.where.erase(0, std::strlen("line 1, "));
    }
    return error;
}

} // namespace warpscope::cli
