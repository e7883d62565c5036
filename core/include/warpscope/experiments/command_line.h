// An experiment's command line (`warpscope-probe NAME [options]`, `warpscope-probe experiment
// NAME`), declared by the experiment beside its options: the usage paragraph, how "--name value"
// becomes a field of the request's options, and the text report of an answer. Plain text in and
// out; the probe's command line prints it and runs the request. Also the readers of sizes and
// lists every experiment's options share.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::experiments {

/// How a run's progress is told on stderr: "measured N of M <unit>", at every tenth of the way
/// and at the end, or at every step.
struct ExperimentProgress {
    std::string_view unit = "points";
    bool everyStep = false;
};

struct ExperimentCommandLine {
    /// The command's line in the usage's list, after "warpscope-probe NAME [options]".
    std::string_view synopsis;
    /// The paragraph --help prints for it (ends with a line break).
    std::string_view usage;
    /// Reads one "--name value" into the request's `options`: "" when read, else the message
    /// (a bad value, or a name the command does not take).
    std::string (*readOption)(const std::string& name, const std::string& value,
                              nlohmann::json& options) = nullptr;
    /// Reads an option that takes no value; false when `name` is none. May be null (every option
    /// takes a value).
    bool (*readFlag)(const std::string& name, nlohmann::json& options) = nullptr;
    /// The answer (the op's result object) as text for a person.
    std::string (*report)(const nlohmann::json& answer) = nullptr;
    ExperimentProgress progress;
};

/// "a,b,c" -> {"a", "b", "c"}.
std::vector<std::string> splitOptionList(const std::string& text);

/// "4096", "4K", "4KiB", "256M", "1G" -> bytes; -1 when not a size.
long long parseOptionByteSize(const std::string& text);

/// "12.3": `value` with a fixed number of decimals, for the text reports.
std::string fixedDecimals(double value, int decimals);

/// `text` padded to `width` display columns (a UTF-8 character is one column); `right` puts the
/// padding in front.
std::string padColumns(const std::string& text, std::size_t width, bool right = false);

} // namespace warpscope::experiments
