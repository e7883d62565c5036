// `warpscope --benchmark-gpu`: the time from an edit to the measured overlay on screen, with the
// real probe, as a Markdown table.
#pragma once

namespace warpscope::app {

struct CommandLine;

int runGpuBenchmark(const CommandLine& options);

} // namespace warpscope::app
