// Internal to the core: the JSON fields of an ldmatrix / stmatrix pattern (docs/file-formats.md):
// "op": "ldmatrix" or "stmatrix", "matrices" 1, 2 or 4, "transpose", "width" 16, "space"
// "shared". The pattern reader (file_format.cpp) calls these instead of the plain access kind's.
#pragma once

#include "warpscope/pattern.h"
#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace warpscope::detail {

/// True when the object's "op" is the string "ldmatrix" or "stmatrix".
bool hasMatrixOp(const nlohmann::json& object);
/// Reads a matrix pattern's space, op, width, matrices, transpose and cache into `out`; an error
/// names the field as a JSON pointer below `where` and the rule it breaks.
std::optional<Error> readMatrixKind(const nlohmann::json& object, const std::string& where,
                                    AccessKind& out);
/// An error when an object whose op is not a matrix op has "matrices" or "transpose".
std::optional<Error> checkNoMatrixFields(const nlohmann::json& object, const std::string& where);
/// Adds "matrices" and "transpose" for a matrix access (after "op", whose text is opName()).
void writeMatrixFields(const AccessKind& kind, nlohmann::ordered_json& out);

} // namespace warpscope::detail
