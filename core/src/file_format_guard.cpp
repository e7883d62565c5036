// The guarded JSON reader behind every file warpscope opens (docs/file-formats.md), in the first
// two of its three steps, so that no input can crash the program or make it allocate without bound:
//   1. a byte scan: size limit, UTF-8 check and nesting-depth limit, each error with line/column;
//   2. nlohmann's SAX parser into a bounded DOM builder (no exceptions; duplicate keys and
//      over-long strings refused; syntax errors keep their line and column).
// The third step, the field-by-field reading, is in file_format_read.cpp.
#include "json_fields.h"
#include "json_guard.h"
#include "warpscope/file_format.h"
#include "warpscope/file_open.h"
#include "warpscope/json_depth.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpscope {

namespace {

using json = nlohmann::json;

constexpr std::size_t kMaxDepth = 64;
constexpr std::size_t kMaxStringBytes = 64u * 1024u;

using detail::escapePointerToken;
using detail::fileError;

std::string lineColumn(std::size_t line, std::size_t column) {
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// 1-based line and byte column of the byte at `offset` (clamped to the text).
std::pair<std::size_t, std::size_t> lineColumnOf(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return {line, offset - lineStart + 1};
}

// ---- Step 1: the byte scan -----------------------------------------------------------------

/// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not valid
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) {
        return 1;
    }
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        length = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        length = 3;
        if (b0 == 0xE0) {
            low = 0xA0; // overlong
        } else if (b0 == 0xED) {
            high = 0x9F; // surrogates
        }
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        length = 4;
        if (b0 == 0xF0) {
            low = 0x90; // overlong
        } else if (b0 == 0xF4) {
            high = 0x8F; // above U+10FFFF
        }
    } else {
        return 0;
    }
    if (i + length > text.size()) {
        return 0;
    }
    const unsigned char b1 = byte(i + 1);
    if (b1 < low || b1 > high) {
        return 0;
    }
    for (std::size_t k = 2; k < length; ++k) {
        const unsigned char b = byte(i + k);
        if (b < 0x80 || b > 0xBF) {
            return 0;
        }
    }
    return length;
}

/// Refuses what must never reach the JSON parser: too many bytes, text that is not UTF-8, and
/// nesting deeper than kMaxDepth.
std::optional<Error> scanText(std::string_view text) {
    if (text.size() > maxFileBytes()) {
        return fileError("the text is " + std::to_string(text.size()) +
                             " bytes; warpscope reads files of at most " +
                             std::to_string(maxFileBytes() / (1024u * 1024u)) +
                             " MiB (WARPSCOPE_MAX_FILE_MIB raises the cap)",
                         "");
    }
    JsonDepthScanner depth(kMaxDepth);
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8SequenceLength(text, i);
        if (length == 0) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[i]));
            const std::string place = lineColumn(line, i - lineStart + 1);
            return fileError("the text is not valid UTF-8 (byte " + std::string(hex) + ")", place);
        }
        const char c = text[i];
        if (!depth.step(c)) {
            const std::string place = lineColumn(line, i - lineStart + 1);
            return fileError("the JSON is nested more than " + std::to_string(kMaxDepth) +
                                 " levels deep",
                             place);
        }
        if (c == '\n') {
            ++line;
            lineStart = i + 1;
        }
        i += length;
    }
    return std::nullopt;
}

// ---- Step 2: the bounded DOM builder -------------------------------------------------------

/// A SAX handler building a nlohmann::json like nlohmann's own DOM parser, but which refuses
/// duplicate keys, over-long strings and too deep nesting, and never throws.
class BoundedDomBuilder {
public:
    BoundedDomBuilder(json& root, std::string_view text) : m_root(root), m_text(text) {}

