// MetricsTableModel: rows built from the document's evaluation after every change.
#include "panels/metricstablemodel.h"

#include "document/patterndocument.h"
#include "gpu/probemeasurement.h"
#include "views/predictiontext.h"
#include "views/viewpainting.h"

#include "views/theme.h"

#include <QApplication>
#include <QLocale>

#include <QFont>
#include <QPalette>
#include <algorithm>

namespace warpscope::app {

namespace {
const QString kDash = QStringLiteral("—");

QString numberText(double value) {
    return QString::number(value, 'g', 12);
}

/// "1,234.5 GB/s": numbers a person reads at a glance.
QString grouped(double value, int decimals) {
    return QLocale().toString(value, 'f', decimals);
}
} // namespace

void MetricsTableModel::setMeasurementStore(MeasurementStore* store) {
    m_store = store;
    connect(store, &MeasurementStore::changed, this, &MetricsTableModel::rebuild);
    rebuild();
}

int MetricsTableModel::mismatchCount() const {
    return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& row) {
        return row.agreement == Agreement::Differs;
    }));
}

MetricsTableModel::MetricsTableModel(PatternDocument* document, QObject* parent)
    : QAbstractTableModel(parent), m_document(document) {
    connect(m_document, &PatternDocument::evaluationChanged, this, &MetricsTableModel::rebuild);
    connect(m_document, &PatternDocument::modelChanged, this, [this] {
        emit headerDataChanged(Qt::Horizontal, ModernColumn, TextbookColumn);
        emit refreshed();
    });
    rebuild();
}

QString MetricsTableModel::noMeasurementText() {
    return tr("no GPU measurement yet");
}

