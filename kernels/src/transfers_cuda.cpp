// measure_transfers on the GPU (transfers_cuda.h), host side; the kernel is in transfer_kernels.cu.
// Every buffer is allocated before it is timed, filled so that no page is first touched inside a
// timed copy (except managed memory's, which is the point), and every kernel's result is checked.
#include "transfers_cuda.h"

#include "cuda_buffers.h"
#include "transfer_kernels.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace warpscope::probe {

namespace {

using Clock = std::chrono::steady_clock;

struct PageableArray {
    std::vector<float> data;
};

struct Events {
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    ~Events() {
        if (start) {
            cudaEventDestroy(start);
        }
        if (stop) {
            cudaEventDestroy(stop);
        }
    }
};

void fill(float* data, std::int64_t n, float value) {
    std::fill(data, data + n, value);
}

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

/// Everything one size needs, allocated on first use.
class SizeRun {
public:
    SizeRun(std::int64_t bytes, int device, int repetitions, cudaStream_t stream,
            cudaStream_t other, const Events& events)
        : m_bytes(bytes), m_n(bytes / 4), m_device(device), m_repetitions(repetitions),
          m_stream(stream), m_other(other), m_events(events) {}
    ~SizeRun() {
        if (m_joined) {
            cudaEventDestroy(m_joined);
        }
    }
    SizeRun(const SizeRun&) = delete;
    SizeRun& operator=(const SizeRun&) = delete;

    ProbeResult<std::vector<double>> run(TransferMode mode) {
        switch (mode) {
        case TransferMode::H2dPageable:
        case TransferMode::H2dPinned:
        case TransferMode::D2hPageable:
        case TransferMode::D2hPinned:
            return copy(mode);
        case TransferMode::BothPageable:
        case TransferMode::BothPinned:
            return both(mode == TransferMode::BothPinned);
        case TransferMode::SumDevice:
        case TransferMode::SumZeroCopy:
        case TransferMode::SumCopy:
            return sum(mode);
        case TransferMode::ManagedFault:
        case TransferMode::ManagedPrefetch:
            return managed(mode == TransferMode::ManagedPrefetch);
        }
        return ProbeError{ProbeErrorCode::Internal, "unknown transfer mode", false};
    }

    /// The device arrays go before managed memory is allocated, so both never add up.
    void releaseDevice() {
        for (DeviceArray& array : m_device3) {
            array.reset();
        }
    }

private:
    std::optional<ProbeError> needDevice(int count) {
        for (int i = 0; i < count; ++i) {
            if (!m_device3[i].p) {
                WS_TRY(cudaMalloc(&m_device3[i].p, static_cast<std::size_t>(m_bytes)),
                       formatBytes(m_bytes) + " of device memory");
                WS_TRY(cudaMemset(m_device3[i].p, 0, static_cast<std::size_t>(m_bytes)),
                       "clearing device memory");
            }
        }
        return std::nullopt;
    }
    std::optional<ProbeError> needPinned(int count) {
        for (int i = 0; i < count; ++i) {
            if (!m_pinned[i].p) {
                WS_TRY(cudaHostAlloc(&m_pinned[i].p, static_cast<std::size_t>(m_bytes),
                                     cudaHostAllocMapped),
                       formatBytes(m_bytes) + " of pinned host memory");
                fill(static_cast<float*>(m_pinned[i].p), m_n, i == 0 ? 1.0f : 2.0f);
            }
        }
        return std::nullopt;
    }
    std::optional<ProbeError> needPageable(int count) {
        try {
            for (int i = 0; i < count; ++i) {
                if (m_pageable[i].data.empty()) {
                    m_pageable[i].data.assign(static_cast<std::size_t>(m_n), i == 0 ? 1.0f : 2.0f);
                }
            }
        } catch (const std::bad_alloc&) {
            return ProbeError{
                ProbeErrorCode::OutOfMemory,
                "could not allocate " + formatBytes(m_bytes) + " of pageable host memory", false};
        }
        return std::nullopt;
    }

    /// One untimed run, then `repetitions` timed with events on m_stream around `body`.
    template <class Body> ProbeResult<std::vector<double>> timed(Body body) {
        std::vector<double> samples;
        for (int rep = 0; rep <= m_repetitions; ++rep) {
            WS_TRY(cudaEventRecord(m_events.start, m_stream), "recording an event");
            if (auto error = body()) {
                return *error;
            }
            WS_TRY(cudaEventRecord(m_events.stop, m_stream), "recording an event");
            WS_TRY(cudaEventSynchronize(m_events.stop), "waiting for the GPU");
            float ms = 0.0f;
            WS_TRY(cudaEventElapsedTime(&ms, m_events.start, m_events.stop), "reading an event");
            if (rep > 0) {
                samples.push_back(ms);
            }
        }
        return samples;
    }

