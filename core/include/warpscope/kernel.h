// The kernel: what the course notes measure. Parameters, global buffers, a launch and an ordered
// list of accesses, each of them what a pattern is (space, op, width, cache path, an address
// expression and an active expression). A pattern is the one-access kernel (kernelFromPattern).
//
// This header is the contract between the core (grid model, files, CLI), the probe
// (measure_kernel generates, checks and runs exactly this) and the app. The JSON form is the one
// `warpscope-cli predict-kernel` reads; docs/file-formats.md ("Kernel files") documents it.
#pragma once

#include "warpscope/buffer_footprint.h"
#include "warpscope/expression.h"
#include "warpscope/model.h"
#include "warpscope/pattern.h"
#include "warpscope/result.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

inline constexpr int kKernelFormatVersion = 1;

/// CUDA's launch limits (compute capability 3.0 and later): a block holds at most 1024 threads
/// with bdim.z at most 64; a grid is at most 2^31 - 1 blocks in x and 65535 in y and z.
inline constexpr std::int64_t kMaxThreadsPerBlock = 1024;
inline constexpr std::array<std::int64_t, 3> kMaxBlockDim = {1024, 1024, 64};
inline constexpr std::array<std::int64_t, 3> kMaxGridDim = {2147483647, 65535, 65535};
/// What warpscope models: buffers of at most 2^40 bytes, launches of at most 2^48 threads.
inline constexpr std::int64_t kMaxBufferBytes = std::int64_t{1} << 40;
inline constexpr std::int64_t kMaxGridThreads = std::int64_t{1} << 48;

/// A global-memory buffer the accesses address. Its size is an integer expression of the
/// kernel's parameters ("n * 4"); it may use no thread built-ins.
struct KernelBuffer {
    std::string name;
    std::string bytesExpression;

    bool operator==(const KernelBuffer&) const = default;
};

/// One memory instruction of the kernel, in program order.
struct KernelAccess {
    AccessKind kind;
    /// Global accesses: the name of the buffer they address. Shared accesses: empty (they
    /// address the block's one shared array, sized by the grid model from the addresses).
    std::string buffer;
    /// Byte offset from the buffer's start (global) or from the shared array's start (shared).
    std::string addressExpression;
    /// Non-zero for threads that execute the access.
    std::string activeExpression = "1";
    /// A short name for tables and views ("load A"); may be empty.
    std::string label;
    /// Texture reads only: the bytes of one row of the 2-D texture laid over the buffer (an
    /// integer expression of the parameters, a multiple of 32). The address stays a byte offset
    /// from the buffer's start; the probe reads texel ((address % row) / 4, address / row).
    std::string textureRowBytes;
    /// Async copies (kind.op == CopyAsync) only: the byte offset in the block's shared array the
    /// thread's element is copied to. `buffer` and `addressExpression` are the global side.
    std::string sharedAddressExpression;

    bool operator==(const KernelAccess&) const = default;
};

/// Grid and block, each component an integer expression of the parameters ("nx / 16").
struct KernelLaunch {
    std::array<std::string, 3> grid{"1", "1", "1"};
    std::array<std::string, 3> block{"32", "1", "1"};

    bool operator==(const KernelLaunch&) const = default;
};

/// The most characters of a kernel's name.
inline constexpr std::size_t kMaxKernelNameLength = 64;
/// A kernel's name is empty or an identifier of up to kMaxKernelNameLength characters: letters,
/// digits, spaces, '_', '.', '+' and '-', starting with a letter, a digit or '_'. It is written
/// into the generated CUDA source, so nothing else may reach it (kernel_file.cpp and resolveKernel
/// check).
bool isValidKernelName(std::string_view name);
/// "'NAME' cannot be a kernel name (...the rule...)", for the readers' errors.
std::string invalidKernelNameMessage(std::string_view name);

struct Kernel {
    std::string name;
    std::vector<Parameter> parameters;
    std::vector<KernelBuffer> buffers;
    KernelLaunch launch;
    std::vector<KernelAccess> accesses;

    bool operator==(const Kernel&) const = default;
};

