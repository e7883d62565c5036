// nvdisasm's listing (or cuobjdump -sass's), read line by line: ".text.NAME:" (or
// "Function : NAME") opens a function, "//## File "F", line N"
// sets the source position of the instructions after it, and "/*OFFSET*/ TEXT ;" is one
// instruction.
#include "sass_listing.h"

#include <cstdlib>

namespace warpscope::trace {

namespace {

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return text;
}

} // namespace

std::map<std::uint64_t, SassInstruction> parseSassListing(std::string_view listing,
                                                          std::string_view function) {
    std::map<std::uint64_t, SassInstruction> instructions;
    const std::string label = ".text." + std::string(function) + ":";
    bool inFunction = false;
    std::string file;
    std::int64_t line = 0;
    while (!listing.empty()) {
        const std::size_t end = listing.find('\n');
        std::string_view row = trim(listing.substr(0, end));
        listing.remove_prefix(end == std::string_view::npos ? listing.size() : end + 1);
        if (row.rfind(".text.", 0) == 0 && !row.empty() && row.back() == ':') {
            inFunction = row == label;
            file.clear();
            line = 0;
            continue;
        }
        if (row.rfind("Function : ", 0) == 0) { // cuobjdump -sass
            inFunction = row.substr(11) == function;
            file.clear();
            line = 0;
            continue;
        }
        if (!inFunction) {
            continue;
        }
        if (row.rfind("//## File \"", 0) == 0) {
            const std::size_t close = row.find('"', 11);
            const std::size_t lineAt =
                row.find(", line ", close == std::string_view::npos ? 0 : close);
            if (close != std::string_view::npos && lineAt != std::string_view::npos) {
                file = std::string(row.substr(11, close - 11));
                line = std::strtoll(std::string(row.substr(lineAt + 7)).c_str(), nullptr, 10);
            }
            continue;
        }
        if (row.rfind("/*", 0) != 0) {
            continue;
        }
        const std::size_t closeComment = row.find("*/");
        if (closeComment == std::string_view::npos) {
            continue;
        }
        char* parsedEnd = nullptr;
        const std::string offsetText(row.substr(2, closeComment - 2));
        const std::uint64_t offset = std::strtoull(offsetText.c_str(), &parsedEnd, 16);
        if (parsedEnd == offsetText.c_str() || *parsedEnd != '\0') {
            continue;
        }
        std::string_view text = row.substr(closeComment + 2);
        if (const std::size_t semicolon = text.find(';'); semicolon != std::string_view::npos) {
            text = text.substr(0, semicolon);
        }
        instructions[offset] = SassInstruction{std::string(trim(text)), file, line};
    }
    return instructions;
}

} // namespace warpscope::trace
