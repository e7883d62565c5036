// KernelMetricsSection: the metrics dock's kernel section. For one whole-kernel measurement (a
// row of the notes tab), per access and in total, the grid model's prediction beside the
// measurement for every kernel-level counter (✓ where equal, the difference where not), DRAM
// bytes against the footprint, L2 sectors, the L1 hit rate, time, effective bandwidth and its
// share of the measured copy and theoretical bandwidth. Without a measurement of the open kernel:
// the grid model's whole-grid totals for it (setPrediction), any kernel, with or without
// parameters.
#pragma once

#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;

namespace warpscope::app {

struct KernelMeasurement;
struct KernelPredictionResult;

class KernelMetricsSection : public QWidget {
    Q_OBJECT
public:
    explicit KernelMetricsSection(QWidget* parent = nullptr);

    /// Show `measurement` of the kernel titled `title`; null: say that none is selected.
    void setMeasurement(const QString& title, const KernelMeasurement* measurement);
    /// The same kernel measured on several GPUs: the prediction beside one column per GPU, each
    /// named by its GPU (KernelMeasurement::gpuLabel()). One or none: setMeasurement().
    void setMeasurements(const QString& title,
                         const std::vector<const KernelMeasurement*>& measurements);
    /// The grid model's whole-grid totals of `result`'s kernel, titled `title`, with no measured
    /// values; its problem instead when the model refused it; "computing" while `busy` and none.
    void setPrediction(const QString& title, const KernelPredictionResult* result, bool busy);
    QTableWidget* table() const { return m_table; }
    QLabel* titleLabel() const { return m_title; }

    /// "✓" when equal, else the signed difference and its percentage ("+32 (+0.1 %)").
    static QString agreement(double predicted, double measured);

private:
    QLabel* m_title;
    QTableWidget* m_table;
};

} // namespace warpscope::app
