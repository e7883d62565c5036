// The CUDA half of the probe's TMA check (tma_check.h): a global tensor whose every 16-byte chunk
// names its box row and byte, one cp.async.bulk.tensor.2d into a shared-memory window that starts
// at a multiple of 1024 bytes, and the window copied back.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::gpu {

struct TmaTileDumpLaunch {
    int elementBytes = 2;
    int boxInnerElements = 64;
    int boxRows = 16;
    int swizzleMode = 3; // CUtensorMapSwizzle: 0 none, 1 32B, 2 64B, 3 128B
    unsigned smemOffset = 0;
    unsigned windowBytes = 8192; // a multiple of 1024, more than smemOffset + the tile
};

/// Every 16-byte chunk of the box as the global tensor holds it: four 32-bit words
/// {kTmaChunkTag | row, byteInRow, ~row, ~byteInRow}; the window is filled with kTmaFillByte.
inline constexpr std::uint32_t kTmaChunkTag = 0x7a000000u;
inline constexpr unsigned char kTmaFillByte = 0xEE;

struct TmaTileDumpResult {
    std::vector<unsigned char> window; // windowBytes bytes of shared memory after the load
    std::uint32_t windowAddress = 0;   // the window's shared-memory address
    bool arrived = false;              // the mbarrier completed within the bounded wait
};

/// Runs one load on the current device and stream 0, synchronously. On failure returns the
/// CUDA error and puts what failed in `what` (an encode failure is cudaErrorInvalidValue).
cudaError_t runTmaTileDump(const TmaTileDumpLaunch& launch, TmaTileDumpResult& result,
                           std::string& what);

} // namespace warpscope::gpu
