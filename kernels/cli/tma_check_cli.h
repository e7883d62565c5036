// `warpscope-probe tma-check`: one TMA tile load issued on the GPU, its shared memory dumped and
// compared chunk by chunk with core's layout model (the probe's tma_check.h). docs/protocol.md
// ("tma-check") describes it.
#pragma once

#include "ldsm_selfcheck.h"
#include "probe_cli.h"

#include <string>
#include <vector>

namespace warpscope::probe {

int tmaCheckCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend);

/// Prints selfcheck's model checks, one line each and a summary line; returns how many differ.
int printModelChecks(const std::vector<ModelCheck>& checks);

/// The usage text of tma-check, for --help.
extern const char* const kTmaCheckUsage;

} // namespace warpscope::probe
