// warpscope-cli tma-layout: where a TMA tile load puts each 16-byte chunk of its box in shared
// memory (core's tma_layout.h), as JSON. docs/cli.md describes the options and the output.
#pragma once

#include <string>
#include <vector>

namespace warpscope::cli {

/// Runs the command with the arguments after "tma-layout"; returns the exit status.
int runTmaLayout(const std::vector<std::string>& args);

} // namespace warpscope::cli
