// measure_transfers on the GPU (transfers_cuda.h), host side; the kernel is in transfer_kernels.cu.
// Every buffer is allocated before it is timed, filled so that no page is first touched inside a
// timed copy (except managed memory's, which is the point), and every kernel's result is checked.
//
// What makes the host's part of a transfer repeat from one run to the next (issue 16):
// - the measuring thread (and the two threads of pageable copies both ways) run pinned to CPUs of
//   the GPU's NUMA node (sysfs local_cpulist), so host memory is first touched on that node and
//   the staging copies run near the GPU (the node's CPUs, not one CPU: see CpuPlacement);
// - every buffer is allocated once for the largest size and shared by all sizes, so that the
//   sizes and modes are visited in kRounds rounds (a slow phase of the machine falls on every
//   point alike), each round taking its share of every point's samples: at least `repetitions`
//   (kMinPageableSamples for pageable copies) and kMinTimedMs timed in all, at most kMaxSamples;
// - pageable copies and sumArrays over device memory take a new window of their buffers each
//   repetition (HostPageable::next), so that no copy finds its host memory in the CPU's caches
//   and no small kernel its arrays in the L2: the state of a cache is not carried from one
//   process to the next. The pageable pools are ordinary anonymous memory that CUDA never
//   registers, pre-faulted, asked for transparent huge pages as malloc gets them under THP
//   "always";
// - the link and the clocks are woken by untimed copies before the first point, and each visit
//   of a point starts with an untimed repetition;
// - managed memory's first touch is a first touch every time: fresh arrays per repetition.
#include "transfers_cuda.h"

#include "cuda_buffers.h"
#include "host_memory.h"
#include "transfer_buffers.h"
#include "transfer_host_cpus.h"
#include "transfer_kernels.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace warpscope::probe {

namespace {

using Clock = std::chrono::steady_clock;

/// The sizes and modes are visited in kRounds rounds, each taking its share of every point's
/// samples, so that a slow phase of the machine (seconds long on the H100 machine) falls on every
/// point alike instead of on the few points timed during it: a point's median is drawn from
/// kRounds moments of the run, not one.
constexpr int kRounds = 8;
constexpr int kWarmups = 1; // untimed repetitions per visit of a point
constexpr double kMinTimedMs = 400.0;
constexpr int kMaxSamples = 201;
constexpr int kMaxManagedSamples = 41; // each one allocates, writes and frees three arrays
/// Pageable copies take at least this many samples (their time is the host's, and spreads).
constexpr int kMinPageableSamples = 15;
/// A pageable pool is at least this large (when the host has 8 x as much available): larger than
/// the CPU's last-level cache several times over, so that a window is cold when it comes round.
constexpr std::int64_t kMinPool = std::int64_t{1} << 30;

#if CUDART_VERSION >= 13000
cudaError_t prefetch(const void* p, std::size_t bytes, bool toDevice, int device,
                     cudaStream_t stream) {
    cudaMemLocation location{};
    location.type = toDevice ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost;
    location.id = toDevice ? device : 0;
    return cudaMemPrefetchAsync(p, bytes, location, 0, stream);
}
#else
cudaError_t prefetch(const void* p, std::size_t bytes, bool toDevice, int device,
                     cudaStream_t stream) {
    return cudaMemPrefetchAsync(p, bytes, toDevice ? device : cudaCpuDeviceId, stream);
}
#endif

/// One point's samples so far, over the rounds.
struct PointSamples {
    std::vector<double> samples;
    double timedMs = 0.0;
};

/// One visit of one size in one round: the modes' timed repetitions, added to their points.
class SizeRun {
public:
    SizeRun(std::int64_t bytes, int round, int device, int repetitions, cudaStream_t stream,
            cudaStream_t other, const Events& events, Buffers& buffers,
            const CpuPlacement& placement)
        : m_bytes(bytes), m_n(bytes / 4), m_round(round), m_device(device),
          m_repetitions(repetitions), m_stream(stream), m_other(other), m_events(events),
          m_buffers(buffers), m_placement(placement) {}

