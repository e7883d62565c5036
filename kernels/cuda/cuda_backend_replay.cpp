// The CUDA backend's replay of one warp's pattern: the launch checked against the arenas, the
// counters of the replay's session, the latency of a load and the grid kernel's bandwidth.
#include "cuda_backend.h"

#include "grid_kernels.h"
#include "probe_trace.h"
#include "timing_kernels.h"

#include "warpscope/matrix_access.h"
#include "warpscope/model.h"

#include <algorithm>

namespace warpscope::probe::cuda {

ProbeResult<Measurement> CudaBackend::measure(const NamedPattern& pattern, const WarpAccess& access,
                                              const MeasureOptions& options) {
    const TraceSpan whole("measure");
    if (auto error = ensureDevice(options.counters)) {
        return *error;
    }
    auto launch = toLaunch(access);
    if (auto* error = std::get_if<ProbeError>(&launch)) {
        return *error;
    }
    const gpu::ReplayLaunch& replay = std::get<gpu::ReplayLaunch>(launch);
    Measurement result;
    // The counters first, then the latency: measured on an H100, the latency's kernels
    // queued while the first pass stopped made that stop about 1 ms slower than they hid.
    if (options.counters) {
        const TraceSpan step("measure counters");
        if (auto error = keepCounters(
                countersFor({replay}, replayCounterNames(options.counterNames, {replay})),
                result)) {
            return *error;
        }
    } else {
        result.countersUnavailableReason = "counters were not asked for";
    }
    if (options.latency) {
        const TraceSpan step("measure latency");
        if (auto error = measureLatency(replay, options.repetitions, result)) {
            return *error;
        }
    }
    if (options.grid) {
        if (auto error = measureGrid(pattern, access, options.repetitions, result)) {
            return *error;
        }
    }
    return result;
}

ProbeResult<std::vector<Measurement>> CudaBackend::sweep(const std::vector<SweepItem>& items,
                                                         const MeasureOptions& options,
                                                         const ProgressCallback& progress,
                                                         const CancelCallback& cancelled) {
    if (auto error = ensureDevice(options.counters)) {
        return *error;
    }
    std::vector<gpu::ReplayLaunch> launches;
    for (const SweepItem& item : items) {
        auto launch = toLaunch(item.access);
        if (auto* error = std::get_if<ProbeError>(&launch)) {
            ProbeError refused = *error;
            refused.message = "pattern " + std::to_string(launches.size()) + " (" +
                              item.pattern.title + "): " + refused.message;
            return refused;
        }
        launches.push_back(std::get<gpu::ReplayLaunch>(launch));
    }
    std::vector<Measurement> results(items.size());
    const int total = static_cast<int>(items.size());
    // Counters in batches: one profiling session per batch of ranges, progress in between.
    constexpr std::size_t kBatch = CounterSession::kMaxRangesPerBatch;
    for (std::size_t first = 0; first < launches.size(); first += kBatch) {
        if (cancelled && cancelled()) {
            return ProbeError::cancelled("the sweep was cancelled");
        }
        const std::size_t last = std::min(launches.size(), first + kBatch);
        if (options.counters) {
            std::vector<gpu::ReplayLaunch> batch(launches.begin() + first, launches.begin() + last);
            auto counters = countersFor(batch, replayCounterNames(options.counterNames, batch));
            if (auto* error = std::get_if<ProbeError>(&counters)) {
                if (error->fatal) {
                    return *error;
                }
                for (std::size_t i = first; i < last; ++i) {
                    results[i].countersUnavailableReason = error->message;
                }
            } else {
                for (std::size_t i = first; i < last; ++i) {
                    results[i].counters = std::get<0>(counters)[i - first];
                    results[i].countersMeasured = true;
                    if (launches[i].matrices == 0) {
                        // Counted for a matrix access in the same batch; not this one's.
                        results[i].counters.erase(kLdsmInstructionsMetric);
                    }
                }
            }
        }
        for (std::size_t i = first; i < last; ++i) {
            // Between patterns too: a measure-ahead sweep the user has left behind stops
            // within one pattern's latency (about a millisecond), not a whole batch.
            if (i > first && cancelled && cancelled()) {
                return ProbeError::cancelled("the sweep was cancelled");
            }
            if (options.latency) {
                if (auto error = measureLatency(launches[i], options.repetitions, results[i])) {
                    return *error;
                }
            }
            if (options.grid) {
                if (auto error = measureGrid(items[i].pattern, items[i].access, options.repetitions,
                                             results[i])) {
                    return *error;
                }
            }
        }
        if (progress) {
            progress(static_cast<int>(last), total);
        }
    }
    return results;
}

ProbeResult<std::string> CudaBackend::kernelSource(const NamedPattern& pattern) {
    auto source = generateGridKernel(pattern.pattern);
    if (auto* error = std::get_if<ProbeError>(&source)) {
        return *error;
    }
    return std::get<GridKernel>(source).source;
}

/// Opens `names` into `slot` unless it was tried already. A context has one range profiler,
/// so `other` gives way first and is opened again when next wanted.
void CudaBackend::openCounters(CounterSlot& slot, CounterSlot& other,
                               const std::vector<std::string>& names) {
    if (slot.tried) {
        return;
    }
    slot.tried = true;
    other.session.reset();
    other.tried = false;
    auto session = CounterSession::open(names);
    if (auto* error = std::get_if<ProbeError>(&session)) {
        slot.error = *error;
    } else {
        slot.session = std::move(std::get<0>(session));
    }
}

/// The replay's counter session, opened for `names` unless one is open or was tried
/// already (whatever it holds); the whole-kernel ones give way.
void CudaBackend::ensureCounters(const std::vector<std::string>& names) {
    m_kindCounters = CounterSlot{};
    if (!m_counters.tried) {
        m_counterSet = names;
    }
    openCounters(m_counters, m_kernelCounters, m_counterSet);
}

/// Closes the replay's counter session and opens it for `names` (a context has one range
/// profiler, which holds one metric list).
void CudaBackend::reopenCounters(const std::vector<std::string>& names) {
    m_counters = CounterSlot{};
    ensureCounters(names);
}

/// The replay's counters of `launches`, those named in `names` (empty: all of
/// nsightCounterNames(); the protocol checked each is one of them). An open session that
/// holds them all answers; otherwise one is opened for exactly these. Only the counters
/// asked for are returned, whichever session counted them.
ProbeResult<std::vector<std::map<std::string, double>>>
CudaBackend::countersFor(const std::vector<gpu::ReplayLaunch>& launches,
                         const std::vector<std::string>& names) {
    const std::vector<std::string>& wanted = names.empty() ? nsightCounterNames() : names;
    m_wantedCounters = wanted;
    ensureCounters(wanted);
    const bool holdsAll = std::all_of(wanted.begin(), wanted.end(), [&](const std::string& n) {
        return std::find(m_counterSet.begin(), m_counterSet.end(), n) != m_counterSet.end();
    });
    // A session that never started (device_info opened it for every counter) is replaced
    // at once by one for exactly these: its open costs about 10 ms, while answering from
    // it and opening the right one when idle would pay the first start's set-up twice.
    if (m_counters.session &&
        (!holdsAll || (m_counterSet != wanted && !m_counters.session->everStarted()))) {
        reopenCounters(wanted);
    }
    if (!m_counters.session) {
        return m_counters.error;
    }
    auto measured = m_counters.session->measure(static_cast<int>(launches.size()), [&](int i) {
        return gpu::launchReplay(launches[static_cast<std::size_t>(i)], nullptr) == cudaSuccess;
    });
    if (auto* counts = std::get_if<0>(&measured); counts && m_counterSet != wanted) {
        for (std::map<std::string, double>& count : *counts) {
            std::erase_if(count, [&](const auto& entry) {
                return std::find(wanted.begin(), wanted.end(), entry.first) == wanted.end();
            });
        }
    }
    return measured;
}

/// The launch for a checked access, or PatternRefused naming the first lane that does not fit.
ProbeResult<gpu::ReplayLaunch> CudaBackend::toLaunch(const WarpAccess& access) const {
    if (isMatrixAccess(access.kind)) {
        return toMatrixLaunch(access);
    }
    gpu::ReplayLaunch launch;
    const AccessKind& kind = access.kind;
    if (kind.space == MemorySpace::Local || kind.space == MemorySpace::Texture) {
        return ProbeError::patternRefused(
            std::string(toString(kind.space)) +
            " accesses are measured as a whole kernel (measure_kernel), "
            "not replayed as one warp");
    }
    launch.space =
        kind.space == MemorySpace::Global ? gpu::ReplaySpace::Global : gpu::ReplaySpace::Shared;
    launch.op = kind.op == AccessOp::Load ? gpu::ReplayOp::Load : gpu::ReplayOp::Store;
    switch (kind.cache) {
    case CachePath::Default:
        launch.cache = gpu::ReplayCache::Default;
        break;
    case CachePath::CacheAll:
        launch.cache = gpu::ReplayCache::CacheAll;
        break;
    case CachePath::CacheGlobal:
        launch.cache = gpu::ReplayCache::CacheGlobal;
        break;
    case CachePath::NonCoherent:
        launch.cache = gpu::ReplayCache::NonCoherent;
        break;
    }
    launch.widthBytes = kind.widthBytes;
    launch.globalArena = m_arena;
    launch.sink = m_sink;
    const std::size_t limit = kind.space == MemorySpace::Global ? m_arenaBytes : m_maxSharedBytes;
    std::int64_t highest = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto& address = access.addresses[static_cast<std::size_t>(lane)];
        if (!address) {
            continue;
        }
        if (*address < 0 || *address % kind.widthBytes != 0 ||
            static_cast<std::uint64_t>(*address) + static_cast<std::uint64_t>(kind.widthBytes) >
                limit) {
            return ProbeError::patternRefused(
                "lane " + std::to_string(lane) + " would access byte " + std::to_string(*address) +
                ", outside the probe's " + std::to_string(limit) + "-byte " +
                (kind.space == MemorySpace::Global ? "global arena" : "shared memory") +
                " or not aligned to the " + std::to_string(kind.widthBytes) +
                "-byte element; the pattern was not launched");
        }
        launch.activeMask |= 1u << lane;
        launch.offsets[lane] = *address;
        highest = std::max<std::int64_t>(highest, *address + kind.widthBytes);
    }
    launch.sharedBytes = static_cast<std::size_t>((highest + 15) / 16 * 16);
    return launch;
}

