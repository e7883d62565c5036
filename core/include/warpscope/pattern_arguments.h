// The pattern on a command line, shared by warpscope-cli (analyze) and warpscope-probe (run) so
// both read it the same way: the argument names a preset, a pattern file or an address
// expression, and the options --width --op --space --cache --param --block --warp --active
// change it.
#pragma once

#include "warpscope/file_format.h"
#include "warpscope/pattern.h"
#include "warpscope/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope {

struct PatternArguments {
    std::optional<int> width;
    std::optional<AccessOp> op;
    std::optional<MemorySpace> space;
    std::optional<CachePath> cache;
    std::vector<std::pair<std::string, std::int64_t>> parameters; // --param NAME=VALUE
    std::optional<Dim3> block;
    std::optional<std::int64_t> warp;
    std::optional<std::string> active;

    /// True when an option changes the address expression (so it needs one).
    bool changesSource() const;
};

/// Whether `option` ("--width", ...) is one of the pattern options; each takes a value.
bool isPatternOption(std::string_view option);

/// Parses `value` for the pattern option `option` into `arguments`; the error says what the
/// option takes ("the option --width takes 1, 2, 4, 8 or 16, not '3'").
std::optional<Error> parsePatternOption(std::string_view option, std::string_view value,
                                        PatternArguments& arguments);

/// A decimal integer with an optional sign, nothing else.
std::optional<std::int64_t> parseInt64(std::string_view text);

enum class PatternOrigin { Preset, File, Expression };

struct PatternSubject {
    PatternOrigin origin = PatternOrigin::Expression;
    NamedPattern named;
    std::string presetSource; // where a preset comes from ("seed 002, figure 4-11")
};

/// The pattern `argument` names: a preset id, else an existing pattern file, else an address
/// expression (a 4-byte global load until options say otherwise). A file that cannot be read
/// or parsed is an error naming it.
Result<PatternSubject> patternSubject(const std::string& argument);

/// Applies the options to the pattern. --param on an unknown name declares it (its range spans
/// 0 and the value); options that change the expression are an error for a pattern that lists
/// its 32 addresses.
std::optional<Error> applyPatternArguments(const PatternArguments& arguments,
                                           std::string_view argumentText, NamedPattern& named);

} // namespace warpscope
