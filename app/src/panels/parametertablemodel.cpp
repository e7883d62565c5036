// ParameterTableModel: declarations in, undoable document edits out.
#include "panels/parametertablemodel.h"

#include "document/patterndocument.h"

#include <warpscope/expression.h>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace warpscope::app {

namespace {

// A new declaration's range: wide enough for the offsets and strides the notes sweep.
constexpr std::int64_t kNewMaximum = 32;

bool sameDeclarations(const Parameter& a, const Parameter& b) {
    return a.name == b.name && a.defaultValue == b.defaultValue && a.minimum == b.minimum &&
           a.maximum == b.maximum;
}

} // namespace

QString parameterDeclarationProblem(const std::vector<Parameter>& parameters) {
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const Parameter& p = parameters[i];
        const QString name = QString::fromStdString(p.name);
        // The core decides what a name may be (a C identifier, not a built-in, no dot).
        if (!isValidParameterName(p.name)) {
            return p.name.empty()
                       ? QObject::tr("a parameter needs a name")
                       : QObject::tr("'%1' cannot be a parameter name: use a C identifier that "
                                     "is not a built-in name (lane, gid, tid, min, ...)")
                             .arg(name);
        }
        for (std::size_t j = 0; j < i; ++j) {
            if (parameters[j].name == p.name) {
                return QObject::tr("parameter '%1' is declared twice").arg(name);
            }
        }
        // The same rules the session format applies to a declared parameter.
        if (p.minimum > p.maximum) {
            return QObject::tr("%1: min (%2) must not be above max (%3)")
                .arg(name)
                .arg(p.minimum)
                .arg(p.maximum);
        }
        const std::pair<QString, std::int64_t> inRange[] = {
            {QObject::tr("the default"), p.defaultValue}, {QObject::tr("the value"), p.value}};
        for (const auto& [what, value] : inRange) {
            if (value < p.minimum || value > p.maximum) {
                return QObject::tr("%1: %2 must be between min and max (%3 to %4); found %5")
                    .arg(name, what)
                    .arg(p.minimum)
                    .arg(p.maximum)
                    .arg(value);
            }
        }
    }
    return {};
}

ParameterTableModel::ParameterTableModel(PatternDocument* document, QObject* parent)
    : QAbstractTableModel(parent), m_document(document) {
    connect(m_document, &PatternDocument::patternChanged, this,
            &ParameterTableModel::syncFromDocument);
    syncFromDocument();
}

bool ParameterTableModel::isEditable() const {
    return m_document->pattern().source.has_value();
}

void ParameterTableModel::syncFromDocument() {
    const auto& source = m_document->pattern().source;
    std::vector<Parameter> rows = source ? source->parameters : std::vector<Parameter>{};
    if (rows.size() != m_rows.size()) {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
        return;
    }
    // Same count: tell the view which rows changed (a slider drag changes none of these).
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const bool changed = !sameDeclarations(rows[i], m_rows[i]);
        m_rows[i] = rows[i];
        if (changed) {
            const int row = static_cast<int>(i);
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
    }
}

int ParameterTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ParameterTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ParameterTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const Parameter& p = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        // Numbers as text: the default editor is then a line edit that takes any 64-bit value
        // (a spin box stops at the int range); setData() parses and checks it.
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(p.name);
        case DefaultColumn:
            return QString::number(p.defaultValue);
        case MinimumColumn:
            return QString::number(p.minimum);
        case MaximumColumn:
            return QString::number(p.maximum);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case NameColumn:
            return tr("The name the expressions use (renaming does not rewrite them)");
        case DefaultColumn:
            return tr("The value a new session or a reset starts from");
        default:
            return tr("The slider's range; the value and the default are kept inside it");
        }
    }
    return {};
}

QVariant ParameterTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) {
        return {};
    }
    switch (section) {
    case NameColumn:
        return tr("Name");
    case DefaultColumn:
        return tr("Default");
    case MinimumColumn:
        return tr("Min");
    case MaximumColumn:
        return tr("Max");
    default:
        return {};
    }
}

