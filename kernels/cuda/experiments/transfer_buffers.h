// The buffers of a transfers run: pageable pools mapped once and walked window by window
// (HostPageable), and the device, pinned and pageable arrays every size shares (Buffers).
#pragma once

#include "cuda_buffers.h"
#include <warpscope/format.h>

#include <cuda_runtime.h>

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace warpscope::probe {

/// Pageable host memory: anonymous pages that CUDA never registers (mmap, pre-faulted).
struct PageableArray {
    float* data = nullptr;
    std::size_t mapped = 0;
    PageableArray() = default;
    PageableArray(const PageableArray&) = delete;
    PageableArray& operator=(const PageableArray&) = delete;
    ~PageableArray() { reset(); }
    void reset() {
        if (data) {
            munmap(data, mapped);
            data = nullptr;
            mapped = 0;
        }
    }
};

constexpr std::size_t kHugePage = std::size_t{2} << 20;

constexpr std::int64_t kWindowAlign = 4096;

/// The pageable pools of the whole run: two of them, mapped once for the largest size (at least
/// kMinPool when the host has room), pre-faulted on the measuring thread and reused for every size.
/// Each copy takes the next window of a pool (next()), so that a window is used again only after
/// the whole pool has been: a copy of less than the pool never finds its source or destination in
/// the CPU's caches, where reusing one buffer made a 16 or 64 MiB copy cache-warm in one process
/// and cold in the next (2 x apart on the H100 machine, docs/benchmarks.md).
struct HostPageable {
    std::int64_t bytes = 0; // each
    PageableArray arrays[2];
    std::int64_t cursor = 0;
    std::optional<ProbeError> need(int count) {
        const auto size = static_cast<std::size_t>(bytes);
        const std::size_t mapped = (size + kHugePage - 1) / kHugePage * kHugePage;
        for (int i = 0; i < count; ++i) {
            PageableArray& array = arrays[i];
            if (array.data) {
                continue;
            }
            void* p =
                mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) {
                return ProbeError::outOfMemory("could not allocate " + formatBytes(bytes) +
                                               " of pageable host memory");
            }
#ifdef MADV_HUGEPAGE
            madvise(p, mapped, MADV_HUGEPAGE); // advice only: without THP, 4 KiB pages
#endif
            array.data = static_cast<float*>(p);
            array.mapped = mapped;
            std::fill(array.data, array.data + bytes / 4, i == 0 ? 1.0f : 2.0f);
        }
        return std::nullopt;
    }
    /// The byte offset of the next window of `size` bytes (windows start on 4 KiB boundaries).
    std::int64_t next(std::int64_t size) {
        return nextWindow(cursor, size, bytes);
    }

    static std::int64_t nextWindow(std::int64_t& cursor, std::int64_t size, std::int64_t pool) {
        if (cursor + size > pool) {
            cursor = 0;
        }
        const std::int64_t at = cursor;
        cursor += (size + kWindowAlign - 1) / kWindowAlign * kWindowAlign;
        return at;
    }
};

inline void fill(float* data, std::int64_t n, float value) {
    std::fill(data, data + n, value);
}

/// The buffers of the whole run, each allocated on first use for the largest size and shared by
/// every size (a size uses a window of them): device arrays A, B and C, pinned host arrays A, B
/// (read only: 1 and 2, filled once) and C (what device-to-host copies and sumArrays write), the
/// pageable pools. Kept across sizes so that the sizes and modes can be visited in rounds.
struct Buffers {
    std::int64_t largest = 0;
    DeviceArray device[3];
    bool deviceHoldsAB = false; // device A and B hold 1 and 2 over their whole length
    std::int64_t deviceCursor = 0;
    PinnedArray pinned[3];
    HostPageable pageable;
    cudaEvent_t joined = nullptr; // the second stream's end, for pinned copies both ways

    Buffers() = default;
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;
    ~Buffers() {
        if (joined) {
            cudaEventDestroy(joined);
        }
    }

    std::optional<ProbeError> needDevice(int count) {
        for (int i = 0; i < count; ++i) {
            if (!device[i].p) {
                WS_TRY(cudaMalloc(&device[i].p, static_cast<std::size_t>(largest)),
                       formatBytes(largest) + " of device memory");
                WS_TRY(cudaMemset(device[i].p, 0, static_cast<std::size_t>(largest)),
                       "clearing device memory");
                if (i < 2) {
                    deviceHoldsAB = false;
                }
            }
        }
        return std::nullopt;
    }
    std::optional<ProbeError> needPinned(int index) {
        if (!pinned[index].p) {
            WS_TRY(cudaHostAlloc(&pinned[index].p, static_cast<std::size_t>(largest),
                                 cudaHostAllocMapped),
                   formatBytes(largest) + " of pinned host memory");
            fill(static_cast<float*>(pinned[index].p), largest / 4,
                 index == 0   ? 1.0f
                 : index == 1 ? 2.0f
                              : 0.0f);
        }
        return std::nullopt;
    }
    /// Device A = 1 and B = 2 over their whole length, for sumArrays over any window.
    std::optional<ProbeError> needDeviceAB() {
        if (auto error = needDevice(3)) {
            return error;
        }
        for (int i = 0; i < 2; ++i) {
            if (auto error = needPinned(i)) {
                return error;
            }
        }
        if (!deviceHoldsAB) {
            for (int i = 0; i < 2; ++i) {
                WS_TRY(cudaMemcpy(device[i].p, pinned[i].p, static_cast<std::size_t>(largest),
                                  cudaMemcpyHostToDevice),
                       "a copy");
            }
            deviceHoldsAB = true;
        }
        return std::nullopt;
    }
    /// The device arrays go before managed memory is allocated, so both never add up.
    void releaseDevice() {
        for (DeviceArray& array : device) {
            array.reset();
        }
        deviceHoldsAB = false;
    }
};

} // namespace warpscope::probe
