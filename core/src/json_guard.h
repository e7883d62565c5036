// Internal to the core: the guarded JSON reader of file_format.cpp (size limit, UTF-8 check,
// nesting limit, duplicate keys refused, errors with line and column), shared with the kernel
// files of kernel_file.cpp.
#pragma once

#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace warpscope::detail {

Result<nlohmann::json> parseGuardedJson(std::string_view text);

} // namespace warpscope::detail
