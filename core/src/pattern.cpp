// Pattern vocabulary (names of spaces, ops, cache paths), the warp's threads, and resolve():
// evaluating a pattern's expressions into 32 concrete, validated lane addresses.
#include "warpscope/pattern.h"

#include "warpscope/expression.h"
#include "warpscope/kernel.h"
#include "warpscope/matrix_access.h"

#include <algorithm>
#include <array>
#include <limits>

namespace warpscope {

namespace {
/// Local memory is interleaved in 4-byte words (docs/models.md, "Local memory").
constexpr std::int64_t kBankWordBytesLocal = 4;
} // namespace

const char* toString(MemorySpace space) {
    switch (space) {
    case MemorySpace::Global:
        return "global";
    case MemorySpace::Shared:
        return "shared";
    case MemorySpace::Constant:
        return "constant";
    case MemorySpace::Local:
        return "local";
    case MemorySpace::Texture:
        return "texture";
    }
    return "global";
}

const char* toString(AccessOp op) {
    switch (op) {
    case AccessOp::Load:
        return "load";
    case AccessOp::Store:
        return "store";
    case AccessOp::CopyAsync:
        return "copy_async";
    }
    return "load";
}

const char* toString(CachePath path) {
    switch (path) {
    case CachePath::Default:
        return "default";
    case CachePath::CacheAll:
        return "ca";
    case CachePath::CacheGlobal:
        return "cg";
    case CachePath::NonCoherent:
        return "nc";
    }
    return "default";
}

std::optional<MemorySpace> memorySpaceFromString(std::string_view text) {
    if (text == "global") {
        return MemorySpace::Global;
    }
    if (text == "shared") {
        return MemorySpace::Shared;
    }
    if (text == "constant") {
        return MemorySpace::Constant;
    }
    if (text == "local") {
        return MemorySpace::Local;
    }
    if (text == "texture") {
        return MemorySpace::Texture;
    }
    return std::nullopt;
}

std::optional<AccessOp> accessOpFromString(std::string_view text) {
    if (text == "load" || text == "ld") {
        return AccessOp::Load;
    }
    if (text == "store" || text == "st") {
        return AccessOp::Store;
    }
    if (text == "copy_async") {
        return AccessOp::CopyAsync;
    }
    return std::nullopt;
}

std::optional<CachePath> cachePathFromString(std::string_view text) {
    for (CachePath path : {CachePath::Default, CachePath::CacheAll, CachePath::CacheGlobal,
                           CachePath::NonCoherent}) {
        if (text == toString(path)) {
            return path;
        }
    }
    return std::nullopt;
}

bool isValidCopyWidth(int widthBytes) {
    return widthBytes == 4 || widthBytes == 8 || widthBytes == 16;
}

bool isValidWidth(int widthBytes) {
    return std::find(kElementWidths.begin(), kElementWidths.end(), widthBytes) !=
           kElementWidths.end();
}

std::int64_t localInterleavedAddress(std::int64_t offset, int lane) {
    return (offset / kBankWordBytesLocal) * kWarpSize * kBankWordBytesLocal +
           std::int64_t{lane} * kBankWordBytesLocal + offset % kBankWordBytesLocal;
}

std::int64_t localThreadOffset(std::int64_t interleaved) {
    const std::int64_t row = kWarpSize * kBankWordBytesLocal;
    return (interleaved / row) * kBankWordBytesLocal + interleaved % kBankWordBytesLocal;
}

bool isValidWidthFor(MemorySpace space, int widthBytes) {
    switch (space) {
    case MemorySpace::Local:
        return widthBytes == 1 || widthBytes == 2 || widthBytes == 4;
    case MemorySpace::Texture:
        return widthBytes == 4;
    case MemorySpace::Global:
    case MemorySpace::Shared:
    case MemorySpace::Constant:
        break;
    }
    return isValidWidth(widthBytes);
}

WarpAccess interleaveLocal(WarpAccess access) {
    if (access.kind.space != MemorySpace::Local) {
        return access;
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
        auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (address) {
            address = localInterleavedAddress(*address, lane);
        }
    }
    return access;
}

int WarpAccess::activeLaneCount() const {
    return static_cast<int>(std::count_if(addresses.begin(), addresses.end(),
                                          [](const auto& a) { return a.has_value(); }));
}

std::uint32_t WarpAccess::activeMask() const {
    std::uint32_t mask = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if (addresses[static_cast<std::size_t>(lane)]) {
            mask |= 1u << lane;
        }
    }
    return mask;
}

