// Kernels (core/include/warpscope/kernel.h): resolution against CUDA's launch limits, the JSON
// forms, the grid model against the per-warp modern model, and the built-in kernel presets.
// This file: the kernel JSON, resolution and the grid model's counts (test_kernel_grid.cpp: sectors
// written in part and random kernels; test_kernel_presets.cpp: presets, warp-wide evaluation,
// files).
#include "kernel_test_support.h"

namespace warpscope {
namespace {

using namespace kernel_test;

// ---- JSON ----------------------------------------------------------------------------------

TEST(KernelJson, ReadsTheIssueExample) {
    const Kernel kernel = kernelOrFail(kIssueExample);
    ASSERT_EQ(kernel.accesses.size(), 2u);
    EXPECT_EQ(kernel.launch.grid[0], "128");
    EXPECT_EQ(kernel.launch.block[1], "16");
    ASSERT_EQ(kernel.parameters.size(), 2u);
    EXPECT_EQ(kernel.buffers[1].name, "out");
    EXPECT_EQ(kernel.accesses[1].kind.op, AccessOp::Store);
    EXPECT_EQ(kernel.accesses[0].buffer, "in");
}

TEST(KernelJson, RoundTripsThroughTheFileForm) {
    Kernel kernel = kernelOrFail(kIssueExample);
    kernel.name = "naive col";
    kernel.launch.grid = {"(nx + 15) / 16", "ny / 16", "1"};
    kernel.accesses[0].label = "load in";
    kernel.accesses[0].kind.cache = CachePath::CacheGlobal;
    KernelAccess shared;
    shared.kind = AccessKind{MemorySpace::Shared, AccessOp::Store, 8, CachePath::Default};
    shared.addressExpression = "tid.x * 8";
    kernel.accesses.push_back(shared);
    const std::string text = kernelToJsonText(kernel);
    EXPECT_NE(text.find("\"format\": \"warpscope-kernel\""), std::string::npos);
    const Kernel back = kernelOrFail(text);
    EXPECT_EQ(back, kernel);
    auto fromJson = kernelFromJson(kernelToJson(kernel));
    ASSERT_TRUE(fromJson.ok());
    EXPECT_EQ(fromJson.value(), kernel);
}

TEST(KernelJson, ParameterListFormKeepsRanges) {
    const Kernel kernel = kernelOrFail(
        R"({"parameters": [{"name": "offset", "value": 11, "min": 0, "max": 128, "default": 0}],
            "buffers": [{"name": "a", "bytes": "1024 + offset * 4"}], "grid": 1, "block": "32",
            "accesses": [{"op": "ld", "buffer": "a", "width": 4, "address": "(lane + offset) * 4"}]})");
    ASSERT_EQ(kernel.parameters.size(), 1u);
    EXPECT_EQ(kernel.parameters[0], (Parameter{"offset", 11, 0, 0, 128}));
    EXPECT_EQ(kernel.buffers[0].bytesExpression, "1024 + offset * 4");
    EXPECT_EQ(kernel.launch.block, (std::array<std::string, 3>{"32", "1", "1"}));
}

struct BadKernel {
    const char* text;
    const char* where;
};

TEST(KernelJson, RefusesBadFieldsNamingThePlace) {
    const std::string base =
        R"("buffers": [{"name": "a", "bytes": 64}], "grid": [1], "block": [32])";
    const BadKernel cases[] = {
        {R"([1, 2])", ""},
        {R"({"buffers": [{"name": "a", "bytes": 64}]})", "/accesses"},
        {R"({"accesses": []})", "/accesses"},
        {R"({"accesses": [{"op": "load", "buffer": "a", "width": 3, "address": "0"}]})",
         "/accesses/0/width"},
        {R"({"accesses": [{"op": "copy", "buffer": "a", "width": 4, "address": "0"}]})",
         "/accesses/0/op"},
        {R"({"accesses": [{"op": "load", "width": 4, "address": "0"}]})", "/accesses/0/buffer"},
        {R"({"accesses": [{"op": "load", "space": "shared", "buffer": "a", "width": 4,
             "address": "0"}]})",
         "/accesses/0/buffer"},
        {R"({"accesses": [{"op": "load", "buffer": "a", "width": 4, "address": true}]})",
         "/accesses/0/address"},
        {R"({"grid": [1, 2, 3, 4], "accesses": [{"op": "load", "buffer": "a", "width": 4,
             "address": "0"}]})",
         "/grid"},
        {R"({"grid": [1.5], "accesses": [{"op": "load", "buffer": "a", "width": 4,
             "address": "0"}]})",
         "/grid/0"},
        {R"({"parameters": {"tid": 3}, "accesses": [{"op": "load", "buffer": "a", "width": 4,
             "address": "0"}]})",
         "/parameters/tid"},
        {R"({"buffers": [{"name": "a", "bytes": 64}, {"name": "a", "bytes": 64}],
             "accesses": [{"op": "load", "buffer": "a", "width": 4, "address": "0"}]})",
         "/buffers/1/name"},
        {R"({"format": "warpscope-kernel", "version": 2, "accesses": []})", "/version"},
        {R"({"format": "warpscope-pattern", "version": 1, "accesses": []})", "/format"},
    };
    for (const BadKernel& c : cases) {
        auto kernel = kernelFromJsonText(c.text);
        ASSERT_FALSE(kernel.ok()) << c.text;
        EXPECT_EQ(kernel.error().code, ErrorCode::FileFormat) << c.text;
        EXPECT_EQ(kernel.error().where, c.where) << c.text << ": " << kernel.error().describe();
    }
    (void)base;
}

