// GpuRunner: what Run (F5), auto-run and the GPU sweep do with the ProbeClient. It measures the
// document's current pattern, at most one at a time: an edit made while a measurement runs waits
// as the one pending pattern (replaced by each newer edit), so while a slider is dragged only the
// newest pattern is measured, and the answer to an older one is not shown (it is kept in the
// cache). Auto-run measures an edit at once when the probe is idle (no debounce: the pending
// pattern already keeps a drag from queueing work). Measurements go into the
// MeasurementStore; problems come out as one message each, never as a dialog.
//
// With auto-run on, every answer is also kept in a MeasurementCache keyed by the resolved access
// and where it was measured, so a value measured before shows its overlay at once (marked as from
// the cache). While a parameter is dragged or stepped, the values ahead of it are measured as one
// sweep in the background ("measure ahead"); an edit whose value that sweep will bring waits for
// it rather than queueing a measurement behind it, and a sweep the drag has left behind is
// cancelled. Run (F5) always measures afresh.
#pragma once

#include "gpu/measurementcache.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"

#include <warpscope/file_format.h>

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <optional>
#include <vector>

class QTimer;

namespace warpscope::app {

class PatternDocument;

class GpuRunner : public QObject {
    Q_OBJECT
public:
    enum class MessageLevel { Info, Warning, Error };
    Q_ENUM(MessageLevel)

    GpuRunner(PatternDocument* document, ProbeClient* client, MeasurementStore* store,
              QObject* parent = nullptr);

    ProbeClient* client() const { return m_client; }
    MeasurementStore* store() const { return m_store; }

    ProbeMeasureOptions options() const { return m_options; }
    /// The options a single pattern of `kind` is measured with: the user's, reading only the
    /// two counters the overlay compares for the kind (fewer CUPTI passes: on an H100 a global
    /// load's two need two passes instead of four).
    ProbeMeasureOptions optionsFor(const AccessKind& kind) const {
        return withCountersOf(m_options, kind);
    }
    void setOptions(const ProbeMeasureOptions& options) { m_options = options; }

    bool autoRun() const { return m_autoRun; }
    void setAutoRun(bool on);

    /// Measure the current pattern now (F5).
    void run();
    /// A measurement of the current pattern is under way.
    bool isMeasuring() const { return m_job != 0; }
    /// Jobs dropped because a newer pattern was asked for before they were answered.
    int supersededCount() const { return m_superseded; }

    /// Auto-run's measurements kept by access and origin (device, probe build).
    const MeasurementCache& cache() const { return m_cache; }
    /// Where a measurement made now would come from (MeasurementCache::originOf).
    QString origin() const;
    /// Values measured ahead of a drag: how many values ahead of the edited one a sweep covers.
    int measureAhead() const { return m_aheadCount; }
    void setMeasureAhead(int values) { m_aheadCount = values; }
    void clearCache() { m_cache.clear(); }
    /// Request to answer of the last single measurement, in milliseconds (0 before one).
    double lastRoundTripMs() const { return m_lastRoundTripMs; }
    /// A measure-ahead sweep is under way.
    bool isMeasuringAhead() const { return m_aheadJob != 0; }
    /// Measure-ahead sweeps sent, and those cancelled because the drag left them behind.
    int aheadSweepsSent() const { return m_aheadSent; }
    int aheadSweepsCancelled() const { return m_aheadCancelled; }
    /// Start the probe and let it set up the GPU (CUDA, counters) in the background, with a
    /// first measurement kept only in the cache, so that the first Run answers as fast as later
    /// ones. Does nothing where no local GPU is visible (localGpuPresent) or the probe runs.
    void warmUp();
    /// The probe's start (warmUp()) to the warm-up measurement's answer, in milliseconds; 0
    /// before it is answered.
    double warmUpMs() const { return m_warmUpMs; }
    /// An NVIDIA driver's device nodes are on this machine (a cheap check, no CUDA call).
    static bool localGpuPresent();

    /// Measure `patterns` (a sweep's points) in one probe batch.
    void runSweep(const std::vector<NamedPattern>& patterns);
    void cancelSweep();
    bool isSweeping() const { return m_sweepJob != 0; }

    /// Ask for the generated CUDA source of the current pattern.
    void requestKernelSource();

signals:
    /// A problem or a state change to show in the window's message bar.
    void message(GpuRunner::MessageLevel level, const QString& text);
    void measuringChanged(bool measuring);
    /// The current pattern's measurement arrived (already in the store).
    void measurementArrived(const ProbeMeasurement& measurement);
    void sweepProgress(int done, int total);
    void sweepFinished(const std::vector<ProbeMeasurement>& measurements);
    /// The sweep ended without a result (cancelled or failed; the message says which).
    void sweepStopped(const QString& why);
    void kernelSourceArrived(const QString& source);
    void kernelSourceFailed(const QString& why);

private:
    /// Auto-run on an edit: the cache, a measure-ahead sweep that brings it, or a measurement.
    void autoRun();
    /// Shows the cached measurement of the current pattern if there is one.
    bool showCached();
    /// Sends a measure-ahead sweep for the values after the current one in the direction the
    /// parameter moved (`around`: on both sides, nearest first, as when the GPU is idle after
    /// an answer), unless one under way already brings them.
    void measureAheadOf(bool around = false);
    void onAheadSwept(int job, const std::vector<ProbeMeasurement>& measurements);
    /// The warm-up, still queued in a starting probe, measures the pattern shown now instead.
    void retargetWarmUp();
    /// `atOnce`: written to the probe now, behind its start's requests (the warm-up).
    void send(const NamedPattern& pattern, bool atOnce = false);
    void onMeasured(int job, const ProbeMeasurement& measurement);
    void onFailed(int job, const ProbeFailure& failure);
    void onStateChanged(ProbeClient::State state);
    void sendPending();
    QString describeFailure(const ProbeFailure& failure) const;

    PatternDocument* m_document;
    ProbeClient* m_client;
    MeasurementStore* m_store;
    ProbeMeasureOptions m_options;
    bool m_autoRun = false;
    int m_job = 0;
    Pattern m_jobPattern;
    std::optional<NamedPattern> m_pending;
    int m_superseded = 0;
    int m_sweepJob = 0;
    int m_kernelJob = 0;
    bool m_toldNoGpu = false;

    MeasurementCache m_cache;
    WarpAccess m_jobAccess;
    bool m_jobCached = false; // m_job's answer goes to the cache (auto-run, warm-up)
    bool m_jobWarmUp = false; // m_job is the warm-up: its answer is not shown
    Pattern m_lastAutoPattern;
    std::size_t m_dragParameter = 0;
    int m_dragDirection = 0; // +1 or -1 once a parameter moved alone; 0 before
    int m_aheadCount = 24;
    int m_aheadJob = 0;
    std::vector<WarpAccess> m_aheadAccesses; // what m_aheadJob measures, in order
    std::vector<std::string> m_aheadKeys;
    std::optional<NamedPattern> m_waitingForAhead; // an edit the sweep under way will answer
    QElapsedTimer m_jobTimer;
    double m_lastRoundTripMs = 0;
    QElapsedTimer m_warmUpClock; // since warmUp() started the probe
    double m_warmUpMs = 0;
    int m_aheadSent = 0;
    int m_aheadCancelled = 0;
};

} // namespace warpscope::app
