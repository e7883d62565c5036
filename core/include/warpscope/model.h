// The two memory models: pure functions from one warp instruction to what the memory system does.
//   - predictModern: compute capability 7.0 and later, as Nsight Compute counts it. Its rules are
//     fitted to counters measured on real hardware (tests/data/hardware_table_*.jsonl).
//   - predictTextbook: the Fermi/Kepler rules the course notes teach (128-byte cached
//     transactions, 32-byte uncached segments, 1/2/4-segment store transactions, 4- and 8-byte
//     shared-memory bank modes).
// No view computes transactions itself: everything drawn comes from these results.
#pragma once

#include "warpscope/pattern.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpscope {

inline constexpr int kSectorBytes = 32;
inline constexpr int kLineBytes = 128;
inline constexpr int kBankCount = 32;
inline constexpr int kBankWordBytes = 4;

/// A 32-byte sector of global memory touched by the warp.
struct SectorUse {
    std::int64_t address = 0;   // first byte of the sector
    std::uint32_t laneMask = 0; // lanes whose bytes fall in it
    int bytesUsed = 0;          // distinct bytes of it that lanes asked for
};

/// A 128-byte line of global memory touched by the warp.
struct LineUse {
    std::int64_t address = 0;
    std::uint32_t laneMask = 0;
    std::uint8_t sectorMask = 0; // bit i: sector i of the line is touched
};

struct GlobalPrediction {
    int requests = 0;
    int sectors = 0;
    int lines = 0;
    std::int64_t bytesRequested = 0;       // active lanes x width, duplicates counted
    std::int64_t uniqueBytesRequested = 0; // distinct bytes the warp asked for
    std::int64_t bytesMoved = 0;           // sectors x 32
    double efficiency = 0.0;               // uniqueBytesRequested / bytesMoved, 0..1
    std::vector<SectorUse> sectorList;     // ascending address
    std::vector<LineUse> lineList;         // ascending address
};

/// One shared-memory wavefront: a pass of the data pipe serving some lanes.
struct Wavefront {
    std::uint32_t laneMask = 0;
    /// For each bank, the 4-byte word (address / 4) the wavefront reads or writes there, or -1.
    std::array<std::int64_t, kBankCount> bankWord{};
};

/// Why the phases of a shared access are what they are: 8- and 16-byte loads fuse their fixed
/// phases two by two when the whole warp shares addresses with one partner distance
/// (docs/models.md, "Shared memory").
struct PhaseFusion {
    /// True for 8- and 16-byte loads, the only accesses whose phases can fuse.
    bool considered = false;
    /// The partner distance that fused the phases: 1 (lanes 2k and 2k+1 on one address) or 2
    /// (lanes l and l ^ 2); 0 when the phases were not fused. 1 when both hold.
    int partnerDistance = 0;
    /// For distance 1 and distance 2: the lowest active lane whose active partner
    /// (lane ^ 1, lane ^ 2) asks for another address; -1 when there is none.
    std::array<int, 2> splitLane{-1, -1};
};

struct SharedPrediction {
    int wavefronts = 0;
    /// As l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum counts them.
    int bankConflicts = 0;
    /// Wavefronts the access would need with no conflict at all (1 for widths up to 4 bytes).
    int idealWavefronts = 0;
    /// Lane masks of the phases, each served on its own before conflicts are counted: the whole
    /// warp up to 4 bytes; half-warps for 8 bytes and quarter-warps for 16 bytes, which loads fuse
    /// two by two as `fusion` says (see docs/models.md). Only phases with active lanes, in lane
    /// order.
    std::vector<std::uint32_t> phases;
    PhaseFusion fusion;
    std::vector<Wavefront> wavefrontList;
    /// The largest number of distinct 4-byte words any bank holds within a phase.
    int worstBankDegree = 0;
};

/// One round of a constant-memory load: the lanes that asked for one address, served together
/// (a broadcast when they are many).
struct ConstantRound {
    std::int64_t address = 0;
    std::uint32_t laneMask = 0;
};

