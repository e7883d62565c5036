// Kernels (core/include/warpscope/kernel.h): resolution against CUDA's launch limits, the JSON
// forms, the grid model against the per-warp modern model, and the built-in kernel presets.
#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <string>

namespace warpscope {
namespace {

// The issue's example line: a transpose reading columns and storing rows.
const char* const kIssueExample = R"({"grid": [128, 128, 1], "block": [16, 16, 1],
 "parameters": {"nx": 2048, "ny": 2048},
 "buffers": [{"name": "in", "bytes": 16777216}, {"name": "out", "bytes": 16777216}],
 "accesses": [
  {"op": "load", "space": "global", "width": 4, "buffer": "in", "cache": "default",
   "address": "((bid.x * bdim.x + tid.x) * ny + (bid.y * bdim.y + tid.y)) * 4",
   "active": "(bid.x * bdim.x + tid.x) < nx && (bid.y * bdim.y + tid.y) < ny"},
  {"op": "store", "space": "global", "width": 4, "buffer": "out", "cache": "default",
   "address": "((bid.y * bdim.y + tid.y) * nx + (bid.x * bdim.x + tid.x)) * 4",
   "active": "(bid.x * bdim.x + tid.x) < nx && (bid.y * bdim.y + tid.y) < ny"}]})";

double metric(const GridPrediction& prediction, const std::string& name) {
    for (const Metric& m : prediction.metrics) {
        if (m.name == name) {
            return m.value;
        }
    }
    ADD_FAILURE() << "no metric " << name;
    return -1.0;
}

ResolvedKernel resolvedOrFail(const Kernel& kernel) {
    auto resolved = resolveKernel(kernel);
    EXPECT_TRUE(resolved.ok()) << (resolved.ok() ? "" : resolved.error().describe());
    return resolved.ok() ? resolved.value() : ResolvedKernel{};
}

Kernel kernelOrFail(std::string_view text) {
    auto kernel = kernelFromJsonText(text);
    EXPECT_TRUE(kernel.ok()) << (kernel.ok() ? "" : kernel.error().describe());
    return kernel.ok() ? kernel.value() : Kernel{};
}

GridPrediction gridOrFail(const Kernel& kernel) {
    const ResolvedKernel resolved = resolvedOrFail(kernel);
    auto prediction = predictGrid(resolved);
    EXPECT_TRUE(prediction.ok()) << (prediction.ok() ? "" : prediction.error().describe());
    return prediction.ok() ? prediction.value() : GridPrediction{};
}

Kernel simpleKernel(const std::string& address, const std::string& bytes = "4096") {
    Kernel kernel;
    kernel.buffers = {KernelBuffer{"data", bytes}};
    kernel.launch.grid = {"4", "1", "1"};
    kernel.launch.block = {"32", "1", "1"};
    KernelAccess access;
    access.buffer = "data";
    access.addressExpression = address;
    kernel.accesses = {access};
    return kernel;
}

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

// ---- Sectors written in part (stores that leave a sector for other requests to complete) ----

std::int64_t inPart(const GridPrediction& grid, std::size_t buffer) {
    return grid.buffers.at(buffer).sectorsWrittenInPart;
}

Kernel storeKernel(const std::string& address, int width = 4, const std::string& active = "1") {
    Kernel kernel = simpleKernel(address);
    kernel.accesses[0].kind =
        AccessKind{MemorySpace::Global, AccessOp::Store, width, CachePath::Default};
    kernel.accesses[0].activeExpression = active;
    return kernel;
}

TEST(GridModel, CountsSectorsWrittenInPart) {
    // Coalesced 4-byte stores: every request writes its 4 sectors whole.
    GridPrediction grid = gridOrFail(storeKernel("gid * 4"));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 16);
    EXPECT_EQ(inPart(grid, 0), 0);
    EXPECT_EQ(metric(grid, "warpscope__sectors_written_in_part"), 0);
    // Every other float: each sector gets 16 of its 32 bytes, from one request.
    grid = gridOrFail(storeKernel("gid * 8"));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 32);
    EXPECT_EQ(inPart(grid, 0), 32);
    EXPECT_EQ(metric(grid, "warpscope__sectors_written_in_part"), 32);
    // Misaligned by 3 floats: each warp's 128 bytes start 12 bytes into a sector, so its first
    // and last sectors are partial (completed by the neighbouring warp, but by another request):
    // bytes 12..523 cover sectors 0..16, of which 0, 4, 8, 12 and 16 are written in part.
    grid = gridOrFail(storeKernel("(gid + 3) * 4"));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 17);
    EXPECT_EQ(inPart(grid, 0), 5);
    // An inactive lane leaves a hole in one sector per warp.
    grid = gridOrFail(storeKernel("gid * 4", 4, "lane != 5"));
    EXPECT_EQ(inPart(grid, 0), 4);
    // 16-byte stores: two lanes fill a sector; 8-byte stores every 16 bytes fill half of one.
    grid = gridOrFail(storeKernel("gid * 16", 16));
    EXPECT_EQ(inPart(grid, 0), 0);
    grid = gridOrFail(storeKernel("gid * 16", 8));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 64);
    EXPECT_EQ(inPart(grid, 0), 64);
    // Two lanes writing the same 4 bytes add nothing: every other float of bytes 0..127, each
    // written twice, leaves all 4 sectors half written.
    grid = gridOrFail(storeKernel("(lane / 2) * 8"));
    EXPECT_EQ(grid.buffers[0].sectorsWritten, 4);
    EXPECT_EQ(inPart(grid, 0), 4);
    // Loads are never counted.
    Kernel load = storeKernel("gid * 8");
    load.accesses[0].kind.op = AccessOp::Load;
    grid = gridOrFail(load);
    EXPECT_EQ(inPart(grid, 0), 0);
}

