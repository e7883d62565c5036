// `warpscope-probe transfers`: host and device transfers measured and printed as a table (or the
// measure_transfers answer as JSON). docs/protocol.md ("transfers") describes it.
#pragma once

#include "measurement_cli.h" // parseByteSize, which the transfers command introduced
#include "probe_cli.h"

#include <string>
#include <vector>

namespace warpscope::probe {

int transfersCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend);

/// The usage text of transfers, for --help.
extern const char* const kTransfersUsage;

} // namespace warpscope::probe
