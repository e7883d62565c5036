// MetricsTableModel: rows built from the document's evaluation after every change.
#include "panels/metricstablemodel.h"

#include "document/patterndocument.h"
#include "gpu/kernelmeasurement.h"
#include "gpu/probemeasurement.h"
#include "panels/presetpicker.h"
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

void MetricsTableModel::setKernelMeasurementStore(KernelMeasurementStore* store) {
    m_kernelStore = store;
    connect(store, &KernelMeasurementStore::changed, this, &MetricsTableModel::rebuild);
    rebuild();
}

bool MetricsTableModel::measuredAsKernel(const AccessKind& kind) {
    return measuredPerKernelOnly(kind); // the probe's rule, in one place (gpu/probemeasurement)
}

const KernelMeasurement* MetricsTableModel::kernelMeasurement() const {
    const auto& evaluation = m_document->evaluation();
    const auto& kernel = m_document->kernel();
    const QString prefix = QLatin1String(kKernelPresetPrefix);
    const QString presetId = m_document->presetId();
    if (m_kernelStore == nullptr || !evaluation || !kernel ||
        !measuredAsKernel(evaluation->access.kind) || !presetId.startsWith(prefix)) {
        return nullptr;
    }
    KernelPoint point;
    for (const Parameter& parameter : kernel->parameters) {
        point[parameter.name] = parameter.value;
    }
    const KernelMeasurement* m = m_kernelStore->find(presetId.mid(prefix.size()), point);
    if (m == nullptr || m->accesses.empty()) {
        return m; // a timed point alone names no accesses
    }
    // The preset's kernel as measured: an edited kernel (another access, space or width) at the
    // same point is not what was measured.
    if (m->accesses.size() != kernel->accesses.size()) {
        return nullptr;
    }
    for (std::size_t i = 0; i < m->accesses.size(); ++i) {
        const KernelAccessMeasurement& measured = m->accesses[i];
        const KernelAccess& access = kernel->accesses[i];
        if (measured.label != access.label || measured.space != toString(access.kind.space) ||
            measured.op != toString(access.kind.op) || measured.width != access.kind.widthBytes) {
            return nullptr;
        }
    }
    return m;
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
            // A texture read's lines, bytes moved and efficiency are its global-load
            // equivalent's (the texture model counts requests and sectors only): said so, so that
            // they are not read as the texture's own beside its sectors.
            const QString asGlobal = texture ? tr(" as global loads") : QString();
            m_rows.push_back({tr("Lines (128 B)") + asGlobal, number(g->lines), kDash,
                              tr("128-byte lines those sectors fall in")});
            if (textbook) { // a row of dashes alone says nothing for local and texture
                m_rows.push_back({tr("Transactions"), kDash, number(t.transactions.size()),
                                  tr("The textbook model's memory transactions: %1")
                                      .arg(textbookRuleText(t.rule))});
            }
            m_rows.push_back({tr("Bytes requested"), number(g->bytesRequested),
                              tb(number(t.bytesRequested)), tr("Active lanes × element width")});
            m_rows.push_back({tr("Distinct bytes requested"), number(g->uniqueBytesRequested),
                              tb(number(t.uniqueBytesRequested)),
                              tr("Bytes the warp asked for, each counted once")});
            m_rows.push_back({tr("Bytes moved") + asGlobal, number(g->bytesMoved),
                              tb(number(t.bytesMoved)),
                              tr("Sectors × 32 B (modern); transaction sizes (textbook)")});
            m_rows.push_back({tr("Efficiency") + asGlobal, percentText(g->efficiency),
                              tb(percentText(t.efficiency)),
                              tr("Distinct bytes requested / bytes moved")});
            if (const auto& s = evaluation->modern.shared;
                s && evaluation->access.kind.op == AccessOp::CopyAsync) {
                // An async copy's shared side: the LDGSTS wavefronts the bank view draws.
                m_rows.push_back({tr("Shared wavefronts"), number(s->wavefronts), kDash,
                                  tr("The copy's shared side: LDGSTS wavefronts "
                                     "(smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_"
                                     "ldgsts.sum)")});
                m_rows.push_back({tr("Ideal wavefronts"), number(s->idealWavefronts), kDash,
                                  tr("Wavefronts of the shared side with no bank conflict")});
                m_rows.push_back({tr("Bank conflicts"), number(s->bankConflicts), kDash,
                                  tr("The shared side's wavefronts beyond the ideal "
                                     "(smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_"
                                     "op_ldgsts.sum)")});
            }
        } else if (const auto& s = evaluation->modern.shared) {
            // ldmatrix and stmatrix are not in the notes' era: no textbook counts (core says why).
            const bool inNotes = t.notInNotes.empty();
            const auto tb = [&](const QString& text) { return inNotes ? text : kDash; };
            m_rows.push_back({tr("Wavefronts"), number(s->wavefronts),
                              tb(number(t.transactions.size())),
                              tr("Passes of the shared-memory data pipe (textbook: bank passes)")});
            m_rows.push_back({tr("Ideal wavefronts"), number(s->idealWavefronts), kDash,
                              tr("Wavefronts with no bank conflict at all")});
            m_rows.push_back({tr("Bank conflicts"), number(s->bankConflicts), kDash,
                              tr("As l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_* counts")});
            m_rows.push_back({tr("Conflict degree (n-way)"), number(s->worstBankDegree),
                              tb(number(t.bankConflictDegree)),
                              tr("Most distinct words one bank must serve in one phase")});
            m_rows.push_back(
                {tr("Phases"), number(s->phases.size()), kDash,
                 tr("8- and 16-byte accesses are split into half- and quarter-warps")});
            m_rows.push_back({tr("Bank width"), tr("4 B"), tb(tr("%1 B").arg(t.bankWidthBytes)),
                              tr("Bytes per bank per cycle")});
            const std::int64_t requested = std::int64_t{evaluation->access.activeLaneCount()} *
                                           evaluation->access.kind.widthBytes;
            m_rows.push_back({tr("Bytes requested"), number(requested), tb(number(requested)),
                              tr("Active lanes × element width")});
        } else if (const auto& c = evaluation->modern.constant) {
            // The constant cache (seed 003): one round per distinct address, in turn; the
            // textbook counts one pass per distinct address of the warp.
            m_rows.push_back({tr("LDC requests"), number(c->requests), kDash,
                              tr("The warp's LDC instructions: 1, or 2 and 4 for 8- and 16-byte "
                                 "loads (warpscope__constant_requests; the GPU counts them in "
                                 "smsp__inst_executed_op_ldc_pred_on_any.sum)")});
            m_rows.push_back({tr("Rounds (distinct addresses)"), number(c->distinctAddresses),
                              number(t.transactions.size()),
                              tr("The warp's distinct addresses, served one after another (one "
                                 "is a broadcast); textbook: one pass per distinct address")});
            m_rows.push_back({tr("Constant-cache requests"), number(c->cacheRequests), kDash,
                              tr("LDC requests × rounds: what the constant cache serves in turn "
                                 "(warpscope__constant_addresses, the load's share of "
                                 "idc__requests.sum)")});
            m_rows.push_back(
                {tr("Requests beyond a broadcast"), number(c->extraRequests), kDash,
                 tr("The serialisation: constant-cache requests beyond one per LDC "
                    "(warpscope__constant_extra_requests; the GPU's "
                    "idc__requests.sum − smsp__inst_executed_op_ldc_pred_on_any.sum)")});
            m_rows.push_back({tr("Bytes requested"), number(c->bytesRequested),
                              number(t.bytesRequested), tr("Active lanes × element width")});
        }
        addMeasuredRows();
        addKernelRows();
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
    } else if (modern.constant) {
        compare(rowNamed(tr("Requests beyond a broadcast")), counters[0].measured,
                counters[0].predicted,
                counters[0].measured ? numberText(*counters[0].measured) : QString());
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

void MetricsTableModel::addKernelRows() {
    const KernelMeasurement* m = kernelMeasurement();
    const auto& evaluation = m_document->evaluation();
    if (!evaluation || !measuredAsKernel(evaluation->access.kind)) {
        return;
    }
    const AccessKind& kind = evaluation->access.kind;
    const QString probeSays =
        tr("The probe measures %1 as whole kernels (Run Sweep on GPU in the Sweep tab, or "
           "measure_kernel): their counters count the whole grid, in the Kernel rows below")
            .arg(kind.op == AccessOp::CopyAsync
                     ? tr("async copies")
                     : tr("%1 accesses").arg(QLatin1String(toString(kind.space))));
    // The per-warp rows say where their measurement comes from (in their Measured tool tip).
    for (Row& row : m_rows) {
        if (row.measuredExplanation.isEmpty()) {
            row.measuredExplanation = probeSays;
        }
    }
    if (m == nullptr) {
        return;
    }
    const QString where = (m->recorded ? tr("recorded on %1") : tr("measured on %1"))
                              .arg(m->gpuName.isEmpty() ? tr("a GPU") : m->gpuName) +
                          QStringLiteral(", ") + kernelPointText(m->parameters);
    auto value = [](const std::map<std::string, double>& map,
                    const std::string& name) -> std::optional<double> {
        const auto it = map.find(name);
        return it == map.end() ? std::nullopt : std::optional<double>(it->second);
    };
    auto integer = [](double v) { return grouped(v, 0); };
    // One whole-kernel row: the grid model's total (`predicted`, sent back with the measurement)
    // beside the GPU's counter (`counter`), compared when `compared`.
    auto kernelRow = [&](const QString& quantity, const std::string& predictedName,
                         const std::string& counter, bool compared, const QString& explanation) {
        const std::optional<double> predicted = value(m->predicted, predictedName);
        Row row{tr("Kernel: %1").arg(quantity), predicted ? integer(*predicted) : kDash, kDash,
                explanation + tr(" (whole grid: the grid model's total)")};
        const std::optional<double> measured =
            m->countersMeasured && !counter.empty() ? value(m->counters, counter) : std::nullopt;
        row.agreement = Agreement::Info;
        if (!m->countersMeasured) {
            row.measured = tr("no counters");
            row.measuredExplanation =
                tr("Counters were not measured: %1")
                    .arg(QString::fromStdString(m->countersUnavailableReason));
        } else if (!measured) {
            row.measured = counter.empty() ? kDash : tr("not counted");
            row.measuredExplanation =
                counter.empty()
                    ? tr("No counter counts this; the model's number alone")
                    : tr("The probe's answer has no %1").arg(QString::fromStdString(counter));
        } else if (compared && predicted) {
            const bool same = *measured == *predicted;
            row.agreement = same ? Agreement::Matches : Agreement::Differs;
            row.measured = same ? integer(*measured) + QStringLiteral("  ✓")
                                : integer(*measured) + QStringLiteral("  ≠ ") + integer(*predicted);
            row.measuredExplanation =
                tr("%1 = %2 (%3)").arg(QString::fromStdString(counter), integer(*measured), where);
        } else {
            row.measured = integer(*measured);
            row.measuredExplanation =
                tr("%1 = %2 (%3)").arg(QString::fromStdString(counter), integer(*measured), where);
        }
        m_rows.push_back(std::move(row));
    };
    if (kind.space == MemorySpace::Constant) {
        const std::vector<std::string>& names = constantCounterNames();
        const QString parameterLoads =
            tr("; the GPU's count includes the kernel's other LDC instructions (its parameter "
               "loads), which the model does not predict, so it is shown, not compared");
        kernelRow(tr("LDC requests"), "warpscope__constant_requests", names[1], false,
                  tr("The constant loads' LDC instructions") + parameterLoads);
        kernelRow(tr("cache requests"), "warpscope__constant_addresses", names[0], false,
                  tr("Every LDC instruction's distinct addresses, served in turn") +
                      parameterLoads);
        kernelRow(tr("beyond a broadcast"), "warpscope__constant_extra_requests",
                  "warpscope__constant_extra_requests", true,
                  tr("The serialisation: idc__requests.sum − "
                     "smsp__inst_executed_op_ldc_pred_on_any.sum, where the parameter loads "
                     "cancel out"));
    } else if (kind.op == AccessOp::CopyAsync) {
        const std::vector<std::string>& names = copyAsyncCounterNames();
        kernelRow(tr("requests (LDGSTS)"), names[0], names[0], true,
                  tr("The copies' global-side requests"));
        kernelRow(tr("sectors (LDGSTS)"), names[1], names[1], true,
                  tr("The copies' global-side sectors"));
        kernelRow(tr("shared wavefronts"), names[2], names[2], true,
                  tr("The copies' shared-side wavefronts"));
        kernelRow(tr("bank conflicts"), names[3], names[3], true,
                  tr("The copies' shared-side bank conflicts"));
    } else {
        const AccessCounters counters = nsightCountersFor(kind);
        const QString what = kind.space == MemorySpace::Texture ? tr("texture reads")
                             : kind.op == AccessOp::Store       ? tr("local stores")
                                                                : tr("local loads");
        kernelRow(tr("requests"), counters.first, counters.first, true,
                  tr("Requests of every %1 of the kernel").arg(what));
        kernelRow(tr("sectors"), counters.second, counters.second, true,
                  tr("Sectors of every %1 of the kernel").arg(what));
        if (kind.space == MemorySpace::Texture) {
            kernelRow(tr("sectors as global loads"), "warpscope__texture_global_equivalent_sectors",
                      {}, false, tr("What global loads of the same addresses would fetch"));
        }
    }
    if (m->kernelMsMedian()) {
        Row row{tr("Kernel: time"), kDash, kDash,
                tr("The whole kernel's time, median of the timed launches")};
        row.measured = tr("%1 µs").arg(grouped(*m->kernelMsMedian() * 1000.0, 1));
        row.agreement = Agreement::Info;
        row.measuredExplanation =
            tr("Median kernel time (%1, %2)").arg(m->cold ? tr("cold") : tr("warm"), where);
        m_rows.push_back(std::move(row));
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
