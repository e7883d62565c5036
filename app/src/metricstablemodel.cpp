// MetricsTableModel: rows built from the document's evaluation after every change.
#include "metricstablemodel.h"

#include "patterndocument.h"
#include "predictiontext.h"
#include "viewpainting.h"

#include <QApplication>
#include <QFont>
#include <QPalette>

namespace warpscope::app {

namespace {
const QString kDash = QStringLiteral("—");
}

MetricsTableModel::MetricsTableModel(PatternDocument* document, QObject* parent)
    : QAbstractTableModel(parent), m_document(document) {
    connect(m_document, &PatternDocument::evaluationChanged, this, &MetricsTableModel::rebuild);
    connect(m_document, &PatternDocument::modelChanged, this,
            [this] { emit headerDataChanged(Qt::Horizontal, ModernColumn, TextbookColumn); });
    rebuild();
}

QString MetricsTableModel::noMeasurementText() {
    return tr("no GPU measurement yet");
}

void MetricsTableModel::rebuild() {
    beginResetModel();
    m_rows.clear();
    const auto& evaluation = m_document->evaluation();
    if (evaluation) {
        const TextbookPrediction& t = evaluation->textbook;
        auto number = [](auto value) { return QString::number(value); };
        if (const auto& g = evaluation->modern.global) {
            m_rows.push_back({tr("Requests"), number(g->requests), kDash,
                              tr("Instructions issued to L1TEX for the warp")});
            m_rows.push_back({tr("Sectors (32 B)"), number(g->sectors), kDash,
                              tr("32-byte sectors the warp's request fetches")});
            m_rows.push_back({tr("Lines (128 B)"), number(g->lines), kDash,
                              tr("128-byte lines those sectors fall in")});
            m_rows.push_back(
                {tr("Transactions"), kDash, number(t.transactions.size()),
                 tr("The textbook model's memory transactions: %1").arg(textbookRuleText(t.rule))});
            m_rows.push_back({tr("Bytes requested"), number(g->bytesRequested),
                              number(t.bytesRequested), tr("Active lanes × element width")});
            m_rows.push_back({tr("Distinct bytes requested"), number(g->uniqueBytesRequested),
                              number(t.uniqueBytesRequested),
                              tr("Bytes the warp asked for, each counted once")});
            m_rows.push_back({tr("Bytes moved"), number(g->bytesMoved), number(t.bytesMoved),
                              tr("Sectors × 32 B (modern); transaction sizes (textbook)")});
            m_rows.push_back({tr("Efficiency"), percentText(g->efficiency),
                              percentText(t.efficiency),
                              tr("Distinct bytes requested / bytes moved")});
        } else if (const auto& s = evaluation->modern.shared) {
            m_rows.push_back({tr("Wavefronts"), number(s->wavefronts),
                              number(t.transactions.size()),
                              tr("Passes of the shared-memory data pipe (textbook: bank passes)")});
            m_rows.push_back({tr("Ideal wavefronts"), number(s->idealWavefronts), kDash,
                              tr("Wavefronts with no bank conflict at all")});
            m_rows.push_back({tr("Bank conflicts"), number(s->bankConflicts), kDash,
                              tr("As l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_* counts")});
            m_rows.push_back({tr("Conflict degree (n-way)"), number(s->worstBankDegree),
                              number(t.bankConflictDegree),
                              tr("Most distinct words one bank must serve in one phase")});
            m_rows.push_back(
                {tr("Phases"), number(s->phases.size()), kDash,
                 tr("8- and 16-byte accesses are split into half- and quarter-warps")});
            m_rows.push_back({tr("Bank width"), tr("4 B"), tr("%1 B").arg(t.bankWidthBytes),
                              tr("Bytes per bank per cycle")});
            m_rows.push_back({tr("Bytes requested"), number(t.bytesRequested),
                              number(t.bytesRequested), tr("Active lanes × element width")});
        }
    }
    endResetModel();
}

int MetricsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MetricsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MetricsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    const bool modernFirst = m_document->model() == ModelChoice::Modern;
    if (role == Qt::FontRole &&
        ((section == ModernColumn && modernFirst) || (section == TextbookColumn && !modernFirst))) {
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ModernColumn:
            return tr("Compute capability 7.0 and later, as Nsight Compute counts");
        case TextbookColumn:
            return tr("The Fermi/Kepler rules of the course notes");
        case MeasuredColumn:
            return tr("Counters measured on a GPU by warpscope-probe");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case QuantityColumn:
        return tr("Quantity");
    case ModernColumn:
        return modernFirst ? tr("★ Modern") : tr("Modern");
    case TextbookColumn:
        return modernFirst ? tr("Textbook") : tr("★ Textbook");
    case MeasuredColumn:
        return tr("Measured");
    default:
        return {};
    }
}

QVariant MetricsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::ToolTipRole) {
        return row.explanation;
    }
    if (index.column() == MeasuredColumn) {
        if (role == Qt::ForegroundRole) {
            return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
        }
        if (role == Qt::FontRole) {
            QFont font;
            font.setItalic(true);
            return font;
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != QuantityColumn) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case QuantityColumn:
        return row.quantity;
    case ModernColumn:
        return row.modern;
    case TextbookColumn:
        return row.textbook;
    case MeasuredColumn:
        return noMeasurementText();
    default:
        return {};
    }
}

QString MetricsTableModel::text(const QString& quantity, Column column) const {
    for (int r = 0; r < rowCount(); ++r) {
        if (m_rows[static_cast<std::size_t>(r)].quantity == quantity) {
            return data(this->index(r, column), Qt::DisplayRole).toString();
        }
    }
    return {};
}

} // namespace warpscope::app
