// KernelPrediction: the core's grid model over the current entry's whole kernel (every access,
// every warp of the launch), off the GUI thread, after every edit. It gives the whole-grid
// predicted totals that the metrics dock shows for any kernel, and the kernel's problems that the
// grid model finds before anything runs (an address out of its buffer, misaligned or negative),
// which the kernel panel shows where the user edits. One per document (of()), a child of it; a
// newer edit cancels the walk under way and results of superseded walks are dropped.
#pragma once

#include <warpscope/kernel.h>
#include <warpscope/result.h>

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

class QThreadPool;

namespace warpscope::app {

class PatternDocument;

/// What one walk over the grid found.
struct KernelPredictionResult {
    /// The kernel walked (the entry's, or a plain pattern's one-access kernel).
    Kernel kernel;
    /// The whole grid's prediction; empty when the grid model refused the kernel.
    std::optional<GridPrediction> prediction;
    /// Why it refused: the first address out of bounds, misaligned or negative, a launch over
    /// the model's budget, an expression that does not evaluate. `where` is the core's JSON
    /// pointer; problemText() puts it in the editor's words.
    std::optional<Error> problem;
    /// For an address past the end of its buffer: the bytes the access reaches over the whole
    /// grid (its largest address + width), so the message can say what size would do.
    std::optional<std::int64_t> bytesNeeded;
};

class KernelPrediction : public QObject {
    Q_OBJECT
public:
    /// The document's one KernelPrediction, made on first use.
    static KernelPrediction* of(PatternDocument* document);
    ~KernelPrediction() override;

    /// The latest finished walk of the current entry; empty while none has finished (or for a
    /// pattern of explicit addresses, which has no kernel).
    const std::optional<KernelPredictionResult>& result() const { return m_result; }
    bool isBusy() const { return m_running > 0; }

    /// The walk itself, on the calling thread (tests; the worker runs it).
    static KernelPredictionResult compute(const Kernel& kernel,
                                          const std::atomic<bool>* cancelled = nullptr);

    /// `problem` in the editor's words and numbering: "Access 1 (load in), block (3, 0, 0),
    /// thread (29, 0, 0): address 8192 + 4 bytes is past the end of 'data' (4096 bytes)", with
    /// what to do about a buffer the launch outgrew. Empty for a cancelled walk.
    static QString problemText(const KernelPredictionResult& result);
    /// The 0-based access the problem is in, or -1.
    static int problemAccess(const Error& problem);
    /// The 0-based buffer an out-of-bounds problem is about, or -1.
    static int problemBuffer(const KernelPredictionResult& result);

signals:
    /// A walk finished (result() changed) or a new one started (isBusy()).
    void changed();

private:
    explicit KernelPrediction(PatternDocument* document);
    void restart();

    PatternDocument* m_document;
    QThreadPool* m_pool;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::optional<KernelPredictionResult> m_result;
    std::optional<Kernel> m_requested; // what the latest walk is of
    int m_latest = 0;
    int m_running = 0;
};

} // namespace warpscope::app
