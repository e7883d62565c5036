// ldmatrix and stmatrix: the warp-wide shared-memory instructions that move 8x8 matrices of
// 16-bit elements (PTX ldmatrix / stmatrix .m8n8 .b16, SASS LDSM / STSM). Each lane that supplies
// a row gives the shared-memory address of one 16-byte row; which lanes supply rows follows the
// PTX ISA's ldmatrix table: .x1 lanes 0-7, .x2 lanes 0-15, .x4 all 32, lanes 8i..8i+7 giving
// rows 0-7 of matrix i. An AccessKind is a matrix access when its `matrices` is 1, 2 or 4; its op
// is then Load (ldmatrix) or Store (stmatrix), which is how Nsight Compute counts them (op_ld,
// op_st). The modern model's rule for them was measured on an H200 (docs/models.md, "ldmatrix and
// stmatrix"; tests/data/ldmatrix_*_h200.jsonl).
#pragma once

#include "warpscope/pattern.h"
#include "warpscope/result.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace warpscope {

/// Bytes of one matrix row: 8 elements of 16 bits.
inline constexpr int kMatrixRowBytes = 16;
/// Rows of one 8x8 matrix, one lane each.
inline constexpr int kMatrixRows = 8;

/// True for ldmatrix and stmatrix (kind.matrices != 0).
bool isMatrixAccess(const AccessKind& kind);
/// The op as patterns spell it: "ldmatrix", "stmatrix", or toString(kind.op) for other accesses.
const char* opName(const AccessKind& kind);
/// "ldmatrix" / "stmatrix" as the op of a matrix access: Load or Store; nullopt for other text.
std::optional<AccessOp> matrixOpFromString(std::string_view text);

/// The lanes that give row addresses: the low 8 x matrices lanes.
std::uint32_t matrixRowLanes(int matrices);
/// One lane mask per matrix (lanes 8i..8i+7): the phases the modern model serves one by one.
std::vector<std::uint32_t> matrixPhases(int matrices);

/// The error a matrix access's kind has, if any: shared space, a 16-byte width, matrices 1, 2 or
/// 4, a load or a store, the default cache path. `where` names the field ("space", "width",
/// "matrices", "op", "cache"). Nullopt for accesses that are not matrix accesses.
std::optional<Error> checkMatrixKind(const AccessKind& kind);
/// validate() for a matrix access: checkMatrixKind, then every row lane active at a
/// non-negative, 16-byte aligned address, and every other lane inactive (null). `where` names
/// the lane ("lane 3").
Result<WarpAccess> validateMatrix(WarpAccess access);
/// What validateMatrix accepts, without building a message (the models' guard).
bool isWellFormedMatrix(const WarpAccess& access);

} // namespace warpscope
