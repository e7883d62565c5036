// The grid model's budget (kernel.h: GridBudget, estimateGrid, checkGridBudget): what a walk
// would cost, estimated from the launch and the buffers before it starts, so that a launch of
// 2^31 x 1024 threads or a buffer of 2^40 bytes is refused at once with the numbers instead of
// running for hours or allocating by the declared size.
#include "grid_budget.h"

#include "warpscope/kernel.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace warpscope {

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kDefaultThreadAccesses = std::int64_t{1} << 32;
constexpr std::int64_t kDefaultMemoryMiB = 2048;

/// a * b for non-negative values, INT64_MAX when it overflows.
std::int64_t saturatingProduct(std::int64_t a, std::int64_t b) {
    std::int64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? kInt64Max : product;
}

std::int64_t saturatingSum(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? kInt64Max : sum;
}

/// A positive whole number from the environment, or `fallback`.
std::int64_t environmentNumber(const char* name, std::int64_t fallback) {
    const char* text = std::getenv(name);
    if (text == nullptr) {
        return fallback;
    }
    const std::string_view view(text);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(view.data(), view.data() + view.size(), value);
    if (ec != std::errc() || end != view.data() + view.size() || value < 1) {
        return fallback;
    }
    return value;
}

constexpr const char* kMemoryAdvice = "; make the launch or the buffers smaller, or set "
                                      "WARPSCOPE_GRID_MEMORY_MIB to a larger number of MiB";

std::string mib(std::int64_t bytes) {
    return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

} // namespace

GridBudget defaultGridBudget() {
    static const GridBudget budget = [] {
        GridBudget b;
        b.maxThreadAccesses =
            environmentNumber("WARPSCOPE_GRID_WORK_LIMIT", kDefaultThreadAccesses);
        b.maxMemoryBytes =
            saturatingProduct(environmentNumber("WARPSCOPE_GRID_MEMORY_MIB", kDefaultMemoryMiB),
                              std::int64_t{1} << 20);
        return b;
    }();
    return budget;
}

GridEstimate estimateGrid(const ResolvedKernel& kernel) {
    GridEstimate estimate;
    const std::int64_t warps = kernel.warpCount();
    const auto accesses = static_cast<std::int64_t>(kernel.accesses.size());
    estimate.threadAccesses =
        saturatingProduct(saturatingProduct(warps, kWarpSize), std::max<std::int64_t>(accesses, 1));
    for (std::size_t b = 0; b < kernel.buffers.size(); ++b) {
        std::int64_t touching = 0;
        bool stored = false;
        for (const ResolvedAccess& access : kernel.accesses) {
            if (access.bufferIndex == static_cast<int>(b)) {
                ++touching;
                stored = stored || access.access.kind.op == AccessOp::Store;
            }
        }
        // A warp's request touches at most 32 sectors (each lane's element lies in one sector:
        // addresses are multiples of the width). The least the walk can need is a bit per
        // touched sector in each set and, for a stored buffer, a state word; how many pages
        // those sectors fall on is known only by walking, which counts them as it goes.
        const std::int64_t sectors = (kernel.buffers[b].bytes + kSectorBytes - 1) / kSectorBytes;
        const std::int64_t touched =
            std::min(sectors, saturatingProduct(saturatingProduct(warps, touching), kWarpSize));
        estimate.memoryBytes = saturatingSum(
            estimate.memoryBytes, saturatingProduct(touched / 8 + 1, detail::kSectorSetsPerBuffer));
        if (stored) {
            estimate.memoryBytes = saturatingSum(
                estimate.memoryBytes,
                saturatingProduct(touched, static_cast<std::int64_t>(sizeof(std::uint64_t)) *
                                               detail::kSectorStatesPerStoredBuffer));
        }
    }
    return estimate;
}

std::optional<Error> checkGridBudget(const ResolvedKernel& kernel, const GridBudget& budget) {
    const GridBudget defaults = defaultGridBudget();
    const std::int64_t maxWork =
        budget.maxThreadAccesses > 0 ? budget.maxThreadAccesses : defaults.maxThreadAccesses;
    const std::int64_t maxMemory =
        budget.maxMemoryBytes > 0 ? budget.maxMemoryBytes : defaults.maxMemoryBytes;
    const GridEstimate estimate = estimateGrid(kernel);
    if (estimate.threadAccesses > maxWork) {
        const Dim3& g = kernel.grid;
        const Dim3& b = kernel.block;
        return Error{ErrorCode::OverBudget,
                     "the grid model would evaluate " + std::to_string(estimate.threadAccesses) +
                         " thread-accesses (" + std::to_string(g.count()) + " blocks of " +
                         std::to_string(b.count()) + " threads x " +
                         std::to_string(kernel.accesses.size()) +
                         " accesses), above its limit of " + std::to_string(maxWork) +
                         "; make the launch smaller, or set WARPSCOPE_GRID_WORK_LIMIT to a larger "
                         "number of thread-accesses",
                     0, "/grid"};
    }
    if (estimate.memoryBytes > maxMemory) {
        return Error{ErrorCode::OverBudget,
                     "the grid model's footprint needs at least " + mib(estimate.memoryBytes) +
                         " of memory for the sectors this launch may touch, above its limit of " +
                         mib(maxMemory) + kMemoryAdvice,
                     0, "/buffers"};
    }
    detail::footprintBytesAllocated = 0; // the walk that follows counts its pages from here
    return std::nullopt;
}

namespace detail {

std::optional<Error> footprintOverBudget(const GridBudget& budget) {
    const std::int64_t maxMemory =
        budget.maxMemoryBytes > 0 ? budget.maxMemoryBytes : defaultGridBudget().maxMemoryBytes;
    if (footprintBytesAllocated <= maxMemory) {
        return std::nullopt;
    }
    return Error{ErrorCode::OverBudget,
                 "the grid model's footprint took more than its limit of " + mib(maxMemory) +
                     " of memory while walking the grid: the launch's sectors fall on too many "
                     "pages" +
                     kMemoryAdvice,
                 0, "/buffers"};
}

} // namespace detail

} // namespace warpscope
