// Parsing the options of analyze and predict (pattern_options.h).
#include "pattern_options.h"

#include "cli_common.h"

#include <optional>

namespace warpscope::cli {

bool parseOptions(const std::vector<std::string>& args, bool allowPatternOptions,
                  Options& options) {
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (optionsEnded || arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
            options.positional.push_back(arg);
            continue;
        }
        if (arg == "--") {
            optionsEnded = true;
            continue;
        }
        std::optional<std::string> inlineValue;
        if (const std::size_t eq = arg.find('='); eq != std::string::npos) {
            inlineValue = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        const auto value = [&]() -> std::optional<std::string> {
            if (inlineValue) {
                return inlineValue;
            }
            if (i + 1 >= args.size()) {
                usageError("the option " + arg + " needs a value");
                return std::nullopt;
            }
            return args[++i];
        };
        const auto fail = [](const std::string& message) {
            usageError(message);
            return false;
        };
        const auto bad = [&](const std::string& text, const std::string& expected) {
            return fail("the option " + arg + " takes " + expected + ", not '" + text + "'");
        };

        if (arg == "--bank-mode" || arg == "--textbook-bank-mode") {
            auto text = value();
            if (!text) {
                return false;
            }
            if (*text == "4") {
                options.textbook.bankMode = SharedBankMode::FourByte;
            } else if (*text == "8") {
                options.textbook.bankMode = SharedBankMode::EightByte;
            } else {
                return bad(*text, "4 or 8");
            }
            continue;
        }
        if (arg == "--uncached" || arg == "--textbook-uncached-default") {
            if (inlineValue) {
                return fail("the option " + arg + " takes no value");
            }
            options.textbook.defaultLoadsCached = false;
            continue;
        }
        if (!allowPatternOptions) {
            return fail("unknown option '" + arg + "' for predict");
        }

        if (isPatternOption(arg)) {
            auto text = value();
            if (!text) {
                return false;
            }
            if (auto error = parsePatternOption(arg, *text, options.pattern)) {
                return fail(error->message);
            }
            continue;
        }
        if (arg == "--model") {
            auto text = value();
            if (!text) {
                return false;
            }
            if (*text != "modern" && *text != "textbook" && *text != "both") {
                return bad(*text, "modern, textbook or both");
            }
            options.model = *text;
        } else {
            return fail("unknown option '" + arg + "'");
        }
    }
    return true;
}

} // namespace warpscope::cli
