// The command lines' shared printing helpers (command_line_text.h).
#include "warpscope/command_line_text.h"

#include <algorithm>

namespace warpscope {

namespace {

void appendEscape(std::string& out, const char* prefix, unsigned value) {
    static const char digits[] = "0123456789abcdef";
    out += prefix;
    if (prefix[1] == 'u') {
        out += "00";
    }
    out += digits[(value >> 4) & 15];
    out += digits[value & 15];
}

/// The length of the valid UTF-8 sequence at text[i], or 0 when it is not one.
std::size_t utf8Length(std::string_view text, std::size_t i) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    unsigned minimum = 0;
    unsigned code = 0;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        minimum = 0x80;
        code = lead & 0x1fu;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        minimum = 0x800;
        code = lead & 0x0fu;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        minimum = 0x10000;
        code = lead & 0x07u;
    } else {
        return 0;
    }
    if (i + length > text.size()) {
        return 0;
    }
    for (std::size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xc0u) != 0x80u) {
            return 0;
        }
        code = code << 6 | (next & 0x3fu);
    }
    if (code < minimum || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return 0;
    }
    return length;
}

} // namespace

std::string terminalText(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            if (byte < 0x20 || byte == 0x7f) {
                appendEscape(out, "\\x", byte);
            } else {
                out += static_cast<char>(byte);
            }
            ++i;
            continue;
        }
        const std::size_t length = utf8Length(text, i);
        if (length == 0) {
            appendEscape(out, "\\x", byte);
            ++i;
            continue;
        }
        const auto second = static_cast<unsigned char>(text[i + 1]);
        if (length == 2 && byte == 0xc2 && second < 0xa0) { // U+0080 to U+009F: C1 controls
            appendEscape(out, "\\u", second);
        } else {
            out.append(text.substr(i, length));
        }
        i += length;
    }
    return out;
}

void writeCommandError(std::ostream& out, std::string_view program, std::string_view message) {
    out << program << ": " << terminalText(message) << "\n";
}

void writeUsageError(std::ostream& out, std::string_view program, std::string_view message) {
    writeCommandError(out, program, message);
    out << "Run '" << program << " --help' for the commands and options.\n";
}

std::string describeAccessKind(const AccessKind& kind) {
    std::string text = std::string(toString(kind.space)) + " " + toString(kind.op) + ", " +
                       std::to_string(kind.widthBytes) + "-byte elements";
    if (kind.space == MemorySpace::Global && kind.op == AccessOp::Load) {
        text += ", cache " + std::string(toString(kind.cache));
    }
    return text;
}

std::string caretPadding(std::string_view text, int column) {
    std::string padding;
    const auto before = static_cast<std::size_t>(std::max(column, 1)) - 1;
    for (std::size_t i = 0; i < before && i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\t') {
            padding += '\t';
        } else if ((byte & 0xC0) != 0x80) {
            padding += ' ';
        }
    }
    return padding;
}

} // namespace warpscope
