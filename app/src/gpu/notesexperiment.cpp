// The notes' experiments and their comparison with this GPU.
#include "gpu/notesexperiment.h"

#include <warpscope/kernel.h>
#include <warpscope/kernel_preset.h>
#include <warpscope/model.h>

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace warpscope::app {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("NotesExperiment", text);
}

std::string quantityKey(NotesQuantity quantity) {
    switch (quantity) {
    case NotesQuantity::Bandwidth:
        return "bandwidth";
    case NotesQuantity::LoadEfficiency:
        return "gld_efficiency";
    case NotesQuantity::StoreEfficiency:
        return "gst_efficiency";
    case NotesQuantity::Time:
        return "time";
    }
    return "";
}

/// A row named by its preset, the quantity and point its reference has, and which of several
/// references of the same point it is (the notes give NaiveCol (16, 16) twice: 47.13 GB/s in
/// Table 4-6 and 80.27 GB/s in Table 4-11).
struct RowSpec {
    const char* preset;
    KernelPoint point;
    QString label;
    int occurrence = 0;
    bool withReference = true;
};

NotesExperimentRow resolveRow(const RowSpec& spec, NotesQuantity quantity, bool* ok) {
    NotesExperimentRow row;
    row.presetId = spec.preset;
    row.point = spec.point;
    row.label = spec.label;
    const KernelPreset* preset = findKernelPreset(spec.preset);
    *ok = preset != nullptr;
    if (preset == nullptr || !spec.withReference) {
        return row;
    }
    int seen = 0;
    for (std::size_t i = 0; i < preset->references.size(); ++i) {
        const KernelReference& reference = preset->references[i];
        if (reference.quantity != quantityKey(quantity)) {
            continue;
        }
        bool same = true;
        for (const auto& [name, value] : spec.point) {
            const auto it = reference.parameters.find(name);
            if (it == reference.parameters.end() || it->second != value) {
                same = false;
            }
        }
        if (same && seen++ == spec.occurrence) {
            row.reference = static_cast<int>(i);
            return row;
        }
    }
    *ok = false;
    return row;
}

NotesExperiment make(const char* id, const QString& title, const QString& source,
                     const QString& axis, NotesQuantity quantity, bool baselineFirst,
                     const std::vector<RowSpec>& specs) {
    NotesExperiment experiment;
    experiment.id = id;
    experiment.title = title;
    experiment.source = source;
    experiment.axisLabel = axis;
    experiment.quantity = quantity;
    experiment.baselineFirst = baselineFirst;
    for (const RowSpec& spec : specs) {
        bool ok = false;
        NotesExperimentRow row = resolveRow(spec, quantity, &ok);
        if (ok) {
            experiment.rows.push_back(row);
        }
    }
    return experiment;
}

KernelPoint block(std::int64_t bx, std::int64_t by) {
    return {{"bx", bx}, {"by", by}};
}

QString blockLabel(std::int64_t bx, std::int64_t by) {
    return QStringLiteral("(%1, %2)").arg(bx).arg(by);
}

