// Command-line pattern options shared by warpscope-cli and warpscope-probe.
#include "warpscope/pattern_arguments.h"

#include "warpscope/preset.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace warpscope {

namespace {

Error badValue(std::string_view option, std::string_view value, const char* expected) {
    return Error{ErrorCode::InvalidValue,
                 "the option " + std::string(option) + " takes " + expected + ", not '" +
                     std::string(value) + "'",
                 0, std::string(option)};
}

} // namespace

bool PatternArguments::changesSource() const {
    return !parameters.empty() || block || warp || active;
}

bool isPatternOption(std::string_view option) {
    for (std::string_view name :
         {"--width", "--op", "--space", "--cache", "--param", "--block", "--warp", "--active"}) {
        if (option == name) {
            return true;
        }
    }
    return false;
}

std::optional<std::int64_t> parseInt64(std::string_view text) {
    std::int64_t value = 0;
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
    }
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

std::optional<Error> parsePatternOption(std::string_view option, std::string_view value,
                                        PatternArguments& arguments) {
    if (option == "--width") {
        const auto width = parseInt64(value);
        if (!width || *width > 16 || !isValidWidth(static_cast<int>(*width))) {
            return badValue(option, value, "1, 2, 4, 8 or 16");
        }
        arguments.width = static_cast<int>(*width);
    } else if (option == "--op") {
        arguments.op = accessOpFromString(value);
        if (!arguments.op) {
            return badValue(option, value, "load or store");
        }
    } else if (option == "--space") {
        arguments.space = memorySpaceFromString(value);
        if (!arguments.space) {
            return badValue(option, value, "global, shared, constant, local or texture");
        }
    } else if (option == "--cache") {
        arguments.cache = cachePathFromString(value);
        if (!arguments.cache) {
            return badValue(option, value, "default, ca, cg or nc");
        }
    } else if (option == "--param") {
        const std::size_t eq = value.find('=');
        const auto number =
            eq == std::string_view::npos ? std::nullopt : parseInt64(value.substr(eq + 1));
        if (!number || eq == 0) {
            return badValue(option, value, "NAME=VALUE with an integer value");
        }
        arguments.parameters.emplace_back(std::string(value.substr(0, eq)), *number);
    } else if (option == "--block") {
        std::vector<std::int64_t> dims;
        std::string_view rest = value;
        bool ok = true;
        while (ok) {
            const std::size_t comma = rest.find(',');
            const auto number = parseInt64(rest.substr(0, comma));
            ok = number.has_value() && dims.size() < 3;
            if (ok) {
                dims.push_back(*number);
            }
            if (comma == std::string_view::npos) {
                break;
            }
            rest.remove_prefix(comma + 1);
        }
        if (!ok || dims.empty()) {
            return badValue(option, value, "X, X,Y or X,Y,Z");
        }
        dims.resize(3, 1);
        arguments.block = Dim3{dims[0], dims[1], dims[2]};
    } else if (option == "--warp") {
        arguments.warp = parseInt64(value);
        if (!arguments.warp) {
            return badValue(option, value, "an integer");
        }
    } else if (option == "--active") {
        arguments.active = std::string(value);
    } else {
        return Error{ErrorCode::InvalidValue,
                     "'" + std::string(option) + "' is not a pattern option", 0,
                     std::string(option)};
    }
    return std::nullopt;
}

Result<PatternSubject> patternSubject(const std::string& argument) {
    PatternSubject subject;
    if (const Preset* preset = findPreset(argument)) {
        subject.origin = PatternOrigin::Preset;
        subject.named = NamedPattern{preset->title, preset->caption, preset->pattern};
        subject.presetSource = preset->source;
        return subject;
    }
    std::error_code ec;
    // Anything that exists goes to the opener, which refuses a FIFO, a device or a directory
    // with a message instead of reading it as an expression.
    if (std::filesystem::exists(argument, ec)) {
        subject.origin = PatternOrigin::File;
        auto text = readTextFile(argument);
        if (!text) {
            return text.error();
        }
        auto named = patternFromJsonText(text.value());
        if (!named) {
            Error error = named.error();
            error.where = argument + (error.where.empty() ? "" : ", " + error.where);
            return error;
        }
        subject.named = std::move(named).value();
        return subject;
    }
    subject.origin = PatternOrigin::Expression;
    PatternSource source;
    source.addressExpression = argument;
    subject.named.title = argument;
    subject.named.pattern.source = source;
    return subject;
}

std::optional<Error> applyPatternArguments(const PatternArguments& arguments,
                                           std::string_view argumentText, NamedPattern& named) {
    Pattern& pattern = named.pattern;
    if (arguments.width) {
        pattern.kind.widthBytes = *arguments.width;
    }
    if (arguments.op) {
        pattern.kind.op = *arguments.op;
    }
    if (arguments.space) {
        pattern.kind.space = *arguments.space;
    }
    if (arguments.cache) {
        pattern.kind.cache = *arguments.cache;
    }
    if (!arguments.changesSource()) {
        return std::nullopt;
    }
    if (!pattern.source) {
        return Error{ErrorCode::InvalidValue,
                     "'" + std::string(argumentText) +
                         "' lists its 32 addresses, so --param, --block, --warp and --active do "
                         "not apply to it (they change an address expression)",
                     0,
                     {}};
    }
    PatternSource& source = *pattern.source;
    for (const auto& [name, value] : arguments.parameters) {
        // Compared through a plain reference: clang 14 (Debian 12) cannot capture a structured
        // binding in a lambda.
        const std::string& wanted = name;
        auto it = std::find_if(source.parameters.begin(), source.parameters.end(),
                               [&](const Parameter& p) { return p.name == wanted; });
        if (it == source.parameters.end()) {
            source.parameters.push_back(Parameter{name, value, value,
                                                  std::min<std::int64_t>(0, value),
                                                  std::max<std::int64_t>(0, value)});
        } else {
            it->value = value;
            it->minimum = std::min(it->minimum, value);
            it->maximum = std::max(it->maximum, value);
        }
    }
    if (arguments.block) {
        source.blockDim = *arguments.block;
    }
    if (arguments.warp) {
        source.warpIndex = *arguments.warp;
    }
    if (arguments.active) {
        source.activeExpression = *arguments.active;
    }
    return std::nullopt;
}

} // namespace warpscope