/// A load from the __constant__ space. The constant cache serves a warp's distinct addresses one
/// after another (seed 003, "Constant Memory": best when the warp reads few distinct locations;
/// one location is as fast as a register). On an H100, idc__requests.sum counts exactly one
/// request per distinct address of an indexed constant load (docs/models.md, "Constant memory").
struct ConstantPrediction {
    /// The warp's LDC instructions (0 when no lane is active): 1 up to 4 bytes; an 8- or 16-byte
    /// constant load is 2 or 4 32-bit LDC instructions, each served on its own (measured on an
    /// H100: smsp__inst_executed_op_ldc, docs/models.md).
    int requests = 0;
    /// The warp's distinct addresses: the rounds of each instruction.
    int distinctAddresses = 0;
    /// What the constant cache serves: requests x distinctAddresses (idc__requests.sum's share).
    int cacheRequests = 0;
    /// Requests beyond the one per instruction a broadcast needs (cacheRequests - requests), as
    /// idc__requests.sum - smsp__inst_executed_op_ldc_pred_on_any.sum measures them.
    int extraRequests = 0;
    std::int64_t bytesRequested = 0; // active lanes x width
    /// The rounds, numbered in the order of their lowest lane (the hardware's order is not
    /// documented; the count is what the model predicts).
    std::vector<ConstantRound> rounds;
};

/// A texture read of a 2-D texture over pitched linear memory (docs/models.md, "Texture
/// memory"): the texture pipe takes the warp as eight quads (lanes 4q to 4q + 3); each quad
/// with an active lane is one request, and its sectors are counted per quad.
struct TexturePrediction {
    int requests = 0; // l1tex__t_requests_pipe_tex_mem_texture.sum
    int sectors = 0;  // l1tex__t_sectors_pipe_tex_mem_texture.sum
};

struct ModernPrediction {
    AccessKind kind;
    /// Set for the global space; for local memory, the interleaved addresses' requests and
    /// sectors; for a texture read, what a global load of the same addresses would count (its
    /// "global-load equivalent").
    std::optional<GlobalPrediction> global;
    /// Set for the shared space, and for an async copy: its shared side (the LDGSTS wavefronts).
    std::optional<SharedPrediction> shared;
    std::optional<ConstantPrediction> constant; // set for the constant space
    std::optional<TexturePrediction> texture;   // set for texture reads
};

/// Whether an access of this space is counted by the global rules (lines and sectors): global,
/// local (on its interleaved addresses) and texture (its global-load equivalent).
bool usesSectors(MemorySpace space);

/// The texture rule alone (TexturePrediction) for a validated access.
TexturePrediction predictTexture(const WarpAccess& access);

ModernPrediction predictModern(const WarpAccess& access);

// ---- Textbook (Fermi/Kepler)
// -------------------------------------------------------------------

enum class SharedBankMode { FourByte, EightByte };

struct TextbookOptions {
    /// Shared-memory bank width: 4 bytes (Fermi, and Kepler's default) or 8 bytes (Kepler's
    /// cudaSharedMemBankSizeEightByteMode).
    SharedBankMode bankMode = SharedBankMode::FourByte;
    /// What a plain load (CachePath::Default) does: true is Fermi's default (L1 on, 128-byte
    /// transactions), false K40's (L1 off, 32-byte segments). `.ca` is always cached and `.cg`
    /// always uncached; `.nc` goes through the 32-byte read-only path.
    bool defaultLoadsCached = true;
};

/// A memory transaction of the textbook model (a 128-byte cached load, a 32-byte segment, a 1-,
/// 2- or 4-segment store, or one shared-memory pass).
struct Transaction {
    std::int64_t address = 0; // first byte
    int sizeBytes = 0;
    std::uint32_t laneMask = 0;
};

enum class TextbookRule {
    CachedLoad,    // 128-byte transactions
    UncachedLoad,  // 32-byte segments
    Store,         // 1-, 2- or 4-segment transactions
    SharedMemory,  // bank passes
    ConstantCache, // one pass per distinct address (seed 003)
};

