// `warpscope-probe serve`: the protocol server on stdin/stdout (docs/protocol.md), with the
// protocol stream kept apart from whatever libraries print.
#pragma once

#include "probe_cli.h"

namespace warpscope::probe {

/// Serves requests until stdin ends; the exit status (kServeExitFatal after a lost context).
int serveCommand(const BackendFactory& makeBackend);

} // namespace warpscope::probe
