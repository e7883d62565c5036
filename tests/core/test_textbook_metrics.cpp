// The textbook rules' stable names and the metric names built from both models' predictions.
#include "textbook_test_support.h"

namespace warpscope {
namespace {

using namespace textbook_test;

// ---- Names -------------------------------------------------------------------------------------

TEST(TextbookRuleNames, AreStable) {
    EXPECT_STREQ(toString(TextbookRule::CachedLoad), "cached_load");
    EXPECT_STREQ(toString(TextbookRule::UncachedLoad), "uncached_load");
    EXPECT_STREQ(toString(TextbookRule::Store), "store");
    EXPECT_STREQ(toString(TextbookRule::SharedMemory), "shared_memory");
}

std::optional<double> find(const std::vector<Metric>& metrics, const std::string& name) {
    std::optional<double> value;
    for (const Metric& m : metrics) {
        if (m.name == name) {
            EXPECT_FALSE(value.has_value()) << name << " appears twice";
            value = m.value;
        }
    }
    return value;
}

std::vector<std::string> namesOf(const std::vector<Metric>& metrics) {
    std::vector<std::string> names;
    for (const Metric& m : metrics) {
        names.push_back(m.name);
    }
    return names;
}

TEST(Metrics, NsightCounterNamesAreFixed) {
    // ARCHITECTURE.md, "Metric names": Nsight Compute's own names, so `ncu` can check them.
    const std::vector<std::string> expected = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    };
    EXPECT_EQ(nsightCounterNames(), expected);
    EXPECT_EQ(&nsightCounterNames(), &nsightCounterNames());
}

TEST(Metrics, EachAccessHasItsTwoCounters) {
    const auto counters = [](MemorySpace space, AccessOp op) {
        AccessKind kind;
        kind.space = space;
        kind.op = op;
        const AccessCounters c = nsightCountersFor(kind);
        return c.first + " " + c.second;
    };
    EXPECT_EQ(counters(MemorySpace::Global, AccessOp::Load),
              "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum "
              "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    EXPECT_EQ(counters(MemorySpace::Global, AccessOp::Store),
              "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum "
              "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    EXPECT_EQ(counters(MemorySpace::Shared, AccessOp::Load),
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum "
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    EXPECT_EQ(counters(MemorySpace::Shared, AccessOp::Store),
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum "
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
}

ModernPrediction globalModern(AccessOp op) {
    ModernPrediction p;
    p.kind = AccessKind{MemorySpace::Global, op, 4, CachePath::Default};
    GlobalPrediction g;
    g.requests = 1;
    g.sectors = 5;
    g.lines = 2;
    g.bytesRequested = 128;
    g.uniqueBytesRequested = 124;
    g.bytesMoved = 160;
    g.efficiency = 124.0 / 160.0;
    p.global = g;
    return p;
}

ModernPrediction sharedModern(AccessOp op) {
    ModernPrediction p;
    p.kind = AccessKind{MemorySpace::Shared, op, 4, CachePath::Default};
    SharedPrediction s;
    s.wavefronts = 32;
    s.bankConflicts = 31;
    s.idealWavefronts = 1;
    s.worstBankDegree = 32;
    p.shared = s;
    return p;
}

TEST(Metrics, ModernGlobalLoad) {
    const auto metrics = modernMetrics(globalModern(Load));
    const auto& counters = nsightCounterNames();
    ASSERT_GE(metrics.size(), counters.size());
    for (std::size_t i = 0; i < counters.size(); ++i) {
        EXPECT_EQ(metrics[i].name, counters[i]) << "counters come first, in the fixed order";
    }
    EXPECT_EQ(find(metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 1.0);
    EXPECT_EQ(find(metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 5.0);
    EXPECT_EQ(find(metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 0.0);
    EXPECT_EQ(find(metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 0.0);
    EXPECT_EQ(find(metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 0.0);
    EXPECT_EQ(find(metrics, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 0.0);
    EXPECT_EQ(find(metrics, "warpscope__lines"), 2.0);
    EXPECT_EQ(find(metrics, "warpscope__bytes_requested"), 128.0);
    EXPECT_EQ(find(metrics, "warpscope__unique_bytes_requested"), 124.0);
    EXPECT_EQ(find(metrics, "warpscope__bytes_moved"), 160.0);
    EXPECT_NEAR(find(metrics, "warpscope__efficiency_pct").value_or(-1), 77.5, 1e-9);
    EXPECT_FALSE(find(metrics, "warpscope__ideal_wavefronts"));
    EXPECT_EQ(metrics.size(), counters.size() + 5);
}

TEST(Metrics, ModernGlobalStore) {
    const auto metrics = modernMetrics(globalModern(Store));
    EXPECT_EQ(find(metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 0.0);
    EXPECT_EQ(find(metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 0.0);
    EXPECT_EQ(find(metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 1.0);
    EXPECT_EQ(find(metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 5.0);
    EXPECT_EQ(find(metrics, "warpscope__bytes_moved"), 160.0);
}

TEST(Metrics, ModernShared) {
    const auto load = modernMetrics(sharedModern(Load));
    EXPECT_EQ(find(load, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 32.0);
    EXPECT_EQ(find(load, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), 31.0);
    EXPECT_EQ(find(load, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 0.0);
    EXPECT_EQ(find(load, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 0.0);
    EXPECT_EQ(find(load, "warpscope__ideal_wavefronts"), 1.0);
    EXPECT_FALSE(find(load, "warpscope__efficiency_pct"));

    const auto store = modernMetrics(sharedModern(Store));
    EXPECT_EQ(find(store, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 0.0);
    EXPECT_EQ(find(store, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 32.0);
    EXPECT_EQ(find(store, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 31.0);
    EXPECT_EQ(store.size(), nsightCounterNames().size() + 1);
}

TEST(Metrics, ModernWithoutItsPartGivesZeros) {
    ModernPrediction p;
    p.kind = AccessKind{MemorySpace::Global, Load, 4, CachePath::Default};
    for (const Metric& m : modernMetrics(p)) {
        EXPECT_EQ(m.value, 0.0) << m.name;
    }
}

TEST(Metrics, TextbookGlobalLoad) {
    // Seed 002: readSegment offset 11 with -dlcm=cg, 5 segments, gld_efficiency 80 %.
    const auto p = predictTextbook(
        makeAccess(MemorySpace::Global, Load, 4, CG, [](int l) { return (l + 11) * 4; }));
    const auto metrics = textbookMetrics(p);
    EXPECT_EQ(namesOf(metrics),
              (std::vector<std::string>{"textbook__gld_transactions",
                                        "textbook__gld_efficiency_pct", "textbook__bytes_moved"}));
    EXPECT_EQ(find(metrics, "textbook__gld_transactions"), 5.0);
    EXPECT_NEAR(find(metrics, "textbook__gld_efficiency_pct").value_or(-1), 80.0, 1e-9);
    EXPECT_EQ(find(metrics, "textbook__bytes_moved"), 160.0);
}

TEST(Metrics, TextbookGlobalStore) {
    // Seed 002: writeSegment offset 11, one 4-segment and one 1-segment transaction, 80 %.
    const auto p = predictTextbook(
        makeAccess(MemorySpace::Global, Store, 4, Default, [](int l) { return (l + 11) * 4; }));
    const auto metrics = textbookMetrics(p);
    EXPECT_EQ(namesOf(metrics),
              (std::vector<std::string>{"textbook__gst_transactions",
                                        "textbook__gst_efficiency_pct", "textbook__bytes_moved"}));
    EXPECT_EQ(find(metrics, "textbook__gst_transactions"), 2.0);
    EXPECT_NEAR(find(metrics, "textbook__gst_efficiency_pct").value_or(-1), 80.0, 1e-9);
    EXPECT_EQ(find(metrics, "textbook__bytes_moved"), 160.0);
}

TEST(Metrics, TextbookShared) {
    // Seed 004, offset 32: a 32-way conflict.
    auto column = [](AccessOp op) {
        return predictTextbook(
            makeAccess(MemorySpace::Shared, op, 4, Default, [](int l) { return l * 128; }));
    };
    const auto load = textbookMetrics(column(Load));
    EXPECT_EQ(namesOf(load), (std::vector<std::string>{"textbook__shared_ld_transactions",
                                                       "textbook__bank_conflict_degree"}));
    EXPECT_EQ(find(load, "textbook__shared_ld_transactions"), 32.0);
    EXPECT_EQ(find(load, "textbook__bank_conflict_degree"), 32.0);

    const auto store = textbookMetrics(column(Store));
    EXPECT_EQ(namesOf(store), (std::vector<std::string>{"textbook__shared_st_transactions",
                                                        "textbook__bank_conflict_degree"}));
    EXPECT_EQ(find(store, "textbook__shared_st_transactions"), 32.0);
}

} // namespace
} // namespace warpscope