// The fill rule (docs/models.md): L2 holds a few open (incomplete) partial sectors; opening one
// more evicts the oldest, which is then read from DRAM (a fill, in dram__bytes_read.sum).
GridPrediction fillsOrFail(const Kernel& kernel, std::int64_t capacitySectors,
                           std::int64_t l2Sectors = std::int64_t{1} << 40) {
    GridOptions options;
    options.partialSectorCapacityBytes = capacitySectors * 32;
    options.l2Bytes = l2Sectors * 32;
    auto prediction = predictGrid(resolvedOrFail(kernel), options);
    EXPECT_TRUE(prediction.ok()) << (prediction.ok() ? "" : prediction.error().describe());
    return prediction.ok() ? prediction.value() : GridPrediction{};
}

/// Half a sector per lane group: each warp writes bytes 0..15 (h = 0) or 16..31 (h = 1) of 8
/// sectors; the warp `d` warps later writes the other half (the designed kernel
/// scripts/investigations/dram_fills/kernels/fill_pair.json), over `warps` warps of 32 threads.
Kernel halvesKernel(int warps, int d) {
    Kernel kernel = storeKernel("((((gid / 32) / (2 * " + std::to_string(d) + ")) * " +
                                std::to_string(d) + " + (gid / 32) % " + std::to_string(d) +
                                ") * 8 + (gid % 32) / 4) * 32 + ((gid / 32) / " +
                                std::to_string(d) + ") % 2 * 16 + (gid % 4) * 4");
    kernel.buffers[0].bytesExpression = std::to_string(warps / 2 * 8 * 32);
    kernel.launch.grid = {std::to_string(warps), "1", "1"};
    return kernel;
}

TEST(GridModel, FillsPartialSectorsEvictedBeforeTheyAreComplete) {
    // Completed by the next warp: at most 8 sectors open at once, none evicted at capacity 8.
    GridPrediction grid = fillsOrFail(halvesKernel(64, 1), 8);
    EXPECT_EQ(grid.buffers[0].sectorsWrittenInPart, 256);
    EXPECT_EQ(grid.buffers[0].sectorsFilled, 0);
    EXPECT_EQ(metric(grid, "dram__bytes_read.sum"), 0);
    // Completed 8 warps later: 64 sectors opened by 8 warps before their second halves come, so
    // with room for 8 all but the last warp's 8 are evicted (filled) first, and are then whole
    // in L2; 4 such groups of 16 warps.
    grid = fillsOrFail(halvesKernel(64, 8), 8);
    EXPECT_EQ(grid.buffers[0].sectorsFilled, 4 * (64 - 8));
    EXPECT_EQ(metric(grid, "dram__bytes_read.sum"), 4 * (64 - 8) * 32);
    EXPECT_EQ(metric(grid, "warpscope__sectors_filled"), 4 * (64 - 8));
    EXPECT_EQ(metric(grid, "warpscope__footprint_bytes_read"), 0);
    // With room for all 64 nothing is filled.
    EXPECT_EQ(fillsOrFail(halvesKernel(64, 8), 64).buffers[0].sectorsFilled, 0);
    // If L2 forgets the filled sector before the second half arrives (an L2 of 16 sectors, and
    // 64 touched in between), the second half opens it again; the last 8 opened stay open at
    // the end (written back after the kernel, not counted).
    EXPECT_EQ(fillsOrFail(halvesKernel(64, 8), 8, 16).buffers[0].sectorsFilled, 256 + 256 - 8);
    // Never completed: all but the last `capacity` opened are evicted during the kernel.
    grid = fillsOrFail(storeKernel("((gid / 32) * 8 + (gid % 32) / 4) * 32 + (gid % 4) * 4"), 8);
    EXPECT_EQ(grid.buffers[0].sectorsWrittenInPart, 32);
    EXPECT_EQ(grid.buffers[0].sectorsFilled, 32 - 8);
    // Whole-sector stores and sectors the kernel read first are never open.
    EXPECT_EQ(fillsOrFail(storeKernel("gid * 4"), 1).buffers[0].sectorsFilled, 0);
    Kernel readFirst = storeKernel("gid * 8");
    KernelAccess load = readFirst.accesses[0];
    load.kind.op = AccessOp::Load;
    readFirst.accesses.insert(readFirst.accesses.begin(), load);
    EXPECT_EQ(fillsOrFail(readFirst, 1).buffers[0].sectorsFilled, 0);
    EXPECT_EQ(fillsOrFail(storeKernel("gid * 8"), 1).buffers[0].sectorsFilled, 32 - 1);
}

