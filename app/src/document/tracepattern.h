// "Open as pattern": a traced warp's addresses as a pattern the editor can change. When every
// active lane's address is `base + stride * lane`, the pattern carries that expression (and an
// active-lane expression for the mask), so sliders and edits start from the real access;
// otherwise it lists the 32 literal addresses.
#pragma once

#include <warpscope/pattern.h>
#include <warpscope/result.h>
#include <warpscope/trace_file.h>

#include <cstdint>
#include <optional>
#include <string>

namespace warpscope::app {

/// base + stride * lane over the active lanes.
struct AffineLanes {
    std::int64_t base = 0;
    std::int64_t stride = 0;
};

/// The affine form of `addresses` over its active lanes, or nothing when they do not fit one
/// (no active lane, or a lane off the line through the others).
std::optional<AffineLanes> fitAffineLanes(const LaneAddresses& addresses);
/// "0x7f3a00000000 + 4 * lane", "128 - 4 * lane", "64"
std::string affineExpression(const AffineLanes& affine);
/// The active-lane expression of `mask`: "1", "lane < 20", "lane >= 4 && lane < 12", or
/// "(0x55555555 >> lane) & 1".
std::string activeLaneExpression(std::uint32_t mask);

/// The traced warp as an editable pattern: the expression form when it resolves to exactly the
/// traced addresses, the literal addresses otherwise. Errors as core's tracedPattern.
Result<Pattern> editableTracedPattern(const TraceInstruction& instruction,
                                      const TraceRecord& record);

} // namespace warpscope::app
