// warpscope-probe's command line: the protocol server (serve) and the human mode (run, selfcheck,
// info). Kept apart from main.cpp so that a test build can run the same command line over a fake
// backend. docs/protocol.md describes the commands and their exit statuses.
#pragma once

#include "probe_backend.h"

#include <functional>
#include <memory>

namespace warpscope::probe {

// Exit statuses of warpscope-probe (docs/protocol.md, "Exit statuses").
inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;   // selfcheck or run: a counter differs from expected
inline constexpr int kExitBadInput = 2;   // bad usage, or a pattern that cannot be measured
inline constexpr int kExitFatal = 3;      // a fatal GPU error (the context is lost)
inline constexpr int kExitNoGpu = 4;      // no driver, no device, or a driver too old
inline constexpr int kExitProbeError = 5; // any other probe error (counters, compile, timeout)

using BackendFactory = std::function<std::unique_ptr<Backend>()>;

/// The whole program: parses argv, makes the backend when a command needs one, and returns the
/// exit status. Protocol lines go to stdout, everything else to stderr (serve) or stdout (human
/// mode results).
int probeMain(int argc, char** argv, const BackendFactory& makeBackend);

} // namespace warpscope::probe