    bool null() { return addValue(json(nullptr)); }
    bool boolean(bool value) { return addValue(json(value)); }
    bool number_integer(json::number_integer_t value) { return addValue(json(value)); }
    bool number_unsigned(json::number_unsigned_t value) { return addValue(json(value)); }
    bool number_float(json::number_float_t value, const json::string_t& /*text*/) {
        return addValue(json(value));
    }
    bool string(json::string_t& value) {
        if (value.size() > kMaxStringBytes) {
            return fail("a string of " + std::to_string(value.size()) +
                            " bytes is longer than the 64 KiB allowed",
                        childPointer());
        }
        return addValue(json(std::move(value)));
    }
    bool binary(json::binary_t& /*value*/) {
        return fail("binary values are not JSON", childPointer()); // unreachable for JSON input
    }
    bool start_object(std::size_t /*elements*/) { return open(json::value_t::object); }
    bool start_array(std::size_t /*elements*/) { return open(json::value_t::array); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& value) {
        const std::string where = containerPointer() + "/" + escapePointerToken(value);
        if (value.size() > kMaxStringBytes) {
            return fail("a key of " + std::to_string(value.size()) +
                            " bytes is longer than the 64 KiB allowed",
                        containerPointer());
        }
        if (m_stack.back()->contains(value)) {
            // nlohmann would silently keep the last one; a file meaning two things is refused.
            return fail("the key \"" + value + "\" appears twice in the same object", where);
        }
        m_key = std::move(value);
        return true;
    }
    bool parse_error(std::size_t position, const std::string& lastToken,
                     const nlohmann::detail::exception& exception) {
        // `position` counts the bytes read, so the offending byte is the one before it.
        std::size_t offset = position > 0 ? position - 1 : 0;
        if (exception.id == 406) {
            // out_of_range.406: a number such as 1e400 that no double holds. Point at its start.
            offset = position >= lastToken.size() ? position - lastToken.size() : 0;
            const auto [line, column] = lineColumnOf(m_text, offset);
            const std::string place = lineColumn(line, column);
            return fail("the number " + lastToken + " is too large to represent", place);
        }
        // nlohmann's message reads "[json.exception.parse_error.101] parse error at line L,
        // column C: what"; keep only "what" and put our own line and column on it.
        std::string what = exception.what();
        if (const std::size_t colon = what.find(": "); colon != std::string::npos) {
            what = what.substr(colon + 2);
        } else if (const std::size_t bracket = what.find("] "); bracket != std::string::npos) {
            what = what.substr(bracket + 2);
        }
        const auto [line, column] = lineColumnOf(m_text, offset);
        const std::string place = lineColumn(line, column);
        return fail("the text is not valid JSON: " + what, place);
    }

    const std::optional<Error>& error() const { return m_error; }

private:
    bool fail(std::string message, std::string where) {
        if (!m_error) {
            m_error = fileError(std::move(message), std::move(where));
        }
        return false;
    }

    std::string containerPointer() const {
        std::string pointer;
        for (const std::string& token : m_tokens) {
            // Appended in two steps: "/" + token builds a temporary that GCC 12 at -O2 wrongly
            // reports as an overlapping memcpy (-Wrestrict).
            pointer += '/';
            pointer += escapePointerToken(token);
        }
        return pointer;
    }

    /// Pointer of the value about to be added.
    std::string childPointer() const {
        if (m_stack.empty()) {
            return "";
        }
        const json& parent = *m_stack.back();
        return containerPointer() + "/" +
               (parent.is_array() ? std::to_string(parent.size()) : escapePointerToken(m_key));
    }

    json* place(json value) {
        if (m_stack.empty()) {
            m_root = std::move(value);
            return &m_root;
        }
        json& parent = *m_stack.back();
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        json& slot = parent[m_key];
        slot = std::move(value);
        return &slot;
    }

    bool addValue(json value) {
        place(std::move(value));
        return true;
    }

    bool open(json::value_t type) {
        if (m_stack.size() >= kMaxDepth) {
            // The byte scan already refuses this; kept so the builder is safe on its own.
            return fail("the JSON is nested more than " + std::to_string(kMaxDepth) +
                            " levels deep",
                        containerPointer());
        }
        std::string token;
        if (!m_stack.empty()) {
            const json& parent = *m_stack.back();
            token = parent.is_array() ? std::to_string(parent.size()) : m_key;
        }
        json* container = place(json(type));
        if (!m_stack.empty()) {
            m_tokens.push_back(std::move(token));
        }
        m_stack.push_back(container);
        return true;
    }

    bool close() {
        m_stack.pop_back();
        if (!m_tokens.empty() && m_stack.size() == m_tokens.size()) {
            m_tokens.pop_back();
        }
        return true;
    }

    json& m_root;
    std::string_view m_text;
    std::vector<json*> m_stack;
    std::vector<std::string> m_tokens; // one per open container below the root
    std::string m_key;
    std::optional<Error> m_error;
};

Result<json> parseJson(std::string_view text) {
    if (auto error = scanText(text)) {
        return *error;
    }
    json root;
    BoundedDomBuilder builder(root, text);
    const bool ok = json::sax_parse(text.data(), text.data() + text.size(), &builder);
    if (builder.error()) {
        return *builder.error();
    }
    if (!ok) {
        return fileError("the text is not valid JSON", "");
    }
    return root;
}

} // namespace

namespace detail {

Result<nlohmann::json> parseGuardedJson(std::string_view text) {
    return parseJson(text);
}

} // namespace detail

} // namespace warpscope
