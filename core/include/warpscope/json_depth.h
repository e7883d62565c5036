// JsonDepthScanner: the nesting depth of a JSON text, followed byte by byte outside its strings.
// The file reader (file_format.cpp) and the probe's request reader (probe_protocol.cpp) run it
// before any JSON parser sees the text, so a deeply nested text is refused with a message instead
// of exhausting the parser's stack.
#pragma once

#include <cstddef>
#include <string_view>

namespace warpscope {

class JsonDepthScanner {
public:
    explicit JsonDepthScanner(std::size_t limit) : m_limit(limit) {}

    /// Take the next byte of the text. Of a multi-byte UTF-8 sequence, passing the first byte is
    /// enough: none of its bytes is a bracket, a quote or a backslash. False when `c` opens a
    /// level deeper than the limit.
    bool step(char c) {
        if (m_inString) {
            if (m_escaped) {
                m_escaped = false;
            } else if (c == '\\') {
                m_escaped = true;
            } else if (c == '"') {
                m_inString = false;
            }
        } else if (c == '"') {
            m_inString = true;
        } else if (c == '[' || c == '{') {
            return ++m_depth <= m_limit;
        } else if ((c == ']' || c == '}') && m_depth > 0) {
            --m_depth;
        }
        return true;
    }

private:
    std::size_t m_limit;
    std::size_t m_depth = 0;
    bool m_inString = false;
    bool m_escaped = false;
};

/// Whether `text` nests deeper than `limit` levels of arrays and objects (stops at the first
/// bracket past the limit).
inline bool jsonNestedDeeperThan(std::string_view text, std::size_t limit) {
    JsonDepthScanner scanner(limit);
    for (const char c : text) {
        if (!scanner.step(c)) {
            return true;
        }
    }
    return false;
}

} // namespace warpscope