TEST(GridModel, PredictsNoFillForTheKernelPresets) {
    // Every preset completes each sector inside one block, so in launch order no more than a
    // block's sectors are open: the H100's Unroll4Row fills are beyond the rule (docs/models.md).
    for (const KernelPreset& preset : builtinKernelPresets()) {
        SCOPED_TRACE(preset.id);
        Kernel kernel = preset.kernel;
        for (Parameter& p : kernel.parameters) {
            if (p.name == "nx" || p.name == "ny") {
                p.value = 256; // the same shape of blocks, a smaller matrix
            }
            if (p.name == "n") {
                p.value = 1 << 16;
            }
        }
        auto resolved = resolveKernel(kernel);
        ASSERT_TRUE(resolved.ok()) << resolved.error().describe();
        GridOptions options;
        options.partialSectorCapacityBytes = 32 * 1024; // far below the H100's, still no fill
        auto grid = predictGrid(resolved.value(), options);
        ASSERT_TRUE(grid.ok());
        for (const GridBufferFootprint& b : grid.value().buffers) {
            EXPECT_EQ(b.sectorsFilled, 0) << b.name;
        }
    }
}

TEST(GridModel, RowReadingTransposesWriteSectorsInPartUnlessAWarpFillsThem) {
    // NaiveRow on 64 x 64 floats: a 16 x 16 block's warp stores two floats of each of 16 output
    // rows, so every output sector arrives in parts (from 4 warps); with (4, 64) blocks a warp
    // stores 8 consecutive floats of each of 4 rows: whole sectors.
    const std::string text = R"({"grid": ["(nx + bx - 1) / bx", "(ny + by - 1) / by", 1],
      "block": ["bx", "by", 1], "parameters": {"nx": 64, "ny": 64, "bx": 16, "by": 16},
      "buffers": [{"name": "in", "bytes": "nx * ny * 4"}, {"name": "out", "bytes": "nx * ny * 4"}],
      "accesses": [
       {"op": "load", "space": "global", "width": 4, "buffer": "in",
        "address": "((bid.y * bdim.y + tid.y) * nx + (bid.x * bdim.x + tid.x)) * 4"},
       {"op": "store", "space": "global", "width": 4, "buffer": "out",
        "address": "((bid.x * bdim.x + tid.x) * ny + (bid.y * bdim.y + tid.y)) * 4"}]})";
    Kernel kernel = kernelOrFail(text);
    GridPrediction grid = gridOrFail(kernel);
    EXPECT_EQ(grid.buffers[1].sectorsWritten, 512);
    EXPECT_EQ(inPart(grid, 0), 0);
    EXPECT_EQ(inPart(grid, 1), 512);
    for (Parameter& p : kernel.parameters) {
        if (p.name == "bx" || p.name == "by") {
            p.value = p.name == "bx" ? 4 : 64;
        }
    }
    grid = gridOrFail(kernel);
    EXPECT_EQ(grid.buffers[1].sectorsWritten, 512);
    EXPECT_EQ(inPart(grid, 1), 0);
    // The issue's example stores rows: whole sectors.
    EXPECT_EQ(inPart(gridOrFail(kernelOrFail(kIssueExample)), 1), 0);
}

/// Sums of the per-warp modern model over every warp, the way a reader of kernel.h would compute
/// them by hand: what predictGrid must equal.
struct Reference {
    std::vector<GridAccessPrediction> accesses;
    std::int64_t sharedBytes = 0;
};

Reference referenceGrid(const ResolvedKernel& kernel) {
    Reference ref;
    ref.accesses.resize(kernel.accesses.size());
    for (std::int64_t block = 0; block < kernel.grid.count(); ++block) {
        for (std::int64_t warp = 0; warp < kernel.warpsPerBlock(); ++warp) {
            for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
                auto wa = resolveWarp(kernel, static_cast<int>(a), block, warp);
                EXPECT_TRUE(wa.ok());
                if (!wa.ok()) {
                    return ref;
                }
                const ModernPrediction p = predictModern(wa.value());
                GridAccessPrediction& r = ref.accesses[a];
                int value = 0;
                if (p.global) {
                    r.requests += p.global->requests;
                    r.sectors += p.global->sectors;
                    value = p.global->sectors;
                } else {
                    r.wavefronts += p.shared->wavefronts;
                    r.bankConflicts += p.shared->bankConflicts;
                    value = p.shared->wavefronts;
                    for (const auto& address : wa->addresses) {
                        if (address) {
                            ref.sharedBytes =
                                std::max(ref.sharedBytes, *address + wa->kind.widthBytes);
                        }
                    }
                }
                r.activeThreads += wa->activeLaneCount();
                r.histogram[static_cast<std::size_t>(std::min(value, kHistogramBuckets - 1))]++;
            }
        }
    }
    return ref;
}

