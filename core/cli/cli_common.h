// What every warpscope-cli command shares: the exit statuses, how errors are printed, and the
// JSON-lines loop of predict and predict-kernel (one answer line per stdin line).
#pragma once

#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

namespace warpscope::cli {

// Exit statuses (docs/cli.md).
constexpr int kExitOk = 0;
constexpr int kExitSomeLinesFailed = 1; // predict: at least one line answered with an error
constexpr int kExitBadInput = 2;        // bad usage, or a pattern that cannot be analysed
constexpr int kExitInterrupted = 130;   // analyze-kernel stopped by Ctrl+C (128 + SIGINT)

/// Longest predict line read; longer lines are answered with an error, never buffered whole.
constexpr std::size_t kMaxLineBytes = 1024u * 1024u;

void printError(const std::string& message);
int usageError(const std::string& message);

using ordered_json = nlohmann::ordered_json;

/// Reads stdin line by line, keeping at most kMaxLineBytes of a line.
class LineReader {
public:
    explicit LineReader(std::FILE* file) : m_file(file) {}

    /// Next line without its end-of-line; false at the end of the input. `tooLong` says the
    /// line was longer than kMaxLineBytes (its text is then cut).
    bool next(std::string& line, bool& tooLong) {
        line.clear();
        tooLong = false;
        bool any = false;
        for (;;) {
            if (m_pos == m_end) {
                m_end = std::fread(m_buffer.data(), 1, m_buffer.size(), m_file);
                m_pos = 0;
                if (m_end == 0) {
                    return any;
                }
            }
            any = true;
            const char* start = m_buffer.data() + m_pos;
            const auto* newline = static_cast<const char*>(std::memchr(start, '\n', m_end - m_pos));
            const std::size_t count =
                newline ? static_cast<std::size_t>(newline - start) : m_end - m_pos;
            const std::size_t room = kMaxLineBytes + 1 - std::min(line.size(), kMaxLineBytes + 1);
            line.append(start, std::min(count, room));
            m_pos += count;
            if (line.size() > kMaxLineBytes) {
                tooLong = true;
            }
            if (newline) {
                ++m_pos; // the '\n'
                break;
            }
        }
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        return true;
    }

private:
    std::FILE* m_file;
    std::array<char, 64 * 1024> m_buffer{};
    std::size_t m_pos = 0;
    std::size_t m_end = 0;
};

ordered_json metricValue(double value);
void writeLine(const ordered_json& value);
ordered_json errorLine(std::size_t lineNumber, const Error& error);
/// An answer line: {"line": N} followed by the fields of `answer`.
ordered_json answerLine(std::size_t lineNumber, const ordered_json& answer);
/// An error of a reader that took one line as its whole text: the place "line 1, column C" is
/// the line's own, so only "column C" is kept.
Error withinLine(Error error);

/// predict and predict-kernel: answers each line of stdin with one JSON line, the fields of
/// `answer(line)` or its error. Blank lines are skipped but still counted; a line over 1 MiB is
/// answered with an error. The exit status says whether any line failed.
template <typename Answer> int answerStdinLines(std::string_view command, Answer&& answer) {
    LineReader reader(stdin);
    std::string line;
    bool tooLong = false;
    std::size_t lineNumber = 0;
    bool anyFailed = false;
    while (reader.next(line, tooLong)) {
        ++lineNumber;
        if (tooLong) {
            anyFailed = true;
            writeLine(errorLine(lineNumber, Error{ErrorCode::FileFormat,
                                                  "the line is longer than 1 MiB, the most " +
                                                      std::string(command) + " reads",
                                                  0, ""}));
            continue;
        }
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const Result<ordered_json> answered = answer(line);
        if (!answered) {
            anyFailed = true;
            writeLine(errorLine(lineNumber, answered.error()));
            continue;
        }
        writeLine(answerLine(lineNumber, answered.value()));
    }
    return anyFailed ? kExitSomeLinesFailed : kExitOk;
}

} // namespace warpscope::cli
