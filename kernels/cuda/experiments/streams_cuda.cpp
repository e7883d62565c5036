// measure_streams on the GPU (streams_cuda.h), host side; the kernel is in transfer_kernels.cu.
//
// The totals are timed with CUDA events around the whole run (recorded on the first stream, which
// every other stream waits on before its first operation and joins after its last). The
// timeline comes from CUPTI's activity records where CUPTI can be loaded: they carry the times at
// which each copy and kernel actually ran on the GPU. Events recorded around an operation in its
// stream cannot say that: an event before a copy completes when the stream reaches the copy, not
// when a busy copy engine takes it up, so a copy that queued for the engine would look as if it
// had started early. Without CUPTI the timeline falls back on those events, and says so.
#include "streams_cuda.h"

#include "cuda_buffers.h"
#include "host_memory.h"
#include "streams_activity.h"
#include "transfer_kernels.h"

#include <warpscope/format.h>
#include <warpscope/statistics.h>

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <vector>

namespace warpscope::probe {

namespace {

// ---- The experiment -------------------------------------------------------------------------

struct EventHandle {
    cudaEvent_t e = nullptr;
    EventHandle() = default;
    EventHandle(const EventHandle&) = delete;
    EventHandle& operator=(const EventHandle&) = delete;
    EventHandle(EventHandle&& other) noexcept : e(other.e) { other.e = nullptr; }
    ~EventHandle() {
        if (e) {
            cudaEventDestroy(e);
        }
    }
};

/// The kernel's result for one input, as the GPU computes it (fmaf is correctly rounded on both).
float stagedWorkOnHost(float x, int work) {
    for (int k = 0; k < work; ++k) {
        x = std::fmaf(x, 0.9999f, 0.0001f);
    }
    return x;
}

float inputValue(std::int64_t i) {
    return static_cast<float>(i % 1000) * 0.001f;
}

class StagedExperiment {
public:
    StagedExperiment(std::int64_t bytes, int maxStreams, StreamIssueOrder order)
        : m_bytes(bytes), m_elements(bytes / 4), m_order(order),
          m_streams(static_cast<std::size_t>(maxStreams)) {}

    std::optional<ProbeError> allocate() {
        const auto bytes = static_cast<std::size_t>(m_bytes);
        WS_TRY(cudaMalloc(&m_in.p, bytes), formatBytes(m_bytes) + " of device memory");
        WS_TRY(cudaMalloc(&m_out.p, bytes), formatBytes(m_bytes) + " of device memory");
        WS_TRY(cudaMemset(m_in.p, 0, bytes), "clearing device memory");
        WS_TRY(cudaMemset(m_out.p, 0, bytes), "clearing device memory");
        WS_TRY(cudaHostAlloc(&m_hostIn.p, bytes, cudaHostAllocDefault),
               formatBytes(m_bytes) + " of pinned host memory");
        WS_TRY(cudaHostAlloc(&m_hostOut.p, bytes, cudaHostAllocDefault),
               formatBytes(m_bytes) + " of pinned host memory");
        auto* in = static_cast<float*>(m_hostIn.p);
        for (std::int64_t i = 0; i < m_elements; ++i) {
            in[i] = inputValue(i);
        }
        std::fill(static_cast<float*>(m_hostOut.p), static_cast<float*>(m_hostOut.p) + m_elements,
                  -1.0f);
        for (Stream& stream : m_streams) {
            // Non-blocking: the legacy default stream must not order them.
            WS_TRY(cudaStreamCreateWithFlags(&stream.s, cudaStreamNonBlocking),
                   "creating a stream");
        }
        for (EventHandle* event : {&m_start, &m_stop}) {
            WS_TRY(cudaEventCreate(&event->e), "creating an event");
        }
        m_joins.resize(m_streams.size());
        for (EventHandle& join : m_joins) {
            WS_TRY(cudaEventCreateWithFlags(&join.e, cudaEventDisableTiming), "creating an event");
        }
        // Two timing events around each operation, for the timeline without CUPTI.
        m_opEvents.resize(m_streams.size() * 6);
        for (EventHandle& event : m_opEvents) {
            WS_TRY(cudaEventCreate(&event.e), "creating an event");
        }
        return std::nullopt;
    }