/// The one-access kernel of an expression pattern: its parameters, its block and grid, one
/// buffer "data" large enough for every address the grid touches, and the pattern's access.
/// Patterns that list 32 addresses have no kernel (an error says so).
Result<Kernel> kernelFromPattern(const Pattern& pattern);
/// kernelFromPattern without the walk over the grid that sizes "data": the buffer is
/// kMaxBufferBytes large. For callers that walk the grid anyway (the app's grid view runs
/// predictGrid, which checks every address as that walk does).
Result<Kernel> kernelFromPatternUnsized(const Pattern& pattern);

// ---- Resolution --------------------------------------------------------------------------------

struct ResolvedBuffer {
    std::string name;
    std::int64_t bytes = 0;
};

struct ResolvedAccess {
    KernelAccess access;
    int bufferIndex = -1; // into ResolvedKernel::buffers; -1 for shared and local accesses
    std::int64_t textureRowBytes = 0; // texture reads: textureRowBytes evaluated; 0 otherwise
    Expression address;
    Expression active;
    /// Async copies: the parsed shared address; unset for every other access.
    std::optional<Expression> sharedAddress;
};

/// A kernel with its parameters' values applied: sizes and launch evaluated and checked against
/// CUDA's limits, every expression parsed, every global access tied to its buffer. Errors name
/// their place as a JSON pointer into the kernel's JSON form ("/accesses/1/address", "/grid/1",
/// "/buffers/0/bytes"; column set for expressions) and never describe a launch CUDA would refuse
/// as valid.
struct ResolvedKernel {
    Kernel kernel;
    std::vector<std::int64_t> parameterValues; // in the order of kernel.parameters
    std::vector<ResolvedBuffer> buffers;
    Dim3 grid;
    Dim3 block;
    std::vector<ResolvedAccess> accesses;

    std::int64_t threadCount() const { return grid.count() * block.count(); }
    std::int64_t warpsPerBlock() const { return (block.count() + kWarpSize - 1) / kWarpSize; }
    std::int64_t warpCount() const { return grid.count() * warpsPerBlock(); }
};

Result<ResolvedKernel> resolveKernel(const Kernel& kernel);

/// The 32 lanes of warp `warpInBlock` of block `blockLinear` (x fastest) for access `access`, as
/// the per-warp models and views read it. Lanes past the end of the block are inactive. A
/// negative or misaligned address, or an expression error, is an Error whose `where` names the
/// thread: "/accesses/1/address (store out), block (3, 0, 0), thread (29, 0, 0)". Bounds are
/// checked by predictGrid, not here. An async copy's WarpAccess carries its shared side too
/// (sharedAddresses), its errors named ".../shared_address".
Result<WarpAccess> resolveWarp(const ResolvedKernel& kernel, int access, std::int64_t blockLinear,
                               std::int64_t warpInBlock);

// ---- The grid model ----------------------------------------------------------------------------

/// How many warps need 1, 2, ... 32 sectors per request (global), wavefronts (shared) or
/// distinct addresses (constant):
/// counts[k] is the number of warp-requests with k; index 0 counts warps with no active lane.
/// Widths of 8 and 16 bytes can need more than 32 sectors; those land in the last bucket.
inline constexpr int kHistogramBuckets = 33;

struct WarpRef {
    std::int64_t blockLinear = 0;
    std::int64_t warpInBlock = 0;
    int value = 0; // sectors per request, or wavefronts

    bool operator==(const WarpRef&) const = default;
};

struct GridAccessPrediction {
    // Global accesses (sums over every warp of the grid, the per-warp modern model's counts).
    std::int64_t requests = 0;
    std::int64_t sectors = 0;
    // Shared accesses, and the shared side of async copies.
    std::int64_t wavefronts = 0;
    std::int64_t bankConflicts = 0;
    // Constant accesses: `requests` counts their LDC instructions (two or four per warp for 8-
    // and 16-byte loads), this the requests the constant cache serves one after another: each
    // instruction's distinct addresses (ConstantPrediction::cacheRequests). The histogram counts
    // warps by distinct addresses.
    std::int64_t constantAddresses = 0;
    /// Texture reads: the sectors a global load of the same addresses would need (the
    /// requests and sectors above are then the texture rule's, docs/models.md).
    std::int64_t globalEquivalentSectors = 0;
    /// Active lanes x width, over the grid (the notes' effective-bandwidth numerator).
    std::int64_t bytesRequested = 0;
    std::int64_t activeThreads = 0;
    std::array<std::int64_t, kHistogramBuckets> histogram{};
    /// The warps with the most sectors per request (or wavefronts), worst first.
    std::vector<WarpRef> worstWarps;
};

