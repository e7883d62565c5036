// Asynchronous copies global -> shared (copy_async, cp.async.ca, SASS LDGSTS): the access kind,
// its files, its errors, the per-warp model and the grid model against counters Nsight Compute
// measured on the H100 (tests/data/copy_async_h100.txt).
#include "metric_test_support.h"
#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/model.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace warpscope {
namespace {

using metric_test::metric;

bool hasMetric(const std::vector<Metric>& metrics, const std::string& name) {
    for (const Metric& m : metrics) {
        if (m.name == name) {
            return true;
        }
    }
    return false;
}

/// 4 blocks of 128 threads; thread t of the grid copies element gid * g (global) to element
/// (tid.x * s) mod 16384 bytes (shared), as tests/data/copy_async_h100.txt's first kernels did.
std::string copyKernelText(int width, int g, int s) {
    const std::string w = std::to_string(width);
    return R"({"grid": [4, 1, 1], "block": [128, 1, 1],
 "buffers": [{"name": "src", "bytes": 67108864}],
 "accesses": [{"op": "copy_async", "space": "global", "width": )" +
           w + R"(, "buffer": "src",
   "address": "gid * )" +
           std::to_string(g) + " * " + w + R"(",
   "shared_address": "(tid.x * )" +
           std::to_string(s) + " * " + w + R"() % 16384"}]})";
}

GridPrediction gridOf(const std::string& text) {
    auto kernel = kernelFromJsonText(text);
    EXPECT_TRUE(kernel.ok()) << (kernel.ok() ? "" : kernel.error().describe());
    if (!kernel.ok()) {
        return {};
    }
    auto resolved = resolveKernel(kernel.value());
    EXPECT_TRUE(resolved.ok()) << (resolved.ok() ? "" : resolved.error().describe());
    if (!resolved.ok()) {
        return {};
    }
    auto grid = predictGrid(resolved.value());
    EXPECT_TRUE(grid.ok()) << (grid.ok() ? "" : grid.error().describe());
    return grid.ok() ? grid.value() : GridPrediction{};
}

struct Measured {
    int width, g, s;
    double requests, sectors, wavefronts, conflicts;
};

