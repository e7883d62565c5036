// GridComputation: the grid model and the per-warp heat map on a worker thread.
#include "document/gridcomputation.h"

#include <QMetaObject>
#include <QMetaType>
#include <QThreadPool>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace warpscope::app {

GridComputation::GridComputation(QObject* parent) : QObject(parent), m_pool(new QThreadPool(this)) {
    qRegisterMetaType<warpscope::app::GridResult>("warpscope::app::GridResult");
    m_pool->setMaxThreadCount(1);
}

GridComputation::~GridComputation() {
    // The worker posts to this object: it must have stopped before the object goes.
    if (m_cancel) {
        m_cancel->store(true);
    }
    m_pool->clear();
    m_pool->waitForDone();
}

void GridComputation::cancel() {
    if (m_cancel) {
        m_cancel->store(true);
    }
    m_pool->clear();
    m_latest = 0;
}

int GridComputation::request(GridRequest request, GridLimits limits) {
    cancel();
    static int nextId = 1;
    const int job = nextId++;
    m_latest = job;
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelled;
    ++m_running;
    m_pool->start([this, job, cancelled, limits, request = std::move(request)] {
        auto lastReport = std::chrono::steady_clock::now();
        auto report = [&](std::int64_t done, std::int64_t total) {
            const auto now = std::chrono::steady_clock::now();
            if (now - lastReport < std::chrono::milliseconds(50) && done < total) {
                return;
            }
            lastReport = now;
            const int permille =
                total > 0 ? static_cast<int>(std::min<std::int64_t>(1000, done * 1000 / total))
                          : 1000;
            QMetaObject::invokeMethod(
                this, [this, job, permille] { emit progress(job, permille, 1000); },
                Qt::QueuedConnection);
        };
        auto result = compute(request, cancelled.get(), report, limits);
        QMetaObject::invokeMethod(
            this,
            [this, job, result = std::move(result)] {
                --m_running;
                if (job != m_latest) {
                    return; // superseded
                }
                if (result && result.value().needsConfirmation) {
                    emit confirmationNeeded(job, result.value());
                } else if (result) {
                    emit resultReady(job, result.value());
                } else if (result.error().code != ErrorCode::Cancelled) {
                    emit failed(job, QString::fromStdString(result.error().describe()));
                }
            },
            Qt::QueuedConnection);
    });
    return job;
}

Result<GridResult>
GridComputation::compute(const GridRequest& request, const std::atomic<bool>* cancelled,
                         const std::function<void(std::int64_t, std::int64_t)>& progress,
                         const GridLimits& limits) {
    Kernel fromPattern;
    if (request.pattern) {
        auto made = kernelFromPatternUnsized(*request.pattern);
        if (!made) {
            Error error = made.error();
            error.message = "No grid: " + error.message;
            return error;
        }
        fromPattern = std::move(made).value();
    }
    auto resolved = resolveKernel(request.pattern ? fromPattern : request.kernel);
    if (!resolved) {
        return resolved.error();
    }
    const ResolvedKernel& kernel = resolved.value();
    if (request.access < 0 || request.access >= static_cast<int>(kernel.accesses.size())) {
        return Error{ErrorCode::InvalidValue,
                     "the kernel has no access " + std::to_string(request.access), 0, "access"};
    }
    GridResult out;
    out.access = request.access;
    out.shared = kernel.accesses[static_cast<std::size_t>(request.access)].access.kind.space ==
                 MemorySpace::Shared;
    out.constant = kernel.accesses[static_cast<std::size_t>(request.access)].access.kind.space ==
                   MemorySpace::Constant;
    out.grid = kernel.grid;
    out.warpsPerBlock = kernel.warpsPerBlock();
    out.totalWarps = kernel.warpCount();
    out.block = kernel.block;
    out.accessCount = static_cast<int>(kernel.accesses.size());
    out.estimate = estimateGrid(kernel);

    // The budget first: a launch above it is refused with its numbers before anything is asked
    // or walked. The app is started from an environment: say where the variable is read.
    if (auto overBudget = checkGridBudget(kernel, limits.budget)) {
        overBudget->message = "Grid not computed: " + overBudget->message +
                              " (in the environment warpscope is started from)";
        overBudget->where.clear(); // a launch's, not a place in a file
        return *overBudget;
    }
    if (limits.askAboveThreadAccesses > 0 &&
        out.estimate.threadAccesses > limits.askAboveThreadAccesses) {
        out.needsConfirmation = true;
        return out;
    }

    // The heat map's region: whole rows of blocks while they fit, else a square-ish rectangle.
    const std::int64_t budgetBlocks =
        std::max<std::int64_t>(1, request.maxWarps / std::max<std::int64_t>(1, out.warpsPerBlock));
    std::int64_t bx = kernel.grid.x;
    std::int64_t by = kernel.grid.y;
    if (bx * by > budgetBlocks) {
        const auto side = static_cast<std::int64_t>(std::sqrt(static_cast<double>(budgetBlocks)));
        bx = std::min(kernel.grid.x, std::max<std::int64_t>(1, side));
        by = std::min(kernel.grid.y, std::max<std::int64_t>(1, budgetBlocks / bx));
        // A flat grid (few rows of blocks) spends the rest of the budget on longer rows.
        bx = std::min(kernel.grid.x, std::max(bx, budgetBlocks / by));
    }
    out.shownBlocksX = bx;
    out.shownBlocksY = by;
    out.representative = bx * by * out.warpsPerBlock < out.totalWarps;

    // One pass: the grid model hands out each warp's value (the one its histogram counts) and
    // the heat map keeps those of the shown region. 0 (no active lane) is drawn as -1.
    const std::int64_t shown = bx * by * out.warpsPerBlock;
    out.values.assign(static_cast<std::size_t>(shown), -1);
    const std::int64_t gridX = kernel.grid.x;
    const std::int64_t perBlock = out.warpsPerBlock;
    const int wanted = request.access;
    int maxValue = 0;
    GridOptions options;
    options.budget = limits.budget;
    options.cancelled = cancelled;
    if (progress) {
        options.progress = progress;
    }
    options.warpValue = [&](std::int64_t block, std::int64_t warp, int access, int value) {
        if (access != wanted) {
            return;
        }
        const std::int64_t x = block % gridX;
        const std::int64_t rest = block / gridX;
        if (x >= bx || rest >= by) { // rest >= grid.y for blocks of z > 0
            return;
        }
        out.values[static_cast<std::size_t>((rest * bx + x) * perBlock + warp)] =
            value > 0 ? value : -1;
        maxValue = std::max(maxValue, value);
    };
    auto prediction = predictGrid(kernel, options);
    if (!prediction) {
        return prediction.error();
    }
    out.maxValue = maxValue;
    out.prediction = prediction.value().accesses[static_cast<std::size_t>(request.access)];
    return out;
}

} // namespace warpscope::app
