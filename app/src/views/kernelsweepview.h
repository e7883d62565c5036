// KernelSweepView: the sweep tab for a whole kernel (a kernel preset, or the kernel of a notes
// experiment). Pick what to sweep (the block shape or one parameter) and its values; the grid
// model's sectors over the whole grid (and shared wavefronts) are drawn on the left axis, the
// GPU's measured effective bandwidth as bars on the right axis, and its measured sectors as
// crosses beside the model's. The model is computed off the GUI thread; the measurements are
// read from the KernelMeasurementStore, so what the notes tab or an earlier session measured at
// the same points shows too. Without a GPU the model's axis stands alone, and the status says so.
#pragma once

#include "document/kernelsweepdata.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QThreadPool;
class QCustomPlot;

namespace warpscope::app {

class KernelMeasurementStore;
struct KernelMeasurement;

/// The session setting naming the kernel preset whose whole kernel the sweep tab sweeps.
inline constexpr const char* kSweepKernelPresetSetting = "sweep.kernelPreset";

class KernelSweepView : public QWidget {
    Q_OBJECT
public:
    explicit KernelSweepView(const KernelMeasurementStore* store, QWidget* parent = nullptr);
    ~KernelSweepView() override;

    /// Sweep kernel preset `presetId`; false (and no kernel) for an unknown id. The axis and
    /// values start from the preset's own sweeps unless `keepSetup` and the preset is the same.
    bool setKernelPreset(const QString& presetId);
    QString presetId() const { return m_presetId; }
    bool hasKernel() const { return !m_presetId.isEmpty(); }
    /// The kernel swept: the preset's, with the document's parameter values applied by name.
    const Kernel& kernel() const { return m_kernel; }
    /// Apply the current pattern's parameter values (the single-warp views' sliders) to the
    /// kernel; the model is recomputed when that changes it.
    void setParameterValues(const std::vector<Parameter>& parameters);

    /// Choose the axis and its values text (also how a session's sweep is restored).
    void setSweep(const KernelSweepAxis& axis, const QString& values);
    KernelSweepAxis axis() const;
    QString valuesText() const;
    /// The points of the current values, or nothing when they cannot be read (the status says
    /// why).
    const std::optional<KernelSweepPlan>& plan() const { return m_plan; }
    /// The model at the plan's points (may trail the plan while it is computed).
    const KernelSweepData& data() const { return m_data; }
    bool isModelBusy() const { return m_modelJob != m_modelDone; }
    /// Compute the model now if it waits for the tab to be shown.
    void ensureModel();
    /// Compute the model of the current plan on the calling thread and draw it (a headless
    /// export draws at once, as the grid view's export does); false without a valid plan.
    bool computeModelNow();

    /// The measurement of each point of the plan, if the store holds one.
    std::vector<const KernelMeasurement*> measurements() const;
    int measuredPointCount() const;
    /// Bars and crosses drawn (0 without QCustomPlot).
    int bandwidthBarCount() const { return m_bandwidthBars; }
    int modelPointCount() const { return m_modelPoints; }

    void setRunning(bool running);
    void setProgress(int done, int total);
    /// A line on the GPU: what measured, or that there is none.
    void setGpuStatus(const QString& text);

    QComboBox* axisBox() const { return m_axis; }
    QLineEdit* valuesEdit() const { return m_values; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* gpuStatusLabel() const { return m_gpuStatus; }

signals:
    /// Run pressed with a valid plan: measure kernel() at plan()'s points.
    void runRequested();
    void cancelRequested();
    /// The model for the current plan is ready (and drawn).
    void modelComputed();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void fillAxes();
    void replan();
    void startModel();
    void onModel(int job, const KernelSweepData& data);
    void replot();

    const KernelMeasurementStore* m_store;
    QString m_presetId;
    Kernel m_presetKernel;
    Kernel m_kernel;
    std::vector<KernelSweepAxis> m_axes;
    std::optional<KernelSweepPlan> m_plan;
    KernelSweepData m_data;

    QLabel* m_title;
    QComboBox* m_axis;
    QLineEdit* m_values;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_gpuStatus;
    QCustomPlot* m_plot = nullptr;
    QTableWidget* m_table = nullptr;
    int m_bandwidthBars = 0;
    int m_modelPoints = 0;

    QThreadPool* m_pool;
    std::shared_ptr<std::atomic<bool>> m_cancelModel;
    int m_modelJob = 0;
    int m_modelDone = 0;
    bool m_syncing = false;
    bool m_stale = false;
};

} // namespace warpscope::app
