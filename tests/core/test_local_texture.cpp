// Issue 19: local memory (per-thread arrays, interleaved by 4-byte words) and 2-D texture reads
// (the per-quad rule). The expected numbers are what an H100 counted for the same warps
// (scripts/hw/loctex/explore.cu; tests/data/loctex/table.txt, 1024 warps per line, divided here
// to one warp).
#include "metric_test_support.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"
#include "warpscope/model.h"
#include "warpscope/pattern.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace warpscope {
namespace {

WarpAccess localWarp(AccessOp op, int width, const std::function<std::int64_t(int)>& offset) {
    Pattern pattern;
    pattern.kind = AccessKind{MemorySpace::Local, op, width, CachePath::Default};
    for (int lane = 0; lane < kWarpSize; ++lane) {
        pattern.addresses[static_cast<std::size_t>(lane)] = offset(lane);
    }
    auto resolved = resolve(pattern);
    EXPECT_TRUE(resolved) << resolved.error().describe();
    return resolved.value();
}

using metric_test::metric;

TEST(LocalMemory, NamesAndInterleaving) {
    EXPECT_STREQ(toString(MemorySpace::Local), "local");
    EXPECT_STREQ(toString(MemorySpace::Texture), "texture");
    EXPECT_EQ(memorySpaceFromString("local"), MemorySpace::Local);
    EXPECT_EQ(memorySpaceFromString("texture"), MemorySpace::Texture);
    // Word w of lane l sits at w * 128 + l * 4; a byte keeps its place in the word.
    EXPECT_EQ(localInterleavedAddress(0, 0), 0);
    EXPECT_EQ(localInterleavedAddress(0, 31), 124);
    EXPECT_EQ(localInterleavedAddress(4, 0), 128);
    EXPECT_EQ(localInterleavedAddress(6, 3), 128 + 12 + 2);
    for (std::int64_t offset : {0, 1, 5, 127, 4096}) {
        for (int lane : {0, 7, 31}) {
            EXPECT_EQ(localThreadOffset(localInterleavedAddress(offset, lane)), offset);
        }
    }
}

// Sectors per request an H100 counted (explore.cu modes 0 to 5, widths 1, 2, 4; loads and
// stores alike): the interleaving model must give each one.
TEST(LocalMemory, SectorsAsAnH100CountsThem) {
    struct Case {
        const char* mode;
        std::function<std::int64_t(int)> index; // element index per lane
        int sectors[3];                         // widths 1, 2, 4
    };
    const Case cases[] = {
        {"same element", [](int) { return 0; }, {4, 4, 4}},
        {"lane l element l", [](int l) { return l; }, {8, 16, 32}},
        {"element l % 8", [](int l) { return l % 8; }, {8, 16, 32}},
        {"element l / 8", [](int l) { return l / 8; }, {4, 4, 4}},
        {"element 31 - l", [](int l) { return 31 - l; }, {8, 16, 32}},
        {"element 5l % 32", [](int l) { return (l * 5) % 32; }, {28, 32, 32}},
    };
    for (const Case& c : cases) {
        for (int w = 0; w < 3; ++w) {
            const int width = 1 << w;
            for (AccessOp op : {AccessOp::Load, AccessOp::Store}) {
                const WarpAccess access =
                    localWarp(op, width, [&](int lane) { return c.index(lane) * width; });
                const ModernPrediction p = predictModern(access);
                ASSERT_TRUE(p.global);
                EXPECT_EQ(p.global->requests, 1) << c.mode;
                EXPECT_EQ(p.global->sectors, c.sectors[w]) << c.mode << ", width " << width;
                const std::string prefix = op == AccessOp::Load
                                               ? "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"
                                               : "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum";
                EXPECT_EQ(metric(modernMetrics(p), prefix), c.sectors[w]);
            }
        }
    }
}

TEST(LocalMemory, RefusesWideAccessesTexturesStoresAndBadOffsets) {
    Pattern pattern;
    pattern.kind = AccessKind{MemorySpace::Local, AccessOp::Load, 8, CachePath::Default};
    pattern.addresses[0] = 0;
    auto wide = resolve(pattern);
    ASSERT_FALSE(wide);
    EXPECT_NE(wide.error().message.find("local accesses must be 1, 2 or 4 bytes"),
              std::string::npos);
    pattern.kind = AccessKind{MemorySpace::Texture, AccessOp::Store, 4, CachePath::Default};
    auto store = resolve(pattern);
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().where, "op");
    // A negative offset is refused as written, before interleaving could hide it.
    pattern.kind = AccessKind{MemorySpace::Local, AccessOp::Load, 4, CachePath::Default};
    pattern.addresses[3] = -4;
    auto negative = resolve(pattern);
    ASSERT_FALSE(negative);
    EXPECT_EQ(negative.error().where, "lane 3");
}

