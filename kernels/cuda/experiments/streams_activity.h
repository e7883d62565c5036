// ActivityTrace: CUPTI's activity records of the copies and kernels a streams measurement runs
// (when each one actually ran on the GPU), with CUPTI's activity API loaded at run time.
#pragma once

#include <warpscope/streams.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::probe {

struct ActivityApi;

/// One copy or kernel as CUPTI recorded it (nanoseconds on CUPTI's clock).
struct ActivityOp {
    std::uint32_t streamId = 0;
    StreamOp op = StreamOp::H2d;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    int channel = -1;
};

/// Activity recording of copies and kernels for the length of one measurement.
class ActivityTrace {
public:
    ~ActivityTrace() { stop(); }

    /// Starts recording; false with `why` set when CUPTI cannot.
    bool start(std::string& why);

    bool active() const { return m_api != nullptr; }

    /// CUPTI's id of a stream, 0 when it cannot say.
    std::uint32_t streamId(cudaStream_t stream) const;

    /// Every operation recorded since the last take (after the GPU has finished them).
    std::vector<ActivityOp> take();

    void stop();

private:
    const ActivityApi* m_api = nullptr;
    bool m_enabledCopies = false;
    bool m_enabledKernels = false;
};

} // namespace warpscope::probe