    std::optional<ProbeError> run(experiments::TransferMode mode, PointSamples& point) {
        m_point = &point;
        const bool pageable = mode == experiments::TransferMode::H2dPageable ||
                              mode == experiments::TransferMode::D2hPageable ||
                              mode == experiments::TransferMode::BothPageable;
        m_least = pageable ? std::max(m_repetitions, kMinPageableSamples) : m_repetitions;
        switch (mode) {
        case experiments::TransferMode::H2dPageable:
        case experiments::TransferMode::H2dPinned:
        case experiments::TransferMode::D2hPageable:
        case experiments::TransferMode::D2hPinned:
            return copy(mode);
        case experiments::TransferMode::BothPageable:
        case experiments::TransferMode::BothPinned:
            return both(mode == experiments::TransferMode::BothPinned);
        case experiments::TransferMode::SumDevice:
        case experiments::TransferMode::SumZeroCopy:
        case experiments::TransferMode::SumCopy:
            return sum(mode);
        case experiments::TransferMode::ManagedFault:
        case experiments::TransferMode::ManagedPrefetch:
            return managed(mode == experiments::TransferMode::ManagedPrefetch);
        }
        return ProbeError::internal("unknown transfer mode");
    }

private:
    float* pageable(int i, std::int64_t offset) const {
        return m_buffers.pageable.arrays[i].data + offset / 4;
    }

    /// Whether the point has enough samples for this round: the round's share (round + 1 of
    /// kRounds) of `repetitions` samples and of kMinTimedMs timed in all (a short copy is timed
    /// more often), at most that share of kMaxSamples.
    bool enough(int maxSamples = kMaxSamples) const {
        const double share = static_cast<double>(m_round + 1) / kRounds;
        const int count = static_cast<int>(m_point->samples.size());
        const auto part = [&](int whole) { return static_cast<int>(std::ceil(whole * share)); };
        const int least = part(m_least);
        const int most = std::max(least, part(std::max(maxSamples, m_repetitions)));
        return count >= most || (count >= least && m_point->timedMs >= kMinTimedMs * share);
    }

    void add(double ms) {
        m_point->samples.push_back(ms);
        m_point->timedMs += ms;
    }

    /// kWarmups untimed runs, then timed ones with events on m_stream around `body` until
    /// enough() (nothing at all when the earlier rounds took enough).
    template <class Body> std::optional<ProbeError> timed(Body body) {
        for (int rep = 0; !enough(); ++rep) {
            WS_TRY(cudaEventRecord(m_events.start, m_stream), "recording an event");
            if (auto error = body()) {
                return error;
            }
            WS_TRY(cudaEventRecord(m_events.stop, m_stream), "recording an event");
            WS_TRY(cudaEventSynchronize(m_events.stop), "waiting for the GPU");
            float ms = 0.0f;
            WS_TRY(cudaEventElapsedTime(&ms, m_events.start, m_events.stop), "reading an event");
            if (rep >= kWarmups) {
                add(ms);
            }
        }
        return std::nullopt;
    }

