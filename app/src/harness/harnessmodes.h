// The harness's door: the command-line modes that time or photograph the app, handed to
// runWarpscope() by main.cpp. warpscope-app-harness (this folder) is a library of its own that only
// main.cpp and the tests link; the product below it never includes it.
#pragma once

#include "shell/applicationsetup.h"

namespace warpscope::app {

/// --benchmark, --benchmark-gpu, --screenshot and --quit-after-first-frame.
HarnessModes harnessModes();

} // namespace warpscope::app