    cudaStream_t stream(int i) const { return m_streams[static_cast<std::size_t>(i)].s; }

    /// One run over `n` streams: the total in ms, and with `opEvents` the timeline from the
    /// events around each operation.
    ProbeResult<double> run(int n, int work, bool opEvents,
                            std::vector<experiments::StreamsOpRecord>* ops) {
        WS_TRY(cudaEventRecord(m_start.e, stream(0)), "recording an event");
        for (int s = 1; s < n; ++s) {
            WS_TRY(cudaStreamWaitEvent(stream(s), m_start.e, 0), "ordering streams");
        }
        const auto issue = [&](int s, StreamOp op) -> std::optional<ProbeError> {
            const experiments::StreamsChunk chunk = experiments::streamsChunk(m_elements, n, s);
            const auto bytes = static_cast<std::size_t>(chunk.count) * 4;
            const std::size_t offset = static_cast<std::size_t>(chunk.first) * 4;
            const cudaStream_t st = stream(s);
            const std::size_t slot = static_cast<std::size_t>(s) * 6 +
                                     static_cast<std::size_t>(op == StreamOp::H2d      ? 0
                                                              : op == StreamOp::Kernel ? 2
                                                                                       : 4);
            if (opEvents) {
                WS_TRY(cudaEventRecord(m_opEvents[slot].e, st), "recording an event");
            }
            switch (op) {
            case StreamOp::H2d:
                WS_TRY(cudaMemcpyAsync(static_cast<char*>(m_in.p) + offset,
                                       static_cast<const char*>(m_hostIn.p) + offset, bytes,
                                       cudaMemcpyHostToDevice, st),
                       "a copy to the device");
                break;
            case StreamOp::Kernel:
                WS_TRY(launchStagedWork(static_cast<const float*>(m_in.p) + chunk.first,
                                        static_cast<float*>(m_out.p) + chunk.first, chunk.count,
                                        work, st),
                       "launching the staged kernel");
                break;
            case StreamOp::D2h:
                WS_TRY(cudaMemcpyAsync(static_cast<char*>(m_hostOut.p) + offset,
                                       static_cast<const char*>(m_out.p) + offset, bytes,
                                       cudaMemcpyDeviceToHost, st),
                       "a copy to the host");
                break;
            }
            if (opEvents) {
                WS_TRY(cudaEventRecord(m_opEvents[slot + 1].e, st), "recording an event");
            }
            return std::nullopt;
        };
        constexpr StreamOp kOps[] = {StreamOp::H2d, StreamOp::Kernel, StreamOp::D2h};
        if (m_order == StreamIssueOrder::PerStream) {
            for (int s = 0; s < n; ++s) {
                for (StreamOp op : kOps) {
                    if (auto error = issue(s, op)) {
                        return *error;
                    }
                }
            }
        } else {
            for (StreamOp op : kOps) {
                for (int s = 0; s < n; ++s) {
                    if (auto error = issue(s, op)) {
                        return *error;
                    }
                }
            }
        }
        for (int s = 1; s < n; ++s) {
            WS_TRY(cudaEventRecord(m_joins[static_cast<std::size_t>(s)].e, stream(s)),
                   "recording an event");
            WS_TRY(cudaStreamWaitEvent(stream(0), m_joins[static_cast<std::size_t>(s)].e, 0),
                   "ordering streams");
        }
        WS_TRY(cudaEventRecord(m_stop.e, stream(0)), "recording an event");
        WS_TRY(cudaEventSynchronize(m_stop.e), "waiting for the GPU");
        float total = 0.0f;
        WS_TRY(cudaEventElapsedTime(&total, m_start.e, m_stop.e), "reading an event");
        if (opEvents && ops) {
            ops->clear();
            for (int s = 0; s < n; ++s) {
                for (StreamOp op : kOps) {
                    const std::size_t slot = static_cast<std::size_t>(s) * 6 +
                                             static_cast<std::size_t>(op == StreamOp::H2d      ? 0
                                                                      : op == StreamOp::Kernel ? 2
                                                                                               : 4);
                    float begin = 0.0f;
                    float end = 0.0f;
                    WS_TRY(cudaEventElapsedTime(&begin, m_start.e, m_opEvents[slot].e),
                           "reading an event");
                    WS_TRY(cudaEventElapsedTime(&end, m_start.e, m_opEvents[slot + 1].e),
                           "reading an event");
                    ops->push_back(experiments::StreamsOpRecord{
                        s, op, begin, end, experiments::streamsChunk(m_elements, n, s).count * 4,
                        -1});
                }
            }
        }
        return static_cast<double>(total);
    }

