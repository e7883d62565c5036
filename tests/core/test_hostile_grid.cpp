// Hostile sizes against the grid model's one budget (issue 30): memory follows the bytes the
// grid touches, never a buffer's declared size, and work above the limit is refused before the
// walk with the estimate and the limit named.
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"

#include <gtest/gtest.h>

#include <string>

namespace warpscope {
namespace {

/// One warp storing 4 bytes per lane (a partial write of every sector it touches when only
/// every other lane is active) into a buffer declared at `bytes`.
Kernel oneWarpStore(const std::string& bytes, const std::string& address) {
    Kernel kernel;
    kernel.name = "hostile";
    kernel.buffers = {KernelBuffer{"data", bytes}};
    KernelAccess store;
    store.kind = AccessKind{MemorySpace::Global, AccessOp::Store, 4, CachePath::Default};
    store.buffer = "data";
    store.addressExpression = address;
    store.activeExpression = "lane % 2 == 0";
    kernel.accesses = {store};
    return kernel;
}

ResolvedKernel resolvedOrFail(const Kernel& kernel) {
    auto resolved = resolveKernel(kernel);
    EXPECT_TRUE(resolved.ok()) << (resolved.ok() ? "" : resolved.error().describe());
    return resolved.ok() ? resolved.value() : ResolvedKernel{};
}

TEST(HostileGrid, ABufferOf2To40BytesTouchedByOneWarpCostsItsPagesNotItsSize) {
    // Before the budget the partial-write state was one 8-byte word per declared sector:
    // 2^35 words, and predictGrid threw std::bad_alloc.
    for (const std::string address :
         {"lane * 4", "(1 << 40) - 256 + lane * 4", "lane * (1 << 35)"}) {
        const ResolvedKernel kernel = resolvedOrFail(oneWarpStore("1 << 40", address));
        const GridEstimate estimate = estimateGrid(kernel);
        EXPECT_LE(estimate.memoryBytes, std::int64_t{2} << 20) << address;
        auto prediction = predictGrid(kernel);
        ASSERT_TRUE(prediction.ok()) << prediction.error().describe();
        EXPECT_EQ(prediction->buffers[0].bytes, std::int64_t{1} << 40);
        EXPECT_GE(prediction->buffers[0].sectorsWritten, 1) << address;
        EXPECT_EQ(prediction->buffers[0].sectorsWrittenInPart,
                  prediction->buffers[0].sectorsWritten)
            << address;
    }
}

TEST(HostileGrid, TheLargestLaunchIsRefusedBeforeTheWalkNamingEstimateAndLimit) {
    Kernel kernel = oneWarpStore("1 << 40", "0");
    kernel.launch.grid = {"2147483647", "1", "1"};
    kernel.launch.block = {"1024", "1", "1"};
    const ResolvedKernel resolved = resolvedOrFail(kernel);
    EXPECT_EQ(estimateGrid(resolved).threadAccesses, std::int64_t{2147483647} * 1024);
    auto prediction = predictGrid(resolved);
    ASSERT_FALSE(prediction.ok());
    EXPECT_EQ(prediction.error().code, ErrorCode::OverBudget);
    EXPECT_EQ(prediction.error().where, "/grid");
    const std::string& message = prediction.error().message;
    EXPECT_NE(message.find(std::to_string(std::int64_t{2147483647} * 1024)), std::string::npos)
        << message;
    EXPECT_NE(message.find(std::to_string(defaultGridBudget().maxThreadAccesses)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("WARPSCOPE_GRID_WORK_LIMIT"), std::string::npos) << message;
    // gridAddressExtent (what sizes a pattern's buffer) walks the grid too: the same budget.
    auto extent = gridAddressExtent(resolved, 0);
    ASSERT_FALSE(extent.ok());
    EXPECT_EQ(extent.error().code, ErrorCode::OverBudget);
}

TEST(HostileGrid, AGridWrittenAsAShiftIsRefusedToo) {
    Kernel kernel = oneWarpStore("4096", "0");
    kernel.launch.grid = {"1 << 30", "1", "1"};
    auto prediction = predictGrid(resolvedOrFail(kernel));
    ASSERT_FALSE(prediction.ok());
    EXPECT_EQ(prediction.error().code, ErrorCode::OverBudget);
}

TEST(HostileGrid, ScatteredTouchesOfManyPagesAreRefusedByTheMemoryLimit) {
    // 2^16 warps, each lane on its own 1 MiB page of a 2^40-byte buffer: 2^21 pages of four
    // sector sets and the partial-write state. The estimate before the walk cannot know where
    // the sectors fall (it is a lower bound); the walk counts the pages it allocates and stops at
    // the limit, here 64 MiB so that the test stays small.
    Kernel kernel = oneWarpStore("1 << 40", "gid * (1 << 19) % (1 << 40)");
    kernel.launch.grid = {"65536", "1", "1"};
    const ResolvedKernel resolved = resolvedOrFail(kernel);
    GridOptions options;
    options.budget.maxMemoryBytes = std::int64_t{64} << 20;
    EXPECT_LE(estimateGrid(resolved).memoryBytes, options.budget.maxMemoryBytes);
    auto prediction = predictGrid(resolved, options);
    ASSERT_FALSE(prediction.ok());
    EXPECT_EQ(prediction.error().code, ErrorCode::OverBudget);
    EXPECT_NE(prediction.error().message.find("while walking the grid"), std::string::npos)
        << prediction.error().message;
    EXPECT_NE(prediction.error().message.find("WARPSCOPE_GRID_MEMORY_MIB"), std::string::npos);
}

TEST(HostileGrid, AnUnsizedPatternKernelsPlaceholderBufferIsNotRefused) {
    // A pattern's one-access kernel before its buffer is sized (kernelFromPatternUnsized, what
    // the app's grid view walks) declares 2^40 bytes; a column walk of a 1024 x 1024 matrix
    // touches 4 MiB of it.
    Kernel kernel = oneWarpStore("1 << 40", "(gid % 1024) * 1024 * 4 + (gid / 1024) * 4");
    kernel.launch.grid = {"1024", "1", "1"};
    kernel.launch.block = {"1024", "1", "1"};
    const ResolvedKernel resolved = resolvedOrFail(kernel);
    auto prediction = predictGrid(resolved);
    ASSERT_TRUE(prediction.ok()) << prediction.error().describe();
}

TEST(HostileGrid, ACallerMayPassItsOwnLimits) {
    Kernel kernel = oneWarpStore("4096", "lane * 4");
    kernel.launch.grid = {"4", "1", "1"};
    const ResolvedKernel resolved = resolvedOrFail(kernel);
    ASSERT_EQ(estimateGrid(resolved).threadAccesses, 4 * 32);
    GridOptions options;
    options.budget.maxThreadAccesses = 127;
    auto refused = predictGrid(resolved, options);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::OverBudget);
    options.budget.maxThreadAccesses = 128;
    EXPECT_TRUE(predictGrid(resolved, options).ok());
    options.budget.maxMemoryBytes = 1;
    auto noMemory = predictGrid(resolved, options);
    ASSERT_FALSE(noMemory.ok());
    EXPECT_EQ(noMemory.error().where, "/buffers");
}

TEST(HostileGrid, EveryKernelPresetIsWithinTheDefaultBudget) {
    const GridBudget budget = defaultGridBudget();
    ASSERT_FALSE(builtinKernelPresets().empty());
    for (const KernelPreset& preset : builtinKernelPresets()) {
        const ResolvedKernel resolved = resolvedOrFail(preset.kernel);
        const GridEstimate estimate = estimateGrid(resolved);
        EXPECT_LE(estimate.threadAccesses, budget.maxThreadAccesses) << preset.id;
        EXPECT_LE(estimate.memoryBytes, budget.maxMemoryBytes) << preset.id;
        EXPECT_FALSE(checkGridBudget(resolved).has_value()) << preset.id;
    }
}

TEST(HostileGrid, FootprintsOfLargeBuffersMatchSmallOnes) {
    // The hashed page table (buffers above 4 GiB) counts what the flat one counts.
    Kernel small = oneWarpStore("1 << 20", "gid * 4 + (gid / 64) * 4096");
    small.launch.grid = {"64", "1", "1"};
    small.accesses[0].activeExpression = "1";
    KernelAccess load = small.accesses[0];
    load.kind.op = AccessOp::Load;
    load.addressExpression = "gid * 8 % (1 << 20)";
    small.accesses.push_back(load);
    Kernel large = small;
    large.buffers[0].bytesExpression = "1 << 40";
    auto a = predictGrid(resolvedOrFail(small));
    auto b = predictGrid(resolvedOrFail(large));
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->buffers[0].sectorsRead, b->buffers[0].sectorsRead);
    EXPECT_EQ(a->buffers[0].sectorsWritten, b->buffers[0].sectorsWritten);
    EXPECT_EQ(a->buffers[0].l2SectorsRead, b->buffers[0].l2SectorsRead);
    EXPECT_EQ(a->buffers[0].sectorsWrittenInPart, b->buffers[0].sectorsWrittenInPart);
    EXPECT_GT(a->buffers[0].sectorsRead, 0);
}

} // namespace
} // namespace warpscope
