// MetricsTableModel: the numbers of both models side by side (requests, sectors, lines, bytes,
// efficiency for global memory; wavefronts and bank conflicts for shared memory), with a Measured
// column: the GPU's counters beside them, a difference from the modern model flagged, and the
// measured latency and bandwidth as rows of their own; it says so plainly while no GPU
// measurement of this pattern exists.
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QVariant>

#include <vector>

namespace warpscope::app {

class MeasurementStore;
class PatternDocument;

class MetricsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { QuantityColumn, ModernColumn, TextbookColumn, MeasuredColumn, ColumnCount };

    explicit MetricsTableModel(PatternDocument* document, QObject* parent = nullptr);

    /// Show the measurements of `store` (the current pattern's) in the Measured column.
    void setMeasurementStore(MeasurementStore* store);
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
    void rebuild();

    PatternDocument* m_document;
    MeasurementStore* m_store = nullptr;
    std::vector<Row> m_rows;
};

} // namespace warpscope::app
