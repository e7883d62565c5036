// The kernel commands' options and shared steps (kernel_options.h).
#include "kernel_options.h"

#include "cli_common.h"

#include <algorithm>
#include <charconv>
#include <system_error>

namespace warpscope::cli {

bool parseKernelOptions(const std::vector<std::string>& args, const std::string& command,
                        bool allowPreset, KernelOptions& options) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
            options.positional.push_back(arg);
            continue;
        }
        std::optional<std::string> value;
        if (const std::size_t eq = arg.find('='); eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        if (arg == "--progress" && command == "analyze-kernel") {
            if (value) {
                usageError("the option --progress takes no value");
                return false;
            }
            options.progress = true;
            continue;
        }
        if (arg != "--param" && !(allowPreset && arg == "--preset")) {
            usageError("unknown option '" + arg + "' for " + command);
            return false;
        }
        if (!value) {
            if (i + 1 >= args.size()) {
                usageError("the option " + arg + " needs a value");
                return false;
            }
            value = args[++i];
        }
        if (arg == "--preset") {
            options.preset = *value;
            continue;
        }
        const std::size_t eq = value->find('=');
        std::int64_t number = 0;
        const char* first = value->data() + (eq == std::string::npos ? 0 : eq + 1);
        const char* last = value->data() + value->size();
        const auto parsed = std::from_chars(first, last, number);
        if (eq == std::string::npos || eq == 0 || parsed.ec != std::errc() || parsed.ptr != last) {
            usageError("the option --param takes NAME=VALUE with an integer value, not '" + *value +
                       "'");
            return false;
        }
        options.parameters.emplace_back(value->substr(0, eq), number);
    }
    return true;
}

std::optional<Error> applyParameters(Kernel& kernel, const KernelOptions& options) {
    for (const auto& setting : options.parameters) {
        const std::string& name = setting.first;
        const std::int64_t value = setting.second;
        auto it = std::find_if(kernel.parameters.begin(), kernel.parameters.end(),
                               [&](const Parameter& p) { return p.name == name; });
        if (it == kernel.parameters.end()) {
            std::string known;
            for (const Parameter& p : kernel.parameters) {
                known += (known.empty() ? "" : ", ") + p.name;
            }
            return Error{ErrorCode::InvalidValue,
                         "the kernel has no parameter '" + name +
                             "' (it has: " + (known.empty() ? "none" : known) + ")",
                         0, "--param"};
        }
        it->value = value;
    }
    return std::nullopt;
}

Result<GridPrediction> predictKernel(const Kernel& kernel, ResolvedKernel& resolved) {
    auto r = resolveKernel(kernel);
    if (!r) {
        return r.error();
    }
    resolved = std::move(r).value();
    return predictGrid(resolved);
}

} // namespace warpscope::cli