namespace {

Error invalid(std::string message, std::string where) {
    return Error{ErrorCode::InvalidValue, std::move(message), 0, std::move(where)};
}

// CUDA's launch limits (warpscope/kernel.h): what a GPU would refuse to launch, core refuses too,
// with a message, rather than handing the probe a launch that fails.
std::optional<Error> checkDim(const Dim3& dim, const std::array<std::int64_t, 3>& limits,
                              const char* name) {
    const std::array<std::pair<std::int64_t, const char*>, 3> axes = {
        std::pair{dim.x, "x"}, std::pair{dim.y, "y"}, std::pair{dim.z, "z"}};
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const auto [value, axis] = axes[i];
        if (value < 1 || value > limits[i]) {
            return invalid(std::string(name) + "." + axis + " must be between 1 and " +
                               std::to_string(limits[i]) + ", not " + std::to_string(value),
                           name);
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<Error> checkCopyKind(const AccessKind& kind) {
    if (kind.op != AccessOp::CopyAsync) {
        return std::nullopt;
    }
    if (kind.space != MemorySpace::Global) {
        return invalid("an async copy (copy_async) reads global memory: its space is \"global\" "
                       "and its shared side is the shared address",
                       "space");
    }
    if (!isValidCopyWidth(kind.widthBytes)) {
        return invalid("an async copy (cp.async) moves 4, 8 or 16 bytes per lane, not " +
                           std::to_string(kind.widthBytes),
                       "width");
    }
    if (kind.cache == CachePath::CacheGlobal || kind.cache == CachePath::NonCoherent) {
        return invalid(std::string("warpscope models async copies through L1 (cp.async.ca); the "
                                   "cache operator \"") +
                           toString(kind.cache) + "\" is not modelled",
                       "cache");
    }
    return std::nullopt;
}

Result<WarpAccess> validate(WarpAccess access) {
    if (isMatrixAccess(access.kind)) {
        return validateMatrix(access);
    }
    if (!isValidWidth(access.kind.widthBytes)) {
        return invalid("element width must be 1, 2, 4, 8 or 16 bytes, not " +
                           std::to_string(access.kind.widthBytes),
                       "width");
    }
    const bool constant = access.kind.space == MemorySpace::Constant;
    if (constant && access.kind.op == AccessOp::Store) {
        return invalid("constant memory is read-only in a kernel (the host writes it with "
                       "cudaMemcpyToSymbol); a constant access must be a load",
                       "op");
    }
    if (!isValidWidthFor(access.kind.space, access.kind.widthBytes)) {
        return invalid(std::string(access.kind.space == MemorySpace::Local
                                       ? "local accesses must be 1, 2 or 4 bytes wide, not "
                                       : "texture reads must be 4 bytes wide, not ") +
                           std::to_string(access.kind.widthBytes),
                       "width");
    }
    if (access.kind.space == MemorySpace::Texture && access.kind.op != AccessOp::Load) {
        return invalid("a texture is read only: texture accesses must be loads", "op");
    }
    if (auto error = checkCopyKind(access.kind)) {
        return *error;
    }
    const bool copy = access.kind.op == AccessOp::CopyAsync;
    if (copy && !access.sharedAddresses) {
        return invalid("an async copy needs a shared address for every lane", "shared address");
    }
    if (!copy && access.sharedAddresses) {
        return invalid("only an async copy (copy_async) has shared addresses", "shared address");
    }
    for (int side = 0; side < (copy ? 2 : 1); ++side) {
        for (int lane = 0; lane < kWarpSize; ++lane) {
            const auto& address = side == 0
                                      ? access.addresses[static_cast<std::size_t>(lane)]
                                      : (*access.sharedAddresses)[static_cast<std::size_t>(lane)];
            if (side == 1 && access.addresses[static_cast<std::size_t>(lane)].has_value() !=
                                 address.has_value()) {
                return invalid("lane " + std::to_string(lane) +
                                   (address ? " has a shared address but no global one"
                                            : " has a global address but no shared one"),
                               "shared address, lane " + std::to_string(lane));
            }
            if (!address) {
                continue;
            }
            const std::string where =
                (side == 1 ? "shared address, lane " : "lane ") + std::to_string(lane);
            if (constant && *address >= 0 && *address > kConstantBytes - access.kind.widthBytes) {
                return Error{ErrorCode::OutOfBounds,
                             "address " + std::to_string(*address) + " + " +
                                 std::to_string(access.kind.widthBytes) +
                                 " bytes is past the end of constant memory (64 KiB, 65536 bytes)",
                             0, where};
            }
            if (*address < 0) {
                return Error{ErrorCode::NegativeAddress,
                             "address " + std::to_string(*address) + " is negative", 0, where};
            }
            if (*address > std::numeric_limits<std::int64_t>::max() - 16) {
                return Error{ErrorCode::Overflow,
                             "address " + std::to_string(*address) + " is too large", 0, where};
            }
            if (*address % access.kind.widthBytes != 0) {
                return Error{ErrorCode::Misaligned,
                             "address " + std::to_string(*address) + " is not a multiple of the " +
                                 std::to_string(access.kind.widthBytes) +
                                 "-byte element width (the GPU would fault)",
                             0, where};
            }
        }
    }
    return access;
}

Result<std::array<LaneThread, kWarpSize>> warpThreads(const PatternSource& source) {
    if (auto error = checkDim(source.blockDim, kMaxBlockDim, "bdim")) {
        return *error;
    }
    if (source.blockDim.count() > kMaxThreadsPerBlock) {
        return invalid("a block holds at most " + std::to_string(kMaxThreadsPerBlock) +
                           " threads, not " + std::to_string(source.blockDim.count()),
                       "bdim");
    }
    if (auto error = checkDim(source.gridDim, kMaxGridDim, "gdim")) {
        return *error;
    }
    // Every thread's gid must fit in int64 (the block index and gid below are computed from it).
    std::int64_t gridThreads = 0;
    if (__builtin_mul_overflow(source.gridDim.x, source.gridDim.y, &gridThreads) ||
        __builtin_mul_overflow(gridThreads, source.gridDim.z, &gridThreads) ||
        __builtin_mul_overflow(gridThreads, source.blockDim.count(), &gridThreads)) {
        return invalid("the grid has more threads than a signed 64-bit gid can count", "gdim");
    }
    for (auto [index, dim, axis] : {std::tuple{source.blockIdx.x, source.gridDim.x, "x"},
                                    std::tuple{source.blockIdx.y, source.gridDim.y, "y"},
                                    std::tuple{source.blockIdx.z, source.gridDim.z, "z"}}) {
        if (index < 0 || index >= dim) {
            return invalid(std::string("bid.") + axis + " must be between 0 and " +
                               std::to_string(dim - 1) + ", not " + std::to_string(index),
                           "bid");
        }
    }
    const std::int64_t threadsPerBlock = source.blockDim.count();
    const std::int64_t warpsPerBlock = (threadsPerBlock + kWarpSize - 1) / kWarpSize;
    if (source.warpIndex < 0 || source.warpIndex >= warpsPerBlock) {
        return invalid("warp index must be between 0 and " + std::to_string(warpsPerBlock - 1) +
                           " for a block of " + std::to_string(threadsPerBlock) + " threads, not " +
                           std::to_string(source.warpIndex),
                       "warp");
    }
    const Dim3& b = source.blockDim;
    const Dim3& g = source.gridDim;
    const std::int64_t linearBlock =
        source.blockIdx.x + g.x * (source.blockIdx.y + g.y * source.blockIdx.z);

    std::array<LaneThread, kWarpSize> threads{};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        LaneThread& t = threads[static_cast<std::size_t>(lane)];
        const std::int64_t linear = source.warpIndex * kWarpSize + lane;
        t.linearThreadIndex = linear;
        t.existsInBlock = linear < threadsPerBlock;
        // CUDA linearises threads x fastest, then y, then z.
        t.threadIdx = Dim3{linear % b.x, (linear / b.x) % b.y, linear / (b.x * b.y)};
        t.globalIndex = linearBlock * threadsPerBlock + linear;
    }
    return threads;
}

namespace {

/// A local access's offsets are checked as the user wrote them, then interleaved.
Result<WarpAccess> validateThenInterleave(WarpAccess access) {
    auto checked = validate(access);
    if (!checked) {
        return checked;
    }
    return interleaveLocal(checked.value());
}

} // namespace

Result<WarpAccess> resolve(const Pattern& pattern) {
    WarpAccess access;
    access.kind = pattern.kind;
    if (!pattern.source) {
        access.addresses = pattern.addresses;
        return validateThenInterleave(access);
    }
    const PatternSource& source = *pattern.source;

    std::vector<std::string> names;
    std::vector<std::int64_t> values;
    for (const Parameter& p : source.parameters) {
        if (!isValidParameterName(p.name)) {
            return invalid("'" + p.name + "' cannot be a parameter name", "parameters");
        }
        if (std::find(names.begin(), names.end(), p.name) != names.end()) {
            return invalid("parameter '" + p.name + "' is declared twice", "parameters");
        }
        names.push_back(p.name);
        values.push_back(p.value);
    }

    auto address = Expression::parse(source.addressExpression, names);
    if (!address) {
        Error error = address.error();
        error.where = "addressExpression";
        return error;
    }
    auto active = Expression::parse(source.activeExpression, names);
    if (!active) {
        Error error = active.error();
        error.where = "activeExpression";
        return error;
    }
    const bool copy = pattern.kind.op == AccessOp::CopyAsync;
    std::optional<Expression> sharedAddress;
    if (copy) {
        if (auto error = checkCopyKind(pattern.kind)) {
            return *error;
        }
        if (source.sharedAddressExpression.empty()) {
            return invalid("an async copy needs a shared address expression (where each lane's "
                           "element lands in shared memory)",
                           "sharedAddressExpression");
        }
        auto parsed = Expression::parse(source.sharedAddressExpression, names);
        if (!parsed) {
            Error error = parsed.error();
            error.where = "sharedAddressExpression";
            return error;
        }
        sharedAddress = std::move(parsed).value();
        access.sharedAddresses = LaneAddresses{};
    }
    auto threads = warpThreads(source);
    if (!threads) {
        return threads.error();
    }

    ThreadEnvironment env;
    env.warp = source.warpIndex;
    env.bdim = source.blockDim;
    env.bid = source.blockIdx;
    env.gdim = source.gridDim;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const LaneThread& t = threads.value()[static_cast<std::size_t>(lane)];
        if (!t.existsInBlock) {
            continue; // a partial last warp: these lanes do not exist
        }
        env.lane = lane;
        env.tid = t.threadIdx;
        env.gid = t.globalIndex;
        auto isActive = active->evaluate(env, values);
        if (!isActive) {
            Error error = isActive.error();
            error.where = "activeExpression, lane " + std::to_string(lane);
            return error;
        }
        if (isActive.value() == 0) {
            continue;
        }
        auto value = address->evaluate(env, values);
        if (!value) {
            Error error = value.error();
            error.where = "addressExpression, lane " + std::to_string(lane);
            return error;
        }
        access.addresses[static_cast<std::size_t>(lane)] = value.value();
        if (sharedAddress) {
            auto shared = sharedAddress->evaluate(env, values);
            if (!shared) {
                Error error = shared.error();
                error.where = "sharedAddressExpression, lane " + std::to_string(lane);
                return error;
            }
            (*access.sharedAddresses)[static_cast<std::size_t>(lane)] = shared.value();
        }
    }
    access.threads = threads.value();
    return validateThenInterleave(access);
}

} // namespace warpscope
