// Internal to the core: what the experiments' request options readers share (transfers_options.cpp,
// streams_options.cpp, l2_persistence_options.cpp): the refusal naming the option's JSON pointer,
// which the probe answers as bad_request with that pointer.
#pragma once

#include "warpscope/result.h"

#include <string>
#include <utility>

namespace warpscope::experiments::detail {

/// InvalidValue about the request's field at `pointer` ("/options/bytes").
inline Error optionError(std::string message, std::string pointer) {
    return Error{ErrorCode::InvalidValue, std::move(message), 0, std::move(pointer)};
}

} // namespace warpscope::experiments::detail