/// Random kernels whose addresses stay inside their buffers: mixes of strides, offsets, modulo,
/// duplicates (division), inactive lanes, every width, shared and global, odd block shapes.
Kernel randomKernel(std::mt19937& rng) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    const int widths[] = {1, 2, 4, 8, 16};
    const char* indices[] = {"gid",
                             "lane",
                             "tid.x + tid.y * 7",
                             "(tid.x * 33 + tid.y) % 97",
                             "gid / 3",
                             "lane ^ 5",
                             "(lane * 17) % 32",
                             "bid.x * 13 + tid.y",
                             "(gid * 2654435761) % 1021",
                             "lane / 8",
                             "tid.y * 32 + tid.x",
                             "(tid.x + bid.y) * 9",
                             "lane & 29",
                             "0"};
    const char* actives[] = {
        "1", "lane % 3 != 0", "gid < 200", "tid.y != 1 && lane > 3", "(gid * 7) % 5 < 2", "0"};
    Kernel kernel;
    kernel.launch.grid = {std::to_string(1 + pick(3)), std::to_string(1 + pick(2)), "1"};
    const int bx = 1 + pick(40);
    const int by = 1 + pick(4);
    kernel.launch.block = {std::to_string(bx), std::to_string(by), std::to_string(1 + pick(2))};
    kernel.buffers = {KernelBuffer{"a", "1048576"}, KernelBuffer{"b", "1048576"}};
    const int count = 1 + pick(4);
    for (int i = 0; i < count; ++i) {
        KernelAccess access;
        const int width = widths[pick(5)];
        const bool shared = pick(3) == 0;
        access.kind = AccessKind{shared ? MemorySpace::Shared : MemorySpace::Global,
                                 pick(2) ? AccessOp::Load : AccessOp::Store, width,
                                 static_cast<CachePath>(pick(4))};
        access.buffer = shared ? "" : (pick(2) ? "a" : "b");
        access.addressExpression = "((" + std::string(indices[pick(14)]) + ") * " +
                                   std::to_string(pick(4) + 1) + " + " + std::to_string(pick(9)) +
                                   ") * " + std::to_string(width);
        access.activeExpression = actives[pick(6)];
        kernel.accesses.push_back(access);
    }
    return kernel;
}

TEST(GridModel, EqualsThePerWarpModelOnRandomKernels) {
    std::mt19937 rng(20261122);
    GridOptions everyWarp;
    everyWarp.worstWarpCount = 1 << 20; // the "worst" list then holds every warp with a cost
    for (int round = 0; round < 300; ++round) {
        const Kernel kernel = randomKernel(rng);
        const ResolvedKernel resolved = resolvedOrFail(kernel);
        auto grid = predictGrid(resolved, everyWarp);
        ASSERT_TRUE(grid.ok()) << grid.error().describe() << "\n" << kernelToJsonText(kernel);
        const Reference ref = referenceGrid(resolved);
        for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
            const GridAccessPrediction& got = grid->accesses[a];
            const GridAccessPrediction& want = ref.accesses[a];
            SCOPED_TRACE(kernelToJsonText(kernel) + " access " + std::to_string(a));
            EXPECT_EQ(got.requests, want.requests);
            EXPECT_EQ(got.sectors, want.sectors);
            EXPECT_EQ(got.wavefronts, want.wavefronts);
            EXPECT_EQ(got.bankConflicts, want.bankConflicts);
            EXPECT_EQ(got.activeThreads, want.activeThreads);
            EXPECT_EQ(got.histogram, want.histogram);
        }
        EXPECT_EQ(grid->sharedBytesPerBlock, ref.sharedBytes);
        // Sectors written in part, byte by byte: a store request whose active lanes leave any of
        // a sector's 32 bytes unwritten.
        std::vector<std::map<std::int64_t, bool>> partly(kernel.buffers.size());
        for (std::int64_t block = 0; block < resolved.grid.count(); ++block) {
            for (std::int64_t warp = 0; warp < resolved.warpsPerBlock(); ++warp) {
                for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
                    const ResolvedAccess& access = resolved.accesses[a];
                    if (access.access.kind.space != MemorySpace::Global ||
                        access.access.kind.op != AccessOp::Store) {
                        continue;
                    }
                    auto wa = resolveWarp(resolved, static_cast<int>(a), block, warp);
                    ASSERT_TRUE(wa.ok());
                    std::map<std::int64_t, std::uint32_t> bytes;
                    for (const auto& address : wa->addresses) {
                        for (int i = 0; address && i < wa->kind.widthBytes; ++i) {
                            bytes[(*address + i) / 32] |= 1u << ((*address + i) % 32);
                        }
                    }
                    auto& set = partly[static_cast<std::size_t>(access.bufferIndex)];
                    for (const auto& [sector, mask] : bytes) {
                        set[sector] = set[sector] || mask != 0xffffffffu;
                    }
                }
            }
        }
        for (std::size_t b = 0; b < kernel.buffers.size(); ++b) {
            const auto count = std::count_if(partly[b].begin(), partly[b].end(),
                                             [](const auto& entry) { return entry.second; });
            EXPECT_EQ(grid->buffers[b].sectorsWrittenInPart, count) << "buffer " << b << "\n"
                                                                    << kernelToJsonText(kernel);
        }
        // Warp by warp: each warp's sectors (or wavefronts) equal predictModern's for it.
        for (std::size_t a = 0; a < kernel.accesses.size(); ++a) {
            std::map<std::pair<std::int64_t, std::int64_t>, int> listed;
            for (const WarpRef& warpRef : grid->accesses[a].worstWarps) {
                listed[{warpRef.blockLinear, warpRef.warpInBlock}] = warpRef.value;
            }
            for (std::int64_t block = 0; block < resolved.grid.count(); ++block) {
                for (std::int64_t warp = 0; warp < resolved.warpsPerBlock(); ++warp) {
                    auto wa = resolveWarp(resolved, static_cast<int>(a), block, warp);
                    ASSERT_TRUE(wa.ok());
                    const ModernPrediction p = predictModern(wa.value());
                    const int want = p.global ? p.global->sectors : p.shared->wavefronts;
                    const auto it = listed.find({block, warp});
                    EXPECT_EQ(it == listed.end() ? 0 : it->second, want)
                        << "access " << a << ", block " << block << ", warp " << warp;
                }
            }
        }
    }
}