struct TextbookPrediction {
    AccessKind kind;
    TextbookRule rule = TextbookRule::CachedLoad;
    std::vector<Transaction> transactions;
    std::int64_t bytesRequested = 0;
    std::int64_t uniqueBytesRequested = 0;
    std::int64_t bytesMoved = 0; // sum of transaction sizes (global only)
    double efficiency = 0.0;     // uniqueBytesRequested / bytesMoved (global only)
    /// Shared memory: the n of an n-way conflict (1 when conflict-free or a broadcast).
    int bankConflictDegree = 0;
    int bankWidthBytes = 4;
    /// Set, with every count left empty, for an instruction the notes' Fermi/Kepler GPUs do not
    /// have (ldmatrix, stmatrix): why the textbook model does not count it.
    std::string notInNotes;
};

TextbookPrediction predictTextbook(const WarpAccess& access, const TextbookOptions& options = {});

const char* toString(TextbookRule rule);

// ---- Metric names
// ------------------------------------------------------------------------------

/// A named number, under Nsight Compute's name where one exists, else warpscope's own
/// (documented in docs/metrics.md).
struct Metric {
    std::string name;
    double value = 0.0;
};

/// The modern model's values as Nsight Compute metrics (all eight ld/st counters for the
/// access's space, zero for the op it does not do) plus warpscope__ extras (lines, bytes,
/// efficiency). An ldmatrix or stmatrix adds kLdsmInstructionsMetric.
std::vector<Metric> modernMetrics(const ModernPrediction& prediction);

/// smsp__inst_executed_op_ldsm.sum: the warp's LDSM instructions, 1 for an ldmatrix and 0 for an
/// stmatrix (Nsight Compute 2025.3 lists no smsp__ counter for STSM; measured on the H200).
inline constexpr const char* kLdsmInstructionsMetric = "smsp__inst_executed_op_ldsm.sum";

/// The textbook values under warpscope's textbook__ names (none for notInNotes predictions).
std::vector<Metric> textbookMetrics(const TextbookPrediction& prediction);

/// The Nsight Compute counters the probe measures and the modern model predicts, in a fixed
/// order.
const std::vector<std::string>& nsightCounterNames();

/// What Nsight Compute counts for async copies (LDGSTS through L1, cp.async.ca) on compute
/// capability 8.0 and later, in this order: requests and sectors of the global side (hardware
/// counters), wavefronts and bank conflicts of the shared side (SASS-patched metrics, counted per
/// instruction; the hardware bank-conflict counter adds conflicts with other warps' traffic). The
/// global side also counts in the op_ld counters of nsightCounterNames(); the shared side in none
/// of them. docs/metrics.md documents each.
const std::vector<std::string>& copyAsyncCounterNames();

/// The two of nsightCounterNames() that count an access of `kind`: its requests and sectors
/// (global memory) or its wavefronts and bank conflicts (shared memory), for its load or store.
struct AccessCounters {
    const std::string& first;  // requests / wavefronts
    const std::string& second; // sectors / bank conflicts
};
AccessCounters nsightCountersFor(const AccessKind& kind);

/// The counters measure_kernel adds when a kernel has a constant access (only then: they cost
/// the plain measurement nothing): idc__requests.sum (one per distinct address of an indexed
/// constant load, and one per other LDC instruction) and
/// smsp__inst_executed_op_ldc_pred_on_any.sum (every LDC instruction, the kernel's parameter
/// loads included). Their difference is warpscope__constant_extra_requests, which the model
/// predicts exactly (docs/metrics.md).
const std::vector<std::string>& constantCounterNames();
/// Nsight Compute's counters for local memory and textures, measured only for kernels that have
/// such accesses (a per-kind list appended to the request): local ld requests, ld sectors, st
/// requests, st sectors, then texture requests and sectors.
const std::vector<std::string>& localCounterNames();
const std::vector<std::string>& textureCounterNames();

} // namespace warpscope
