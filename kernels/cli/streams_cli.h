// `warpscope-probe streams`: the staged copy-and-kernel experiment over 1 to 8 streams, printed as
// a table beside the model's prediction (or the measure_streams answer as JSON). docs/protocol.md
// ("streams") describes it.
#pragma once

#include "probe_cli.h"

#include <string>
#include <vector>

namespace warpscope::probe {

int streamsCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend);

/// The usage text of streams, for --help.
extern const char* const kStreamsUsage;

} // namespace warpscope::probe
