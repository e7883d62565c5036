// Reading the probe protocol's requests (docs/protocol.md): lines of bounded length, their id
// and op checked against core's op table, the fields each op takes and the measure options.
#include "probe_protocol_internal.h"

#include "warpscope/json_depth.h"
#include "warpscope/model.h"
#include "warpscope/protocol/ops.h"

#include <algorithm>
#include <istream>

namespace warpscope::probe::detail {

namespace {

/// Records why nlohmann's parser rejected a line, without exceptions.
class ParseErrorRecorder : public json::json_sax_t {
public:
    std::string message;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string& lastToken,
                     const nlohmann::detail::exception& error) override {
        // nlohmann says "[json.exception.parse_error.101] parse error at line 1, column 5: ...";
        // the line is always 1, so keep the column and what follows.
        const std::string what = error.what();
        const std::size_t column = what.find("column ");
        message = column != std::string::npos ? what.substr(column)
                                              : "byte " + std::to_string(position) + ": " + what;
        (void)lastToken;
        return false;
    }
};

/// The "counterNames" option: a non-empty array of distinct replay counters
/// (nsightCounterNames()), returned in that list's order so that equal sets compare equal.
RequestResult<std::vector<std::string>> counterNamesOption(const json& value,
                                                           const std::string& where) {
    const std::vector<std::string>& all = nsightCounterNames();
    if (!value.is_array() || value.empty()) {
        return badRequest("\"counterNames\" must be a non-empty array of counter names; found " +
                              describeJsonType(value),
                          where);
    }
    std::vector<bool> named(all.size(), false);
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = where + "/" + std::to_string(i);
        const json& item = value[i];
        const auto found = item.is_string()
                               ? std::find(all.begin(), all.end(), item.get<std::string>())
                               : all.end();
        if (found == all.end()) {
            std::string list;
            for (const std::string& name : all) {
                list += (list.empty() ? "" : ", ") + name;
            }
            return badRequest((item.is_string() ? "\"" + item.get<std::string>() + "\" is not"
                                                : describeJsonType(item) + " is not") +
                                  " one of the counters a measurement reads (" + list + ")",
                              at);
        }
        const auto index = static_cast<std::size_t>(found - all.begin());
        if (named[index]) {
            return badRequest("\"" + *found + "\" is named twice", at);
        }
        named[index] = true;
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (named[i]) {
            names.push_back(all[i]);
        }
    }
    return names;
}

} // namespace

RequestError badRequest(std::string message, std::string where) {
    RequestError error(ProbeError::badRequest(std::move(message)));
    error.where = std::move(where);
    return error;
}