// GridOptions::warpValue hands out every warp's value, in launch order, as the histogram counts
// it: the grid view's heat map reads these instead of running the per-warp model again.
TEST(GridModel, HandsOutEveryWarpsValueInLaunchOrder) {
    std::mt19937 rng(20261123);
    for (int round = 0; round < 150; ++round) {
        const Kernel kernel = randomKernel(rng);
        const ResolvedKernel resolved = resolvedOrFail(kernel);
        struct Seen {
            std::int64_t block;
            std::int64_t warp;
            int access;
            int value;
        };
        std::vector<Seen> seen;
        GridOptions options;
        options.warpValue = [&](std::int64_t block, std::int64_t warp, int access, int value) {
            seen.push_back({block, warp, access, value});
        };
        auto grid = predictGrid(resolved, options);
        ASSERT_TRUE(grid.ok()) << grid.error().describe();
        const std::size_t accesses = kernel.accesses.size();
        ASSERT_EQ(seen.size(), static_cast<std::size_t>(resolved.warpCount()) * accesses);
        std::vector<std::array<std::int64_t, kHistogramBuckets>> histograms(accesses);
        std::size_t i = 0;
        for (std::int64_t block = 0; block < resolved.grid.count(); ++block) {
            for (std::int64_t warp = 0; warp < resolved.warpsPerBlock(); ++warp) {
                for (std::size_t a = 0; a < accesses; ++a, ++i) {
                    SCOPED_TRACE(kernelToJsonText(kernel) + " access " + std::to_string(a) +
                                 ", block " + std::to_string(block) + ", warp " +
                                 std::to_string(warp));
                    ASSERT_EQ(seen[i].block, block);
                    ASSERT_EQ(seen[i].warp, warp);
                    ASSERT_EQ(seen[i].access, static_cast<int>(a));
                    auto wa = resolveWarp(resolved, static_cast<int>(a), block, warp);
                    ASSERT_TRUE(wa.ok());
                    const ModernPrediction p = predictModern(wa.value());
                    const int want = p.global ? p.global->sectors : p.shared->wavefronts;
                    EXPECT_EQ(seen[i].value, want);
                    histograms[a][static_cast<std::size_t>(
                        std::min(seen[i].value, kHistogramBuckets - 1))]++;
                }
            }
        }
        for (std::size_t a = 0; a < accesses; ++a) {
            EXPECT_EQ(histograms[a], grid->accesses[a].histogram);
        }
    }
}

// ---- Presets -------------------------------------------------------------------------------

