// Internal to the probe's protocol files (probe_requests.cpp, probe_serve.cpp,
// probe_protocol.cpp, probe_selfcheck.cpp): reading request lines and their fields, the limits,
// and the response lines, shared by the server and the JSON forms.
#pragma once

#include "probe_protocol.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::probe::detail {

using json = nlohmann::json;

/// Deeper requests are refused before they reach the JSON parser: a pattern may nest 64 levels
/// (the core's limit) and sits at most three levels into a request.
inline constexpr std::size_t kMaxRequestDepth = 72;
/// Requests read ahead of the one running; the reader waits (still answering nothing) beyond.
inline constexpr std::size_t kMaxQueuedRequests = 64;
inline constexpr std::size_t kMaxQueuedBytes = 16u * 1024u * 1024u;
inline constexpr int kMaxSweepPatterns = 65536;
inline constexpr int kMaxRepetitions = 1000;

RequestError badRequest(std::string message, std::string where = "");

/// One protocol line. Invalid UTF-8 (from a backend message) is replaced, never thrown on.
std::string dumpLine(const json& value);
/// "null", "the number 5", "the string \"...\"", "an array": a value in a message.
std::string describeJsonType(const json& value);
/// A request id: an integer or a string.
bool isValidId(const json& id);
bool isBlank(std::string_view text);

// ---- Requests ---------------------------------------------------------------------------------

/// A request line as the reader thread hands it over.
struct Pending {
    json id;      // null when the line had none usable
    json request; // the parsed object; unused when `error` is set
    std::optional<RequestError> error;
    std::string op;
    std::size_t bytes = 0;
    bool endOfInput = false;
};

enum class LineStatus { Line, TooLong, End };

struct LineRead {
    LineStatus status = LineStatus::End;
    std::string text;
    std::size_t bytes = 0; // of the whole line, also when too long
};

/// Reads one line of at most `maxBytes` (without the newline); a longer one is consumed and
/// dropped. A last line without a newline still counts as a line.
LineRead readLine(std::istream& in, std::size_t maxBytes);

/// Turns a line into a Pending request: parsed, with id and op checked against the op table.
Pending parseRequestLine(const LineRead& line);

/// Fields a request of `op` may carry besides id and op, and "device" when the op's row says it
/// takes one; anything else is a bad request, so a misspelt option is never silently ignored.
std::optional<RequestError> checkFields(const json& request, const std::string& op,
                                        std::initializer_list<const char*> allowed);

/// The options of measure and sweep.
RequestResult<MeasureOptions> parseOptions(const json& request);
/// The pattern field of measure and kernel_source.
RequestResult<ResolvedPattern> patternField(const json& request);
RequestError gridNeedsExpression(const std::string& where);

json okResponse(const json& id, json result);
json errorResponse(const json& id, const RequestError& error);

/// A core error inside a request, at `pointer`, answered with `code`.
RequestError coreError(const Error& error, const std::string& pointer, ProbeErrorCode code);

/// Writes progress lines for one request, at most one per interval; done == total always.
class ProgressWriter {
public:
    using Clock = std::chrono::steady_clock;

    ProgressWriter(json id, std::chrono::milliseconds interval,
                   std::function<void(const json&)> write)
        : m_id(std::move(id)), m_interval(interval), m_write(std::move(write)) {}

    void operator()(int done, int total) {
        const auto now = Clock::now();
        const bool last = done >= total;
        if (m_written && !last && now - m_lastWrite < m_interval) {
            return;
        }
        if (m_written && last && m_lastDone == done) {
            return;
        }
        m_written = true;
        m_lastWrite = now;
        m_lastDone = done;
        m_write(json{{"id", m_id}, {"progress", {{"done", done}, {"total", total}}}});
    }

private:
    json m_id;
    std::chrono::milliseconds m_interval;
    std::function<void(const json&)> m_write;
    bool m_written = false;
    int m_lastDone = -1;
    Clock::time_point m_lastWrite;
};

} // namespace warpscope::probe::detail
