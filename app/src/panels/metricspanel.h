// MetricsPanel, the contents of the "Metrics" dock: the side-by-side summary of both models and
// the full list of predicted metrics under Nsight Compute's names (so a user can check warpscope
// against ncu directly), each with its measured value or the lack of one. Above them, the GPU the
// probe found and where the shown measurement comes from (live, or recorded in the session; for
// accesses measured as whole kernels, the kernel measurement at the current point). Below them,
// the whole kernel: a measurement of the open kernel when there is one, else the grid model's
// whole-grid totals for it (any kernel, and a plain pattern's one-access kernel).
#pragma once

#include "gpu/kernelmeasurement.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QTableView;
class QTableWidget;

namespace warpscope::app {

struct KernelMeasurement;
class KernelMeasurementStore;
class KernelMetricsSection;
class MeasurementStore;
class MetricsTableModel;
class PatternDocument;

class MetricsPanel : public QWidget {
    Q_OBJECT
public:
    explicit MetricsPanel(PatternDocument* document, QWidget* parent = nullptr);

    MetricsTableModel* summaryModel() const { return m_model; }
    /// Show the current pattern's GPU measurement beside the predictions.
    void setMeasurementStore(MeasurementStore* store);
    /// Show the whole-kernel measurements of the kernel preset at the current point for accesses
    /// the probe measures only as kernels (constant, local, texture, async copies).
    void setKernelMeasurementStore(KernelMeasurementStore* store);
    /// Where the shown measurement comes from, or why there is none; and the GPU in use.
    QLabel* measurementLabel() const { return m_measurement; }
    void setGpuText(const QString& text);
    QTableWidget* metricList() const { return m_list; }
    QTableView* summaryTable() const { return m_summary; }
    /// The width at which every column of both tables shows its longest text whole (the dock
    /// is sized from it on a first start): the widest table's columns, frame and scroll bar.
    int preferredWidth() const;
    /// The whole-kernel section (KernelMetricsSection), below the per-warp tables.
    KernelMetricsSection* kernelSection() const { return m_kernel; }
    /// The measurements of kernel preset `presetId` at `point` (a row of the notes tab, on every
    /// GPU it was measured on), shown in the kernel section only while the open entry is one of
    /// `owners` (preset ids: the kernel or the experiment they measure); for any other entry the
    /// section shows that entry's own kernel. An empty `presetId` forgets the choice.
    void showKernelMeasurements(const QStringList& owners, const QString& title,
                                const QString& presetId, const KernelPoint& point);

private:
    void fitSummaryColumns();
    void refreshList();
    void refreshMeasurement();
    /// The kernel section shows the table's whole-kernel measurement while there is one.
    void followKernelMeasurement();
    /// The grid model's totals of the open kernel, when the section shows no measurement.
    void showKernelPrediction();

    PatternDocument* m_document;
    MetricsTableModel* m_model;
    MeasurementStore* m_store = nullptr;
    QLabel* m_stale;
    QLabel* m_measurement;
    QString m_gpuText;
    QTableView* m_summary;
    QTableWidget* m_list;
    KernelMetricsSection* m_kernel;
    /// The measurement the kernel section shows because the table shows it (null: the notes
    /// tab's choice, or none).
    const KernelMeasurement* m_kernelFollowed = nullptr;
    enum class KernelShown { Nothing, Followed, Chosen, Prediction };
    KernelShown m_kernelShown = KernelShown::Nothing;
    // The notes tab's choice, looked up in the store each time it is shown (the store's
    // records change under it).
    KernelMeasurementStore* m_kernelStore = nullptr;
    QStringList m_chosenOwners;
    QString m_chosenTitle;
    QString m_chosenPresetId;
    KernelPoint m_chosenPoint;
};

} // namespace warpscope::app