    std::optional<ProbeError> copy(experiments::TransferMode mode) {
        const bool pinned = mode == experiments::TransferMode::H2dPinned ||
                            mode == experiments::TransferMode::D2hPinned;
        const bool toDevice = mode == experiments::TransferMode::H2dPinned ||
                              mode == experiments::TransferMode::H2dPageable;
        if (auto error = m_buffers.needDevice(1)) {
            return error;
        }
        // Pinned: from A, into C. Pageable: from the first pool, into the second.
        if (auto error =
                pinned ? m_buffers.needPinned(toDevice ? 0 : 2) : m_buffers.pageable.need(2)) {
            return error;
        }
        void* device = m_buffers.device[0].p;
        const auto bytes = static_cast<std::size_t>(m_bytes);
        return timed([&]() -> std::optional<ProbeError> {
            void* host = pinned ? m_buffers.pinned[toDevice ? 0 : 2].p
                                : pageable(toDevice ? 0 : 1, m_buffers.pageable.next(m_bytes));
            return check(
                toDevice ? cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, m_stream)
                         : cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, m_stream),
                "a copy");
        });
    }

    /// Host to device on one stream and device to host on another. Pageable copies each from a
    /// host thread of their own (a pageable copy holds its thread until it is staged), timed by
    /// the wall clock until both end; pinned ones with events.
    std::optional<ProbeError> both(bool pinned) {
        if (auto error = m_buffers.needDevice(2)) {
            return error;
        }
        if (pinned) {
            for (int i : {0, 2}) {
                if (auto error = m_buffers.needPinned(i)) {
                    return error;
                }
            }
        } else if (auto error = m_buffers.pageable.need(2)) {
            return error;
        }
        if (pinned && !m_buffers.joined) {
            WS_TRY(cudaEventCreateWithFlags(&m_buffers.joined, cudaEventDisableTiming),
                   "creating an event");
        }
        void* toDevice = m_buffers.device[0].p;
        void* fromDevice = m_buffers.device[1].p;
        const auto bytes = static_cast<std::size_t>(m_bytes);
        if (pinned) {
            // Pinned copies are asynchronous: both issued from this thread, the second stream
            // starting at the first's start event and joined before its stop event.
            void* in = m_buffers.pinned[0].p;
            void* out = m_buffers.pinned[2].p;
            return timed([&]() -> std::optional<ProbeError> {
                WS_TRY(cudaStreamWaitEvent(m_other, m_events.start, 0), "ordering streams");
                WS_TRY(cudaMemcpyAsync(toDevice, in, bytes, cudaMemcpyHostToDevice, m_stream),
                       "a copy in both directions");
                WS_TRY(cudaMemcpyAsync(out, fromDevice, bytes, cudaMemcpyDeviceToHost, m_other),
                       "a copy in both directions");
                WS_TRY(cudaEventRecord(m_buffers.joined, m_other), "recording an event");
                WS_TRY(cudaStreamWaitEvent(m_stream, m_buffers.joined, 0), "ordering streams");
                return std::nullopt;
            });
        }
        for (int rep = 0; !enough(); ++rep) {
            const std::int64_t offset = m_buffers.pageable.next(m_bytes);
            void* in = pageable(0, offset);
            void* out = pageable(1, offset);
            std::atomic<int> ready{0};
            std::atomic<bool> go{false};
            cudaError_t status[2] = {cudaSuccess, cudaSuccess};
            Clock::time_point end[2];
            const auto worker = [&](int which) {
                m_placement.pinToNode();
                cudaSetDevice(m_device);
                ready.fetch_add(1);
                while (!go.load()) {
                    std::this_thread::yield();
                }
                const cudaStream_t stream = which == 0 ? m_stream : m_other;
                status[which] =
                    which == 0
                        ? cudaMemcpyAsync(toDevice, in, bytes, cudaMemcpyHostToDevice, stream)
                        : cudaMemcpyAsync(out, fromDevice, bytes, cudaMemcpyDeviceToHost, stream);
                if (status[which] == cudaSuccess) {
                    status[which] = cudaStreamSynchronize(stream);
                }
                end[which] = Clock::now();
            };
            std::thread first(worker, 0);
            std::thread second(worker, 1);
            while (ready.load() < 2) {
                std::this_thread::yield();
            }
            const Clock::time_point start = Clock::now();
            go = true;
            first.join();
            second.join();
            for (cudaError_t s : status) {
                WS_TRY(s, "a copy in both directions");
            }
            const double ms =
                std::chrono::duration<double, std::milli>(std::max(end[0], end[1]) - start).count();
            if (rep >= kWarmups) {
                add(ms);
            }
        }
        return std::nullopt;
    }

    std::optional<ProbeError> launch(const float* a, const float* b, float* c) {
        return check(launchSumArrays(a, b, c, m_n, m_stream), "launching sumArrays");
    }

    /// C[0] and C[n-1] must be 1 + 2.
    std::optional<ProbeError> verify(const float* c) {
        float first = 0.0f;
        float last = 0.0f;
        WS_TRY(cudaMemcpy(&first, c, 4, cudaMemcpyDefault), "reading sumArrays' result");
        WS_TRY(cudaMemcpy(&last, c + (m_n - 1), 4, cudaMemcpyDefault), "reading sumArrays' result");
        if (first != 3.0f || last != 3.0f) {
            return ProbeError::internal("sumArrays computed " + std::to_string(first) + " and " +
                                        std::to_string(last) + " where 1 + 2 = 3 was expected");
        }
        return std::nullopt;
    }

    std::optional<ProbeError> sum(experiments::TransferMode mode) {
        if (enough()) {
            return std::nullopt; // the earlier rounds took this round's share
        }
        if (auto error = m_buffers.needDeviceAB()) {
            return error;
        }
        if (mode == experiments::TransferMode::SumCopy) {
            if (auto error = m_buffers.needPinned(2)) {
                return error;
            }
        }
        const auto bytes = static_cast<std::size_t>(m_bytes);
        auto* dA = static_cast<float*>(m_buffers.device[0].p);
        auto* dB = static_cast<float*>(m_buffers.device[1].p);
        auto* dC = static_cast<float*>(m_buffers.device[2].p);
        auto* hC = static_cast<float*>(m_buffers.pinned[2].p);
        // C is cleared first, so that the check below sees this visit's results.
        WS_TRY(cudaMemset(dC, 0, static_cast<std::size_t>(m_buffers.largest)),
               "clearing device memory");
        std::optional<ProbeError> error;
        const float* result = dC;
        if (mode == experiments::TransferMode::SumDevice) {
            // Each repetition on the next window of the arrays: a window is used again only
            // after the whole arrays have been, so that a small size does not run from the L2
            // in one process and from device memory in the next.
            std::int64_t offset = 0;
            error = timed([&] {
                offset =
                    HostPageable::nextWindow(m_buffers.deviceCursor, m_bytes, m_buffers.largest) /
                    4;
                return launch(dA + offset, dB + offset, dC + offset);
            });
            result = dC + offset;
        } else if (mode == experiments::TransferMode::SumZeroCopy) {
            // As the notes' sumArraysZerocpy: A and B read from mapped host memory, C on the
            // device.
            void* mappedA = nullptr;
            void* mappedB = nullptr;
            WS_TRY(cudaHostGetDevicePointer(&mappedA, m_buffers.pinned[0].p, 0),
                   "mapping host memory");
            WS_TRY(cudaHostGetDevicePointer(&mappedB, m_buffers.pinned[1].p, 0),
                   "mapping host memory");
            error = timed([&] {
                return launch(static_cast<const float*>(mappedA),
                              static_cast<const float*>(mappedB), dC);
            });
        } else {
            hC[0] = 0.0f;
            hC[m_n - 1] = 0.0f;
            error = timed([&]() -> std::optional<ProbeError> {
                WS_TRY(cudaMemcpyAsync(dA, m_buffers.pinned[0].p, bytes, cudaMemcpyHostToDevice,
                                       m_stream),
                       "a copy");
                WS_TRY(cudaMemcpyAsync(dB, m_buffers.pinned[1].p, bytes, cudaMemcpyHostToDevice,
                                       m_stream),
                       "a copy");
                if (auto failed = launch(dA, dB, dC)) {
                    return failed;
                }
                WS_TRY(cudaMemcpyAsync(hC, dC, bytes, cudaMemcpyDeviceToHost, m_stream), "a copy");
                return std::nullopt;
            });
            result = hC;
        }
        if (error) {
            return error;
        }
        return verify(result);
    }

    std::optional<ProbeError> managed(bool prefetched) {
        m_buffers.releaseDevice();
        const auto bytes = static_cast<std::size_t>(m_bytes);
        // Refuse before asking: managed memory must never oversubscribe the device.
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        WS_TRY(cudaMemGetInfo(&freeBytes, &totalBytes), "asking for free device memory");
        if (3 * bytes > freeBytes / 10 * 9) {
            return ProbeError::outOfMemory(
                "managed memory refused: three arrays of " + formatBytes(m_bytes) + " need " +
                formatBytes(3 * m_bytes) + " and the device has " +
                formatBytes(static_cast<std::int64_t>(freeBytes)) +
                " free; managed memory is never asked for more than that");
        }
        struct Managed {
            void* p = nullptr;
            Managed() = default;
            Managed(const Managed&) = delete;
            Managed& operator=(const Managed&) = delete;
            ~Managed() { reset(); }
            void reset() {
                if (p) {
                    cudaFree(p);
                    p = nullptr;
                }
            }
        };
        // One warm-up in the first round (the driver's first managed allocation of the process
        // costs more), then each repetition with arrays of its own: allocated, A and B written on
        // the host (their pages start there), C left for the kernel to create on the device,
        // timed, checked, freed. A repetition on arrays that earlier ones moved to the device and
        // back would time a migration back, not the first touch the mode names.
        const int warmups = m_round == 0 ? 1 : 0;
        for (int rep = 0; !enough(kMaxManagedSamples); ++rep) {
            Managed arrays[3];
            for (Managed& array : arrays) {
                WS_TRY(cudaMallocManaged(&array.p, bytes, cudaMemAttachGlobal),
                       formatBytes(m_bytes) + " of managed memory");
            }
            auto* a = static_cast<float*>(arrays[0].p);
            auto* b = static_cast<float*>(arrays[1].p);
            auto* c = static_cast<float*>(arrays[2].p);
            fill(a, m_n, 1.0f);
            fill(b, m_n, 2.0f);
            WS_TRY(cudaStreamSynchronize(m_stream), "waiting for the GPU");
            WS_TRY(cudaEventRecord(m_events.start, m_stream), "recording an event");
            if (prefetched) {
                for (Managed& array : arrays) {
                    WS_TRY(prefetch(array.p, bytes, true, m_device, m_stream),
                           "prefetching managed memory to the device");
                }
            }
            if (auto error = launch(a, b, c)) {
                return error;
            }
            WS_TRY(cudaEventRecord(m_events.stop, m_stream), "recording an event");
            WS_TRY(cudaEventSynchronize(m_events.stop), "waiting for the GPU");
            float ms = 0.0f;
            WS_TRY(cudaEventElapsedTime(&ms, m_events.start, m_events.stop), "reading an event");
            if (auto error = verify(c)) {
                return error;
            }
            if (rep >= warmups) {
                add(ms);
            }
        }
        return std::nullopt;
    }

    std::int64_t m_bytes;
    std::int64_t m_n;
    int m_round;
    int m_device;
    int m_repetitions;
    cudaStream_t m_stream;
    cudaStream_t m_other;
    const Events& m_events;
    Buffers& m_buffers;
    const CpuPlacement& m_placement;
    PointSamples* m_point = nullptr;
    int m_least = 0; // the least samples of the point being run
};

