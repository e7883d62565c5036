// The probe's TMA check: one TMA tile load (cp.async.bulk.tensor.2d) issued on the GPU for a
// given swizzle mode, box, element size and shared-memory offset, the block's shared memory
// dumped, and each 16-byte chunk of the dump compared with core's TMA layout model
// (warpscope/tma_layout.h, docs/models.md "TMA tile loads"). Plain C++: the CUDA half is
// tma_check_kernels.cu, run by the CUDA backend's dumpTmaTile().
#pragma once

#include "warpscope/protocol/errors.h"
#include "warpscope/result.h"
#include "warpscope/tma_layout.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::probe {

/// What the GPU wrote: the chunks from the destination (load.smemOffset, as an address whose
/// window starts at a multiple of 1024 bytes) to the end of the dumped window.
struct TmaDump {
    /// One entry per 16-byte chunk from the destination on: the box row and byte in that row the
    /// chunk holds, or empty where it still holds the window's fill.
    std::vector<std::optional<TmaChunkSource>> chunks;
    /// Chunks before the destination that the load wrote (it should write none).
    int chunksWrittenBeforeDestination = 0;
    /// Chunks that hold neither the fill nor a chunk of the box (torn or stray writes).
    int garbledChunks = 0;
    /// Whether the load's mbarrier completed within the kernel's bounded wait.
    bool arrived = false;
    /// The window's shared-memory address (a multiple of 1024 on every launch so far).
    std::int64_t windowAddress = 0;
};

/// A check's outcome: the model's layout and the dump, with every difference in words.
struct TmaCheckResult {
    TmaTileLoad load;
    std::vector<std::optional<TmaChunkSource>> model;
    TmaDump measured;
    std::vector<std::string> differences; // at most kMaxTmaDifferences, then a count
    bool agrees() const { return differences.empty(); }
};

inline constexpr std::size_t kMaxTmaDifferences = 8;

/// Compares the model's layout with a dump: every chunk of the model's range must hold the
/// model's (row, byte), nothing after it or before the destination may be written, nothing may be
/// garbled, and the load must have completed.
TmaCheckResult compareTmaLayout(const TmaLayout& model, const TmaDump& dump);

/// "64x16 2-byte elements, swizzle 128B, shared-memory offset 384".
std::string describeTmaLoad(const TmaTileLoad& load);

/// {"load": {...}, "agrees": bool, "differences": [...], "model": [[row, byte] | null, ...],
///  "measured": [...], "arrived": bool, "windowAddress": N}
nlohmann::json toJson(const TmaCheckResult& result);

/// The loads `warpscope-probe selfcheck` checks: each swizzle mode at a few offsets and element
/// sizes, including the 384-byte offset whose layout differs from offset 0.
const std::vector<TmaTileLoad>& selfcheckTmaLoads();

} // namespace warpscope::probe
