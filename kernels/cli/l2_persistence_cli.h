// `warpscope-probe l2-persistence`: the L2 persistence window measured and printed as a table (or
// the measure_l2_persistence answer as JSON). docs/protocol.md ("l2-persistence") describes it.
#pragma once

#include "probe_cli.h"

#include <string>
#include <vector>

namespace warpscope::probe {

int l2PersistenceCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend);

/// The usage text of l2-persistence, for --help.
extern const char* const kL2PersistenceUsage;

} // namespace warpscope::probe