// Nsight Compute 2025 on an H100 80GB HBM3 (driver 580.159.04, CUDA 13.0): the counters of
// cp.async.ca kernels written by hand (exploration before the generator existed).
TEST(CopyAsyncGrid, MatchesTheCountersMeasuredOnTheH100) {
    const Measured table[] = {
        {4, 1, 1, 16, 64, 16, 0},     {8, 1, 1, 16, 128, 32, 0},     {4, 2, 1, 16, 128, 32, 16},
        {8, 2, 1, 16, 256, 64, 32},   {4, 1, 2, 16, 64, 32, 16},     {8, 1, 2, 16, 128, 64, 32},
        {4, 1, 32, 16, 64, 512, 496}, {8, 1, 32, 16, 128, 512, 480},
    };
    const std::vector<std::string>& copy = copyAsyncCounterNames();
    for (const Measured& m : table) {
        SCOPED_TRACE("width " + std::to_string(m.width) + " g " + std::to_string(m.g) + " s " +
                     std::to_string(m.s));
        const GridPrediction grid = gridOf(copyKernelText(m.width, m.g, m.s));
        EXPECT_EQ(metric(grid.metrics, copy[0]), m.requests);
        EXPECT_EQ(metric(grid.metrics, copy[1]), m.sectors);
        EXPECT_EQ(metric(grid.metrics, copy[2]), m.wavefronts);
        EXPECT_EQ(metric(grid.metrics, copy[3]), m.conflicts);
        // Nsight Compute counts the global side in the plain load counters too, and the shared
        // side in neither shared load nor store counters.
        EXPECT_EQ(metric(grid.metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
                  m.requests);
        EXPECT_EQ(metric(grid.metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                  m.sectors);
        EXPECT_EQ(metric(grid.metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 0);
        EXPECT_EQ(metric(grid.metrics, "lts__t_sectors_srcunit_tex_op_read.sum"), m.sectors);
    }
}

TEST(CopyAsyncGrid, OtherKernelsHaveNoCopyCounters) {
    const GridPrediction grid = gridOf(R"({"grid": [1, 1, 1], "block": [32, 1, 1],
 "buffers": [{"name": "a", "bytes": 128}],
 "accesses": [{"op": "load", "space": "global", "width": 4, "buffer": "a", "address": "lane * 4"}]})");
    for (const std::string& name : copyAsyncCounterNames()) {
        EXPECT_FALSE(hasMetric(grid.metrics, name)) << name;
    }
}

TEST(CopyAsyncGrid, SharedBytesPerBlockCoverTheSharedSide) {
    const GridPrediction grid = gridOf(copyKernelText(16, 1, 1));
    EXPECT_EQ(grid.sharedBytesPerBlock, 128 * 16);
    EXPECT_EQ(metric(grid.metrics, "warpscope__shared_bytes_requested"), 512 * 16);
}

TEST(CopyAsyncGrid, EqualsThePerWarpModelOnEveryWarp) {
    auto kernel = kernelFromJsonText(R"({"grid": [3, 1, 1], "block": [96, 1, 1],
 "buffers": [{"name": "src", "bytes": 1048576}],
 "accesses": [{"op": "copy_async", "space": "global", "width": 8, "buffer": "src",
   "address": "((gid * 37) % 2048) * 8", "shared_address": "((tid.x * 5) % 96) * 8",
   "active": "tid.x % 7 != 3"}]})");
    ASSERT_TRUE(kernel.ok()) << kernel.error().describe();
    auto resolved = resolveKernel(kernel.value());
    ASSERT_TRUE(resolved.ok()) << resolved.error().describe();
    auto grid = predictGrid(resolved.value());
    ASSERT_TRUE(grid.ok()) << grid.error().describe();
    std::int64_t requests = 0, sectors = 0, wavefronts = 0, conflicts = 0;
    for (std::int64_t block = 0; block < 3; ++block) {
        for (std::int64_t warp = 0; warp < 3; ++warp) {
            auto access = resolveWarp(resolved.value(), 0, block, warp);
            ASSERT_TRUE(access.ok()) << access.error().describe();
            ASSERT_TRUE(access->sharedAddresses.has_value());
            const ModernPrediction p = predictModern(access.value());
            ASSERT_TRUE(p.global && p.shared);
            requests += p.global->requests;
            sectors += p.global->sectors;
            wavefronts += p.shared->wavefronts;
            conflicts += p.shared->bankConflicts;
        }
    }
    const GridAccessPrediction& a = grid->accesses[0];
    EXPECT_EQ(a.requests, requests);
    EXPECT_EQ(a.sectors, sectors);
    EXPECT_EQ(a.wavefronts, wavefronts);
    EXPECT_EQ(a.bankConflicts, conflicts);
    EXPECT_GT(conflicts, 0);
}

TEST(CopyAsyncModel, AWarpOverTwoLinesWritesSharedTwice) {
    // 32 lanes, 4 bytes, global stride 8 bytes (two lines), shared contiguous: a plain store
    // would take one wavefront; the copy takes one per line and Nsight Compute calls the second
    // a conflict.
    WarpAccess access;
    access.kind = AccessKind{MemorySpace::Global, AccessOp::CopyAsync, 4, CachePath::Default};
    access.sharedAddresses = LaneAddresses{};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        access.addresses[static_cast<std::size_t>(lane)] = lane * 8;
        (*access.sharedAddresses)[static_cast<std::size_t>(lane)] = lane * 4;
    }
    ASSERT_TRUE(validate(access).ok());
    const ModernPrediction p = predictModern(access);
    ASSERT_TRUE(p.global && p.shared);
    EXPECT_EQ(p.global->sectors, 8);
    EXPECT_EQ(p.shared->wavefronts, 2);
    EXPECT_EQ(p.shared->bankConflicts, 1);
    EXPECT_EQ(p.shared->idealWavefronts, 1);
    const std::vector<Metric> metrics = modernMetrics(p);
    EXPECT_EQ(metric(metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 8);
    EXPECT_EQ(metric(metrics, copyAsyncCounterNames()[2]), 2);
    EXPECT_EQ(metric(metrics, copyAsyncCounterNames()[3]), 1);
}

TEST(CopyAsyncModel, ValidateNamesTheSharedSide) {
    WarpAccess access;
    access.kind = AccessKind{MemorySpace::Global, AccessOp::CopyAsync, 8, CachePath::Default};
    access.addresses[0] = 0;
    auto missing = validate(access);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("shared address"), std::string::npos);
    access.sharedAddresses = LaneAddresses{};
    (*access.sharedAddresses)[0] = 12;
    auto misaligned = validate(access);
    ASSERT_FALSE(misaligned.ok());
    EXPECT_EQ(misaligned.error().code, ErrorCode::Misaligned);
    EXPECT_EQ(misaligned.error().where, "shared address, lane 0");
    access.kind.widthBytes = 2;
    (*access.sharedAddresses)[0] = 0;
    auto narrow = validate(access);
    ASSERT_FALSE(narrow.ok());
    EXPECT_NE(narrow.error().message.find("4, 8 or 16"), std::string::npos);
}