/// One protocol line. Invalid UTF-8 (from a backend message) is replaced, never thrown on.
std::string dumpLine(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string describeJsonType(const json& value) {
    if (value.is_null()) {
        return "null";
    }
    if (value.is_boolean()) {
        return value.get<bool>() ? "true" : "false";
    }
    if (value.is_number()) {
        return "the number " + dumpLine(value);
    }
    if (value.is_string()) {
        std::string text = value.get<std::string>();
        if (text.size() > 40) {
            text = text.substr(0, 40) + "...";
        }
        return "the string \"" + text + "\"";
    }
    return value.is_array() ? "an array" : "an object";
}

bool isValidId(const json& id) {
    return id.is_number_integer() || id.is_string();
}

/// Reads one line of at most `maxBytes` (without the newline); a longer one is consumed and
/// dropped. A last line without a newline still counts as a line.
LineRead readLine(std::istream& in, std::size_t maxBytes) {
    LineRead read;
    std::streambuf* buffer = in.rdbuf();
    if (buffer == nullptr) {
        return read;
    }
    bool any = false;
    for (;;) {
        const int c = buffer->sbumpc();
        if (c == std::char_traits<char>::eof()) {
            if (!any) {
                read.status = LineStatus::End;
                return read;
            }
            break;
        }
        any = true;
        if (c == '\n') {
            break;
        }
        ++read.bytes;
        if (read.text.size() < maxBytes) {
            read.text.push_back(static_cast<char>(c));
        }
    }
    if (!read.text.empty() && read.text.back() == '\r' && read.bytes <= maxBytes) {
        read.text.pop_back();
    }
    read.status = read.bytes > maxBytes ? LineStatus::TooLong : LineStatus::Line;
    if (read.status == LineStatus::TooLong) {
        read.text.clear();
        read.text.shrink_to_fit();
    }
    return read;
}

bool isBlank(std::string_view text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

/// Turns a line into a Pending request: parsed, with id and op checked.
Pending parseRequestLine(const LineRead& line) {
    Pending pending;
    pending.bytes = line.text.size();
    if (line.status == LineStatus::TooLong) {
        pending.error = badRequest("the request line is " + std::to_string(line.bytes) +
                                   " bytes long; the probe reads lines of at most " +
                                   std::to_string(kMaxRequestLineBytes / (1024u * 1024u)) + " MiB");
        return pending;
    }
    if (jsonNestedDeeperThan(line.text, kMaxRequestDepth)) {
        pending.error = badRequest("the request is nested more than " +
                                   std::to_string(kMaxRequestDepth) + " levels deep");
        return pending;
    }
    json request = json::parse(line.text, nullptr, false);
    if (request.is_discarded()) {
        ParseErrorRecorder recorder;
        json::sax_parse(line.text, &recorder);
        pending.error = badRequest("the request is not valid JSON (" + recorder.message + ")");
        return pending;
    }
    if (!request.is_object()) {
        pending.error =
            badRequest("a request must be a JSON object; found " + describeJsonType(request));
        return pending;
    }
    const auto id = request.find("id");
    if (id == request.end()) {
        pending.error = badRequest("the request has no \"id\"", "/id");
        return pending;
    }
    if (!isValidId(*id)) {
        pending.error = badRequest(
            "\"id\" must be an integer or a string; found " + describeJsonType(*id), "/id");
        return pending;
    }
    pending.id = *id;
    const auto op = request.find("op");
    if (op == request.end() || !op->is_string()) {
        pending.error = badRequest(op == request.end()
                                       ? "the request has no \"op\""
                                       : "\"op\" must be a string; found " + describeJsonType(*op),
                                   "/op");
        return pending;
    }
    pending.op = op->get<std::string>();
    if (protocol::findOp(pending.op) == nullptr) {
        pending.error = badRequest(
            "unknown op \"" + pending.op + "\"; the ops are " + protocol::opNameList(), "/op");
        return pending;
    }
    pending.request = std::move(request);
    return pending;
}

/// Fields a request of `op` may carry besides id and op; anything else is a bad request, so a
/// misspelt option is never silently ignored.
std::optional<RequestError> checkFields(const json& request, const std::string& op,
                                        std::initializer_list<const char*> allowed) {
    const protocol::OpInfo* row = protocol::findOp(op);
    const bool takesDevice = row != nullptr && row->takesDevice;
    for (const auto& item : request.items()) {
        const std::string& key =
            item.key(); // not a structured binding: clang 14 cannot capture one
        if (key == "id" || key == "op") {
            continue;
        }
        if (key == "device" && takesDevice) {
            continue;
        }
        const bool known = std::any_of(allowed.begin(), allowed.end(),
                                       [&](const char* name) { return key == name; });
        if (!known) {
            return badRequest("the op \"" + op + "\" takes no field \"" + key + "\"", "/" + key);
        }
    }
    return std::nullopt;
}

RequestResult<MeasureOptions> parseOptions(const json& request) {
    MeasureOptions options;
    const auto found = request.find("options");
    if (found == request.end()) {
        return options;
    }
    if (!found->is_object()) {
        return badRequest("\"options\" must be an object; found " + describeJsonType(*found),
                          "/options");
    }
    for (const auto& [key, value] : found->items()) {
        const std::string where = "/options/" + key;
        bool* flag = key == "counters"  ? &options.counters
                     : key == "latency" ? &options.latency
                     : key == "grid"    ? &options.grid
                                        : nullptr;
        if (flag != nullptr) {
            if (!value.is_boolean()) {
                return badRequest("\"" + key + "\" must be true or false; found " +
                                      describeJsonType(value),
                                  where);
            }
            *flag = value.get<bool>();
        } else if (key == "repetitions") {
            if (!value.is_number_integer() || value.get<std::int64_t>() < 1 ||
                value.get<std::int64_t>() > kMaxRepetitions) {
                return badRequest("\"repetitions\" must be an integer from 1 to " +
                                      std::to_string(kMaxRepetitions) + "; found " +
                                      describeJsonType(value),
                                  where);
            }
            options.repetitions = static_cast<int>(value.get<std::int64_t>());
        } else if (key == "counterNames") {
            auto names = counterNamesOption(value, where);
            if (auto* error = std::get_if<RequestError>(&names)) {
                return *error;
            }
            options.counterNames = std::move(std::get<std::vector<std::string>>(names));
        } else {
            return badRequest("unknown option \"" + key +
                                  "\"; the options are counters, counterNames, latency, grid and "
                                  "repetitions",
                              where);
        }
    }
    return options;
}

/// The pattern field of measure and kernel_source.
RequestResult<ResolvedPattern> patternField(const json& request) {
    const auto found = request.find("pattern");
    if (found == request.end()) {
        return badRequest("the request has no \"pattern\"", "/pattern");
    }
    return resolvePatternJson(*found, "/pattern");
}

RequestError gridNeedsExpression(const std::string& where) {
    return badRequest("\"grid\" needs a pattern written as an address expression (with a "
                      "\"source\"); this one lists its 32 addresses",
                      where);
}

json okResponse(const json& id, json result) {
    return json{{"id", id}, {"ok", true}, {"result", std::move(result)}};
}

json errorResponse(const json& id, const RequestError& error) {
    return json{{"id", id}, {"ok", false}, {"error", toJson(error)}};
}

} // namespace warpscope::probe::detail