std::vector<NotesExperiment> buildExperiments() {
    std::vector<NotesExperiment> list;
    const auto bw = NotesQuantity::Bandwidth;
    {
        std::vector<RowSpec> rows;
        // Table 4-11's order: (32, 32) down to (8, 8).
        const std::vector<std::pair<int, int>> shapes = {
            {32, 32}, {32, 16}, {32, 8}, {16, 32}, {16, 16}, {16, 8}, {8, 32}, {8, 16}, {8, 8}};
        for (const auto& [bx, by] : shapes) {
            rows.push_back({"transpose-naivecol-cg", block(bx, by), blockLabel(bx, by),
                            bx == 16 && by == 16 ? 1 : 0});
        }
        list.push_back(make("table-4-11", tr("Table 4-11: NaiveCol block shapes"),
                            QStringLiteral("the lecture slides, Table 4-11 (L1 off)"),
                            tr("block (bx, by)"), bw, false, rows));
    }
    list.push_back(make("table-4-4", tr("Table 4-4: transposes, L1 on"),
                        QStringLiteral("the lecture slides, Table 4-4"),
                        tr("kernel, block (16, 16)"), bw, false,
                        {{"transpose-copyrow", block(16, 16), QStringLiteral("CopyRow")},
                         {"transpose-copycol", block(16, 16), QStringLiteral("CopyCol")},
                         {"transpose-naiverow", block(16, 16), QStringLiteral("NaiveRow")},
                         {"transpose-naivecol", block(16, 16), QStringLiteral("NaiveCol")}}));
    list.push_back(make("table-4-6", tr("Table 4-6: transposes, L1 off"),
                        QStringLiteral("the lecture slides, Table 4-6"),
                        tr("kernel, block (16, 16)"), bw, false,
                        {{"transpose-copyrow-cg", block(16, 16), QStringLiteral("CopyRow")},
                         {"transpose-copycol-cg", block(16, 16), QStringLiteral("CopyCol")},
                         {"transpose-naiverow-cg", block(16, 16), QStringLiteral("NaiveRow")},
                         {"transpose-naivecol-cg", block(16, 16), QStringLiteral("NaiveCol")}}));
    list.push_back(make("table-4-10", tr("Table 4-10: diagonal block order"),
                        QStringLiteral("the lecture slides, Table 4-10"),
                        tr("kernel, block (16, 16)"), bw, false,
                        {{"transpose-diagonalrow", block(16, 16), QStringLiteral("DiagonalRow")},
                         {"transpose-diagonalcol", block(16, 16), QStringLiteral("DiagonalCol")}}));
    list.push_back(make("table-4-13", tr("Table 4-13: block (8, 32), L1 off"),
                        QStringLiteral("the lecture slides, Table 4-13"),
                        tr("kernel, block (8, 32)"), bw, false,
                        {{"transpose-copyrow-cg", block(8, 32), QStringLiteral("CopyRow")},
                         {"transpose-naiverow-cg", block(8, 32), QStringLiteral("NaiveRow")},
                         {"transpose-naivecol-cg", block(8, 32), QStringLiteral("NaiveCol"), 1},
                         {"transpose-unroll4row-cg", block(8, 32), QStringLiteral("Unroll4Row")},
                         {"transpose-unroll4col-cg", block(8, 32), QStringLiteral("Unroll4Col")}}));
    const auto offsets = [](const char* preset, bool withReference) {
        std::vector<RowSpec> rows;
        for (const std::int64_t offset : {0, 11, 128}) {
            rows.push_back({preset,
                            {{"offset", offset}},
                            QStringLiteral("offset %1").arg(offset),
                            0,
                            withReference});
        }
        return rows;
    };
    list.push_back(make("readsegment", tr("readSegment offsets, L1 on: load efficiency"),
                        QStringLiteral("the lecture slides, readSegment (Example_5)"), tr("offset"),
                        NotesQuantity::LoadEfficiency, true, offsets("readsegment", true)));
    list.push_back(make("readsegment-cg", tr("readSegment offsets, L1 off: load efficiency"),
                        QStringLiteral("the lecture slides, readSegment with -dlcm=cg"),
                        tr("offset"), NotesQuantity::LoadEfficiency, true,
                        offsets("readsegment-cg", true)));
    list.push_back(make("writesegment", tr("writeSegment offsets: store efficiency"),
                        QStringLiteral("the lecture slides, writeSegment (Example_6)"),
                        tr("offset"), NotesQuantity::StoreEfficiency, true,
                        offsets("writesegment", true)));
    list.push_back(make("readoffset", tr("readOffset offsets at 2^24: bandwidth"),
                        QStringLiteral("the lecture slides, readOffset"), tr("offset"), bw, true,
                        offsets("readoffset", false)));
    list.back().modelAccess = 0; // load A[k]
    list.push_back(make("transpose-tiled", tr("Tiled transpose: without and with padding"),
                        QStringLiteral("the best-practice notes, [TILE_DIM][TILE_DIM+1]"),
                        tr("shared tile"), bw, true,
                        {{"transpose-tiled", {{"pad", 0}}, QStringLiteral("[32][32]"), 0, false},
                         {"transpose-tiled", {{"pad", 1}}, QStringLiteral("[32][33]"), 0, false}}));
    list.back().modelAccess = 2; // load tile[tid.x][tid.y]: the column read that conflicts
    list.push_back(make(
        "aos-soa", tr("Figure 4-22: AoS and SoA, time"),
        QStringLiteral("the lecture slides, Figure 4-22"), tr("layout"), NotesQuantity::Time, true,
        {{"aos-testinnerstruct", {}, QStringLiteral("AoS (testInnerStruct)")},
         {"soa-testinnerarray", {}, QStringLiteral("SoA (testInnerArray)"), 0, false}}));
    list.erase(std::remove_if(list.begin(), list.end(),
                              [](const NotesExperiment& e) { return e.rows.empty(); }),
               list.end());
    return list;
}

