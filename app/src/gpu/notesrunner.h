// NotesRunner: what Run (F5) does on the notes-vs-GPU tab. It measures every row of a notes
// experiment with measure_kernel, one probe job per kernel preset holding that preset's points as
// a sweep, and records the answers in the KernelMeasurementStore. A newer run supersedes an older
// one (its jobs are cancelled and their answers dropped); problems come out as one message.
#pragma once

#include "gpu/kernelmeasurement.h"
#include "gpu/probeclient.h"

#include <QObject>
#include <QString>

#include <map>
#include <string>

namespace warpscope::app {

struct NotesExperiment;

class NotesRunner : public QObject {
    Q_OBJECT
public:
    NotesRunner(ProbeClient* client, KernelMeasurementStore* store, QObject* parent = nullptr);

    KernelMeasureOptions options() const { return m_options; }
    void setOptions(const KernelMeasureOptions& options) { m_options = options; }

    /// Measure every row of `experiment` (replacing a run under way).
    void run(const NotesExperiment& experiment);
    void cancel();
    bool isRunning() const { return !m_jobs.empty(); }
    /// The experiment of the run under way or last run.
    const std::string& experimentId() const { return m_experimentId; }

signals:
    void runningChanged(bool running);
    void progress(int done, int total);
    /// Every job of the run answered (some may have failed; `failed` said so).
    void finished();
    void failed(const QString& message, bool noGpu);

private:
    void onMeasured(int job, const std::vector<KernelMeasurement>& measurements);
    void onFailed(int job, const ProbeFailure& failure);
    void onProgress(int job, int done, int total);
    void jobEnded(int job);

    ProbeClient* m_client;
    KernelMeasurementStore* m_store;
    KernelMeasureOptions m_options;
    std::string m_experimentId;
    struct JobState {
        QString presetId;
        int done = 0;
        int total = 0;
    };
    std::map<int, JobState> m_jobs;
    bool m_toldNoGpu = false;
};

} // namespace warpscope::app
