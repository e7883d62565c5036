// Pieces the probe's CUDA experiments share (transfers_cuda.cpp, streams_cuda.cpp,
// l2_persistence_cuda.cpp): a CUDA status turned into a ProbeError (sticky errors fatal, failed
// allocations OutOfMemory), and device, pinned-host, stream and event handles freed on every path.
#pragma once

#include "probe_backend.h"

#include <cuda_runtime.h>

#include <optional>
#include <string>

namespace warpscope::probe {

inline bool isSticky(cudaError_t status) {
    switch (status) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorUnknown:
        return true;
    default:
        return false;
    }
}

inline std::optional<ProbeError> check(cudaError_t status, const std::string& what) {
    if (status == cudaSuccess) {
        return std::nullopt;
    }
    (void)cudaGetLastError();
    if (status == cudaErrorMemoryAllocation) {
        return ProbeError::outOfMemory("could not allocate " + what + " (" +
                                       cudaGetErrorString(status) + ")");
    }
    std::string message = what + ": " + cudaGetErrorString(status);
    return isSticky(status) ? ProbeError::kernelFault(std::move(message))
                            : ProbeError::internal(std::move(message));
}

#define WS_TRY(call, what)                                                                         \
    do {                                                                                           \
        if (auto failed_ = check((call), (what))) {                                                \
            return *failed_;                                                                       \
        }                                                                                          \
    } while (0)

// ---- Buffers, freed on every path -------------------------------------------------------------

struct DeviceArray {
    void* p = nullptr;
    ~DeviceArray() { reset(); }
    void reset() {
        if (p) {
            cudaFree(p);
            p = nullptr;
        }
    }
};

struct PinnedArray {
    void* p = nullptr;
    ~PinnedArray() { reset(); }
    void reset() {
        if (p) {
            cudaFreeHost(p);
            p = nullptr;
        }
    }
};

struct Stream {
    cudaStream_t s = nullptr;
    ~Stream() {
        if (s) {
            cudaStreamDestroy(s);
        }
    }
};

/// A start and a stop event for timing on a stream.
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

} // namespace warpscope::probe