/// The modern model's count for one warp (block 0, warp 0) of access `access` of the preset's
/// kernel at `point`: sectors per request (global) or wavefronts (shared).
std::optional<double> warpModel(const std::string& presetId, const KernelPoint& point, int access,
                                QString* name) {
    const KernelPreset* preset = findKernelPreset(presetId);
    if (preset == nullptr || access < 0 ||
        access >= static_cast<int>(preset->kernel.accesses.size())) {
        return std::nullopt;
    }
    Kernel kernel = preset->kernel;
    for (Parameter& parameter : kernel.parameters) {
        const auto it = point.find(parameter.name);
        if (it != point.end()) {
            parameter.value = it->second;
        }
    }
    const auto resolved = resolveKernel(kernel);
    if (!resolved) {
        return std::nullopt;
    }
    const auto warp = resolveWarp(resolved.value(), access, 0, 0);
    if (!warp) {
        return std::nullopt;
    }
    const ModernPrediction prediction = predictModern(warp.value());
    const QString label =
        QString::fromStdString(kernel.accesses[static_cast<std::size_t>(access)].label);
    if (prediction.shared) {
        *name = tr("model: wavefronts of %1, warp 0").arg(label);
        return prediction.shared->wavefronts;
    }
    if (prediction.global && prediction.global->requests > 0) {
        *name = tr("model: sectors per request of %1, warp 0").arg(label);
        return static_cast<double>(prediction.global->sectors) / prediction.global->requests;
    }
    return std::nullopt;
}

QString number(double value) {
    const double magnitude = std::abs(value);
    const int decimals = magnitude >= 100 ? 0 : (magnitude >= 10 ? 1 : (magnitude >= 1 ? 2 : 4));
    return QLocale::c().toString(value, 'f', decimals);
}

QString percent(double value) {
    return QLocale::c().toString(value, 'f', std::abs(value) >= 10 ? 0 : 1) + QStringLiteral(" %");
}

/// Cost of `value` relative to `base` in percent (positive: worse).
double costPct(NotesQuantity quantity, double base, double value) {
    if (base == 0) {
        return 0;
    }
    return higherIsBetter(quantity) ? (base - value) / base * 100.0 : (value - base) / base * 100.0;
}

QString costPhrase(double cost) {
    if (std::abs(cost) < 0.05) {
        return tr("costs nothing");
    }
    return cost > 0 ? tr("costs %1").arg(percent(cost)) : tr("gains %1").arg(percent(-cost));
}

struct Extremes {
    std::size_t best = 0;
    std::size_t worst = 0;
    double ratio = 1;
};

std::optional<Extremes> extremes(NotesQuantity quantity,
                                 const std::vector<NotesComparisonRow>& rows,
                                 std::optional<double> NotesComparisonRow::*field) {
    std::optional<Extremes> result;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& value = rows[i].*field;
        if (!value || *value <= 0) {
            continue;
        }
        if (!result) {
            result = Extremes{i, i, 1};
            continue;
        }
        const bool better = higherIsBetter(quantity) ? *value > *(rows[result->best].*field)
                                                     : *value < *(rows[result->best].*field);
        const bool worse = higherIsBetter(quantity) ? *value < *(rows[result->worst].*field)
                                                    : *value > *(rows[result->worst].*field);
        if (better) {
            result->best = i;
        }
        if (worse) {
            result->worst = i;
        }
    }
    if (result) {
        const double b = *(rows[result->best].*field);
        const double w = *(rows[result->worst].*field);
        result->ratio = higherIsBetter(quantity) ? b / w : w / b;
    }
    return result;
}

