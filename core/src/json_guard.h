// Internal to the core: the guarded JSON reader of file_format.cpp (size limit, UTF-8 check,
// nesting limit, duplicate keys refused, errors with line and column), shared with the kernel
// files of kernel_file.cpp.
#pragma once

#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace warpscope::detail {

Result<nlohmann::json> parseGuardedJson(std::string_view text);

/// `text` parsed by parseGuardedJson and read by `read` (a `...FromJson(value, pointer)` reader).
template <typename T>
Result<T> readGuardedJsonText(std::string_view text,
                              Result<T> (*read)(const nlohmann::json&, const std::string&)) {
    auto parsed = parseGuardedJson(text);
    if (!parsed) {
        return parsed.error();
    }
    return read(parsed.value(), "");
}

} // namespace warpscope::detail