    /// The copied-back result: the first and last element of every chunk.
    std::optional<ProbeError> verify(int n, int work) const {
        const auto* out = static_cast<const float*>(m_hostOut.p);
        for (int s = 0; s < n; ++s) {
            const experiments::StreamsChunk chunk = experiments::streamsChunk(m_elements, n, s);
            for (std::int64_t i : {chunk.first, chunk.first + chunk.count - 1}) {
                const float expected = stagedWorkOnHost(inputValue(i), work);
                if (out[i] != expected) {
                    return ProbeError::internal("the staged kernel over " + std::to_string(n) +
                                                " streams left " + std::to_string(out[i]) +
                                                " at element " + std::to_string(i) + " where " +
                                                std::to_string(expected) + " was expected");
                }
            }
        }
        return std::nullopt;
    }

    /// One stage alone over the whole array on stream 0 (to balance the kernel against the copy).
    ProbeResult<double> timeStage(StreamOp op, int work) {
        WS_TRY(cudaEventRecord(m_start.e, stream(0)), "recording an event");
        const auto bytes = static_cast<std::size_t>(m_bytes);
        if (op == StreamOp::H2d) {
            WS_TRY(cudaMemcpyAsync(m_in.p, m_hostIn.p, bytes, cudaMemcpyHostToDevice, stream(0)),
                   "a copy to the device");
        } else {
            WS_TRY(launchStagedWork(static_cast<const float*>(m_in.p), static_cast<float*>(m_out.p),
                                    m_elements, work, stream(0)),
                   "launching the staged kernel");
        }
        WS_TRY(cudaEventRecord(m_stop.e, stream(0)), "recording an event");
        WS_TRY(cudaEventSynchronize(m_stop.e), "waiting for the GPU");
        float ms = 0.0f;
        WS_TRY(cudaEventElapsedTime(&ms, m_start.e, m_stop.e), "reading an event");
        return static_cast<double>(ms);
    }

private:
    std::int64_t m_bytes;
    std::int64_t m_elements;
    StreamIssueOrder m_order;
    DeviceArray m_in;
    DeviceArray m_out;
    PinnedArray m_hostIn;
    PinnedArray m_hostOut;
    std::vector<Stream> m_streams;
    EventHandle m_start;
    EventHandle m_stop;
    std::vector<EventHandle> m_joins;
    std::vector<EventHandle> m_opEvents;
};

/// The kernel's work per element that makes it take about as long as the copy in: timed at a
/// guess, scaled, timed again and scaled once more (the time is nearly linear in the work once
/// the kernel is bound by arithmetic).
ProbeResult<int> balancedWork(StagedExperiment& experiment) {
    std::vector<double> copies;
    for (int i = 0; i < 3; ++i) {
        auto ms = experiment.timeStage(StreamOp::H2d, 0);
        if (auto* error = std::get_if<ProbeError>(&ms)) {
            return *error;
        }
        copies.push_back(std::get<double>(ms));
    }
    const double copyMs = median(copies);
    int work = 256;
    for (int step = 0; step < 2; ++step) {
        (void)experiment.timeStage(StreamOp::Kernel, work); // warm
        auto ms = experiment.timeStage(StreamOp::Kernel, work);
        if (auto* error = std::get_if<ProbeError>(&ms)) {
            return *error;
        }
        const double kernelMs = std::get<double>(ms);
        if (kernelMs <= 0.0) {
            break;
        }
        work = static_cast<int>(std::clamp(std::lround(work * copyMs / kernelMs), 1L,
                                           static_cast<long>(experiments::kStreamsMaxWork)));
    }
    return work;
}

/// Groups the recorded operations by run (runs never overlap: each ends before the next is
/// issued) and maps CUPTI's stream ids onto the experiment's streams. False when the records do
/// not match what was issued.
bool timelinesFromActivity(std::vector<ActivityOp> ops, int n, int runs,
                           const std::map<std::uint32_t, int>& streamIndex, std::int64_t elements,
                           std::vector<std::vector<experiments::StreamsOpRecord>>& timelines) {
    const std::size_t perRun = static_cast<std::size_t>(3 * n);
    if (ops.size() != perRun * static_cast<std::size_t>(runs)) {
        return false;
    }
    std::sort(ops.begin(), ops.end(),
              [](const ActivityOp& a, const ActivityOp& b) { return a.start < b.start; });
    timelines.assign(static_cast<std::size_t>(runs), {});
    for (int r = 0; r < runs; ++r) {
        const auto first = ops.begin() + static_cast<std::ptrdiff_t>(perRun * r);
        const std::uint64_t origin = first->start;
        for (auto it = first; it != first + static_cast<std::ptrdiff_t>(perRun); ++it) {
            const auto found = streamIndex.find(it->streamId);
            if (found == streamIndex.end() || found->second >= n) {
                return false;
            }
            timelines[static_cast<std::size_t>(r)].push_back(experiments::StreamsOpRecord{
                found->second, it->op, static_cast<double>(it->start - origin) / 1e6,
                static_cast<double>(it->end - origin) / 1e6,
                experiments::streamsChunk(elements, n, found->second).count * 4, it->channel});
        }
    }
    return true;
}

} // namespace

ProbeResult<experiments::StreamsMeasurement>
runStreamsOnDevice(const experiments::StreamsOptions& options, const ProgressCallback& progress,
                   const CancelCallback& cancelled) {
    int device = 0;
    WS_TRY(cudaGetDevice(&device), "finding the current device");
    experiments::StreamsMeasurement measurement;
    int engines = 0;
    int concurrent = 0;
    WS_TRY(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, device),
           "asking for the copy engines");
    WS_TRY(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentKernels, device),
           "asking for concurrent kernels");
    measurement.asyncEngineCount = engines;
    measurement.concurrentKernels = concurrent != 0;
    measurement.bytes = options.bytes;
    measurement.repetitions = options.repetitions;
    measurement.order = options.order;

    // Refused before anything is allocated: two device arrays and two pinned host arrays.
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    WS_TRY(cudaMemGetInfo(&freeBytes, &totalBytes), "asking for free device memory");
    const std::int64_t hostAvailable = hostAvailableMemoryBytes();
    if (2 * options.bytes > static_cast<std::int64_t>(freeBytes / 10 * 9)) {
        return ProbeError::outOfMemory(
            "refused before anything ran: two arrays of " + formatBytes(options.bytes) + " need " +
            formatBytes(2 * options.bytes) + " of device memory and the device " + "has " +
            formatBytes(static_cast<std::int64_t>(freeBytes)) + " free (90 % of it may be used)");
    }
    if (hostAvailable > 0 && 2 * options.bytes > hostAvailable / 2) {
        return ProbeError::outOfMemory(
            "refused before anything ran: two pinned arrays of " + formatBytes(options.bytes) +
            " need " + formatBytes(2 * options.bytes) + " of host memory and the host has " +
            formatBytes(hostAvailable) + " available (half of it may be used)");
    }

    const std::vector<int> counts = experiments::streamsCounts(options);
    StagedExperiment experiment(options.bytes, counts.back(), options.order);
    if (auto error = experiment.allocate()) {
        return *error;
    }
    int work = options.work;
    if (work == 0) {
        auto balanced = balancedWork(experiment);
        if (auto* error = std::get_if<ProbeError>(&balanced)) {
            return *error;
        }
        work = std::get<int>(balanced);
    }
    measurement.work = work;

    ActivityTrace trace;
    std::string why;
    // WARPSCOPE_STREAMS_EVENTS=1 asks for the events' timeline, to compare the two.
    const char* forceEvents = std::getenv("WARPSCOPE_STREAMS_EVENTS");
    bool cupti = false;
    if (forceEvents && *forceEvents && std::string(forceEvents) != "0") {
        why = "WARPSCOPE_STREAMS_EVENTS is set";
    } else {
        cupti = trace.start(why);
    }
    std::map<std::uint32_t, int> streamIndex;
    if (cupti) {
        for (int s = 0; s < counts.back(); ++s) {
            const std::uint32_t id = trace.streamId(experiment.stream(s));
            if (id == 0 || streamIndex.count(id)) {
                cupti = false;
                why = "CUPTI did not name the streams";
                trace.stop();
                break;
            }
            streamIndex[id] = s;
        }
    }
    const auto useEvents = [&](const std::string& reason) {
        measurement.timelineSource = "cuda_events";
        measurement.timelineNote =
            "timeline from CUDA events recorded around each operation in its stream (" + reason +
            "): an operation's start is when its stream reached it, which is early where it "
            "waited for a busy engine";
    };
    if (cupti) {
        measurement.timelineSource = "cupti_activity";
        measurement.timelineNote = "timeline from CUPTI activity records: when each copy and "
                                   "kernel ran on the GPU";
    } else {
        useEvents(why);
    }

    const int total = static_cast<int>(counts.size());
    for (int c = 0; c < total; ++c) {
        if (cancelled && cancelled()) {
            return ProbeError::cancelled("cancelled after " + std::to_string(c) + " of " +
                                         std::to_string(total) + " stream counts");
        }
        const int n = counts[static_cast<std::size_t>(c)];
        std::vector<double> totals;
        std::vector<std::vector<experiments::StreamsOpRecord>> timelines;
        for (int attempt = 0; attempt < 2; ++attempt) {
            totals.clear();
            timelines.clear();
            if (cupti) {
                (void)trace.take(); // nothing from before this stream count
            }
            for (int rep = 0; rep <= options.repetitions; ++rep) {
                std::vector<experiments::StreamsOpRecord> ops;
                auto ms = experiment.run(n, work, !cupti, &ops);
                if (auto* error = std::get_if<ProbeError>(&ms)) {
                    error->message = std::to_string(n) + " streams: " + error->message;
                    return *error;
                }
                totals.push_back(std::get<double>(ms));
                timelines.push_back(std::move(ops));
            }
            if (!cupti) {
                break;
            }
            WS_TRY(cudaDeviceSynchronize(), "waiting for the GPU");
            if (timelinesFromActivity(trace.take(), n, options.repetitions + 1, streamIndex,
                                      options.bytes / 4, timelines)) {
                break;
            }
            // Records that do not match what was issued: the events are used from here on.
            trace.stop();
            cupti = false;
            useEvents("CUPTI's records did not match the operations issued");
        }
        if (auto error = experiment.verify(n, work)) {
            return *error;
        }
        // The warm-up run is left out.
        totals.erase(totals.begin());
        timelines.erase(timelines.begin());
        std::vector<std::size_t> order(totals.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return totals[a] < totals[b]; });
        experiments::StreamsRun run;
        run.streams = n;
        run.samples = static_cast<int>(totals.size());
        run.minMs = totals[order.front()];
        run.maxMs = totals[order.back()];
        run.totalMs = median(totals);
        run.timeline = timelines[order[order.size() / 2]];
        if (n == 1) {
            std::vector<double> stage[3];
            for (const auto& timeline : timelines) {
                for (const experiments::StreamsOpRecord& op : timeline) {
                    stage[op.op == StreamOp::H2d      ? 0
                          : op.op == StreamOp::Kernel ? 1
                                                      : 2]
                        .push_back(op.endMs - op.startMs);
                }
            }
            measurement.stages =
                StreamStageTimes{median(stage[0]), median(stage[1]), median(stage[2])};
        }
        measurement.runs.push_back(std::move(run));
        if (progress) {
            progress(c + 1, total);
        }
    }
    return measurement;
}

} // namespace warpscope::probe