void MetricsTableModel::rebuild() {
    // The new rows are built aside and compared with the shown ones: a drag changes a few numbers
    // and nothing else, so the views hear of those cells only. A reset would make every view
    // re-measure its columns and repaint every cell on every frame of a drag.
    std::vector<Row> old = std::move(m_rows);
    m_rows.clear();
    const auto& evaluation = m_document->evaluation();
    if (evaluation) {
        const TextbookPrediction& t = evaluation->textbook;
        auto number = [](auto value) { return QString::number(value); };
        if (const auto& g = evaluation->modern.global) {
            // Local and texture accesses: the notes give them no textbook rule.
            const bool textbook = evaluation->access.kind.space == MemorySpace::Global;
            const auto& texture = evaluation->modern.texture;
            const auto tb = [&](const QString& text) { return textbook ? text : kDash; };
            if (texture) {
                m_rows.push_back(
                    {tr("Requests"), number(texture->requests), kDash,
                     tr("Texture requests: one per quad of lanes with an active one")});
                m_rows.push_back({tr("Sectors (32 B)"), number(texture->sectors), kDash,
                                  tr("Texture sectors: each quad's distinct sectors, summed")});
                m_rows.push_back({tr("Sectors as global loads"), number(g->sectors), kDash,
                                  tr("What global loads of the same addresses fetch (drawn)")});
            } else {
                m_rows.push_back({tr("Requests"), number(g->requests), kDash,
                                  tr("Instructions issued to L1TEX for the warp")});
                m_rows.push_back({tr("Sectors (32 B)"), number(g->sectors), kDash,
                                  tr("32-byte sectors the warp's request fetches")});
            }
            m_rows.push_back({tr("Lines (128 B)"), number(g->lines), kDash,
                              tr("128-byte lines those sectors fall in")});
            m_rows.push_back(
                {tr("Transactions"), kDash, tb(number(t.transactions.size())),
                 tr("The textbook model's memory transactions: %1").arg(textbookRuleText(t.rule))});
            m_rows.push_back({tr("Bytes requested"), number(g->bytesRequested),
                              tb(number(t.bytesRequested)), tr("Active lanes × element width")});
            m_rows.push_back({tr("Distinct bytes requested"), number(g->uniqueBytesRequested),
                              tb(number(t.uniqueBytesRequested)),
                              tr("Bytes the warp asked for, each counted once")});
            m_rows.push_back({tr("Bytes moved"), number(g->bytesMoved), tb(number(t.bytesMoved)),
                              tr("Sectors × 32 B (modern); transaction sizes (textbook)")});
            m_rows.push_back({tr("Efficiency"), percentText(g->efficiency),
                              tb(percentText(t.efficiency)),
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
        addMeasuredRows();
    }
    std::vector<Row> fresh = std::move(m_rows);
    m_rows = std::move(old);
    applyRows(std::move(fresh));
    emit refreshed();
}

void MetricsTableModel::applyRows(std::vector<Row> fresh) {
    const auto sameQuantity = [&](std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) {
            if (m_rows[i].quantity != fresh[i].quantity) {
                return false;
            }
        }
        return true;
    };
    const std::size_t common = std::min(m_rows.size(), fresh.size());
    if (!sameQuantity(common)) {
        // Another kind of access (global to shared): other rows altogether.
        beginResetModel();
        m_rows = std::move(fresh);
        endResetModel();
        return;
    }
    // The Measured column's placeholder depends on whether any row has a measurement.
    const bool hadMeasurement = hasMeasurement();
    if (fresh.size() < m_rows.size()) {
        beginRemoveRows({}, static_cast<int>(fresh.size()), static_cast<int>(m_rows.size()) - 1);
        m_rows.resize(fresh.size());
        endRemoveRows();
    }
    std::vector<Row> added(std::make_move_iterator(fresh.begin() + static_cast<long>(common)),
                           std::make_move_iterator(fresh.end()));
    for (std::size_t i = 0; i < common; ++i) {
        Row& shown = m_rows[i];
        Row& next = fresh[i];
        const int row = static_cast<int>(i);
        const bool modernChanged = shown.modern != next.modern;
        const bool textbookChanged = shown.textbook != next.textbook;
        const bool explanationChanged = shown.explanation != next.explanation;
        const bool measuredChanged = shown.measured != next.measured ||
                                     shown.agreement != next.agreement ||
                                     shown.measuredExplanation != next.measuredExplanation;
        shown = std::move(next);
        if (modernChanged) {
            emit dataChanged(index(row, ModernColumn), index(row, ModernColumn));
        }
        if (textbookChanged) {
            emit dataChanged(index(row, TextbookColumn), index(row, TextbookColumn));
        }
        if (explanationChanged) { // tool tips
            emit dataChanged(index(row, QuantityColumn), index(row, TextbookColumn),
                             {Qt::ToolTipRole});
        }
        if (measuredChanged) {
            emit dataChanged(index(row, MeasuredColumn), index(row, MeasuredColumn));
        }
    }
    if (!added.empty()) {
        beginInsertRows({}, static_cast<int>(m_rows.size()),
                        static_cast<int>(m_rows.size() + added.size()) - 1);
        for (Row& row : added) {
            m_rows.push_back(std::move(row));
        }
        endInsertRows();
    }
    if (hadMeasurement != hasMeasurement() && !m_rows.empty()) {
        emit dataChanged(index(0, MeasuredColumn), index(rowCount() - 1, MeasuredColumn));
    }
}

void MetricsTableModel::addMeasuredRows() {
    const auto& evaluation = m_document->evaluation();
    const ProbeMeasurement* m = m_store != nullptr ? m_store->find(evaluation->pattern) : nullptr;
    if (m == nullptr) {
        return;
    }
    const QString where = m->recorded ? tr("recorded on %1").arg(m->provenance())
                                      : tr("measured on %1").arg(m->provenance());
    auto rowNamed = [this](const QString& quantity) -> Row* {
        for (Row& row : m_rows) {
            if (row.quantity == quantity) {
                return &row;
            }
        }
        return nullptr;
    };
    auto compare = [&](Row* row, std::optional<double> measured, double predicted,
                       const QString& shown) {
        if (row == nullptr) {
            return;
        }
        if (!measured) {
            row->measured = m->countersMeasured ? tr("not counted") : tr("no counters");
            row->agreement = Agreement::Info;
            row->measuredExplanation =
                m->countersMeasured
                    ? tr("The probe's answer has no such counter")
                    : tr("Counters were not measured: %1").arg(m->countersUnavailableReason);
            return;
        }
        const bool same = *measured == predicted;
        row->measured = same ? shown + QStringLiteral("  ✓")
                             : shown + QStringLiteral("  ≠ ") + numberText(predicted);
        row->agreement = same ? Agreement::Matches : Agreement::Differs;
        row->measuredExplanation = same
                                       ? tr("The GPU agrees with the modern model (%1)").arg(where)
                                       : tr("The GPU counted %1; the modern model predicts %2 (%3)")
                                             .arg(shown, numberText(predicted), where);
    };
    const ModernPrediction& modern = evaluation->modern;
    const std::vector<CounterComparison> counters = compareWithModel(modern, *m);
    if (const auto& g = modern.global) {
        compare(rowNamed(tr("Requests")), counters[0].measured, counters[0].predicted,
                counters[0].measured ? numberText(*counters[0].measured) : QString());
        compare(rowNamed(tr("Sectors (32 B)")), counters[1].measured, counters[1].predicted,
                counters[1].measured ? numberText(*counters[1].measured) : QString());
        const std::optional<double> moved =
            counters[1].measured ? std::optional<double>(*counters[1].measured * kSectorBytes)
                                 : std::nullopt;
        compare(rowNamed(tr("Bytes moved")), moved, static_cast<double>(g->bytesMoved),
                moved ? numberText(*moved) : QString());
        if (moved && *moved > 0) {
            const double efficiency = static_cast<double>(g->uniqueBytesRequested) / *moved;
            Row* row = rowNamed(tr("Efficiency"));
            compare(row, efficiency * 100, g->efficiency * 100, percentText(efficiency));
            if (row != nullptr && row->agreement == Agreement::Differs) {
                row->measured =
                    percentText(efficiency) + QStringLiteral("  ≠ ") + percentText(g->efficiency);
            }
        }
    } else if (modern.shared) {
        compare(rowNamed(tr("Wavefronts")), counters[0].measured, counters[0].predicted,
                counters[0].measured ? numberText(*counters[0].measured) : QString());
        compare(rowNamed(tr("Bank conflicts")), counters[1].measured, counters[1].predicted,
                counters[1].measured ? numberText(*counters[1].measured) : QString());
    }
    auto infoRow = [&](const QString& quantity, const QString& value, const QString& explanation) {
        Row row{quantity, kDash, kDash, explanation};
        row.measured = value;
        row.agreement = Agreement::Info;
        row.measuredExplanation = explanation + QStringLiteral(" (") + where + QStringLiteral(")");
        m_rows.push_back(std::move(row));
    };
    auto latencyText = [](const std::optional<double>& cycles, const std::optional<double>& ns) {
        QString text = tr("%1 cycles").arg(grouped(*cycles, 0));
        if (ns) {
            text += tr(" = %1 ns").arg(grouped(*ns, 1));
        }
        return text;
    };
    if (m->coldCycles) {
        infoRow(tr("Latency, cold"), latencyText(m->coldCycles, m->coldNs),
                tr("One warp's access to data not in any cache (median of the repetitions)"));
    }
    if (m->warmCycles) {
        infoRow(tr("Latency, warm"), latencyText(m->warmCycles, m->warmNs),
                tr("The same access repeated, its data now cached (median)"));
    }
    if (m->gridEffectiveBandwidthGBs) {
        QString text = tr("%1 GB/s").arg(grouped(*m->gridEffectiveBandwidthGBs, 1));
        if (const auto share = m->bandwidthSharePercent()) {
            text += tr(" = %1 % of peak").arg(grouped(*share, 1));
        }
        infoRow(tr("Effective bandwidth"), text,
                tr("Bytes the grid's threads requested per second of kernel time; the peak is the "
                   "GPU's measured device-to-device copy (%1 GB/s)")
                    .arg(grouped(m->peakBandwidthGBs, 0)));
    }
    if (m->gridKernelMs) {
        infoRow(tr("Grid kernel time"), tr("%1 ms").arg(grouped(*m->gridKernelMs, 3)),
                tr("The pattern's expression over its whole grid, by CUDA events (median)"));
    }
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
    if (role == Qt::ToolTipRole && index.column() != MeasuredColumn) {
        return row.explanation;
    }
    if (index.column() == MeasuredColumn) {
        if (role == Qt::ToolTipRole && !row.measuredExplanation.isEmpty()) {
            return row.measuredExplanation;
        }
        if (row.agreement == Agreement::None) {
            if (role == Qt::ForegroundRole) {
                return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
            }
            if (role == Qt::FontRole) {
                QFont font;
                font.setItalic(true);
                return font;
            }
        } else if (row.agreement == Agreement::Differs) {
            if (role == Qt::ForegroundRole) {
                return ViewColors::fromPalette(QApplication::palette()).warning;
            }
            if (role == Qt::FontRole) {
                QFont font;
                font.setBold(true);
                return font;
            }
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
        if (row.agreement != Agreement::None) {
            return row.measured;
        }
        return hasMeasurement() ? kDash : noMeasurementText();
    default:
        return {};
    }
}

bool MetricsTableModel::hasMeasurement() const {
    return std::any_of(m_rows.begin(), m_rows.end(),
                       [](const Row& row) { return row.agreement != Agreement::None; });
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
