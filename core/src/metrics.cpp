// Predictions as named numbers: Nsight Compute's metric names for the modern model (so a user can
// check warpscope against `ncu` directly), warpscope__ and textbook__ names for the rest.
// Every name is documented in docs/metrics.md.
#include "warpscope/model.h"

#include "warpscope/matrix_access.h"

namespace warpscope {

namespace {

// Indices into nsightCounterNames().
enum Counter : std::size_t {
    GlobalLoadRequests,
    GlobalLoadSectors,
    GlobalStoreRequests,
    GlobalStoreSectors,
    SharedLoadWavefronts,
    SharedLoadBankConflicts,
    SharedStoreWavefronts,
    SharedStoreBankConflicts,
    CounterCount,
};

} // namespace

const std::vector<std::string>& nsightCounterNames() {
    static const std::vector<std::string> names = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    };
    return names;
}

const std::vector<std::string>& constantCounterNames() {
    static const std::vector<std::string> names = {
        "idc__requests.sum",
        "smsp__inst_executed_op_ldc_pred_on_any.sum",
    };
    return names;
}

const std::vector<std::string>& localCounterNames() {
    static const std::vector<std::string> names = {
        "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    };
    return names;
}

const std::vector<std::string>& textureCounterNames() {
    static const std::vector<std::string> names = {
        "l1tex__t_requests_pipe_tex_mem_texture.sum",
        "l1tex__t_sectors_pipe_tex_mem_texture.sum",
    };
    return names;
}

const std::vector<std::string>& copyAsyncCounterNames() {
    static const std::vector<std::string> names = {
        "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
        "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
    };
    return names;
}

AccessCounters nsightCountersFor(const AccessKind& kind) {
    const std::vector<std::string>& names = nsightCounterNames();
    // An async copy's global side is a load to Nsight Compute: its requests and sectors count
    // in the op_ld counters too (measured on the H100).
    const bool load = kind.op != AccessOp::Store;
    if (kind.space == MemorySpace::Local) {
        const std::vector<std::string>& local = localCounterNames();
        return {local[load ? 0 : 2], local[load ? 1 : 3]};
    }
    if (kind.space == MemorySpace::Texture) {
        return {textureCounterNames()[0], textureCounterNames()[1]};
    }
    if (kind.space == MemorySpace::Global) {
        return {names[load ? GlobalLoadRequests : GlobalStoreRequests],
                names[load ? GlobalLoadSectors : GlobalStoreSectors]};
    }
    return {names[load ? SharedLoadWavefronts : SharedStoreWavefronts],
            names[load ? SharedLoadBankConflicts : SharedStoreBankConflicts]};
}

std::vector<Metric> modernMetrics(const ModernPrediction& prediction) {
    const std::vector<std::string>& names = nsightCounterNames();
    std::vector<double> counters(CounterCount, 0.0);
    const bool isLoad = prediction.kind.op != AccessOp::Store;

    std::vector<Metric> extras;
    if (prediction.kind.space == MemorySpace::Local) {
        // The interleaved addresses' requests and sectors under the local counters' names.
        const GlobalPrediction local = prediction.global.value_or(GlobalPrediction{});
        const AccessCounters which = nsightCountersFor(prediction.kind);
        extras = {
            {which.first, static_cast<double>(local.requests)},
            {which.second, static_cast<double>(local.sectors)},
            {"warpscope__lines", static_cast<double>(local.lines)},
            {"warpscope__bytes_requested", static_cast<double>(local.bytesRequested)},
            {"warpscope__bytes_moved", static_cast<double>(local.bytesMoved)},
            {"warpscope__efficiency_pct", local.efficiency * 100.0},
        };
    } else if (prediction.kind.space == MemorySpace::Texture) {
        const TexturePrediction texture = prediction.texture.value_or(TexturePrediction{});
        const GlobalPrediction equivalent = prediction.global.value_or(GlobalPrediction{});
        extras = {
            {textureCounterNames()[0], static_cast<double>(texture.requests)},
            {textureCounterNames()[1], static_cast<double>(texture.sectors)},
            {"warpscope__global_equivalent_sectors", static_cast<double>(equivalent.sectors)},
            {"warpscope__bytes_requested", static_cast<double>(equivalent.bytesRequested)},
        };
    } else if (prediction.kind.space == MemorySpace::Global) {
        const GlobalPrediction global = prediction.global.value_or(GlobalPrediction{});
        counters[isLoad ? GlobalLoadRequests : GlobalStoreRequests] = global.requests;
        counters[isLoad ? GlobalLoadSectors : GlobalStoreSectors] = global.sectors;
        extras = {
            {"warpscope__lines", static_cast<double>(global.lines)},
            {"warpscope__bytes_requested", static_cast<double>(global.bytesRequested)},
            {"warpscope__unique_bytes_requested", static_cast<double>(global.uniqueBytesRequested)},
            {"warpscope__bytes_moved", static_cast<double>(global.bytesMoved)},
            {"warpscope__efficiency_pct", global.efficiency * 100.0},
        };
        if (prediction.kind.op == AccessOp::CopyAsync) {
            const SharedPrediction shared = prediction.shared.value_or(SharedPrediction{});
            const std::vector<std::string>& copy = copyAsyncCounterNames();
            extras.insert(extras.begin(), {{copy[0], static_cast<double>(global.requests)},
                                           {copy[1], static_cast<double>(global.sectors)},
                                           {copy[2], static_cast<double>(shared.wavefronts)},
                                           {copy[3], static_cast<double>(shared.bankConflicts)},
                                           {"warpscope__ideal_wavefronts",
                                            static_cast<double>(shared.idealWavefronts)}});
        }
    } else if (prediction.kind.space == MemorySpace::Constant) {
        const ConstantPrediction constant = prediction.constant.value_or(ConstantPrediction{});
        extras = {
            {"warpscope__constant_requests", static_cast<double>(constant.requests)},
            {"warpscope__constant_addresses", static_cast<double>(constant.cacheRequests)},
            {"warpscope__constant_extra_requests", static_cast<double>(constant.extraRequests)},
            {"warpscope__bytes_requested", static_cast<double>(constant.bytesRequested)},
        };
    } else {
        const SharedPrediction shared = prediction.shared.value_or(SharedPrediction{});
        counters[isLoad ? SharedLoadWavefronts : SharedStoreWavefronts] = shared.wavefronts;
        counters[isLoad ? SharedLoadBankConflicts : SharedStoreBankConflicts] =
            shared.bankConflicts;
        extras = {{"warpscope__ideal_wavefronts", static_cast<double>(shared.idealWavefronts)}};
        if (isMatrixAccess(prediction.kind)) {
            // One LDSM per ldmatrix (measured on the H200); an stmatrix counts none.
            extras.push_back(
                {kLdsmInstructionsMetric, isLoad && shared.wavefronts > 0 ? 1.0 : 0.0});
        }
    }

    std::vector<Metric> metrics;
    metrics.reserve(CounterCount + extras.size());
    for (std::size_t i = 0; i < CounterCount; ++i) {
        metrics.push_back({names[i], counters[i]});
    }
    metrics.insert(metrics.end(), extras.begin(), extras.end());
    return metrics;
}

// Only the names that apply to the access's space and operation are emitted (a global load has
// no gst_* values, a shared access no efficiency): a name that is present always means something.
// The names follow nvprof's (gld_transactions, gst_efficiency, ...), which is what the course
// notes measured with (seed 002, "NVPROF Profiling Results").
std::vector<Metric> textbookMetrics(const TextbookPrediction& prediction) {
    const auto transactions = static_cast<double>(prediction.transactions.size());
    // An async copy's global side reads: the textbook counts it as a load.
    const bool isLoad = prediction.kind.op != AccessOp::Store;
    if (!prediction.notInNotes.empty()) {
        return {};
    }
    if (prediction.kind.space == MemorySpace::Constant) {
        return {{"textbook__constant_passes", transactions}};
    }
    if (prediction.kind.space == MemorySpace::Local ||
        prediction.kind.space == MemorySpace::Texture) {
        return {}; // the Fermi/Kepler notes give these paths no transaction rule warpscope models
    }
    if (prediction.kind.space == MemorySpace::Shared) {
        return {
            {isLoad ? "textbook__shared_ld_transactions" : "textbook__shared_st_transactions",
             transactions},
            {"textbook__bank_conflict_degree", static_cast<double>(prediction.bankConflictDegree)},
        };
    }
    return {
        {isLoad ? "textbook__gld_transactions" : "textbook__gst_transactions", transactions},
        {isLoad ? "textbook__gld_efficiency_pct" : "textbook__gst_efficiency_pct",
         prediction.efficiency * 100.0},
        {"textbook__bytes_moved", static_cast<double>(prediction.bytesMoved)},
    };
}

} // namespace warpscope