TEST(CopyAsyncKernel, RoundTripsThroughJson) {
    auto kernel = kernelFromJsonText(copyKernelText(16, 1, 1));
    ASSERT_TRUE(kernel.ok()) << kernel.error().describe();
    EXPECT_EQ(kernel->accesses[0].kind.op, AccessOp::CopyAsync);
    EXPECT_EQ(kernel->accesses[0].sharedAddressExpression, "(tid.x * 1 * 16) % 16384");
    const std::string text = kernelToJsonText(kernel.value());
    EXPECT_NE(text.find("\"shared_address\""), std::string::npos);
    EXPECT_NE(text.find("\"copy_async\""), std::string::npos);
    auto again = kernelFromJsonText(text);
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(again.value(), kernel.value());
}

TEST(CopyAsyncKernel, FileErrorsNameTheField) {
    const auto errorOf = [](const std::string& access) {
        auto kernel = kernelFromJsonText(R"({"grid": [1, 1, 1], "block": [32, 1, 1],
 "buffers": [{"name": "a", "bytes": 4096}], "accesses": [)" +
                                         access + "]}");
        EXPECT_FALSE(kernel.ok());
        return kernel.ok() ? Error{} : kernel.error();
    };
    EXPECT_EQ(errorOf(R"({"op": "copy_async", "space": "global", "width": 4, "buffer": "a",
      "address": "lane * 4"})")
                  .where,
              "/accesses/0/shared_address");
    EXPECT_EQ(errorOf(R"({"op": "copy_async", "space": "global", "width": 2, "buffer": "a",
      "address": "lane * 2", "shared_address": "lane * 2"})")
                  .where,
              "/accesses/0/width");
    EXPECT_EQ(errorOf(R"({"op": "copy_async", "space": "shared", "width": 4,
      "address": "lane * 4", "shared_address": "lane * 4"})")
                  .where,
              "/accesses/0/space");
    EXPECT_EQ(errorOf(R"({"op": "copy_async", "space": "global", "width": 16, "buffer": "a",
      "cache": "cg", "address": "lane * 16", "shared_address": "lane * 16"})")
                  .where,
              "/accesses/0/cache");
    EXPECT_EQ(errorOf(R"({"op": "load", "space": "global", "width": 4, "buffer": "a",
      "address": "lane * 4", "shared_address": "lane * 4"})")
                  .where,
              "/accesses/0/shared_address");
}

