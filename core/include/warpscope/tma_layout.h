// Where a TMA tile load (cp.async.bulk.tensor.2d with a tensor map from cuTensorMapEncodeTiled)
// puts a box of a 2-D tensor in shared memory on compute capability 9.0, for each swizzle mode.
// The rule was found on an H200 and is checked against every dump recorded in
// tests/data/tma_layout_h200.jsonl (scripts/hw/tma_dump.cu, docs/models.md "TMA tile loads"):
//
// - the destination must be 128-byte aligned (other addresses fault with a misaligned address);
// - each box row starts a new line of the swizzle span (32, 64 or 128 bytes) in the swizzled
//   modes, so a row narrower than the span leaves the rest of its line untouched; without a
//   swizzle rows are packed at the box's inner width;
// - the swizzle is Swizzle<1,4,3>, <2,4,3> or <3,4,3> applied to the shared-memory address
//   itself, not to the offset from the destination: an offset of 384 lays a tile out differently
//   from an offset of 0.
#pragma once

#include "warpscope/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

/// CUtensorMapSwizzle, in its order. The 128B_ATOM modes came with CUDA 12.8 for compute
/// capability 10.0; layTmaTile() refuses them (compute capability 9.0 has none).
enum class TmaSwizzle {
    None,
    Span32,
    Span64,
    Span128,
    Span128Atom32,
    Span128Atom32Flip8,
    Span128Atom64,
};

/// "none", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B".
const char* toString(TmaSwizzle swizzle);
std::optional<TmaSwizzle> parseTmaSwizzle(std::string_view text);

/// 32, 64 or 128 for the swizzled modes, 0 for none.
int swizzleSpanBytes(TmaSwizzle swizzle);

/// One tile load: the tensor's element size, the box and where it goes.
struct TmaTileLoad {
    int elementBytes = 2;      // 1, 2, 4 or 8 (the data types of cuTensorMapEncodeTiled)
    int boxInnerElements = 64; // boxDim[0], the contiguous dimension
    int boxRows = 16;          // boxDim[1]
    TmaSwizzle swizzle = TmaSwizzle::Span128;
    std::int64_t smemOffset = 0; // the destination's shared-memory address (see the file comment)

    int boxInnerBytes() const { return boxInnerElements * elementBytes; }

    bool operator==(const TmaTileLoad&) const = default;
};

/// The data a 16-byte chunk of shared memory holds: the box row and the byte offset in that row
/// of its first byte. Empty for a chunk inside the range that the load does not write.
struct TmaChunkSource {
    int row = 0;
    int byteInRow = 0;
};

struct TmaLayout {
    TmaTileLoad load;
    /// Bytes from one box row's start to the next before the swizzle: the swizzle span, or the
    /// box's inner bytes without a swizzle.
    int rowPitchBytes = 0;
    /// Every 16-byte chunk from the destination address to the last chunk written, in address
    /// order (chunk i starts at load.smemOffset + 16 i).
    std::vector<std::optional<TmaChunkSource>> chunks;

    /// The shared-memory address of byte `byteInRow` of box row `row` (both in range).
    std::int64_t sharedAddress(int row, int byteInRow) const;
    /// The bank (0..31, 4-byte banks) of that byte.
    int bank(int row, int byteInRow) const;
};

/// The layout of one load, or an InvalidValue error naming the field (elementBytes, box,
/// swizzle, smemOffset) and the rule it breaks.
Result<TmaLayout> layTmaTile(const TmaTileLoad& load);

/// The largest shared memory a block can use on compute capability 9.0 (227 KiB, opted in).
inline constexpr std::int64_t kTmaSharedLimitBytes = 227 * 1024;

} // namespace warpscope
