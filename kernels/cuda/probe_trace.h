// A time trace of the probe's GPU work for profiling: with WARPSCOPE_PROBE_TRACE set in its
// environment, the probe writes one line per timed step to stderr ("trace: step 1.234 ms"), so a
// request's cost can be split into its parts on the GPU machine. Off (one branch per step) when
// the variable is unset.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace warpscope::probe {

inline bool traceEnabled() {
    static const bool enabled = std::getenv("WARPSCOPE_PROBE_TRACE") != nullptr;
    return enabled;
}

/// Times the scope it lives in and writes it to stderr when tracing is on.
class TraceSpan {
public:
    explicit TraceSpan(const char* step) : m_step(step) {
        if (traceEnabled()) {
            m_start = std::chrono::steady_clock::now();
        }
    }
    ~TraceSpan() {
        if (traceEnabled()) {
            const std::chrono::duration<double, std::milli> elapsed =
                std::chrono::steady_clock::now() - m_start;
            std::fprintf(stderr, "trace: %s %.3f ms\n", m_step, elapsed.count());
        }
    }
    TraceSpan(const TraceSpan&) = delete;
    TraceSpan& operator=(const TraceSpan&) = delete;

private:
    const char* m_step;
    std::chrono::steady_clock::time_point m_start{};
};

} // namespace warpscope::probe
