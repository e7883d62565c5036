// The host's available memory (host_memory.h).
#include "host_memory.h"

#include <fstream>
#include <string>

namespace warpscope::probe {

std::int64_t hostAvailableMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::int64_t value = 0;
    std::string unit;
    while (meminfo >> key >> value >> unit) {
        if (key == "MemAvailable:") {
            return value * 1024;
        }
    }
    return 0;
}

} // namespace warpscope::probe
