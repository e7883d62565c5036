// Internal to the core: helpers the kernel's resolution and the grid model share.
#pragma once

#include "warpscope/kernel.h"

#include <cstdint>
#include <string>

namespace warpscope::detail {

/// "/accesses/1 (store out), block (3, 0, 0), thread (29, 0, 0)": where one thread's access is,
/// as errors about it name it. `field` ("address", "active") is appended to the access's pointer
/// when not empty: "/accesses/1/address (store out), ...".
std::string threadPlace(const ResolvedKernel& kernel, int access, std::int64_t blockLinear,
                        std::int64_t threadLinear, const char* field = "");

} // namespace warpscope::detail