    ProbeResult<std::vector<double>> copy(TransferMode mode) {
        const bool pinned = mode == TransferMode::H2dPinned || mode == TransferMode::D2hPinned;
        const bool toDevice = mode == TransferMode::H2dPinned || mode == TransferMode::H2dPageable;
        if (auto error = needDevice(1)) {
            return *error;
        }
        if (auto error = pinned ? needPinned(1) : needPageable(1)) {
            return *error;
        }
        void* host = pinned ? m_pinned[0].p : static_cast<void*>(m_pageable[0].data.data());
        void* device = m_device3[0].p;
        const auto bytes = static_cast<std::size_t>(m_bytes);
        return timed([&]() -> std::optional<ProbeError> {
            return check(
                toDevice ? cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, m_stream)
                         : cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, m_stream),
                "a copy");
        });
    }

    /// Host to device on one stream and device to host on another. Pageable copies each from a
    /// host thread of their own (a pageable copy holds its thread until it is staged), timed by
    /// the wall clock until both end; pinned ones with events.
    ProbeResult<std::vector<double>> both(bool pinned) {
        if (auto error = needDevice(2)) {
            return *error;
        }
        if (auto error = pinned ? needPinned(2) : needPageable(2)) {
            return *error;
        }
        if (pinned && !m_joined) {
            WS_TRY(cudaEventCreateWithFlags(&m_joined, cudaEventDisableTiming),
                   "creating an event");
        }
        void* in = pinned ? m_pinned[0].p : static_cast<void*>(m_pageable[0].data.data());
        void* out = pinned ? m_pinned[1].p : static_cast<void*>(m_pageable[1].data.data());
        const auto bytes = static_cast<std::size_t>(m_bytes);
        if (pinned) {
            // Pinned copies are asynchronous: both issued from this thread, the second stream
            // starting at the first's start event and joined before its stop event.
            return timed([&]() -> std::optional<ProbeError> {
                WS_TRY(cudaStreamWaitEvent(m_other, m_events.start, 0), "ordering streams");
                WS_TRY(cudaMemcpyAsync(m_device3[0].p, in, bytes, cudaMemcpyHostToDevice, m_stream),
                       "a copy in both directions");
                WS_TRY(cudaMemcpyAsync(out, m_device3[1].p, bytes, cudaMemcpyDeviceToHost, m_other),
                       "a copy in both directions");
                WS_TRY(cudaEventRecord(m_joined, m_other), "recording an event");
                WS_TRY(cudaStreamWaitEvent(m_stream, m_joined, 0), "ordering streams");
                return std::nullopt;
            });
        }
        std::vector<double> samples;
        for (int rep = 0; rep <= m_repetitions; ++rep) {
            std::atomic<int> ready{0};
            std::atomic<bool> go{false};
            cudaError_t status[2] = {cudaSuccess, cudaSuccess};
            Clock::time_point end[2];
            const auto worker = [&](int which) {
                cudaSetDevice(m_device);
                ready.fetch_add(1);
                while (!go.load()) {
                    std::this_thread::yield();
                }
                const cudaStream_t stream = which == 0 ? m_stream : m_other;
                status[which] = which == 0 ? cudaMemcpyAsync(m_device3[0].p, in, bytes,
                                                             cudaMemcpyHostToDevice, stream)
                                           : cudaMemcpyAsync(out, m_device3[1].p, bytes,
                                                             cudaMemcpyDeviceToHost, stream);
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
            if (rep > 0) {
                samples.push_back(ms);
            }
        }
        return samples;
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
            return ProbeError{ProbeErrorCode::Internal,
                              "sumArrays computed " + std::to_string(first) + " and " +
                                  std::to_string(last) + " where 1 + 2 = 3 was expected",
                              false};
        }
        return std::nullopt;
    }

    ProbeResult<std::vector<double>> sum(TransferMode mode) {
        if (auto error = needDevice(3)) {
            return *error;
        }
        const auto bytes = static_cast<std::size_t>(m_bytes);
        auto* dA = static_cast<float*>(m_device3[0].p);
        auto* dB = static_cast<float*>(m_device3[1].p);
        auto* dC = static_cast<float*>(m_device3[2].p);
        if (mode != TransferMode::SumDevice) {
            if (auto error = needPinned(mode == TransferMode::SumCopy ? 3 : 2)) {
                return *error;
            }
        }
        if (auto error = needPinned(2)) {
            return *error;
        }
        // The copies before may have written into these: A = 1 and B = 2 again.
        fill(static_cast<float*>(m_pinned[0].p), m_n, 1.0f);
        fill(static_cast<float*>(m_pinned[1].p), m_n, 2.0f);
        ProbeResult<std::vector<double>> result;
        if (mode == TransferMode::SumDevice) {
            WS_TRY(cudaMemcpy(dA, m_pinned[0].p, bytes, cudaMemcpyHostToDevice), "a copy");
            WS_TRY(cudaMemcpy(dB, m_pinned[1].p, bytes, cudaMemcpyHostToDevice), "a copy");
            result = timed([&] { return launch(dA, dB, dC); });
        } else if (mode == TransferMode::SumZeroCopy) {
            // As the notes' sumArraysZerocpy: A and B read from mapped host memory, C on the
            // device.
            void* mappedA = nullptr;
            void* mappedB = nullptr;
            WS_TRY(cudaHostGetDevicePointer(&mappedA, m_pinned[0].p, 0), "mapping host memory");
            WS_TRY(cudaHostGetDevicePointer(&mappedB, m_pinned[1].p, 0), "mapping host memory");
            WS_TRY(cudaMemset(dC, 0, bytes), "clearing device memory");
            result = timed([&] {
                return launch(static_cast<const float*>(mappedA),
                              static_cast<const float*>(mappedB), dC);
            });
        } else {
            result = timed([&]() -> std::optional<ProbeError> {
                WS_TRY(cudaMemcpyAsync(dA, m_pinned[0].p, bytes, cudaMemcpyHostToDevice, m_stream),
                       "a copy");
                WS_TRY(cudaMemcpyAsync(dB, m_pinned[1].p, bytes, cudaMemcpyHostToDevice, m_stream),
                       "a copy");
                if (auto error = launch(dA, dB, dC)) {
                    return error;
                }
                WS_TRY(cudaMemcpyAsync(m_pinned[2].p, dC, bytes, cudaMemcpyDeviceToHost, m_stream),
                       "a copy");
                return std::nullopt;
            });
        }
        if (std::holds_alternative<ProbeError>(result)) {
            return result;
        }
        if (auto error = verify(
                mode == TransferMode::SumCopy ? static_cast<const float*>(m_pinned[2].p) : dC)) {
            return *error;
        }
        return result;
    }

    ProbeResult<std::vector<double>> managed(bool prefetched) {
        releaseDevice();
        const auto bytes = static_cast<std::size_t>(m_bytes);
        // Refuse before asking: managed memory must never oversubscribe the device.
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        WS_TRY(cudaMemGetInfo(&freeBytes, &totalBytes), "asking for free device memory");
        if (3 * bytes > freeBytes / 10 * 9) {
            return ProbeError{ProbeErrorCode::OutOfMemory,
                              "managed memory refused: three arrays of " + formatBytes(m_bytes) +
                                  " need " + formatBytes(3 * m_bytes) + " and the device has " +
                                  formatBytes(static_cast<std::int64_t>(freeBytes)) +
                                  " free; managed memory is never asked for more than that",
                              false};
        }
        struct Managed {
            void* p = nullptr;
            ~Managed() {
                if (p) {
                    cudaFree(p);
                }
            }
        } arrays[3];
        for (Managed& array : arrays) {
            WS_TRY(cudaMallocManaged(&array.p, bytes, cudaMemAttachGlobal),
                   formatBytes(m_bytes) + " of managed memory");
        }
        auto* a = static_cast<float*>(arrays[0].p);
        auto* b = static_cast<float*>(arrays[1].p);
        auto* c = static_cast<float*>(arrays[2].p);
        fill(a, m_n, 1.0f); // first touched on the host: the pages start there
        fill(b, m_n, 2.0f);
        std::memset(c, 0, bytes);
        std::vector<double> samples;
        for (int rep = 0; rep <= m_repetitions; ++rep) {
            // Untimed: every page back on the host.
            for (Managed& array : arrays) {
                WS_TRY(prefetch(array.p, bytes, false, m_device, m_stream),
                       "prefetching managed memory to the host");
            }
            WS_TRY(cudaStreamSynchronize(m_stream), "waiting for the GPU");
            WS_TRY(cudaEventRecord(m_events.start, m_stream), "recording an event");
            if (prefetched) {
                for (Managed& array : arrays) {
                    WS_TRY(prefetch(array.p, bytes, true, m_device, m_stream),
                           "prefetching managed memory to the device");
                }
            }
            if (auto error = launch(a, b, c)) {
                return *error;
            }
            WS_TRY(cudaEventRecord(m_events.stop, m_stream), "recording an event");
            WS_TRY(cudaEventSynchronize(m_events.stop), "waiting for the GPU");
            float ms = 0.0f;
            WS_TRY(cudaEventElapsedTime(&ms, m_events.start, m_events.stop), "reading an event");
            if (rep > 0) {
                samples.push_back(ms);
            }
        }
        if (auto error = verify(c)) {
            return *error;
        }
        return samples;
    }

    std::int64_t m_bytes;
    std::int64_t m_n;
    int m_device;
    int m_repetitions;
    cudaStream_t m_stream;
    cudaStream_t m_other;
    const Events& m_events;
    cudaEvent_t m_joined = nullptr; // the second stream's end, for pinned copies both ways
    DeviceArray m_device3[3];
    PinnedArray m_pinned[3];
    PageableArray m_pageable[2];
};

} // namespace