/// Untimed pinned copies both ways for about 200 ms: an idle PCIe link trains down and idle clocks
/// drop; the first point should not pay for waking them.
std::optional<ProbeError> wakeTheLink(cudaStream_t stream) {
    constexpr std::size_t kBytes = std::size_t{32} << 20;
    DeviceArray device;
    PinnedArray host;
    WS_TRY(cudaMalloc(&device.p, kBytes), "32 MiB of device memory");
    WS_TRY(cudaHostAlloc(&host.p, kBytes, cudaHostAllocDefault), "32 MiB of pinned host memory");
    std::memset(host.p, 0, kBytes);
    const auto start = Clock::now();
    while (Clock::now() - start < std::chrono::milliseconds(200)) {
        WS_TRY(cudaMemcpyAsync(device.p, host.p, kBytes, cudaMemcpyHostToDevice, stream),
               "waking the link");
        WS_TRY(cudaMemcpyAsync(host.p, device.p, kBytes, cudaMemcpyDeviceToHost, stream),
               "waking the link");
        WS_TRY(cudaStreamSynchronize(stream), "waking the link");
    }
    return std::nullopt;
}

} // namespace

ProbeResult<experiments::TransferMemory> currentTransferMemory() {
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    WS_TRY(cudaMemGetInfo(&freeBytes, &totalBytes), "asking for free device memory");
    experiments::TransferMemory memory;
    memory.deviceFreeBytes = static_cast<std::int64_t>(freeBytes);
    memory.hostAvailableBytes = hostAvailableMemoryBytes();
    return memory;
}