TEST(KernelPresets, EveryPresetResolvesAndPredicts) {
    const auto& presets = builtinKernelPresets();
    ASSERT_GE(presets.size(), 28u);
    for (const KernelPreset& preset : presets) {
        SCOPED_TRACE(preset.id);
        EXPECT_FALSE(preset.title.empty());
        EXPECT_FALSE(preset.source.empty());
        EXPECT_EQ(findKernelPreset(preset.id), &preset);
        const GridPrediction grid = gridOrFail(preset.kernel);
        EXPECT_GT(grid.warps, 0);
        for (const KernelSweep& sweep : preset.sweeps) {
            for (std::int64_t value : sweep.values) {
                Kernel swept = preset.kernel;
                for (Parameter& p : swept.parameters) {
                    if (p.name == sweep.parameter) {
                        p.value = value;
                    }
                }
                auto resolved = resolveKernel(swept);
                ASSERT_TRUE(resolved.ok()) << sweep.parameter << "=" << value;
            }
        }
        if (!preset.references.empty()) {
            EXPECT_FALSE(preset.notesGpu.empty());
        }
    }
    EXPECT_EQ(findKernelPreset("no-such-kernel"), nullptr);
}

GridPrediction presetGrid(const std::string& id,
                          const std::map<std::string, std::int64_t>& set = {}) {
    const KernelPreset* preset = findKernelPreset(id);
    EXPECT_NE(preset, nullptr) << id;
    if (preset == nullptr) {
        return {};
    }
    Kernel kernel = preset->kernel;
    for (Parameter& p : kernel.parameters) {
        if (const auto it = set.find(p.name); it != set.end()) {
            p.value = it->second;
        }
    }
    return gridOrFail(kernel);
}