/// Queues `n` (at most kLatencySlots) latency runs of a load on m_stream, back to back, each
/// writing its own pair of counts to m_cycles: the stream keeps them in order (the flush,
/// then its latency kernel) and the host does not wait between them.
std::optional<ProbeError> CudaBackend::queueLatencyRuns(const gpu::ReplayLaunch& launch, int n) {
    for (int i = 0; i < n; ++i) {
        if (launch.space == gpu::ReplaySpace::Global) {
            if (auto e = check(gpu::launchFlush(m_flush, m_flushBytes, m_stream), "L2 flush")) {
                return e;
            }
        }
        if (auto e =
                check(gpu::launchLatency(launch, m_cycles + 2 * i, m_stream), "latency kernel")) {
            return e;
        }
    }
    return std::nullopt;
}

/// Times a load's cold and warm latency `repetitions` times, in batches of kLatencySlots
/// runs read with one copy and one wait each.
std::optional<ProbeError> CudaBackend::measureLatency(const gpu::ReplayLaunch& launch,
                                                      int repetitions, Measurement& result) {
    if (launch.op != gpu::ReplayOp::Load) {
        return std::nullopt; // a store's completion is not visible to the warp
    }
    if (launch.matrices != 0) {
        return std::nullopt; // the latency kernels time LDS, not LDSM: no ldmatrix latency
    }
    std::vector<double> cold;
    std::vector<double> warm;
    const int total = std::max(1, repetitions);
    std::vector<long long> cycles(2 * static_cast<std::size_t>(kLatencySlots));
    for (int first = 0; first < total; first += kLatencySlots) {
        const int n = std::min(kLatencySlots, total - first);
        if (auto e = queueLatencyRuns(launch, n)) {
            return e;
        }
        if (auto e = check(cudaMemcpyAsync(cycles.data(), m_cycles,
                                           2 * static_cast<std::size_t>(n) * sizeof(long long),
                                           cudaMemcpyDeviceToHost, m_stream),
                           "reading latency")) {
            return e;
        }
        if (auto e = wait("the latency kernel")) {
            return e;
        }
        for (int i = 0; i < n; ++i) {
            cold.push_back(static_cast<double>(cycles[2 * static_cast<std::size_t>(i)]));
            warm.push_back(static_cast<double>(cycles[2 * static_cast<std::size_t>(i) + 1]));
        }
    }
    result.latencyColdCycles = statsOf(cold);
    result.latencyWarmCycles = statsOf(warm);
    result.smClockKHz = m_smClockKHz;
    return std::nullopt;
}

std::optional<ProbeError> CudaBackend::measureGrid(const NamedPattern& pattern,
                                                   const WarpAccess& access, int repetitions,
                                                   Measurement& result) {
    auto grid = runGridKernel(pattern.pattern, access, m_arena, m_arenaBytes, m_sink, m_stream,
                              repetitions);
    if (auto* error = std::get_if<ProbeError>(&grid)) {
        return *error;
    }
    const GridTiming& timing = std::get<GridTiming>(grid);
    result.gridKernelMs = statsOf(timing.kernelMs);
    result.gridBytesRequested = timing.bytesRequested;
    result.gridBytesMoved = timing.bytesMoved;
    const double seconds = result.gridKernelMs->median * 1e-3;
    if (seconds > 0.0) {
        result.gridEffectiveBandwidthGBs = timing.bytesRequested / seconds / 1e9;
        result.gridMovedBandwidthGBs = timing.bytesMoved / seconds / 1e9;
    }
    return std::nullopt;
}

} // namespace warpscope::probe::cuda
