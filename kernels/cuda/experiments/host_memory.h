// The host memory the transfers and streams experiments may use (transfers_cuda.cpp,
// streams_cuda.cpp): what the kernel says is available now.
#pragma once

#include <cstdint>

namespace warpscope::probe {

/// MemAvailable from /proc/meminfo in bytes, 0 when unknown.
std::int64_t hostAvailableMemoryBytes();

} // namespace warpscope::probe