std::optional<double> inQuantity(NotesQuantity quantity, const KernelMeasurement& m) {
    switch (quantity) {
    case NotesQuantity::Bandwidth:
        return m.effectiveBandwidthGBs;
    case NotesQuantity::LoadEfficiency:
        return m.globalEfficiencyPct(true);
    case NotesQuantity::StoreEfficiency:
        return m.globalEfficiencyPct(false);
    case NotesQuantity::Time:
        return m.kernelMsMedian();
    }
    return std::nullopt;
}

NotesGpuValues gpuValues(NotesQuantity quantity, const KernelMeasurement& m) {
    NotesGpuValues values;
    values.measured = inQuantity(quantity, m);
    values.bandwidthGBs = m.effectiveBandwidthGBs;
    values.kernelMs = m.kernelMsMedian();
    values.shareOfCopyPct = m.shareOfCopyBandwidthPct;
    if (!values.shareOfCopyPct && m.effectiveBandwidthGBs && m.copyBandwidthGBs &&
        *m.copyBandwidthGBs > 0) {
        values.shareOfCopyPct = *m.effectiveBandwidthGBs / *m.copyBandwidthGBs * 100.0;
    }
    return values;
}

/// One column per GPU when the experiment's rows were measured on more than one.
void fillGpuColumns(const NotesExperiment& experiment, const KernelMeasurementStore& store,
                    NotesComparison& comparison) {
    // gpuKey() -> (index, label): the columns, ordered by device index, then name.
    std::map<QString, std::pair<int, QString>> gpus;
    std::vector<std::vector<const KernelMeasurement*>> perRow;
    for (const NotesExperimentRow& row : experiment.rows) {
        perRow.push_back(store.findAll(QString::fromStdString(row.presetId), row.point));
        for (const KernelMeasurement* m : perRow.back()) {
            gpus.emplace(m->gpuKey(), std::make_pair(m->gpuIndex, m->gpuLabel()));
        }
    }
    if (gpus.size() < 2) {
        return;
    }
    std::vector<std::pair<std::pair<int, QString>, QString>> order; // ((index, label), key)
    for (const auto& [key, gpu] : gpus) {
        order.push_back({gpu, key});
    }
    std::sort(order.begin(), order.end());
    for (const auto& entry : order) {
        comparison.gpuColumns << entry.first.second;
    }
    comparison.perGpu.assign(comparison.rows.size(),
                             std::vector<NotesGpuValues>(order.size(), NotesGpuValues{}));
    for (std::size_t r = 0; r < comparison.rows.size(); ++r) {
        for (const KernelMeasurement* m : perRow[r]) {
            for (std::size_t c = 0; c < order.size(); ++c) {
                if (order[c].second == m->gpuKey()) {
                    comparison.perGpu[r][c] = gpuValues(experiment.quantity, *m);
                }
            }
        }
    }
}

} // namespace

QString quantityName(NotesQuantity quantity) {
    switch (quantity) {
    case NotesQuantity::Bandwidth:
        return tr("effective bandwidth");
    case NotesQuantity::LoadEfficiency:
        return tr("global load efficiency");
    case NotesQuantity::StoreEfficiency:
        return tr("global store efficiency");
    case NotesQuantity::Time:
        return tr("kernel time");
    }
    return {};
}

QString quantityUnit(NotesQuantity quantity) {
    switch (quantity) {
    case NotesQuantity::Bandwidth:
        return QStringLiteral("GB/s");
    case NotesQuantity::LoadEfficiency:
    case NotesQuantity::StoreEfficiency:
        return QStringLiteral("%");
    case NotesQuantity::Time:
        return QStringLiteral("ms");
    }
    return {};
}

bool higherIsBetter(NotesQuantity quantity) {
    return quantity != NotesQuantity::Time;
}

const std::vector<NotesExperiment>& notesExperiments() {
    static const std::vector<NotesExperiment> list = buildExperiments();
    return list;
}

const NotesExperiment* findNotesExperiment(const std::string& id) {
    for (const NotesExperiment& experiment : notesExperiments()) {
        if (experiment.id == id) {
            return &experiment;
        }
    }
    return nullptr;
}

