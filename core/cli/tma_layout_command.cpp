// warpscope-cli tma-layout --swizzle MODE --box INNERxROWS --element-bytes N [--smem-offset N]
// prints {"chunks": [[row, byte], ...]}: for each 16-byte chunk of shared memory from the
// destination address to the last chunk the load writes, in address order, the box row and the
// byte offset in that row of the data it holds (null for a chunk the load leaves untouched).
#include "tma_layout_command.h"

#include "cli_common.h"

#include "warpscope/command_line_text.h"
#include "warpscope/tma_layout.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string_view>

namespace warpscope::cli {

namespace {

constexpr const char* kProgram = "warpscope-cli";

int tmaLayoutUsageError(const std::string& message) {
    writeUsageError(std::cerr, kProgram, "tma-layout: " + message);
    return kExitBadInput;
}

/// A whole decimal integer, or nullopt.
std::optional<std::int64_t> parseInteger(std::string_view text) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty()) {
        return std::nullopt;
    }
    return value;
}

/// The option a field of TmaTileLoad is given by.
std::string optionFor(const std::string& field) {
    if (field == "elementBytes") {
        return "--element-bytes";
    }
    if (field == "smemOffset") {
        return "--smem-offset";
    }
    return "--" + field; // box, swizzle
}

} // namespace

int runTmaLayout(const std::vector<std::string>& args) {
    TmaTileLoad load;
    bool haveSwizzle = false;
    bool haveBox = false;
    bool haveElementBytes = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& option = args[i];
        if (option != "--swizzle" && option != "--box" && option != "--element-bytes" &&
            option != "--smem-offset") {
            return tmaLayoutUsageError("unknown argument '" + option +
                                       "'; the options are --swizzle, --box, --element-bytes and "
                                       "--smem-offset");
        }
        if (i + 1 >= args.size()) {
            return tmaLayoutUsageError("the option " + option + " needs a value");
        }
        const std::string& value = args[++i];
        if (option == "--swizzle") {
            auto swizzle = parseTmaSwizzle(value);
            if (!swizzle) {
                return tmaLayoutUsageError(
                    "--swizzle: '" + value +
                    "' is not a swizzle mode; the modes are none, 32B, 64B and "
                    "128B");
            }
            load.swizzle = *swizzle;
            haveSwizzle = true;
        } else if (option == "--box") {
            const std::size_t x = value.find('x');
            const auto inner = x == std::string::npos
                                   ? std::nullopt
                                   : parseInteger(std::string_view(value).substr(0, x));
            const auto rows = x == std::string::npos
                                  ? std::nullopt
                                  : parseInteger(std::string_view(value).substr(x + 1));
            if (!inner || !rows || *inner < 1 || *inner > 256 || *rows < 1 || *rows > 256) {
                return tmaLayoutUsageError("--box: '" + value +
                                           "' is not INNERxROWS with each from 1 to 256 (the box "
                                           "dimensions of cuTensorMapEncodeTiled), e.g. 64x16");
            }
            load.boxInnerElements = static_cast<int>(*inner);
            load.boxRows = static_cast<int>(*rows);
            haveBox = true;
        } else if (option == "--element-bytes") {
            const auto bytes = parseInteger(value);
            if (!bytes || *bytes < 1 || *bytes > 8) {
                return tmaLayoutUsageError("--element-bytes: '" + value +
                                           "' is not a TMA element size: 1, 2, 4 or 8");
            }
            load.elementBytes = static_cast<int>(*bytes);
            haveElementBytes = true;
        } else {
            const auto offset = parseInteger(value);
            if (!offset || *offset < 0) {
                return tmaLayoutUsageError(
                    "--smem-offset: '" + value +
                    "' is not a shared-memory address (a byte count, 0 or more, a "
                    "multiple of 128)");
            }
            load.smemOffset = *offset;
        }
    }
    if (!haveSwizzle || !haveBox || !haveElementBytes) {
        return tmaLayoutUsageError(
            "needs --swizzle none|32B|64B|128B, --box INNERxROWS and "
            "--element-bytes N, e.g. --swizzle 128B --box 64x16 --element-bytes 2");
    }
    auto layout = layTmaTile(load);
    if (!layout) {
        const Error& error = layout.error();
        writeCommandError(std::cerr, kProgram,
                          "tma-layout: " + optionFor(error.where) + ": " + error.message);
        return kExitBadInput;
    }
    nlohmann::json chunks = nlohmann::json::array();
    for (const auto& chunk : layout->chunks) {
        if (chunk) {
            chunks.push_back({chunk->row, chunk->byteInRow});
        } else {
            chunks.push_back(nullptr);
        }
    }
    nlohmann::json out;
    out["chunks"] = std::move(chunks);
    std::cout << out.dump() << "\n";
    return kExitOk;
}

} // namespace warpscope::cli