TEST(KernelJson, RefusesHostileText) {
    EXPECT_FALSE(kernelFromJsonText("").ok());
    EXPECT_FALSE(kernelFromJsonText(std::string(100, '[')).ok());
    EXPECT_FALSE(kernelFromJsonText("{\"accesses\": [}").ok());
    EXPECT_FALSE(kernelFromJsonText("{\"a\": 1, \"a\": 2}").ok());
}

// ---- Resolution ----------------------------------------------------------------------------

TEST(ResolveKernel, EvaluatesSizesAndLaunch) {
    Kernel kernel = kernelOrFail(kIssueExample);
    kernel.launch.grid = {"(nx + bdx - 1) / bdx", "ny / 16", "1"};
    kernel.launch.block = {"bdx", "16", "1"};
    kernel.parameters.push_back(Parameter{"bdx", 8, 8, 1, 1024});
    kernel.buffers[0].bytesExpression = "nx * ny * 4";
    const ResolvedKernel resolved = resolvedOrFail(kernel);
    EXPECT_EQ(resolved.grid, (Dim3{256, 128, 1}));
    EXPECT_EQ(resolved.block, (Dim3{8, 16, 1}));
    EXPECT_EQ(resolved.buffers[0].bytes, 16777216);
    EXPECT_EQ(resolved.accesses[1].bufferIndex, 1);
    EXPECT_EQ(resolved.warpsPerBlock(), 4);
    EXPECT_EQ(resolved.warpCount(), 256 * 128 * 4);
}

struct BadLaunch {
    std::array<std::string, 3> grid;
    std::array<std::string, 3> block;
    std::string where;
};

TEST(ResolveKernel, RefusesLaunchesCudaRefuses) {
    const BadLaunch cases[] = {
        {{"1", "1", "1"}, {"1025", "1", "1"}, "/block/0"},
        {{"1", "1", "1"}, {"64", "32", "1"}, "/block"},
        {{"1", "1", "1"}, {"1", "1", "65"}, "/block/2"},
        {{"1", "65536", "1"}, {"32", "1", "1"}, "/grid/1"},
        {{"1", "1", "65536"}, {"32", "1", "1"}, "/grid/2"},
        {{"2147483648", "1", "1"}, {"32", "1", "1"}, "/grid/0"},
        {{"0", "1", "1"}, {"32", "1", "1"}, "/grid/0"},
        {{"1", "1", "1"}, {"-32", "1", "1"}, "/block/0"},
        {{"1 / 0", "1", "1"}, {"32", "1", "1"}, "/grid/0"},
        {{"tid.x + 1", "1", "1"}, {"32", "1", "1"}, "/grid/0"},
        {{"2147483647", "65535", "65535"}, {"1024", "1", "1"}, "/grid"},
    };
    for (const BadLaunch& c : cases) {
        Kernel kernel = simpleKernel("lane * 4");
        kernel.launch.grid = c.grid;
        kernel.launch.block = c.block;
        auto resolved = resolveKernel(kernel);
        ASSERT_FALSE(resolved.ok()) << c.where;
        EXPECT_EQ(resolved.error().where, c.where) << resolved.error().describe();
    }
    Kernel largest = simpleKernel("lane * 4");
    largest.launch.grid = {"2147483647", "1", "1"};
    largest.launch.block = {"1024", "1", "1"};
    EXPECT_TRUE(resolveKernel(largest).ok());
}