NotesComparison compareWithNotes(const NotesExperiment& experiment,
                                 const KernelMeasurementStore& store) {
    NotesComparison comparison;
    comparison.experiment = &experiment;
    std::set<QString> notesGpus;
    std::set<QString> measuredGpus;
    for (const NotesExperimentRow& row : experiment.rows) {
        NotesComparisonRow out;
        out.label = row.label;
        const KernelPreset* preset = findKernelPreset(row.presetId);
        if (preset != nullptr && row.reference >= 0 &&
            row.reference < static_cast<int>(preset->references.size())) {
            const KernelReference& reference =
                preset->references[static_cast<std::size_t>(row.reference)];
            out.notes = reference.unit == "s" ? reference.value * 1000.0 : reference.value;
            ++comparison.notesRows;
            notesGpus.insert(preset->notesGpu.empty() ? tr("a GPU they do not name")
                                                      : QString::fromStdString(preset->notesGpu));
        }
        if (experiment.modelAccess >= 0) {
            out.model =
                warpModel(row.presetId, row.point, experiment.modelAccess, &comparison.modelName);
        }
        const KernelMeasurement* m = store.find(QString::fromStdString(row.presetId), row.point);
        if (m != nullptr) {
            out.bandwidthGBs = m->effectiveBandwidthGBs;
            out.kernelMs = m->kernelMsMedian();
            out.shareOfCopyPct = m->shareOfCopyBandwidthPct;
            if (!out.shareOfCopyPct && m->effectiveBandwidthGBs && m->copyBandwidthGBs &&
                *m->copyBandwidthGBs > 0) {
                out.shareOfCopyPct = *m->effectiveBandwidthGBs / *m->copyBandwidthGBs * 100.0;
            }
            out.recorded = m->recorded;
            switch (experiment.quantity) {
            case NotesQuantity::Bandwidth:
                out.measured = m->effectiveBandwidthGBs;
                break;
            case NotesQuantity::LoadEfficiency:
                out.measured = m->globalEfficiencyPct(true);
                break;
            case NotesQuantity::StoreEfficiency:
                out.measured = m->globalEfficiencyPct(false);
                break;
            case NotesQuantity::Time:
                out.measured = m->kernelMsMedian();
                break;
            }
            if (out.measured || out.bandwidthGBs) {
                ++comparison.measuredRows;
                if (!m->gpuName.isEmpty()) {
                    measuredGpus.insert(m->gpuName);
                }
            }
        }
        comparison.rows.push_back(out);
    }
    fillGpuColumns(experiment, store, comparison);
    QStringList names(notesGpus.begin(), notesGpus.end());
    comparison.notesGpu = names.join(QStringLiteral("; "));
    QStringList measured(measuredGpus.begin(), measuredGpus.end());
    comparison.measuredGpu = measured.join(QStringLiteral(", "));
    if (comparison.gpuColumns.isEmpty()) {
        comparison.finding = notesFinding(experiment, comparison.rows);
        return comparison;
    }
    // Several GPUs: the sentence is about the first of them, and names it.
    std::vector<NotesComparisonRow> first = comparison.rows;
    for (std::size_t r = 0; r < first.size(); ++r) {
        const NotesGpuValues& gpu = comparison.perGpu[r].front();
        first[r].measured = gpu.measured;
        first[r].bandwidthGBs = gpu.bandwidthGBs;
        first[r].kernelMs = gpu.kernelMs;
        first[r].shareOfCopyPct = gpu.shareOfCopyPct;
    }
    comparison.finding = notesFinding(experiment, first);
    if (!comparison.finding.isEmpty()) {
        comparison.finding += tr(" (Here: %1.)").arg(comparison.gpuColumns.front());
    }
    return comparison;
}

