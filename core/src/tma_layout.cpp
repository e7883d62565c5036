// The TMA tile-load layout of compute capability 9.0 (tma_layout.h). Every rule here was measured
// on an H200 (driver 580, CUDA 13.0) by scripts/hw/tma_dump.cu; the dumps are in
// tests/data/tma_layout_h200.jsonl and tests/core/test_tma_layout.cpp holds the model to them.
#include "warpscope/tma_layout.h"

#include "warpscope/swizzle.h"

#include <algorithm>
#include <array>

namespace warpscope {

namespace {

struct SwizzleName {
    TmaSwizzle swizzle;
    std::string_view name;
};
constexpr std::array<SwizzleName, 7> kSwizzleNames = {{
    {TmaSwizzle::None, "none"},
    {TmaSwizzle::Span32, "32B"},
    {TmaSwizzle::Span64, "64B"},
    {TmaSwizzle::Span128, "128B"},
    {TmaSwizzle::Span128Atom32, "128B_ATOM_32B"},
    {TmaSwizzle::Span128Atom32Flip8, "128B_ATOM_32B_FLIP_8B"},
    {TmaSwizzle::Span128Atom64, "128B_ATOM_64B"},
}};

// cuTensorMapEncodeTiled: each boxDim is 1..256 and boxDim[0] * element size a multiple of 16.
constexpr int kMaxBoxDim = 256;
constexpr int kChunkBytes = 16;
// cp.async.bulk.tensor's shared destination: other alignments faulted on the H200 with
// cudaErrorMisalignedAddress (offsets 16, 32, 64, 96 and 1040, every mode).
constexpr int kDestinationAlignment = 128;

Error invalid(std::string where, std::string message) {
    return Error{ErrorCode::InvalidValue, std::move(message), 0, std::move(where)};
}

std::optional<Error> check(const TmaTileLoad& load) {
    const int e = load.elementBytes;
    if (e != 1 && e != 2 && e != 4 && e != 8) {
        return invalid("elementBytes",
                       "element size " + std::to_string(e) +
                           " bytes is not a TMA element size: cuTensorMapEncodeTiled's data types "
                           "are 1, 2, 4 or 8 bytes");
    }
    if (load.boxInnerElements < 1 || load.boxInnerElements > kMaxBoxDim || load.boxRows < 1 ||
        load.boxRows > kMaxBoxDim) {
        return invalid("box", "box " + std::to_string(load.boxInnerElements) + "x" +
                                  std::to_string(load.boxRows) +
                                  " is out of range: cuTensorMapEncodeTiled takes each box "
                                  "dimension from 1 to 256 elements");
    }
    const int innerBytes = load.boxInnerBytes();
    if (innerBytes % kChunkBytes != 0) {
        return invalid("box", "the box's inner dimension is " + std::to_string(innerBytes) +
                                  " bytes (" + std::to_string(load.boxInnerElements) + " x " +
                                  std::to_string(e) +
                                  "): cuTensorMapEncodeTiled needs a multiple of 16 bytes");
    }
    switch (load.swizzle) {
    case TmaSwizzle::Span128Atom32:
    case TmaSwizzle::Span128Atom32Flip8:
    case TmaSwizzle::Span128Atom64:
        return invalid("swizzle",
                       std::string("swizzle ") + toString(load.swizzle) +
                           " is a CUDA 12.8 mode of compute capability 10.0 and later; compute "
                           "capability 9.0 (H100, H200) has none (cuTensorMapEncodeTiled refused "
                           "it on an H200 with CUDA_ERROR_INVALID_VALUE): use 32B, 64B or 128B");
    default:
        break;
    }
    const int span = swizzleSpanBytes(load.swizzle);
    if (span > 0 && innerBytes > span) {
        return invalid("box", "the box's inner dimension is " + std::to_string(innerBytes) +
                                  " bytes, wider than the " + toString(load.swizzle) +
                                  " swizzle span: a swizzled box row may be at most " +
                                  std::to_string(span) + " bytes (" + std::to_string(span / e) +
                                  " elements of " + std::to_string(e) +
                                  " bytes); use a narrower box or a wider swizzle mode");
    }
    if (load.smemOffset < 0 || load.smemOffset % kDestinationAlignment != 0) {
        return invalid("smemOffset",
                       "shared-memory destination " + std::to_string(load.smemOffset) +
                           " is not a multiple of 128: a TMA tile load's destination must be "
                           "128-byte aligned (other addresses fault with a misaligned address)");
    }
    return std::nullopt;
}

} // namespace

const char* toString(TmaSwizzle swizzle) {
    for (const SwizzleName& n : kSwizzleNames) {
        if (n.swizzle == swizzle) {
            return n.name.data();
        }
    }
    return "none";
}

std::optional<TmaSwizzle> parseTmaSwizzle(std::string_view text) {
    for (const SwizzleName& n : kSwizzleNames) {
        if (n.name == text) {
            return n.swizzle;
        }
    }
    return std::nullopt;
}

int swizzleSpanBytes(TmaSwizzle swizzle) {
    switch (swizzle) {
    case TmaSwizzle::Span32:
        return 32;
    case TmaSwizzle::Span64:
        return 64;
    case TmaSwizzle::None:
        return 0;
    default:
        return 128;
    }
}

std::int64_t TmaLayout::sharedAddress(int row, int byteInRow) const {
    const std::int64_t unswizzled =
        load.smemOffset + static_cast<std::int64_t>(row) * rowPitchBytes + byteInRow;
    return Swizzle::forSpanBytes(swizzleSpanBytes(load.swizzle)).apply(unswizzled);
}

int TmaLayout::bank(int row, int byteInRow) const {
    return static_cast<int>((sharedAddress(row, byteInRow) / 4) % 32);
}

Result<TmaLayout> layTmaTile(const TmaTileLoad& load) {
    if (auto error = check(load)) {
        return *error;
    }
    TmaLayout layout;
    layout.load = load;
    const int span = swizzleSpanBytes(load.swizzle);
    const int innerBytes = load.boxInnerBytes();
    layout.rowPitchBytes = span > 0 ? span : innerBytes;
    // The swizzle only permutes chunks inside each aligned span-byte line, so the last line
    // bounds the range written.
    const std::int64_t rangeBytes =
        static_cast<std::int64_t>(load.boxRows - 1) * layout.rowPitchBytes +
        (span > 0 ? span : innerBytes);
    if (load.smemOffset + rangeBytes > kTmaSharedLimitBytes) {
        return invalid("smemOffset", "the tile ends at shared-memory byte " +
                                         std::to_string(load.smemOffset + rangeBytes) +
                                         ", beyond the 227 KiB a block can use on compute "
                                         "capability 9.0: use a smaller offset or box");
    }
    layout.chunks.assign(static_cast<std::size_t>(rangeBytes / kChunkBytes), std::nullopt);
    std::size_t used = 0;
    for (int row = 0; row < load.boxRows; ++row) {
        for (int byte = 0; byte < innerBytes; byte += kChunkBytes) {
            const auto at = static_cast<std::size_t>(
                (layout.sharedAddress(row, byte) - load.smemOffset) / kChunkBytes);
            layout.chunks[at] = TmaChunkSource{row, byte};
            used = std::max(used, at + 1);
        }
    }
    layout.chunks.resize(used);
    return layout;
}

} // namespace warpscope