ProbeResult<TransferMemory> currentTransferMemory() {
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    WS_TRY(cudaMemGetInfo(&freeBytes, &totalBytes), "asking for free device memory");
    TransferMemory memory;
    memory.deviceFreeBytes = static_cast<std::int64_t>(freeBytes);
    memory.hostAvailableBytes = hostAvailableMemoryBytes();
    return memory;
}

ProbeResult<TransferMeasurement> runTransfersOnDevice(const TransferPlan& plan,
                                                      const ProgressCallback& progress,
                                                      const CancelCallback& cancelled) {
    int device = 0;
    WS_TRY(cudaGetDevice(&device), "finding the current device");
    int concurrentManaged = 0;
    WS_TRY(cudaDeviceGetAttribute(&concurrentManaged, cudaDevAttrConcurrentManagedAccess, device),
           "asking for managed memory support");
    TransferMeasurement measurement;
    measurement.repetitions = plan.repetitions;
    measurement.capNote = plan.capNote;
    std::vector<TransferMode> modes;
    for (TransferMode mode : kAllTransferModes) { // managed last: device arrays are freed first
        if (std::find(plan.modes.begin(), plan.modes.end(), mode) == plan.modes.end()) {
            continue;
        }
        if (transferModeIsManaged(mode) && !concurrentManaged) {
            measurement.capNote += std::string(measurement.capNote.empty() ? "" : " ") +
                                   transferModeLabel(mode) +
                                   " left out: this device cannot prefetch or fault managed "
                                   "pages while the host runs (concurrentManagedAccess is 0).";
            continue;
        }
        modes.push_back(mode);
        measurement.curves.push_back(TransferCurve{mode, {}});
    }
    Stream stream;
    Stream other;
    Events events;
    WS_TRY(cudaStreamCreateWithFlags(&stream.s, cudaStreamNonBlocking), "creating a stream");
    WS_TRY(cudaStreamCreateWithFlags(&other.s, cudaStreamNonBlocking), "creating a stream");
    WS_TRY(cudaEventCreate(&events.start), "creating an event");
    WS_TRY(cudaEventCreate(&events.stop), "creating an event");
    const int total = static_cast<int>(modes.size() * plan.sizes.size());
    int done = 0;
    for (std::int64_t size : plan.sizes) {
        SizeRun run(size, device, plan.repetitions, stream.s, other.s, events);
        for (std::size_t m = 0; m < modes.size(); ++m) {
            if (cancelled && cancelled()) {
                return ProbeError{ProbeErrorCode::Cancelled,
                                  "cancelled after " + std::to_string(done) + " of " +
                                      std::to_string(total) + " points",
                                  false};
            }
            auto samples = run.run(modes[m]);
            if (auto* error = std::get_if<ProbeError>(&samples)) {
                error->message = std::string(transferModeLabel(modes[m])) + " at " +
                                 formatBytes(size) + ": " + error->message;
                return *error;
            }
            measurement.curves[m].points.push_back(
                transferPoint(modes[m], size, std::get<std::vector<double>>(std::move(samples))));
            ++done;
            if (progress) {
                progress(done, total);
            }
        }
    }
    return measurement;
}

} // namespace warpscope::probe