TEST(ResolveKernel, ErrorsNameTheExpressionAndColumn) {
    Kernel kernel = simpleKernel("lane * 4 + nope");
    auto resolved = resolveKernel(kernel);
    ASSERT_FALSE(resolved.ok());
    EXPECT_EQ(resolved.error().where, "/accesses/0/address");
    EXPECT_EQ(resolved.error().code, ErrorCode::UnknownName);
    EXPECT_EQ(resolved.error().column, 12);

    kernel = simpleKernel("lane * 4", "64 * gid");
    resolved = resolveKernel(kernel);
    ASSERT_FALSE(resolved.ok());
    EXPECT_EQ(resolved.error().where, "/buffers/0/bytes");
    EXPECT_EQ(resolved.error().column, 6);

    kernel = simpleKernel("lane * 4");
    kernel.accesses[0].buffer = "other";
    resolved = resolveKernel(kernel);
    ASSERT_FALSE(resolved.ok());
    EXPECT_EQ(resolved.error().where, "/accesses/0/buffer");

    kernel = simpleKernel("lane * 4");
    kernel.accesses[0].activeExpression = "(";
    resolved = resolveKernel(kernel);
    ASSERT_FALSE(resolved.ok());
    EXPECT_EQ(resolved.error().where, "/accesses/0/active");
}

TEST(ResolveWarp, GivesTheWarpsLanes) {
    Kernel kernel = simpleKernel("gid * 4");
    kernel.launch.block = {"48", "1", "1"};
    const ResolvedKernel resolved = resolvedOrFail(kernel);
    auto warp = resolveWarp(resolved, 0, 2, 1);
    ASSERT_TRUE(warp.ok()) << warp.error().describe();
    // Block 2, warp 1 of a 48-thread block: threads 32..47, gids 128..143; lanes 16.. absent.
    EXPECT_EQ(warp->activeLaneCount(), 16);
    EXPECT_EQ(warp->addresses[0], 128 * 4);
    EXPECT_EQ(warp->addresses[15], 143 * 4);
    EXPECT_FALSE(warp->addresses[16].has_value());
    ASSERT_TRUE(warp->threads.has_value());
    EXPECT_FALSE((*warp->threads)[16].existsInBlock);
    EXPECT_FALSE(resolveWarp(resolved, 0, 4, 0).ok());
    EXPECT_FALSE(resolveWarp(resolved, 0, 0, 2).ok());
    EXPECT_FALSE(resolveWarp(resolved, 1, 0, 0).ok());
}

TEST(KernelFromPattern, SizesTheBufferToTheGrid) {
    Pattern pattern;
    PatternSource source;
    source.addressExpression = "(gid + offset) * 4";
    source.parameters = {Parameter{"offset", 11, 0, 0, 128}};
    source.gridDim = Dim3{4, 1, 1};
    pattern.source = source;
    auto kernel = kernelFromPattern(pattern);
    ASSERT_TRUE(kernel.ok()) << kernel.error().describe();
    ASSERT_EQ(kernel->buffers.size(), 1u);
    EXPECT_EQ(kernel->buffers[0].bytesExpression, std::to_string((127 + 11) * 4 + 4));
    const GridPrediction grid = gridOrFail(kernel.value());
    EXPECT_EQ(grid.accesses[0].requests, 4);

    Pattern listed;
    EXPECT_FALSE(kernelFromPattern(listed).ok());

    auto back = patternFromKernel(kernel.value());
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->source->gridDim, (Dim3{4, 1, 1}));
    EXPECT_EQ(back->source->addressExpression, "(gid + offset) * 4");

    // Unsized (no walk over the grid): the largest buffer, the same counts over the grid.
    auto unsized = kernelFromPatternUnsized(pattern);
    ASSERT_TRUE(unsized.ok()) << unsized.error().describe();
    ASSERT_EQ(unsized->buffers.size(), 1u);
    EXPECT_EQ(unsized->buffers[0].bytesExpression, std::to_string(kMaxBufferBytes));
    const GridPrediction same = gridOrFail(unsized.value());
    EXPECT_EQ(same.accesses[0].histogram, grid.accesses[0].histogram);
    EXPECT_EQ(same.accesses[0].sectors, grid.accesses[0].sectors);
    EXPECT_EQ(same.buffers[0].sectorsRead, grid.buffers[0].sectorsRead);
    EXPECT_FALSE(kernelFromPatternUnsized(listed).ok());
    // A negative address is still found, by predictGrid's own walk.
    pattern.source->addressExpression = "(gid - 3) * 4";
    auto negative = kernelFromPatternUnsized(pattern);
    ASSERT_TRUE(negative.ok());
    auto walked = predictGrid(resolvedOrFail(negative.value()));
    ASSERT_FALSE(walked.ok());
    EXPECT_EQ(walked.error().code, ErrorCode::NegativeAddress);
}

