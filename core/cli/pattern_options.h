// The options of warpscope-cli's pattern commands, analyze and predict.
#pragma once

#include "warpscope/model.h"
#include "warpscope/pattern_arguments.h"

#include <string>
#include <vector>

namespace warpscope::cli {

/// The options of analyze and predict, as given.
struct Options {
    std::vector<std::string> positional;
    PatternArguments pattern;
    std::string model = "both";
    TextbookOptions textbook;
};

/// Parses options; on a mistake prints it and returns false.
bool parseOptions(const std::vector<std::string>& args, bool allowPatternOptions, Options& options);

} // namespace warpscope::cli
