// `warpscope-probe transfers`: host and device transfers measured and printed as a table (or the
// measure_transfers answer as JSON). docs/protocol.md ("transfers") describes it.
#pragma once

#include "probe_cli.h"

#include <string>
#include <vector>

namespace warpscope::probe {

int transfersCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend);

/// The usage text of transfers, for --help.
extern const char* const kTransfersUsage;

/// "4096", "4K", "4KiB", "256M", "1G" -> bytes; -1 when not a size.
long long parseByteSize(const std::string& text);

} // namespace warpscope::probe