/// The grid model's footprint in one buffer: BufferFootprint's sectors, and those written in part.
struct GridBufferFootprint : BufferFootprint {
    /// Of sectorsWritten, those that some store request writes only in part (its active lanes
    /// cover fewer than the sector's 32 bytes): they reach L2 as partial writes, completed by
    /// other requests, if at all. On an H100 (ECC on) such a sector that L2 evicts or misses
    /// before it is complete is filled from DRAM: a cold launch can then read more than the
    /// footprint.
    std::int64_t sectorsWrittenInPart = 0;
    /// Of those, the fills the model predicts (GridOptions::partialSectorCapacityBytes; rule in
    /// docs/models.md, "Sectors written in part"): each is 32 bytes read from DRAM beyond the
    /// footprint, counted in dram__bytes_read.sum.
    std::int64_t sectorsFilled = 0;
};

struct GridPrediction {
    std::vector<GridAccessPrediction> accesses; // in the kernel's order
    std::vector<GridBufferFootprint> buffers;   // in the kernel's order
    /// Bytes of shared memory one block uses: the largest shared address + width (0 for none).
    std::int64_t sharedBytesPerBlock = 0;
    /// Bytes of the per-thread local array: the largest local offset + width (0 for none).
    std::int64_t localBytesPerThread = 0;
    std::int64_t warps = 0;
    /// Totals under Nsight Compute names (the eight l1tex counters,
    /// lts__t_sectors_srcunit_tex_op_read.sum / _op_write.sum, dram__bytes_read.sum as the cold
    /// footprint) and warpscope__ extras, documented in docs/metrics.md.
    std::vector<Metric> metrics;
};

/// The grid model's one budget, shared by every caller (the CLI, the probe, the app): the work
/// (threads x accesses it evaluates) and the memory of its footprint structures, both estimated
/// before the walk (estimateGrid). A field of 0 takes the default (defaultGridBudget()); a caller
/// that has asked its user may pass larger limits. docs/testing.md ("Limits") lists them.
struct GridBudget {
    std::int64_t maxThreadAccesses = 0;
    std::int64_t maxMemoryBytes = 0;
};

/// What a walk over the grid would cost, before it starts. The memory is an upper bound on the
/// footprint structures, which grow with the bytes the grid touches (pages of sectors allocated
/// when first touched), never with a buffer's declared size: a 2^40-byte buffer touched by one
/// warp costs a few pages.
struct GridEstimate {
    std::int64_t threadAccesses = 0; // warps x 32 lanes x accesses (saturates at INT64_MAX)
    std::int64_t memoryBytes = 0;
};

/// 2^32 thread-accesses and 2 GiB unless the environment sets WARPSCOPE_GRID_WORK_LIMIT (a
/// whole number of thread-accesses) or WARPSCOPE_GRID_MEMORY_MIB (a whole number of MiB).
GridBudget defaultGridBudget();
GridEstimate estimateGrid(const ResolvedKernel& kernel);
/// An ErrorCode::OverBudget error naming the estimate and the limit (and how to raise it) when
/// the kernel's estimate is above `budget` (its zero fields the defaults); nullopt otherwise.
std::optional<Error> checkGridBudget(const ResolvedKernel& kernel, const GridBudget& budget = {});

