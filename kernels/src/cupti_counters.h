// Hardware counters through CUPTI's range profiler and profiler host APIs (CUDA 12.6+), loaded
// with dlopen so the probe starts, and measures timing, where CUPTI is missing or refuses. One
// CounterSession is set up per probe process; a batch of kernel launches is measured as one
// profiling session with one auto range (and kernel replay) per launch.
#pragma once

#include "probe_backend.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warpscope::probe {

class CounterSession {
public:
    /// The most kernels one measure() call may launch.
    static constexpr int kMaxRangesPerBatch = 64;

    ~CounterSession();
    CounterSession(const CounterSession&) = delete;
    CounterSession& operator=(const CounterSession&) = delete;

    /// Loads CUPTI, initialises the profiler for the current CUDA context and builds the
    /// configuration for `metrics`. Errors: CountersUnavailable (no CUPTI, unsupported GPU),
    /// CountersNotPermitted, CountersBusy.
    static ProbeResult<std::unique_ptr<CounterSession>>
    open(const std::vector<std::string>& metrics);

    /// Calls `launch(i)` for i in [0, count) inside one profiling session, count at most
    /// kMaxRangesPerBatch; each call must enqueue exactly one kernel, and is called once per pass
    /// the metrics need. `before(i)`, when given, runs before each launch's range, outside it
    /// (an L2 flush, so that every pass of a cold measurement starts cold). Returns one metric
    /// map per launch, in order.
    ProbeResult<std::vector<std::map<std::string, double>>>
    measure(int count, const std::function<bool(int)>& launch,
            const std::function<bool(int)>& before = {});

    int passes() const { return m_passes; }

private:
    CounterSession() = default;
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    int m_passes = 0;
};

} // namespace warpscope::probe