QString notesFinding(const NotesExperiment& experiment,
                     const std::vector<NotesComparisonRow>& rows) {
    const NotesQuantity q = experiment.quantity;
    const QString unit = quantityUnit(q);
    const QString name = quantityName(q);
    if (rows.empty()) {
        return {};
    }
    if (experiment.baselineFirst && rows.size() >= 2) {
        const NotesComparisonRow& base = rows.front();
        // The row the notes (or, without their numbers, this GPU) find most costly.
        std::size_t pick = 1;
        double pickCost = -1e300;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            double cost = 0;
            if (base.notes && rows[i].notes) {
                cost = costPct(q, *base.notes, *rows[i].notes);
            } else if (base.measured && rows[i].measured) {
                cost = costPct(q, *base.measured, *rows[i].measured);
            } else {
                continue;
            }
            if (cost > pickCost) {
                pickCost = cost;
                pick = i;
            }
        }
        const NotesComparisonRow& row = rows[pick];
        QString bandwidthNote;
        if (q != NotesQuantity::Bandwidth && base.bandwidthGBs && row.bandwidthGBs) {
            bandwidthNote = tr("; this GPU's bandwidth there %1 against %2")
                                .arg(costPhrase(costPct(NotesQuantity::Bandwidth,
                                                        *base.bandwidthGBs, *row.bandwidthGBs)))
                                .arg(base.label);
        }
        if (base.notes && row.notes && base.measured && row.measured) {
            return tr("Against %1, %2 %3 of the %4 in the notes and %5 here%6.")
                .arg(base.label, row.label, costPhrase(costPct(q, *base.notes, *row.notes)), name,
                     costPhrase(costPct(q, *base.measured, *row.measured)), bandwidthNote);
        }
        if (base.notes && row.notes) {
            return tr("Against %1, %2 %3 of the %4 in the notes%5; this GPU's %4 is not "
                      "measured yet.")
                .arg(base.label, row.label, costPhrase(costPct(q, *base.notes, *row.notes)), name,
                     bandwidthNote);
        }
        if (base.measured && row.measured) {
            return tr("Against %1, %2 %3 of the %4 here (%5 against %6 %7); the notes give no "
                      "number for it.")
                .arg(base.label, row.label, costPhrase(costPct(q, *base.measured, *row.measured)),
                     name, number(*row.measured), number(*base.measured), unit);
        }
        if (base.model && row.model) {
            return tr("Not measured yet; the model gives one warp of %1 %2 against %3 for %4.")
                .arg(base.label, QString::number(*base.model), QString::number(*row.model),
                     row.label);
        }
        return {};
    }
    const auto notes = extremes(q, rows, &NotesComparisonRow::notes);
    const auto here = extremes(q, rows, &NotesComparisonRow::measured);
    const auto describe = [&](const Extremes& e) {
        if (e.best == e.worst) {
            return QString();
        }
        return tr("%1 is best and %2 worst, %3× apart")
            .arg(rows[e.best].label, rows[e.worst].label, QLocale::c().toString(e.ratio, 'f', 2));
    };
    if (notes && here && notes->best != notes->worst && here->best != here->worst) {
        return tr("In the notes %1; here %2.").arg(describe(*notes), describe(*here));
    }
    if (rows.size() == 1 && rows[0].notes && rows[0].measured && *rows[0].notes > 0) {
        return tr("%1: %2 %3 in the notes against %4 %3 here, %5× the notes' %6.")
            .arg(rows[0].label, number(*rows[0].notes), unit, number(*rows[0].measured),
                 QLocale::c().toString(*rows[0].measured / *rows[0].notes, 'f', 2), name);
    }
    if (notes && here && notes->best != notes->worst) {
        // Every row of this GPU measured the same.
        return tr("In the notes %1; here every row measures %2 %3.")
            .arg(describe(*notes), number(*rows[here->best].measured), unit);
    }
    if (notes && notes->best != notes->worst) {
        return tr("In the notes %1; this GPU's numbers are not measured yet.")
            .arg(describe(*notes));
    }
    if (here && here->best != here->worst) {
        return tr("Here %1; the notes give no number for it.").arg(describe(*here));
    }
    return {};
}

std::vector<NotesRequest> notesRequests(const NotesExperiment& experiment) {
    std::vector<NotesRequest> requests;
    for (const NotesExperimentRow& row : experiment.rows) {
        auto it = std::find_if(requests.begin(), requests.end(),
                               [&](const NotesRequest& r) { return r.presetId == row.presetId; });
        if (it == requests.end()) {
            requests.push_back({row.presetId, {}});
            it = std::prev(requests.end());
        }
        if (std::find(it->points.begin(), it->points.end(), row.point) == it->points.end()) {
            it->points.push_back(row.point);
        }
    }
    return requests;
}

} // namespace warpscope::app