ProbeResult<experiments::TransferMeasurement>
runTransfersOnDevice(const experiments::TransferPlan& plan, const ProgressCallback& progress,
                     const CancelCallback& cancelled) {
    int device = 0;
    WS_TRY(cudaGetDevice(&device), "finding the current device");
    int concurrentManaged = 0;
    WS_TRY(cudaDeviceGetAttribute(&concurrentManaged, cudaDevAttrConcurrentManagedAccess, device),
           "asking for managed memory support");
    experiments::TransferMeasurement measurement;
    measurement.repetitions = plan.repetitions;
    measurement.capNote = plan.capNote;
    std::vector<experiments::TransferMode> modes;
    for (experiments::TransferMode mode :
         experiments::kAllTransferModes) { // managed last: device arrays are freed first
        if (std::find(plan.modes.begin(), plan.modes.end(), mode) == plan.modes.end()) {
            continue;
        }
        if (experiments::transferModeIsManaged(mode) && !concurrentManaged) {
            measurement.capNote += std::string(measurement.capNote.empty() ? "" : " ") +
                                   experiments::transferModeLabel(mode) +
                                   " left out: this device cannot prefetch or fault managed "
                                   "pages while the host runs (concurrentManagedAccess is 0).";
            continue;
        }
        modes.push_back(mode);
        measurement.curves.push_back(experiments::TransferCurve{mode, {}});
    }
    // Pinned before anything is allocated, so that host pages are first touched on this node.
    const CpuPlacement placement(device);
    measurement.hostPlacement = placement.note();
    Stream stream;
    Stream other;
    Events events;
    WS_TRY(cudaStreamCreateWithFlags(&stream.s, cudaStreamNonBlocking), "creating a stream");
    WS_TRY(cudaStreamCreateWithFlags(&other.s, cudaStreamNonBlocking), "creating a stream");
    WS_TRY(cudaEventCreate(&events.start), "creating an event");
    WS_TRY(cudaEventCreate(&events.stop), "creating an event");
    Buffers buffers;
    buffers.largest = plan.sizes.empty() ? 0 : plan.sizes.back();
    const std::int64_t hostAvailable = hostAvailableMemoryBytes();
    buffers.pageable.bytes = std::max(
        buffers.largest, std::min(kMinPool, hostAvailable > 0 ? hostAvailable / 8 : kMinPool));
    if (auto error = wakeTheLink(stream.s)) {
        return *error;
    }
    // Every size and mode in each round, each round taking its share of every point's samples.
    std::vector<std::vector<PointSamples>> points(plan.sizes.size(),
                                                  std::vector<PointSamples>(modes.size()));
    const int total = kRounds * static_cast<int>(modes.size() * plan.sizes.size());
    int done = 0;
    for (int round = 0; round < kRounds; ++round) {
        for (std::size_t s = 0; s < plan.sizes.size(); ++s) {
            const std::int64_t size = plan.sizes[s];
            SizeRun run(size, round, device, plan.repetitions, stream.s, other.s, events, buffers,
                        placement);
            for (std::size_t m = 0; m < modes.size(); ++m) {
                if (cancelled && cancelled()) {
                    return ProbeError::cancelled(
                        "cancelled after " + std::to_string(done) + " of " + std::to_string(total) +
                        " steps (" + std::to_string(kRounds) + " rounds over every point)");
                }
                if (auto error = run.run(modes[m], points[s][m])) {
                    error->message = std::string(experiments::transferModeLabel(modes[m])) +
                                     " at " + formatBytes(size) + ": " + error->message;
                    return *error;
                }
                ++done;
                if (progress) {
                    progress(done, total);
                }
            }
        }
    }
    for (std::size_t s = 0; s < plan.sizes.size(); ++s) {
        for (std::size_t m = 0; m < modes.size(); ++m) {
            measurement.curves[m].points.push_back(experiments::transferPoint(
                modes[m], plan.sizes[s], std::move(points[s][m].samples)));
        }
    }
    return measurement;
}

} // namespace warpscope::probe