TEST(CopyAsyncKernel, TheGridNamesTheFirstMisalignedSharedAddress) {
    auto kernel = kernelFromJsonText(R"({"grid": [2, 1, 1], "block": [64, 1, 1],
 "buffers": [{"name": "a", "bytes": 8192}],
 "accesses": [{"op": "copy_async", "space": "global", "width": 8, "buffer": "a",
   "label": "stage", "address": "gid * 8",
   "shared_address": "tid.x == 40 && bid.x == 1 ? 4 : tid.x * 8"}]})");
    ASSERT_TRUE(kernel.ok()) << kernel.error().describe();
    auto resolved = resolveKernel(kernel.value());
    ASSERT_TRUE(resolved.ok()) << resolved.error().describe();
    auto grid = predictGrid(resolved.value());
    ASSERT_FALSE(grid.ok());
    EXPECT_EQ(grid.error().code, ErrorCode::Misaligned);
    EXPECT_EQ(grid.error().where,
              "/accesses/0/shared_address (stage), block (1, 0, 0), thread (40, 0, 0)");
}

TEST(CopyAsyncKernel, TheGridNamesAGlobalSideOutOfBounds) {
    auto kernel = kernelFromJsonText(R"({"grid": [2, 1, 1], "block": [64, 1, 1],
 "buffers": [{"name": "a", "bytes": 256}],
 "accesses": [{"op": "copy_async", "space": "global", "width": 4, "buffer": "a",
   "address": "gid * 4", "shared_address": "tid.x * 4"}]})");
    ASSERT_TRUE(kernel.ok());
    auto resolved = resolveKernel(kernel.value());
    ASSERT_TRUE(resolved.ok());
    auto grid = predictGrid(resolved.value());
    ASSERT_FALSE(grid.ok());
    EXPECT_EQ(grid.error().code, ErrorCode::OutOfBounds);
    EXPECT_EQ(grid.error().where, "/accesses/0/address, block (1, 0, 0), thread (0, 0, 0)");
}

TEST(CopyAsyncPattern, ThePatternOfACopyKeepsItsSharedSide) {
    auto kernel = kernelFromJsonText(copyKernelText(8, 2, 1));
    ASSERT_TRUE(kernel.ok());
    auto pattern = patternFromKernel(kernel.value(), 0);
    ASSERT_TRUE(pattern.ok()) << pattern.error().describe();
    EXPECT_EQ(pattern->source->sharedAddressExpression, "(tid.x * 1 * 8) % 16384");
    auto access = resolve(pattern.value());
    ASSERT_TRUE(access.ok()) << access.error().describe();
    ASSERT_TRUE(access->sharedAddresses.has_value());
    EXPECT_EQ((*access->sharedAddresses)[3], 24);
    EXPECT_EQ(access->addresses[3], 48);
    auto back = kernelFromPattern(pattern.value());
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back->accesses[0].sharedAddressExpression, "(tid.x * 1 * 8) % 16384");
}

TEST(CopyAsyncPattern, PatternFilesKeepTheSharedAddress) {
    const std::string text = R"({"format": "warpscope-pattern", "version": 1,
 "title": "copy", "space": "global", "op": "copy_async", "width": 16, "cache": "default",
 "source": {"address": "lane * 16", "shared_address": "lane * 32", "blockDim": [32, 1, 1]}})";
    auto named = patternFromJsonText(text);
    ASSERT_TRUE(named.ok()) << named.error().describe();
    EXPECT_EQ(named->pattern.source->sharedAddressExpression, "lane * 32");
    const std::string written = patternToJsonText(named.value());
    EXPECT_NE(written.find("\"shared_address\": \"lane * 32\""), std::string::npos);
    auto missing = patternFromJsonText(R"({"format": "warpscope-pattern", "version": 1,
 "title": "copy", "space": "global", "op": "copy_async", "width": 16,
 "source": {"address": "lane * 16"}})");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().where, "/source/shared_address");
}

} // namespace
} // namespace warpscope
