// GpuRunner: what Run (F5), auto-run and the GPU sweep do with the ProbeClient. It measures the
// document's current pattern, at most one at a time: an edit made while a measurement runs waits
// as the one pending pattern (replaced by each newer edit), so while a slider is dragged only the
// newest pattern is measured, and the answer to an older one is dropped. Measurements go into the
// MeasurementStore; problems come out as one message each, never as a dialog.
#pragma once

#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"

#include <warpscope/file_format.h>

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
    void setOptions(const ProbeMeasureOptions& options) { m_options = options; }

    bool autoRun() const { return m_autoRun; }
    void setAutoRun(bool on);
    int autoRunDelayMs() const;
    void setAutoRunDelayMs(int milliseconds);

    /// Measure the current pattern now (F5).
    void run();
    /// A measurement of the current pattern is under way.
    bool isMeasuring() const { return m_job != 0; }
    /// Jobs dropped because a newer pattern was asked for before they were answered.
    int supersededCount() const { return m_superseded; }

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
    void send(const NamedPattern& pattern);
    void onMeasured(int job, const ProbeMeasurement& measurement);
    void onFailed(int job, const ProbeFailure& failure);
    void onStateChanged(ProbeClient::State state);
    void sendPending();
    QString describeFailure(const ProbeFailure& failure) const;

    PatternDocument* m_document;
    ProbeClient* m_client;
    MeasurementStore* m_store;
    QTimer* m_debounce;
    ProbeMeasureOptions m_options;
    bool m_autoRun = false;
    int m_job = 0;
    Pattern m_jobPattern;
    std::optional<NamedPattern> m_pending;
    int m_superseded = 0;
    int m_sweepJob = 0;
    int m_kernelJob = 0;
    bool m_toldNoGpu = false;
};

} // namespace warpscope::app
