// KernelSweepRunner: one measure_kernel sweep through the probe.
#include "gpu/kernelsweeprunner.h"

#include <QJsonDocument>

namespace warpscope::app {

KernelSweepRunner::KernelSweepRunner(ProbeClient* client, KernelMeasurementStore* store,
                                     QObject* parent)
    : QObject(parent), m_client(client), m_store(store) {
    connect(m_client, &ProbeClient::kernelMeasured, this, &KernelSweepRunner::onMeasured);
    connect(m_client, &ProbeClient::jobFailed, this, &KernelSweepRunner::onFailed);
    connect(m_client, &ProbeClient::progress, this, &KernelSweepRunner::onProgress);
}

void KernelSweepRunner::run(const QString& presetId, const Kernel& kernel,
                            const std::vector<KernelSweepPoint>& points) {
    const bool wasRunning = isRunning();
    if (wasRunning) {
        m_client->cancel(m_job);
    }
    m_presetId = presetId;
    m_total = static_cast<int>(points.size());
    const QJsonObject kernelJson =
        QJsonDocument::fromJson(QByteArray::fromStdString(kernelToJsonText(kernel))).object();
    m_job = m_client->measureKernel(kernelJson, points, m_options);
    if (!wasRunning) {
        emit runningChanged(true);
    }
    emit progress(0, m_total);
}

void KernelSweepRunner::cancel() {
    if (!isRunning()) {
        return;
    }
    m_client->cancel(m_job);
    end();
    emit cancelled();
}

void KernelSweepRunner::onMeasured(int job, const std::vector<KernelMeasurement>& measurements) {
    if (job != m_job || job == 0) {
        return; // superseded, cancelled or not ours
    }
    for (const KernelMeasurement& m : measurements) {
        m_store->put(m_presetId, m);
    }
    end();
    emit finished(static_cast<int>(measurements.size()));
}

void KernelSweepRunner::onFailed(int job, const ProbeFailure& failure) {
    if (job != m_job || job == 0) {
        return;
    }
    const bool noGpu = failure.isNoGpu() || failure.code == QLatin1String("probe_missing");
    end();
    emit failed(failure.message, noGpu);
}

void KernelSweepRunner::onProgress(int job, int done, int total) {
    if (job == m_job && job != 0 && total > 0) {
        emit progress(done, total);
    }
}

void KernelSweepRunner::end() {
    m_job = 0;
    emit runningChanged(false);
}

} // namespace warpscope::app
