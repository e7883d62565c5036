// SweepPlot, the "Sweep" tab: pick a parameter and a range, and see both models' sectors or
// transactions (left axis) and efficiency (right axis) against it — for shared memory, wavefronts,
// bank conflicts and the textbook conflict degree. "Run on GPU" measures every point with the probe
// and draws the GPU's counters over the model's curve, and its warm latency on a second axis. Drawn
// with QCustomPlot when the build found it; without it the tab says so and shows the numbers as a
// table instead.
#pragma once

#include "document/sweepdata.h"
#include "gpu/probemeasurement.h"

#include <warpscope/file_format.h>

#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTableWidget;
class QCustomPlot;
class QCPAxisRect;

namespace warpscope::app {

class PatternDocument;
class KernelMeasurementStore;
class KernelSweepView;

class SweepPlot : public QWidget {
    Q_OBJECT
public:
    explicit SweepPlot(PatternDocument* document, QWidget* parent = nullptr);

    /// Whether this build draws plots (QCustomPlot found at configure time).
    static bool plotAvailable();

    const SweepData& data() const { return m_data; }
    QComboBox* parameterBox() const { return m_parameter; }
    QSpinBox* fromBox() const { return m_from; }
    QSpinBox* toBox() const { return m_to; }
    /// Number of graphs drawn (0 without QCustomPlot).
    int graphCount() const;

    /// Recompute the sweep and redraw.
    void refresh();

    // ---- The same sweep on the GPU ------------------------------------------------------------
    /// One pattern per point of the current sweep, as the GPU should run them.
    std::vector<NamedPattern> sweepPatterns() const;
    /// Show the GPU sweep under way (progress bar and Cancel) or not.
    void setGpuRunning(bool running);
    void setGpuProgress(int done, int total);
    /// The GPU's answers, one per point of sweepPatterns() when it was asked: plotted over the
    /// model (counters on the left axis, warm latency on a second axis) until the sweep changes.
    void setGpuMeasurements(const std::vector<ProbeMeasurement>& measurements);
    void setGpuStopped(const QString& why);
    bool hasGpuMeasurements() const { return !m_gpuX.isEmpty(); }
    /// The Run button of the page shown (the kernel sweep's in kernel mode).
    QPushButton* gpuRunButton() const;
    QPushButton* gpuCancelButton() const { return m_cancelGpu; }
    QProgressBar* gpuProgress() const { return m_progress; }

    // ---- Whole kernels --------------------------------------------------------------------------
    /// The page that sweeps a whole kernel (created on the first call), reading measurements
    /// from `store`.
    KernelSweepView* attachKernelSweep(const KernelMeasurementStore* store);
    KernelSweepView* kernelSweepView() const { return m_kernelView; }
    /// Sweep kernel preset `presetId` (the kernel page is shown), or, for an empty or unknown
    /// id, the current access as before.
    void setKernelPreset(const QString& presetId);
    bool kernelMode() const;

signals:
    void gpuSweepRequested(const std::vector<NamedPattern>& patterns);
    void gpuSweepCancelRequested();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void syncParameters();
    void replot();
    /// Identifies the sweep (pattern without the swept value, parameter, range) the GPU answers
    /// belong to.
    std::string sweepKey() const;

    PatternDocument* m_document;
    QComboBox* m_parameter;
    QSpinBox* m_from;
    QSpinBox* m_to;
    QLabel* m_status;
    QStackedWidget* m_stack = nullptr;
    QWidget* m_patternPage = nullptr;
    KernelSweepView* m_kernelView = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPAxisRect* m_countRect = nullptr;
    QCPAxisRect* m_efficiencyRect = nullptr;
    QTableWidget* m_table = nullptr;
    QPushButton* m_runGpu = nullptr;
    QPushButton* m_cancelGpu = nullptr;
    QProgressBar* m_progress = nullptr;
    QVector<double> m_gpuX;
    QVector<double> m_gpuCount;
    QVector<double> m_gpuLatencyNs;
    std::string m_gpuKey;
    std::string m_requestKey;
    SweepData m_data;
    QStringList m_parameterNames;
    bool m_syncing = false;
    /// Set when the pattern changed while the tab was hidden: refreshed when it is shown.
    bool m_stale = false;
};

} // namespace warpscope::app
