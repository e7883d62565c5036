// MetricsTableModel: the numbers of both models side by side (requests, sectors, lines, bytes,
// efficiency for global memory; wavefronts and bank conflicts for shared memory), with a Measured
// column that says so plainly while no GPU measurement exists.
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QVariant>

#include <vector>

namespace warpscope::app {

class PatternDocument;

class MetricsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { QuantityColumn, ModernColumn, TextbookColumn, MeasuredColumn, ColumnCount };

    explicit MetricsTableModel(PatternDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// The displayed text of `column` in the row named `quantity` ("" if there is no such row).
    QString text(const QString& quantity, Column column) const;

    static QString noMeasurementText();

private:
    struct Row {
        QString quantity;
        QString modern;
        QString textbook;
        QString explanation;
    };
    void rebuild();

    PatternDocument* m_document;
    std::vector<Row> m_rows;
};

} // namespace warpscope::app
