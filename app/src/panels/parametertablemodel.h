// ParameterTableModel: the current pattern's parameter declarations (name, default, minimum,
// maximum) as an editable table. Every accepted change, addition or removal is one undoable
// document edit, after which the parameter panel regenerates its sliders. A change that would
// make a declaration invalid (a name the core refuses, a name declared twice, a default outside
// its range, a minimum above the maximum) is refused with a message, and nothing changes.
#pragma once

#include <warpscope/pattern.h>

#include <QAbstractTableModel>

#include <vector>

namespace warpscope::app {

class PatternDocument;

class ParameterTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, DefaultColumn, MinimumColumn, MaximumColumn, ColumnCount };

    explicit ParameterTableModel(PatternDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    /// Whether the pattern has declarations at all (explicit address lists have none).
    bool isEditable() const;
    /// Declare a new parameter (a fresh name, default 0, range 0 … 32). Returns its row, or -1.
    int addParameter();
    /// Remove the declaration in `row`. Expressions that still use it then show UnknownName.
    bool removeParameter(int row);

    /// Why the last change was refused ("" after an accepted one).
    QString lastRefusal() const { return m_lastRefusal; }

signals:
    /// A change was refused (message for a person) or accepted (empty message).
    void refusalChanged(const QString& message);

private:
    void syncFromDocument();
    void refuse(const QString& message);
    /// Apply `parameters` as the pattern's declarations (one undo step), or refuse with the
    /// message of the first invalid declaration.
    bool apply(std::vector<Parameter> parameters, const QString& description);

    PatternDocument* m_document;
    std::vector<Parameter> m_rows; // what the table shows (the document's declarations)
    QString m_lastRefusal;
};

/// Why `parameters` cannot be declared together (the core's rule for names, no duplicates,
/// minimum ≤ default ≤ maximum and minimum ≤ value ≤ maximum), or "" when they can.
QString parameterDeclarationProblem(const std::vector<Parameter>& parameters);

} // namespace warpscope::app