TEST(TextureMemory, QuadRuleAsAnH100CountsIt) {
    // 2-D reads of 32-bit texels over pitched memory (pitch 4096 bytes): sectors per warp an
    // H100 counted (explore.cu shapes: row 8, tile 8x4 8, tile 4x8 8, column 32, tile 16x2 8)
    // and 8 requests each; a global load of the same addresses: 4, 4, 8, 32, 4.
    struct Case {
        const char* shape;
        int width; // texels per row of the warp's block
        int texture;
        int global;
    };
    for (const Case& c :
         {Case{"row", 32, 8, 4}, Case{"tile 8x4", 8, 8, 4}, Case{"tile 4x8", 4, 8, 8},
          Case{"column", 1, 32, 32}, Case{"tile 16x2", 16, 8, 4}}) {
        WarpAccess access;
        access.kind = AccessKind{MemorySpace::Texture, AccessOp::Load, 4, CachePath::Default};
        for (int lane = 0; lane < kWarpSize; ++lane) {
            access.addresses[static_cast<std::size_t>(lane)] =
                std::int64_t{lane / c.width} * 4096 + (lane % c.width) * 4;
        }
        const ModernPrediction p = predictModern(access);
        ASSERT_TRUE(p.texture && p.global);
        EXPECT_EQ(p.texture->requests, 8) << c.shape;
        EXPECT_EQ(p.texture->sectors, c.texture) << c.shape;
        EXPECT_EQ(p.global->sectors, c.global) << c.shape;
        const auto metrics = modernMetrics(p);
        EXPECT_EQ(metric(metrics, "l1tex__t_sectors_pipe_tex_mem_texture.sum"), c.texture);
        EXPECT_EQ(metric(metrics, "warpscope__global_equivalent_sectors"), c.global);
    }
    // Quads without an active lane make no request.
    WarpAccess half;
    half.kind = AccessKind{MemorySpace::Texture, AccessOp::Load, 4, CachePath::Default};
    for (int lane = 0; lane < 5; ++lane) {
        half.addresses[static_cast<std::size_t>(lane)] = lane * 4;
    }
    EXPECT_EQ(predictTexture(half).requests, 2);
    EXPECT_EQ(predictTexture(half).sectors, 2);
}

// The grid model over the presets: per-warp counts summed, local counters and the texture's
// under their own names, and only in kernels that have such accesses.
TEST(LocalTexturePresets, GridTotals) {
    auto totals = [](const char* id) {
        const KernelPreset* preset = findKernelPreset(id);
        EXPECT_NE(preset, nullptr) << id;
        // Smaller launches than the presets' own (the counts scale with the warps).
        Kernel kernel = preset->kernel;
        for (Parameter& p : kernel.parameters) {
            if (p.name == "n" || p.name == "w" || p.name == "h") {
                p.value = p.name == "n" ? 65536 : 256;
            }
        }
        auto resolved = resolveKernel(kernel);
        EXPECT_TRUE(resolved) << resolved.error().describe();
        auto grid = predictGrid(resolved.value());
        EXPECT_TRUE(grid) << grid.error().describe();
        return grid.value();
    };
    const GridPrediction same = totals("local-same-index");
    const double warps = 65536.0 / 32;
    EXPECT_EQ(metric(same.metrics, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum"), warps);
    EXPECT_EQ(metric(same.metrics, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"), 4 * warps);
    EXPECT_EQ(metric(same.metrics, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"), 4 * warps);
    EXPECT_EQ(same.localBytesPerThread, 5 * 4 + 4);
    const GridPrediction lane = totals("local-lane-index");
    EXPECT_EQ(metric(lane.metrics, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"), 32 * warps);
    EXPECT_EQ(lane.localBytesPerThread, 128);

    const GridPrediction rows = totals("texture-rows");
    const double texWarps = 256.0 * 256 / 32;
    EXPECT_EQ(metric(rows.metrics, "l1tex__t_requests_pipe_tex_mem_texture.sum"), 8 * texWarps);
    EXPECT_EQ(metric(rows.metrics, "l1tex__t_sectors_pipe_tex_mem_texture.sum"), 8 * texWarps);
    EXPECT_EQ(metric(rows.metrics, "warpscope__texture_global_equivalent_sectors"), 4 * texWarps);
    // A texture read is no global load: the global load counters stay zero.
    EXPECT_EQ(metric(rows.metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 0);
    const GridPrediction tiles = totals("texture-tiles");
    EXPECT_EQ(metric(tiles.metrics, "l1tex__t_sectors_pipe_tex_mem_texture.sum"), 8 * texWarps);

    const GridPrediction plain = totals("readoffset");
    for (const Metric& m : plain.metrics) {
        EXPECT_EQ(m.name.find("_local_"), std::string::npos) << m.name;
        EXPECT_EQ(m.name.find("tex_mem_texture"), std::string::npos) << m.name;
    }
}

TEST(LocalTexturePresets, KernelFilesRoundTripAndRefuseClearly) {
    const KernelPreset* preset = findKernelPreset("texture-tiles");
    ASSERT_NE(preset, nullptr);
    auto again = kernelFromJsonText(kernelToJsonText(preset->kernel));
    ASSERT_TRUE(again) << again.error().describe();
    EXPECT_EQ(again.value(), preset->kernel);
    EXPECT_EQ(again->accesses[0].textureRowBytes, "w * 4");

    auto noRow = kernelFromJsonText(
        R"({"buffers":[{"name":"a","bytes":4096}],"accesses":[{"op":"load","space":"texture",
            "width":4,"buffer":"a","address":"lane*4"}]})");
    ASSERT_FALSE(noRow);
    EXPECT_EQ(noRow.error().where, "/accesses/0/row_bytes");
    auto localBuffer = kernelFromJsonText(
        R"({"buffers":[{"name":"a","bytes":4096}],"accesses":[{"op":"load","space":"local",
            "width":4,"buffer":"a","address":"lane*4"}]})");
    ASSERT_FALSE(localBuffer);
    EXPECT_EQ(localBuffer.error().where, "/accesses/0/buffer");
    auto badRow = kernelFromJsonText(
        R"({"buffers":[{"name":"a","bytes":4096}],"accesses":[{"op":"load","space":"texture",
            "width":4,"buffer":"a","row_bytes":48,"address":"lane*4"}]})");
    ASSERT_TRUE(badRow);
    auto resolved = resolveKernel(badRow.value());
    ASSERT_FALSE(resolved);
    EXPECT_EQ(resolved.error().where, "/accesses/0/row_bytes");
}

} // namespace
} // namespace warpscope