struct GridOptions {
    /// The limits predictGrid and gridAddressExtent check before they walk (checkGridBudget).
    GridBudget budget;
    /// Called with done/total warps, throttled; may be empty.
    std::function<void(std::int64_t done, std::int64_t total)> progress;
    /// Polled; when it becomes true the model stops with a Cancelled error. May be null.
    const std::atomic<bool>* cancelled = nullptr;
    /// How many worst warps to keep per access.
    int worstWarpCount = 8;
    /// Called for every warp and access in launch order (block, warp in block, access) with the
    /// value the histogram counts for it: the warp's sectors for its request (global), its
    /// wavefronts (shared), 0 when no lane is active. What a per-warp heat map draws, without a
    /// second pass over the warps. May be empty.
    std::function<void(std::int64_t blockLinear, std::int64_t warpInBlock, int access, int value)>
        warpValue;
    /// How many bytes of sectors written in part and not yet complete L2 holds before it evicts
    /// (and so fills from DRAM) the oldest: 6 MiB, measured on an H100 (50 MiB L2, ECC on) with
    /// designed kernels (docs/benchmarks.md, "When L2 fills a sector written in part").
    std::int64_t partialSectorCapacityBytes = std::int64_t{6} << 20;
    /// The L2's size, for how long a sector filled from DRAM stays whole in it (the H100's).
    std::int64_t l2Bytes = std::int64_t{50} << 20;
};

/// Evaluates every thread of every warp of the launch. Any thread whose address falls outside
/// its buffer (global; ErrorCode::OutOfBounds), is negative, or is not a multiple of the width is
/// an error that names the first offender in launch order (block, warp, access, lane): access,
/// block, thread and address, as resolveWarp does (the probe relies on this before any launch).
/// Cancelling gives ErrorCode::Cancelled; a kernel above options.budget gives
/// ErrorCode::OverBudget before any walk. docs/models.md ("The grid model") states the rules.
Result<GridPrediction> predictGrid(const ResolvedKernel& kernel, const GridOptions& options = {});

/// The kernel-level counters a measurement is compared with the grid model on, under Nsight
/// Compute's names: the eight of nsightCounterNames() and the L2 sectors requested by L1
/// (lts__t_sectors_srcunit_tex_op_read.sum / _op_write.sum).
const std::vector<std::string>& gridCounterNames();

/// What measure_kernel reads for a whole kernel: gridCounterNames(), DRAM bytes read and written
/// (dram__bytes_read.sum / _write.sum, of which the footprint is a lower bound), the L1 hit rate
/// and the kernel's duration.
const std::vector<std::string>& kernelCounterNames();

/// The hardware counter of LDGSTS bank conflicts. Measured on the H100 it is at least the model's
/// (per-instruction) conflicts and more under load, by conflicts with other warps' shared traffic:
/// the probe reports it, nothing predicts it exactly.
inline constexpr const char* kCopyAsyncHardwareConflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum";

/// What measure_kernel reads for a kernel with an async copy: kernelCounterNames(), the LDGSTS
/// requests and sectors of copyAsyncCounterNames() and kCopyAsyncHardwareConflicts (the shared
/// side's per-instruction wavefronts and conflicts are SASS-patched metrics, which only Nsight
/// Compute measures).
const std::vector<std::string>& kernelCopyCounterNames();

/// The grid's totals as named metrics, as predictGrid fills GridPrediction::metrics.
std::vector<Metric> gridMetrics(const ResolvedKernel& kernel, const GridPrediction& prediction);

/// The largest address + width that access `access` touches over the whole grid (0 when no
/// thread is active), with negative and misaligned addresses as errors but no bounds check:
/// what sizes the buffer of a pattern's kernel.
Result<std::int64_t> gridAddressExtent(const ResolvedKernel& kernel, int access,
                                       const GridOptions& options = {});

/// The expression pattern of one access of a kernel, as the single-warp views show it: the
/// kernel's parameters, launch and the access's expressions, block 0, warp 0.
Result<Pattern> patternFromKernel(const Kernel& kernel, int access = 0);

// ---- JSON --------------------------------------------------------------------------------------

/// The kernel as JSON: the line form `warpscope-cli predict-kernel` reads (grid, block,
/// parameters, buffers, accesses) and, in files, with "format": "warpscope-kernel".
nlohmann::json kernelToJson(const Kernel& kernel);
std::string kernelToJsonText(const Kernel& kernel);
/// Reads either form; errors name a JSON pointer below `where` ("/accesses/1/width").
Result<Kernel> kernelFromJson(const nlohmann::json& object, const std::string& where = "");
Result<Kernel> kernelFromJsonText(std::string_view text);

} // namespace warpscope
