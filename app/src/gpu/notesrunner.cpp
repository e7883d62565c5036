// NotesRunner: a notes experiment measured through the probe.
#include "gpu/notesrunner.h"

#include "gpu/notesexperiment.h"

#include <warpscope/kernel.h>
#include <warpscope/kernel_preset.h>

#include <QJsonDocument>

namespace warpscope::app {

NotesRunner::NotesRunner(ProbeClient* client, KernelMeasurementStore* store, QObject* parent)
    : QObject(parent), m_client(client), m_store(store) {
    connect(m_client, &ProbeClient::kernelMeasured, this, &NotesRunner::onMeasured);
    connect(m_client, &ProbeClient::jobFailed, this, &NotesRunner::onFailed);
    connect(m_client, &ProbeClient::progress, this, &NotesRunner::onProgress);
}

void NotesRunner::run(const NotesExperiment& experiment) {
    const bool wasRunning = isRunning();
    for (const auto& [job, state] : m_jobs) {
        m_client->cancel(job);
    }
    m_jobs.clear();
    m_toldNoGpu = false;
    m_experimentId = experiment.id;
    for (const NotesRequest& request : notesRequests(experiment)) {
        const KernelPreset* preset = findKernelPreset(request.presetId);
        if (preset == nullptr) {
            continue;
        }
        const QJsonObject kernel =
            QJsonDocument::fromJson(QByteArray::fromStdString(kernelToJsonText(preset->kernel)))
                .object();
        const int job = m_client->measureKernel(kernel, request.points, m_options);
        m_jobs[job] = JobState{QString::fromStdString(request.presetId), 0,
                               static_cast<int>(request.points.size())};
    }
    if (isRunning() != wasRunning) {
        emit runningChanged(isRunning());
    }
    onProgress(0, 0, 0);
}

void NotesRunner::cancel() {
    if (m_jobs.empty()) {
        return;
    }
    for (const auto& [job, state] : m_jobs) {
        m_client->cancel(job);
    }
    m_jobs.clear();
    emit runningChanged(false);
}

void NotesRunner::onMeasured(int job, const std::vector<KernelMeasurement>& measurements) {
    const auto it = m_jobs.find(job);
    if (it == m_jobs.end()) {
        return; // superseded or not ours
    }
    for (const KernelMeasurement& m : measurements) {
        m_store->put(it->second.presetId, m);
    }
    jobEnded(job);
}

void NotesRunner::onFailed(int job, const ProbeFailure& failure) {
    const auto it = m_jobs.find(job);
    if (it == m_jobs.end()) {
        return;
    }
    const QString preset = it->second.presetId;
    const bool noGpu = failure.isNoGpu() || failure.code == QLatin1String("probe_missing");
    // One message for the run: a missing GPU fails every job the same way.
    if (!noGpu || !m_toldNoGpu) {
        m_toldNoGpu = m_toldNoGpu || noGpu;
        emit failed(noGpu ? failure.message
                          : tr("%1 could not be measured: %2").arg(preset, failure.message),
                    noGpu);
    }
    jobEnded(job);
}

void NotesRunner::onProgress(int job, int done, int total) {
    const auto it = m_jobs.find(job);
    if (it != m_jobs.end() && total > 0) {
        it->second.done = done;
    }
    int allDone = 0;
    int allTotal = 0;
    for (const auto& [id, state] : m_jobs) {
        allDone += state.done;
        allTotal += state.total;
    }
    if (allTotal > 0) {
        emit progress(allDone, allTotal);
    }
}

void NotesRunner::jobEnded(int job) {
    m_jobs.erase(job);
    if (m_jobs.empty()) {
        emit runningChanged(false);
        emit finished();
    }
}

} // namespace warpscope::app