TEST(KernelPresets, TransposeTotalsByHand) {
    const GridPrediction copyRow = presetGrid("transpose-copyrow");
    EXPECT_EQ(metric(copyRow, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 131072);
    EXPECT_EQ(metric(copyRow, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 524288);
    EXPECT_EQ(metric(copyRow, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 524288);
    EXPECT_EQ(metric(copyRow, "dram__bytes_read.sum"), 16777216);

    // NaiveRow at block (16, 16): loads two half rows (4 sectors a warp), stores 16 columns of
    // two rows side by side (16 sectors).
    const GridPrediction naiveRow = presetGrid("transpose-naiverow-cg");
    EXPECT_EQ(metric(naiveRow, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 524288);
    EXPECT_EQ(metric(naiveRow, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 131072 * 16);
    // .cg: every load sector goes to L2.
    EXPECT_EQ(metric(naiveRow, "lts__t_sectors_srcunit_tex_op_read.sum"), 524288);

    // NaiveCol at block (8, 32): a warp is 4 rows of 8 threads; loads read 8 columns, 4 floats
    // of each in one sector (8 sectors), stores write 4 rows of 8 floats (4 sectors).
    const GridPrediction naiveCol = presetGrid("transpose-naivecol-cg", {{"bx", 8}, {"by", 32}});
    EXPECT_EQ(naiveCol.warps, 131072);
    EXPECT_EQ(metric(naiveCol, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 131072 * 8);
    EXPECT_EQ(metric(naiveCol, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 131072 * 4);

    // Unroll4Col: a quarter of the blocks, four loads and four stores each.
    const GridPrediction unroll = presetGrid("transpose-unroll4col-cg", {{"bx", 8}, {"by", 32}});
    EXPECT_EQ(unroll.warps, 32768);
    EXPECT_EQ(metric(unroll, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 131072);
    EXPECT_EQ(metric(unroll, "warpscope__bytes_requested"), 2.0 * 16777216);
}

TEST(KernelPresets, DiagonalWithANonSquareGridLeavesBlocksInactive) {
    // Block (8, 32): a 256 x 64 grid. The diagonal mapping takes block_y = bid.x, so only the 64
    // blocks columns with bid.x < 64 land inside the matrix: a quarter of the threads are active.
    const GridPrediction square = presetGrid("transpose-diagonalrow-cg");
    EXPECT_EQ(metric(square, "warpscope__bytes_requested"), 2.0 * 16777216);
    const GridPrediction thin = presetGrid("transpose-diagonalrow-cg", {{"bx", 8}, {"by", 32}});
    EXPECT_EQ(thin.warps, 131072);
    EXPECT_EQ(thin.accesses[0].activeThreads, 2048 * 2048 / 4);
    EXPECT_EQ(thin.accesses[0].requests, 131072 / 4);
    EXPECT_EQ(thin.accesses[0].histogram[0], 131072 * 3 / 4);
    EXPECT_EQ(metric(thin, "warpscope__bytes_requested"), 2.0 * 16777216 / 4);
    EXPECT_EQ(metric(thin, "dram__bytes_read.sum"), 16777216 / 4);
}

TEST(KernelPresets, OffsetsAsTheNotesCountThem) {
    // readSegment, n = 2^20, offset 0: each warp reads 128 aligned bytes of A and of B.
    const GridPrediction aligned = presetGrid("readsegment", {{"offset", 0}});
    EXPECT_EQ(metric(aligned, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2 * 32768);
    EXPECT_EQ(metric(aligned, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 2 * 131072);
    // Offset 11: five sectors per warp but the last warp's lanes past n are inactive.
    const GridPrediction misaligned = presetGrid("readsegment", {{"offset", 11}});
    const double loads = metric(misaligned, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    EXPECT_EQ(loads, 2.0 * (32767 * 5 + 3));
    // The cold footprint does not grow: bytes 44 to the end of A and of B, sectors 1 to 32767.
    EXPECT_EQ(metric(misaligned, "dram__bytes_read.sum"), 2.0 * 131071 * 32);
    // writeSegment offset 11: the store spans five sectors per warp.
    const GridPrediction write = presetGrid("writesegment", {{"offset", 11}});
    EXPECT_EQ(metric(write, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 32767 * 5 + 3);
}

TEST(KernelPresets, TiledTransposePaddingRemovesTheConflict) {
    const GridPrediction plain = presetGrid("transpose-tiled");
    const GridPrediction padded = presetGrid("transpose-tiled-padded");
    // 4096 blocks of 32 warps.
    EXPECT_EQ(plain.warps, 131072);
    EXPECT_EQ(metric(plain, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 131072);
    EXPECT_EQ(metric(plain, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 131072 * 32);
    EXPECT_EQ(metric(plain, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
              131072 * 31);
    EXPECT_EQ(metric(padded, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 131072);
    EXPECT_EQ(metric(padded, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 0);
    EXPECT_EQ(plain.sharedBytesPerBlock, 32 * 32 * 4);
    EXPECT_EQ(padded.sharedBytesPerBlock, (31 * 33 + 31) * 4 + 4);
    EXPECT_EQ(metric(plain, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 524288);
    EXPECT_EQ(metric(plain, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 524288);
}

TEST(KernelPresets, LayoutsAoSUsesHalfOfEverySector) {
    const GridPrediction aos = presetGrid("aos-testinnerstruct");
    const GridPrediction soa = presetGrid("soa-testinnerarray");
    const double n = 4194304;
    // AoS: each 4-byte access of a warp spans 256 bytes, 8 sectors; SoA 128 bytes, 4 sectors.
    EXPECT_EQ(metric(aos, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 2 * n / 32 * 8);
    EXPECT_EQ(metric(soa, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 2 * n / 32 * 4);
    // Both read every byte of the data once from DRAM.
    EXPECT_EQ(metric(aos, "dram__bytes_read.sum"), n * 8);
    EXPECT_EQ(metric(soa, "dram__bytes_read.sum"), n * 8);
    // With L1, the second field's load hits the sectors the first one brought in.
    EXPECT_EQ(metric(aos, "lts__t_sectors_srcunit_tex_op_read.sum"), n * 8 / 32);
}

} // namespace
} // namespace warpscope

namespace warpscope {
namespace {

// ---- Warp-wide evaluation ------------------------------------------------------------------

TEST(WarpEvaluation, EqualsPerLaneEvaluationIncludingErrorsOnPathsTaken) {
    const char* texts[] = {
        "lane * 4",
        "gid * 3 + tid.y - bid.x",
        "lane != 0 && 64 / lane > 2",
        "lane == 0 || 64 / lane > 2",
        "64 / lane",
        "lane < 16 ? lane * 8 : 100 / (lane - 20)",
        "lane < 16 ? 100 / (lane - 3) : lane",
        "(lane & 1) ? (lane > 4 && 7 % (lane - 9) == 1) : -lane",
        "lane ? lane : 1 / 0",
        "0 && 1 / 0",
        "warp ? 1 / 0 : 5",
        "tid.x * 9223372036854775807",
        "max(lane, 7) << lane",
        "min(gid, 40) % (tid.x - 3)",
        "abs(lane - 16) * n >> 2",
        "lane > n ? (lane > 20 ? 1 / (lane - 25) : 2) : (lane < 3 || 5 / (lane - 4))",
        "!(lane % 3) + ~lane - (-gid)",
        "n / (bid.y - 1) + lane",
    };
    const std::vector<std::string> names = {"n"};
    const std::vector<std::int64_t> values = {10};
    std::array<std::int64_t, kWarpSize> lane{}, gid{}, tx{}, ty{}, tz{};
    for (int i = 0; i < kWarpSize; ++i) {
        lane[static_cast<std::size_t>(i)] = i;
        gid[static_cast<std::size_t>(i)] = 96 + i;
        tx[static_cast<std::size_t>(i)] = i % 8;
        ty[static_cast<std::size_t>(i)] = i / 8;
    }
    WarpEnvironment env;
    env.uniform.warp = 0;
    env.uniform.bid = Dim3{3, 1, 0};
    env.uniform.bdim = Dim3{8, 4, 1};
    env.lane = lane.data();
    env.gid = gid.data();
    env.tidX = tx.data();
    env.tidY = ty.data();
    env.tidZ = tz.data();
    for (const char* text : texts) {
        SCOPED_TRACE(text);
        auto expression = Expression::parse(text, names);
        ASSERT_TRUE(expression.ok()) << expression.error().describe();
        std::array<std::int64_t, kWarpSize> out{};
        const std::uint32_t failed =
            expression->evaluateWarp(env, values.data(), values.size(), out.data());
        for (int i = 0; i < kWarpSize; ++i) {
            ThreadEnvironment t = env.uniform;
            t.lane = i;
            t.gid = gid[static_cast<std::size_t>(i)];
            t.tid = Dim3{tx[static_cast<std::size_t>(i)], ty[static_cast<std::size_t>(i)], 0};
            auto one = expression->evaluate(t, values);
            EXPECT_EQ(!one.ok(), ((failed >> i) & 1u) != 0) << "lane " << i;
            if (one.ok() && ((failed >> i) & 1u) == 0) {
                EXPECT_EQ(one.value(), out[static_cast<std::size_t>(i)]) << "lane " << i;
            }
        }
    }
    auto needsParameter = Expression::parse("lane + n", names);
    std::array<std::int64_t, kWarpSize> out{};
    EXPECT_EQ(needsParameter->evaluateWarp(env, nullptr, 0, out.data()), 0xFFFFFFFFu);
}

} // namespace
} // namespace warpscope

namespace warpscope {
namespace {

// ---- Kernels in pattern and session files (format version 2) ------------------------------

TEST(KernelFiles, PatternFileWithAKernelRoundTripsAsVersion2) {
    const KernelPreset* preset = findKernelPreset("transpose-naivecol");
    ASSERT_NE(preset, nullptr);
    auto pattern = patternFromKernel(preset->kernel, 1);
    ASSERT_TRUE(pattern.ok()) << pattern.error().describe();
    const NamedPattern named{"NaiveCol", "the store", pattern.value(), preset->kernel};
    const std::string text = patternToJsonText(named);
    EXPECT_NE(text.find("\"version\": 2"), std::string::npos);
    EXPECT_NE(text.find("\"kernel\""), std::string::npos);
    auto back = patternFromJsonText(text);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back.value(), named);
    EXPECT_EQ(back->pattern.kind.op, AccessOp::Store);
}

TEST(KernelFiles, FilesWithoutKernelsStayVersion1) {
    NamedPattern named;
    named.pattern.kind = AccessKind{};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        named.pattern.addresses[static_cast<std::size_t>(lane)] = lane * 4;
    }
    EXPECT_NE(patternToJsonText(named).find("\"version\": 1"), std::string::npos);
    Session session;
    session.entries = {SessionEntry{named, {}}};
    EXPECT_NE(sessionToJsonText(session).find("\"version\": 1"), std::string::npos);
    // ... and version-1 files read as before.
    const std::string v1 = R"({"format": "warpscope-pattern", "version": 1, "space": "global",
        "op": "load", "width": 4, "source": {"address": "lane * 4"}})";
    auto read = patternFromJsonText(v1);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    EXPECT_FALSE(read->kernel.has_value());
}

TEST(KernelFiles, AKernelAloneGivesItsFirstAccessAsThePattern) {
    const std::string text = std::string(R"({"format": "warpscope-pattern", "version": 2,
        "title": "transpose", "kernel": )") +
                             kIssueExample + "}";
    auto read = patternFromJsonText(text);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    ASSERT_TRUE(read->kernel.has_value());
    ASSERT_TRUE(read->pattern.source.has_value());
    EXPECT_EQ(read->pattern.source->blockDim, (Dim3{16, 16, 1}));
    EXPECT_EQ(read->pattern.source->gridDim, (Dim3{128, 128, 1}));
    EXPECT_EQ(read->pattern.kind.op, AccessOp::Load);

    auto bad = patternFromJsonText(
        R"({"kernel": {"accesses": [{"op": "load", "buffer": "x", "width": 4, "address": "0"}]}})");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().where, "/kernel");
    auto badField =
        patternFromJsonText(R"({"kernel": {"accesses": [{"op": "load", "width": 5}]}})");
    ASSERT_FALSE(badField.ok());
    EXPECT_EQ(badField.error().where, "/kernel/accesses/0/width");
}

TEST(KernelFiles, SessionEntriesHoldKernels) {
    Session session;
    NamedPattern plain;
    plain.pattern.kind = AccessKind{};
    plain.pattern.addresses[0] = 0;
    const KernelPreset* preset = findKernelPreset("readoffset");
    ASSERT_NE(preset, nullptr);
    auto pattern = patternFromKernel(preset->kernel);
    ASSERT_TRUE(pattern.ok());
    session.entries = {
        SessionEntry{plain, {}},
        SessionEntry{NamedPattern{"readOffset", "", pattern.value(), preset->kernel}, {}}};
    const std::string text = sessionToJsonText(session);
    EXPECT_NE(text.find("\"version\": 2"), std::string::npos);
    auto back = sessionFromJsonText(text);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back.value(), session);
    EXPECT_FALSE(back->entries[0].pattern.kernel.has_value());
    ASSERT_TRUE(back->entries[1].pattern.kernel.has_value());
    EXPECT_EQ(back->entries[1].pattern.kernel->accesses.size(), 3u);
}

} // namespace
} // namespace warpscope
