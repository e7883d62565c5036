// The access pattern: one warp instruction, what every layer of warpscope talks about.
// A Pattern either lists its 32 lane addresses or carries the expression they come from
// (PatternSource); resolve() turns either form into a WarpAccess, the 32 concrete addresses the
// models read.
#pragma once

#include "warpscope/result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

inline constexpr int kWarpSize = 32;

/// Constant: the __constant__ space (loads only, at most kConstantBytes), read through the
/// constant cache, which serves a warp's distinct addresses one after another (seed 003).
enum class MemorySpace { Global, Shared, Constant, Local, Texture };
/// CopyAsync: an asynchronous copy from global to shared memory (cp.async, LDGSTS): a global
/// access whose lanes also name a shared address (PatternSource::sharedAddressExpression,
/// WarpAccess::sharedAddresses). Widths 4, 8 and 16 bytes only.
enum class AccessOp { Load, Store, CopyAsync };
/// Global load cache operator, as in PTX ld.global.{ca,cg,nc}; Default is a plain ld.global.
enum class CachePath { Default, CacheAll, CacheGlobal, NonCoherent };

const char* toString(MemorySpace space); // "global", "shared", "constant", "local", "texture"
const char* toString(AccessOp op);       // "load", "store", "copy_async"
const char* toString(CachePath path);    // "default", "ca", "cg", "nc"
std::optional<MemorySpace> memorySpaceFromString(std::string_view text);
std::optional<AccessOp> accessOpFromString(std::string_view text);
std::optional<CachePath> cachePathFromString(std::string_view text);

/// The size of the __constant__ space a kernel may use, in bytes (seed 003: "Size: 64KB").
inline constexpr std::int64_t kConstantBytes = 64 * 1024;

/// Element widths a lane may access, in bytes.
inline constexpr std::array<int, 5> kElementWidths = {1, 2, 4, 8, 16};
bool isValidWidth(int widthBytes);
/// Element widths an asynchronous copy may move (cp.async's cp-size): 4, 8 and 16 bytes.
bool isValidCopyWidth(int widthBytes);

/// Local memory: a thread's byte offset into its own array becomes the address the hardware
/// uses, with consecutive lanes' same 4-byte word side by side (128 bytes per word for a warp):
/// (offset / 4) * 128 + lane * 4 + offset % 4, relative to the warp's local window.
/// docs/models.md ("Local memory") states where this comes from and how it was checked.
std::int64_t localInterleavedAddress(std::int64_t offset, int lane);
/// The thread's byte offset of an interleaved local address (the inverse of the above).
std::int64_t localThreadOffset(std::int64_t interleaved);
/// Widths a local access may have in warpscope's model (1, 2 or 4 bytes: within one
/// interleaved word); texture reads are 4 bytes (one 32-bit texel).
bool isValidWidthFor(MemorySpace space, int widthBytes);

/// The instruction itself, without addresses.
struct AccessKind {
    MemorySpace space = MemorySpace::Global;
    AccessOp op = AccessOp::Load;
    int widthBytes = 4;
    /// Only meaningful for global loads; stores and shared accesses ignore it.
    CachePath cache = CachePath::Default;
    /// ldmatrix (op Load) and stmatrix (op Store): the 8x8 matrices moved, 1, 2 or 4; 0 for every
    /// other access. Such an access is shared and 16 bytes wide, each row lane giving one 16-byte
    /// row (warpscope/matrix_access.h).
    int matrices = 0;
    /// ldmatrix / stmatrix .trans: the matrices are transposed between shared memory and the
    /// registers (which bytes a lane receives, not which rows are read).
    bool transpose = false;

    bool operator==(const AccessKind&) const = default;
};

/// A CUDA dim3.
struct Dim3 {
    std::int64_t x = 1;
    std::int64_t y = 1;
    std::int64_t z = 1;

    std::int64_t count() const { return x * y * z; }
    bool operator==(const Dim3&) const = default;
};

