// What the injected library (trace_inject.cpp, trace_patches.cu) hands to warpscope-trace: the
// device's record layout, the control block the patches read, and the raw launch file written
// after the traced launch. Private to the tracer (the user-facing format is .wstrace, written by
// the launcher with core's TraceWriter); shared by host C++ and CUDA, so plain structs only.
#pragma once

#include <cstdint>

namespace warpscope::trace {

inline constexpr std::uint32_t kRawLaneCount = 32;
inline constexpr std::uint32_t kMaxListedWarps = 64;

/// The memory spaces the patches are installed for (bits of --spaces).
enum RawSpace : std::uint32_t { RawGlobal = 0, RawShared = 1, RawLocal = 2 };

/// One warp's execution of one memory instruction, as the device writes it.
struct RawRecord {
    std::uint64_t pc;
    std::uint32_t block[3];
    std::uint32_t warp; // warp within the block, threads linearised x fastest
    std::uint32_t activeMask;
    std::uint32_t accessBytes;
    std::uint32_t flags; // SANITIZER_MEMORY_DEVICE_FLAG_*
    std::uint32_t space; // RawSpace
    std::uint64_t addresses[kRawLaneCount];
};
static_assert(sizeof(RawRecord) == 296, "RawRecord is read back byte for byte");

/// Which warps record: every warp, a list of (block, warp) pairs, or every stride-th warp of the
/// launch (blocks linearised x fastest, then the warp within the block).
enum WarpSelection : std::uint32_t { SelectAll = 0, SelectList = 1, SelectSample = 2 };

/// The patches' user data for the traced launch (device memory).
struct DeviceControl {
    RawRecord* records;
    unsigned long long attempts; // records the warps tried to append; past capacity: dropped
    std::uint32_t capacity;
    std::uint32_t selection; // WarpSelection
    std::uint32_t sampleStride;
    std::uint32_t warpsPerBlock;
    std::uint32_t listCount;
    std::uint32_t dynamicSharedBytes;         // written by the patches from %dynamic_smem_size
    std::uint32_t listBlock[kMaxListedWarps]; // linear block index
    std::uint32_t listWarp[kMaxListedWarps];
};

/// The raw launch file: this header, the mangled kernel name (nameBytes), then recordCount
/// RawRecords.
struct RawLaunchHeader {
    char magic[8]; // "WSRAWLN"
    std::uint32_t version;
    std::uint32_t recordBytes;
    std::uint32_t grid[3];
    std::uint32_t block[3];
    std::uint32_t dynamicSharedBytes;
    std::uint32_t complete; // 0 when the launch failed or its records could not be copied
    std::uint64_t functionPc;
    std::uint64_t functionBytes;
    std::uint64_t recordCount;
    std::uint64_t droppedRecords;
    std::uint32_t nameBytes;
    std::uint32_t patchedAtModuleLoad;
};

inline constexpr char kRawLaunchMagic[8] = {'W', 'S', 'R', 'A', 'W', 'L', 'N', '\0'};
inline constexpr std::uint32_t kRawLaunchVersion = 1;

} // namespace warpscope::trace