Qt::ItemFlags ParameterTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

bool ParameterTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid() || index.row() >= rowCount() || !isEditable()) {
        return false;
    }
    std::vector<Parameter> parameters = m_document->pattern().source->parameters;
    if (index.row() >= static_cast<int>(parameters.size())) {
        return false;
    }
    Parameter& p = parameters[static_cast<std::size_t>(index.row())];
    const QString oldName = QString::fromStdString(p.name);
    if (index.column() == NameColumn) {
        const QString name = value.toString().trimmed();
        if (name == oldName) {
            return true;
        }
        p.name = name.toStdString();
        return apply(std::move(parameters), tr("Rename parameter %1 to %2").arg(oldName, name));
    }
    bool isNumber = false;
    const qlonglong number = value.toString().trimmed().toLongLong(&isNumber);
    if (!isNumber) {
        refuse(tr("%1: '%2' is not a whole number").arg(oldName, value.toString()));
        return false;
    }
    switch (index.column()) {
    case DefaultColumn:
        p.defaultValue = number;
        return apply(std::move(parameters),
                     tr("Set the default of %1 to %2").arg(oldName).arg(number));
    case MinimumColumn:
    case MaximumColumn: {
        (index.column() == MinimumColumn ? p.minimum : p.maximum) = number;
        if (p.minimum <= p.maximum) {
            // Narrowing the range moves the value and the default inside it rather than
            // refusing: otherwise no order of edits could move a range past its default.
            p.value = std::clamp(p.value, p.minimum, p.maximum);
            p.defaultValue = std::clamp(p.defaultValue, p.minimum, p.maximum);
        }
        return apply(
            std::move(parameters),
            tr("Set the range of %1 to %2 … %3").arg(oldName).arg(p.minimum).arg(p.maximum));
    }
    default:
        return false;
    }
}

int ParameterTableModel::addParameter() {
    if (!isEditable()) {
        refuse(tr("An explicit list of addresses has no parameters; undo to return to the "
                  "expression."));
        return -1;
    }
    std::vector<Parameter> parameters = m_document->pattern().source->parameters;
    auto taken = [&](const std::string& name) {
        return std::any_of(parameters.begin(), parameters.end(),
                           [&](const Parameter& p) { return p.name == name; });
    };
    std::string name = "p";
    for (int n = 1; taken(name) || !isValidParameterName(name); ++n) {
        name = "p" + std::to_string(n);
    }
    Parameter p;
    p.name = name;
    p.minimum = 0;
    p.maximum = kNewMaximum;
    parameters.push_back(p);
    const int row = static_cast<int>(parameters.size()) - 1;
    return apply(std::move(parameters),
                 tr("Declare parameter %1").arg(QString::fromStdString(name)))
               ? row
               : -1;
}

bool ParameterTableModel::removeParameter(int row) {
    if (!isEditable() || row < 0 || row >= rowCount()) {
        return false;
    }
    std::vector<Parameter> parameters = m_document->pattern().source->parameters;
    if (row >= static_cast<int>(parameters.size())) {
        return false;
    }
    const QString name = QString::fromStdString(parameters[static_cast<std::size_t>(row)].name);
    parameters.erase(parameters.begin() + row);
    return apply(std::move(parameters), tr("Remove parameter %1").arg(name));
}

void ParameterTableModel::refuse(const QString& message) {
    if (message != m_lastRefusal) {
        m_lastRefusal = message;
        emit refusalChanged(message);
    }
}

bool ParameterTableModel::apply(std::vector<Parameter> parameters, const QString& description) {
    if (const QString problem = parameterDeclarationProblem(parameters); !problem.isEmpty()) {
        refuse(problem);
        return false;
    }
    if (!isEditable()) {
        return false;
    }
    refuse(QString());
    PatternSource source = *m_document->pattern().source;
    source.parameters = std::move(parameters);
    Pattern pattern = m_document->pattern();
    pattern.source = std::move(source);
    m_document->editPattern(pattern, description);
    return true;
}

} // namespace warpscope::app
