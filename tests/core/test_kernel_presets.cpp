// The kernel presets through the grid model, warp-wide evaluation, and kernels in pattern and
// session files.
#include "kernel_test_support.h"

namespace warpscope {
namespace {

using namespace kernel_test;

// ---- Presets -------------------------------------------------------------------------------

TEST(KernelPresets, EveryPresetResolvesAndPredicts) {
    const auto& presets = builtinKernelPresets();
    ASSERT_GE(presets.size(), 28u);
    for (const KernelPreset& preset : presets) {
        SCOPED_TRACE(preset.id);
        EXPECT_FALSE(preset.title.empty());
        EXPECT_FALSE(preset.source.empty());
        EXPECT_EQ(findKernelPreset(preset.id), &preset);
        // Under the sanitizers, the same blocks over a smaller problem (sanitizedBuild()).
        const GridPrediction grid =
            gridOrFail(sanitizedBuild() ? smallerProblem(preset.kernel) : preset.kernel);
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
