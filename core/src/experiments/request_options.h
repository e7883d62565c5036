// Internal to the core: what the experiments' request options readers share (transfers_options.cpp,
// streams_options.cpp, l2_persistence_options.cpp): the options object and its known names, and
// the refusal naming the option's JSON pointer, which the probe answers as bad_request with that
// pointer.
#pragma once

#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace warpscope::experiments::detail {

/// InvalidValue about the request's field at `pointer` ("/options/bytes").
inline Error optionError(std::string message, std::string pointer) {
    return Error{ErrorCode::InvalidValue, std::move(message), 0, std::move(pointer)};
}

/// The request's "options" object, an empty one when it has none; an error unless it is an object
/// whose members are all among `names` (the refusal names the op, "measure_streams", and lists
/// the options in the order given).
Result<const nlohmann::json*> optionsObject(const nlohmann::json& request, std::string_view op,
                                            std::initializer_list<std::string_view> names);

/// The integer option `field` of the request's `options` object into `out`, when it is there:
/// an error at /options/FIELD unless it is an integer from `low` to `high`.
inline std::optional<Error> readIntegerOption(const nlohmann::json& options, const char* field,
                                              std::int64_t low, std::int64_t high,
                                              std::int64_t& out) {
    const auto value = options.find(field);
    if (value == options.end()) {
        return std::nullopt;
    }
    if (!value->is_number_integer() || value->get<std::int64_t>() < low ||
        value->get<std::int64_t>() > high) {
        return optionError(std::string("\"") + field + "\" must be an integer from " +
                               std::to_string(low) + " to " + std::to_string(high) + "; found " +
                               value->dump(),
                           std::string("/options/") + field);
    }
    out = value->get<std::int64_t>();
    return std::nullopt;
}

} // namespace warpscope::experiments::detail