// ---- The grid model ------------------------------------------------------------------------

TEST(GridModel, CountsTheIssueExample) {
    const GridPrediction grid = gridOrFail(kernelOrFail(kIssueExample));
    // 2048 x 2048 threads in 16 x 16 blocks: 131072 warps, each of two rows of 16 threads.
    EXPECT_EQ(grid.warps, 131072);
    // The load reads columns: 16 columns, the two rows of a warp side by side in one sector.
    EXPECT_EQ(grid.accesses[0].requests, 131072);
    EXPECT_EQ(grid.accesses[0].sectors, 131072 * 16);
    EXPECT_EQ(grid.accesses[0].histogram[16], 131072);
    // The store writes two rows of 16 floats: 2 x 64 bytes, 4 sectors.
    EXPECT_EQ(grid.accesses[1].sectors, 131072 * 4);
    EXPECT_EQ(grid.accesses[1].histogram[4], 131072);
    EXPECT_EQ(metric(grid, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 131072);
    EXPECT_EQ(metric(grid, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 524288);
    EXPECT_EQ(metric(grid, "dram__bytes_read.sum"), 16777216);
    EXPECT_EQ(metric(grid, "dram__bytes_write.sum"), 16777216);
    EXPECT_EQ(metric(grid, "warpscope__bytes_requested"), 2.0 * 16777216);
    // Stores write through: every store sector reaches L2.
    EXPECT_EQ(metric(grid, "lts__t_sectors_srcunit_tex_op_write.sum"), 524288);
    // Cached column loads: a 16 x 16 block reads 16 floats (64 bytes, 2 sectors) of each of 16
    // rows of `in`; L1 serves the other warps of the block.
    EXPECT_EQ(metric(grid, "lts__t_sectors_srcunit_tex_op_read.sum"), 128 * 128 * 16 * 2);
    EXPECT_EQ(grid.buffers[0].sectorsRead, 524288);
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 0);
    EXPECT_EQ(grid.buffers[1].sectorsWritten, 524288);
    ASSERT_EQ(grid.accesses[0].worstWarps.size(), 8u);
    EXPECT_EQ(grid.accesses[0].worstWarps[0], (WarpRef{0, 0, 16}));
}

TEST(GridModel, NamesTheFirstOutOfBoundsThread) {
    Kernel kernel = simpleKernel("gid * 4", "500");
    auto prediction = predictGrid(resolvedOrFail(kernel));
    ASSERT_FALSE(prediction.ok());
    EXPECT_EQ(prediction.error().code, ErrorCode::OutOfBounds);
    // gid 125 is the first whose 4 bytes end past byte 500: block 3, thread 29.
    EXPECT_NE(prediction.error().message.find("address 500 "), std::string::npos)
        << prediction.error().describe();
    EXPECT_NE(prediction.error().where.find("block (3, 0, 0), thread (29, 0, 0)"),
              std::string::npos)
        << prediction.error().describe();

    kernel = simpleKernel("gid * 4 - 8");
    prediction = predictGrid(resolvedOrFail(kernel));
    ASSERT_FALSE(prediction.ok());
    EXPECT_EQ(prediction.error().code, ErrorCode::NegativeAddress);
    EXPECT_EQ(prediction.error().where, "/accesses/0/address, block (0, 0, 0), thread (0, 0, 0)");
    EXPECT_EQ(prediction.error().message, "address -8 is negative");

    // A later block's misaligned thread, with the access's label.
    kernel = simpleKernel("gid == 100 ? 402 : gid * 4");
    kernel.accesses[0].label = "load data";
    prediction = predictGrid(resolvedOrFail(kernel));
    ASSERT_FALSE(prediction.ok());
    EXPECT_EQ(prediction.error().code, ErrorCode::Misaligned);
    EXPECT_EQ(prediction.error().where,
              "/accesses/0/address (load data), block (3, 0, 0), thread (4, 0, 0)");

    kernel = simpleKernel("gid * 4 + 2");
    prediction = predictGrid(resolvedOrFail(kernel));
    ASSERT_FALSE(prediction.ok());
    EXPECT_EQ(prediction.error().code, ErrorCode::Misaligned);

    kernel = simpleKernel("gid * 4 / (gid - 40) * 0 + gid * 4");
    prediction = predictGrid(resolvedOrFail(kernel));
    ASSERT_FALSE(prediction.ok());
    EXPECT_EQ(prediction.error().code, ErrorCode::DivisionByZero);
    EXPECT_NE(prediction.error().where.find("/accesses/0/address"), std::string::npos);
}

TEST(GridModel, ReportsProgressAndCancels) {
    Kernel kernel = simpleKernel("gid * 4", "1048576");
    kernel.launch.grid = {"1024", "1", "1"};
    kernel.launch.block = {"256", "1", "1"};
    const ResolvedKernel resolved = resolvedOrFail(kernel);
    std::int64_t last = 0;
    std::int64_t total = 0;
    GridOptions options;
    options.progress = [&](std::int64_t done, std::int64_t all) {
        EXPECT_GE(done, last);
        last = done;
        total = all;
    };
    ASSERT_TRUE(predictGrid(resolved, options).ok());
    EXPECT_EQ(last, 8192);
    EXPECT_EQ(total, 8192);

    std::atomic<bool> cancel{true};
    options.cancelled = &cancel;
    auto cancelled = predictGrid(resolved, options);
    ASSERT_FALSE(cancelled.ok());
    EXPECT_EQ(cancelled.error().code, ErrorCode::Cancelled);
}

TEST(GridModel, SharedAccessesCountWavefrontsAndSizeTheArray) {
    Kernel kernel;
    kernel.launch.grid = {"2", "1", "1"};
    kernel.launch.block = {"32", "32", "1"};
    KernelAccess column;
    column.kind = AccessKind{MemorySpace::Shared, AccessOp::Load, 4, CachePath::Default};
    column.addressExpression = "(tid.x * 32 + tid.y) * 4";
    KernelAccess padded = column;
    padded.addressExpression = "(tid.x * 33 + tid.y) * 4";
    kernel.accesses = {column, padded};
    const GridPrediction grid = gridOrFail(kernel);
    EXPECT_EQ(grid.accesses[0].wavefronts, 64 * 32);
    EXPECT_EQ(grid.accesses[0].bankConflicts, 64 * 31);
    EXPECT_EQ(grid.accesses[1].wavefronts, 64);
    EXPECT_EQ(grid.accesses[1].bankConflicts, 0);
    EXPECT_EQ(grid.sharedBytesPerBlock, (31 * 33 + 31) * 4 + 4);
    EXPECT_EQ(metric(grid, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 64 * 33);
}

TEST(GridModel, L2EstimateReusesInsideABlockOnlyForCachedLoads) {
    // Every warp of a block reads the same 128 bytes: L1 serves all but the first.
    Kernel kernel = simpleKernel("lane * 4");
    kernel.launch.block = {"128", "1", "1"};
    kernel.accesses[0].kind.cache = CachePath::Default;
    GridPrediction grid = gridOrFail(kernel);
    EXPECT_EQ(grid.accesses[0].sectors, 16 * 4);
    EXPECT_EQ(grid.buffers[0].l2SectorsRead, 4 * 4); // 4 sectors per block
    EXPECT_EQ(grid.buffers[0].sectorsRead, 4);
    kernel.accesses[0].kind.cache = CachePath::CacheGlobal;
    grid = gridOrFail(kernel);
    EXPECT_EQ(grid.buffers[0].l2SectorsRead, 16 * 4);
}

} // namespace
} // namespace warpscope
