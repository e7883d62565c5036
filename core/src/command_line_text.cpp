// The command lines' shared printing helpers (command_line_text.h).
#include "warpscope/command_line_text.h"

#include <algorithm>

namespace warpscope {

void writeCommandError(std::ostream& out, std::string_view program, std::string_view message) {
    out << program << ": " << message << "\n";
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
