// GridComputation: the grid model for the grid view, off the GUI thread. One request is the
// current pattern's one-access kernel (or any kernel and access): one pass of the core's grid
// model gives the whole grid's histogram of sectors per request (or wavefronts) and hands out
// each warp's value (GridOptions::warpValue) for the heat map: every warp of the launch or, past
// `maxWarps`, a representative rectangle of blocks starting at block (0, 0) (the result says so).
// Job ids: a newer request cancels the one under way (GridOptions::cancelled) and results of
// superseded jobs are dropped. Before the walk the core's estimate is taken: above the grid
// model's budget the request fails with it (naming the limit and how to raise it); above the
// size the caller asks its user about (GridLimits) it stops and answers with the estimate alone.
#pragma once

#include <warpscope/kernel.h>

#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QThreadPool;

namespace warpscope::app {

struct GridRequest {
    Kernel kernel;
    /// When set, the kernel is this pattern's one-access kernel, made on the worker
    /// (kernelFromPatternUnsized: its buffer is not sized by a walk over the grid, so the GUI
    /// thread does no per-warp work at all); `kernel` is then ignored.
    std::optional<Pattern> pattern;
    int access = 0;
    /// The heat map's budget: above it, a rectangle of whole blocks with at most this many warps
    /// (the values cost 4 bytes a warp; computing them costs nothing beyond the grid model).
    std::int64_t maxWarps = 262144;

    bool operator==(const GridRequest&) const = default;
};

/// What a request may do without asking the user first.
struct GridLimits {
    /// Above this many thread-accesses (the core's estimate), the computation stops before the
    /// walk and answers confirmationNeeded with the estimate. 0: never ask.
    std::int64_t askAboveThreadAccesses = 0;
    /// The grid model's hard limits (its zero fields: the core's defaults).
    GridBudget budget;
};

struct GridResult {
    int access = 0;
    bool shared = false;   // wavefronts (shared) or sectors per request (global)
    bool constant = false; // distinct addresses per warp: constant-cache requests (constant)
    Dim3 grid;             // the launch's grid
    std::int64_t warpsPerBlock = 1;
    std::int64_t totalWarps = 0;
    /// The blocks the heat map holds: bid.x < shownBlocksX, bid.y < shownBlocksY, bid.z == 0.
    std::int64_t shownBlocksX = 0;
    std::int64_t shownBlocksY = 0;
    /// True when the heat map holds a region, not the whole launch.
    bool representative = false;
    /// Per shown warp, row-major over blocks (y, then x), then the warps of a block: the grid
    /// model's sectors per request, or wavefronts; -1 for a warp with no active lane.
    std::vector<int> values;
    /// The whole grid's distribution (the grid model's), and its totals.
    GridAccessPrediction prediction;
    int maxValue = 0;
    /// What the walk costs (the core's estimateGrid), known before it starts, and the numbers
    /// it is the product of (blocks: grid.count(), threads: block.count()).
    GridEstimate estimate;
    Dim3 block;
    int accessCount = 0;
    /// True when the computation stopped before the walk because the estimate is above
    /// GridLimits::askAboveThreadAccesses: only the launch and the estimate are filled.
    bool needsConfirmation = false;
};

class GridComputation : public QObject {
    Q_OBJECT
public:
    explicit GridComputation(QObject* parent = nullptr);
    ~GridComputation() override;

    /// Start computing `request`; a job under way is cancelled. Returns the new job's id.
    int request(GridRequest request, GridLimits limits = {});
    void cancel();
    bool isBusy() const { return m_running != 0; }
    int latestJob() const { return m_latest; }

    /// The work itself, on the calling thread (tests and benchmarks).
    static Result<GridResult>
    compute(const GridRequest& request, const std::atomic<bool>* cancelled = nullptr,
            const std::function<void(std::int64_t, std::int64_t)>& progress = {},
            const GridLimits& limits = {});

signals:
    /// done/total in a fixed range of 0..1000, throttled.
    void progress(int job, int done, int total);
    void resultReady(int job, const warpscope::app::GridResult& result);
    /// The job stopped before its walk: `estimate` (GridResult::needsConfirmation) is above
    /// GridLimits::askAboveThreadAccesses. Asking again with a higher limit computes it.
    void confirmationNeeded(int job, const warpscope::app::GridResult& estimate);
    void failed(int job, const QString& message);

private:
    QThreadPool* m_pool;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    int m_latest = 0;
    int m_running = 0;
};

} // namespace warpscope::app