/// A named parameter of an expression; the app turns each into a slider.
struct Parameter {
    std::string name;
    std::int64_t value = 0;
    std::int64_t defaultValue = 0;
    std::int64_t minimum = 0;
    std::int64_t maximum = 0;

    bool operator==(const Parameter&) const = default;
};

/// The expression form of a pattern: which threads form the warp, and what each one touches.
struct PatternSource {
    /// Byte address of a lane's element, relative to the start of the array (global) or of
    /// shared memory.
    std::string addressExpression;
    /// Non-zero for lanes that execute the access.
    std::string activeExpression = "1";
    /// Async copies only: the byte address in shared memory a lane's element is copied to.
    std::string sharedAddressExpression;
    std::vector<Parameter> parameters;
    Dim3 blockDim{32, 1, 1};
    Dim3 gridDim{1, 1, 1};
    Dim3 blockIdx{0, 0, 0};
    /// Which warp of the block (threads linearised x fastest, 32 to a warp).
    std::int64_t warpIndex = 0;

    bool operator==(const PatternSource&) const = default;
};

using LaneAddresses = std::array<std::optional<std::int64_t>, kWarpSize>;

/// One warp instruction as the user describes it.
struct Pattern {
    AccessKind kind;
    /// Set when the pattern comes from an expression; the addresses are then derived.
    std::optional<PatternSource> source;
    /// Used when there is no source: std::nullopt marks an inactive lane.
    LaneAddresses addresses{};

    bool operator==(const Pattern&) const = default;
};

/// The thread a lane stands for, when the pattern comes from an expression.
struct LaneThread {
    Dim3 threadIdx{0, 0, 0};
    std::int64_t linearThreadIndex = 0; // within the block
    std::int64_t globalIndex = 0;       // gid
    bool existsInBlock = true;          // false for lanes past the end of the block
};

/// The concrete instruction the models read: 32 lanes, each inactive or at one byte address.
struct WarpAccess {
    AccessKind kind;
    LaneAddresses addresses{};
    /// Async copies only (kind.op == CopyAsync): where each active lane's element lands in
    /// shared memory; `addresses` is the global side. Unset for every other access.
    std::optional<LaneAddresses> sharedAddresses;
    /// Present when resolved from an expression.
    std::optional<std::array<LaneThread, kWarpSize>> threads;

    int activeLaneCount() const;
    std::uint32_t activeMask() const;
    bool operator==(const WarpAccess&) const = default;
};

/// Check a concrete access: valid width, no negative address, every address a multiple of the
/// width (the hardware faults otherwise). The error's `where` names the lane ("lane 7"). An async
/// copy must be global, 4, 8 or 16 bytes wide, and give every active lane a shared address that
/// passes the same checks ("shared address, lane 7"). An ldmatrix or stmatrix (kind.matrices
/// set) is checked by validateMatrix (warpscope/matrix_access.h).
Result<WarpAccess> validate(WarpAccess access);

/// For a local access: each active lane's per-thread offset replaced by its interleaved address
/// (localInterleavedAddress). Other spaces are returned unchanged. resolve() and resolveWarp()
/// apply it, so a resolved local access holds the addresses the hardware touches.
WarpAccess interleaveLocal(WarpAccess access);
/// The error an async copy's kind has, if any: its space must be global, its width 4, 8 or 16
/// bytes and its cache operator default or ca. Nullopt for every other op.
std::optional<Error> checkCopyKind(const AccessKind& kind);

/// Evaluate a pattern into 32 concrete addresses (and validate them). Errors from the
/// expressions keep their column; `where` says which expression or lane failed.
Result<WarpAccess> resolve(const Pattern& pattern);

/// The threads that form warp `source.warpIndex` of the block (lanes past the end of the block
/// are marked as not existing), or an error for an impossible block shape or warp index.
Result<std::array<LaneThread, kWarpSize>> warpThreads(const PatternSource& source);

} // namespace warpscope
