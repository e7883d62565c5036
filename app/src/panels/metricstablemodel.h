// MetricsTableModel: the numbers of both models side by side (requests, sectors, lines, bytes,
// efficiency for global memory; wavefronts and bank conflicts for shared memory), with a Measured
// column: the GPU's counters beside them, a difference from the modern model flagged, and the
// measured latency and bandwidth as rows of their own; it says so plainly while no GPU
// measurement of this pattern exists. Constant loads get their own rows (LDC requests, rounds,
// constant-cache requests, requests beyond a broadcast), async copies their shared side too. The
// probe measures constant, local, texture and async-copy accesses only as whole kernels: for
// those, a kernel measurement of the kernel preset at the current point (KernelMeasurementStore)
// adds "Kernel:" rows, the grid model's totals beside the GPU's counters.
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QVariant>

#include <warpscope/pattern.h>

#include <vector>

namespace warpscope::app {

class KernelMeasurementStore;
struct KernelMeasurement;
class MeasurementStore;
class PatternDocument;

class MetricsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { QuantityColumn, ModernColumn, TextbookColumn, MeasuredColumn, ColumnCount };

    explicit MetricsTableModel(PatternDocument* document, QObject* parent = nullptr);

    /// Show the measurements of `store` (the current pattern's) in the Measured column.
    void setMeasurementStore(MeasurementStore* store);
    /// Show the whole-kernel measurements of `store` for accesses the probe measures only as
    /// kernels (measuredAsKernel()).
    void setKernelMeasurementStore(KernelMeasurementStore* store);
    /// The whole-kernel measurement shown: the current kernel preset's at the current parameters,
    /// of a kernel with the same accesses, when the current access is measured as a kernel; null
    /// otherwise.
    const KernelMeasurement* kernelMeasurement() const;
    /// Constant, local and texture accesses and async copies: the probe measures them as whole
    /// kernels (measure_kernel), never as one replayed warp (measuredPerKernelOnly()).
    static bool measuredAsKernel(const AccessKind& kind);
    /// The current pattern has a measurement (live or recorded).
    bool hasMeasurement() const;
    /// Rows whose measured value differs from the modern model's.
    int mismatchCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// The displayed text of `column` in the row named `quantity` ("" if there is no such row).
    QString text(const QString& quantity, Column column) const;

    static QString noMeasurementText();

signals:
    /// The rows now show the document's evaluation (after every change, once, whether or not a
    /// cell changed): the moment to fit the columns to their texts.
    void refreshed();

private:
    enum class Agreement { None, Matches, Differs, Info };
    struct Row {
        QString quantity;
        QString modern;
        QString textbook;
        QString explanation;
        QString measured = {};
        Agreement agreement = Agreement::None;
        QString measuredExplanation = {};
    };
    void addMeasuredRows();
    void addKernelRows();
    void rebuild();
    /// Show `fresh` in place of m_rows, signalling only the cells that differ.
    void applyRows(std::vector<Row> fresh);

    PatternDocument* m_document;
    MeasurementStore* m_store = nullptr;
    KernelMeasurementStore* m_kernelStore = nullptr;
    std::vector<Row> m_rows;
};

} // namespace warpscope::app
