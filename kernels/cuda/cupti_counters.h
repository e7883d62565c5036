// Hardware counters through CUPTI's range profiler and profiler host APIs (CUDA 12.6+), loaded
// with dlopen so the probe starts, and measures timing, where CUPTI is missing or refuses. One
// CounterSession is set up per probe process; a batch of kernel launches is measured with one user
// range per launch, the batch launched once per pass (user replay). The pass that is costliest to
// start is started ahead, while the probe waits for its next request.
#pragma once

#include "probe_backend.h"

#include <dlfcn.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace warpscope::probe {

/// The probe's one CUPTI loader: libcupti, opened on the first call for the whole process and
/// never closed, for the range profiler (loadCupti), the SASS metrics (cupti_sass.cpp) and the
/// activity records (streams_activity.cpp) alike. Looks for WARPSCOPE_CUPTI_LIBRARY when it is
/// set, then the loader's path (LD_LIBRARY_PATH, ldconfig), then the CUDA toolkit's usual places.
/// Null when none opens, and `why` says so: the last dlerror() (or the last path tried) and how
/// to point the probe at CUPTI. Safe to call from any thread.
void* cuptiLibrary(std::string& why);

/// Resolves `name` from an open CUPTI library into `function`; false when the library lacks it.
template <typename Function>
bool resolveCuptiFunction(void* library, Function& function, const char* name) {
    function = reinterpret_cast<Function>(dlsym(library, name));
    return function != nullptr;
}

/// A table of CUPTI functions (a struct with `void* library` and function pointers), filled
/// once for the whole probe: `fill(table, error)` resolves its functions from `table.library`
/// and says what is missing. Every call gets the same table, or null with the same reason in
/// `why`. The library stays open when a function is missing: other tables may use it. Safe to
/// call from any thread.
template <typename Table, typename Fill>
const Table* loadCuptiTableOnce(std::string& why, Fill fill) {
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    static Table table;
    static std::string error;
    static bool tried = false;
    if (!tried) {
        tried = true;
        table.library = cuptiLibrary(error);
        if (table.library != nullptr && !fill(table, error)) {
            table.library = nullptr;
        }
    }
    if (table.library == nullptr) {
        why = error;
        return nullptr;
    }
    return &table;
}

class CounterSession {
public:
    /// The most kernels one measure() call may launch (a sweep's batch). Every pass costs a
    /// little more with room for more ranges (on an H100 about 2.4 ms a request, all passes
    /// together, between 64 and 1).
    static constexpr int kMaxRangesPerBatch = 32;

    ~CounterSession();
    CounterSession(const CounterSession&) = delete;
    CounterSession& operator=(const CounterSession&) = delete;

    /// Loads CUPTI and initialises its profiler for the process (what open() does first, and
    /// the part that needs no CUDA context), so that another thread can do it while the context
    /// is made. Safe to call from any thread, and more than once; errors are left for open().
    static void preload();

    /// Loads CUPTI, initialises the profiler for the current CUDA context and builds the
    /// configuration for `metrics`. Errors: CountersUnavailable (no CUPTI, unsupported GPU),
    /// CountersNotPermitted, CountersBusy.
    static ProbeResult<std::unique_ptr<CounterSession>>
    open(const std::vector<std::string>& metrics);

    /// Sets up the next measure() while nothing is asked of the probe: the counter data image
    /// initialised and the pass that was costliest to start configured and started (on an H100
    /// the sector counters' pass: about 16 ms of CPU in CUPTI, against about 1.4 ms for each
    /// other pass); the first time, before any pass was timed, pass 0 (whose start then carries
    /// the session's one-time set-up, about 200 ms). Kernels launched before the next measure()
    /// are outside every range and are not counted. Does nothing when already prepared; a
    /// failure is left for measure() to report. `timeEveryPass`: before any pass was timed,
    /// every pass is first run empty (outside any range) until each start is timed, so that
    /// the costliest is the one started.
    void prepare(bool timeEveryPass = false);

    /// Calls `launch(i)` for i in [0, count) inside one profiling session, count at most
    /// kMaxRangesPerBatch; each call must enqueue exactly one kernel, and is called once per pass
    /// the metrics need. `before(i)`, when given, runs before each launch's range, outside it
    /// (an L2 flush, so that every pass of a cold measurement starts cold). `whileStopping`, when
    /// given, is called once, after the first pass's launches have finished and before its Stop
    /// (about 5 ms of CPU for the sector counters' pass on an H100): it may queue GPU work,
    /// outside every range, which is waited for before the next pass begins. Returns one metric
    /// map per launch, in order. Uses what prepare() set up, if anything.
    ProbeResult<std::vector<std::map<std::string, double>>>
    measure(int count, const std::function<bool(int)>& launch,
            const std::function<bool(int)>& before = {},
            const std::function<void()>& whileStopping = {});

    int passes() const { return m_passes; }

    /// Whether a pass was ever started: the first start carries a set-up of about 200 ms on an
    /// H100, so a session never started costs little to replace with another.
    bool everStarted() const;

private:
    CounterSession() = default;
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    int m_passes = 0;
};

} // namespace warpscope::probe
