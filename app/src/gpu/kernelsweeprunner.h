// KernelSweepRunner: a kernel sweep on the GPU (the sweep tab's Run on a whole kernel). Every
// point goes to the probe as one measure_kernel job holding them all as its sweep, with progress
// and cancel; the answers are recorded in the KernelMeasurementStore under the kernel preset's id,
// where the notes tab finds them too and the session keeps them.
#pragma once

#include "document/kernelsweepdata.h"
#include "gpu/kernelmeasurement.h"
#include "gpu/probeclient.h"

#include <QObject>
#include <QString>

namespace warpscope::app {

class KernelSweepRunner : public QObject {
    Q_OBJECT
public:
    KernelSweepRunner(ProbeClient* client, KernelMeasurementStore* store,
                      QObject* parent = nullptr);

    KernelMeasureOptions options() const { return m_options; }
    void setOptions(const KernelMeasureOptions& options) { m_options = options; }

    /// Measure `kernel` at every point, recording the answers under `presetId` (replacing a run
    /// under way).
    void run(const QString& presetId, const Kernel& kernel,
             const std::vector<KernelSweepPoint>& points);
    void cancel();
    bool isRunning() const { return m_job != 0; }

signals:
    void runningChanged(bool running);
    void progress(int done, int total);
    /// The sweep's answers arrived and were recorded (`points` of them).
    void finished(int points);
    /// No answer: why. `noGpu` when there is no GPU to measure on (model-only mode).
    void failed(const QString& message, bool noGpu);
    void cancelled();

private:
    void onMeasured(int job, const std::vector<KernelMeasurement>& measurements);
    void onFailed(int job, const ProbeFailure& failure);
    void onProgress(int job, int done, int total);
    void end();

    ProbeClient* m_client;
    KernelMeasurementStore* m_store;
    KernelMeasureOptions m_options;
    QString m_presetId;
    int m_job = 0;
    int m_total = 0;
};

} // namespace warpscope::app
