// KernelMeasurement: reading measure_kernel's answers (docs/protocol.md) and recording them.
#include "gpu/kernelmeasurement.h"

#include <warpscope/kernel_preset.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include <algorithm>
#include <tuple>

namespace warpscope::app {

namespace {

KernelPoint pointOf(const QJsonObject& object) {
    KernelPoint point;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.value().isDouble()) {
            point[it.key().toStdString()] = static_cast<std::int64_t>(it.value().toDouble());
        }
    }
    return point;
}

/// The preset's parameter values with `point` applied: the full point every record is keyed by.
KernelPoint completePoint(const QString& presetId, const KernelPoint& point) {
    KernelPoint full;
    if (const KernelPreset* preset = findKernelPreset(presetId.toStdString())) {
        for (const Parameter& parameter : preset->kernel.parameters) {
            full[parameter.name] = parameter.value;
        }
    }
    for (const auto& [name, value] : point) {
        full[name] = value;
    }
    return full;
}

} // namespace

QString kernelPointText(const KernelPoint& point) {
    QStringList parts;
    for (const auto& [name, value] : point) {
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
    }
    return parts.join(QStringLiteral(", "));
}

KernelMeasurement KernelMeasurement::fromMeasured(protocol::KernelMeasurement measured,
                                                  const GpuInfo& gpu, const QDateTime& when) {
    KernelMeasurement m;
    static_cast<protocol::KernelMeasurement&>(m) = std::move(measured);
    if (m.perInstruction) {
        // Core reads the rows (its guarded reader), as it reads the recorded ones.
        auto read = perInstructionRowsFromJsonText(m.perInstruction->rows.dump());
        if (read) {
            m.perInstructionRows = std::move(read.value());
        } else {
            m.perInstructionRowsError = QString::fromStdString(read.error().describe());
        }
    }
    if (!m.copyBandwidthGBs && gpu.measuredCopyBandwidthGBs > 0) {
        m.copyBandwidthGBs = gpu.measuredCopyBandwidthGBs;
    }
    if (!m.theoreticalBandwidthGBs && gpu.theoreticalBandwidthGBs > 0) {
        m.theoreticalBandwidthGBs = gpu.theoreticalBandwidthGBs;
    }
    m.gpuName = gpu.name;
    m.gpuUuid = gpu.uuid;
    m.gpuIndex = gpu.name.isEmpty() ? -1 : gpu.index;
    m.driverVersion = gpu.driverVersion;
    m.probeVersion = gpu.probeVersion;
    m.measuredAt = when;
    return m;
}

Result<KernelMeasurement> KernelMeasurement::fromProbeResult(const QJsonObject& result,
                                                             const GpuInfo& gpu,
                                                             const QDateTime& when) {
    auto read = protocol::kernelMeasurementFromJsonText(compactJsonText(result));
    if (!read) {
        return read.error();
    }
    return fromMeasured(std::move(read).value(), gpu, when);
}

std::optional<double> KernelMeasurement::kernelMsMedian() const {
    return kernelMs ? std::optional<double>(kernelMs->median) : std::nullopt;
}

QString KernelMeasurement::perInstructionUnavailableReason() const {
    if (!perInstruction) {
        return {};
    }
    if (!perInstruction->unavailableReason.empty()) {
        return QString::fromStdString(perInstruction->unavailableReason);
    }
    if (!perInstructionRowsError.isEmpty()) {
        return QObject::tr("the probe's per-instruction rows could not be read: %1")
            .arg(perInstructionRowsError);
    }
    return {};
}

QString KernelMeasurement::perInstructionSource() const {
    return perInstruction ? QString::fromStdString(perInstruction->source) : QString();
}

QString KernelMeasurement::gpuLabel() const {
    return gpuIndex >= 0 ? QObject::tr("GPU %1 · %2").arg(gpuIndex).arg(gpuName) : gpuName;
}

QString KernelMeasurement::gpuKey() const {
    return !gpuUuid.isEmpty() ? gpuUuid : gpuName + QLatin1Char('#') + QString::number(gpuIndex);
}

QJsonObject KernelMeasurement::toJson() const {
    QJsonObject object = qtJsonObject(protocol::toJson(*this));
    object.insert(QStringLiteral("gpu"), gpuName);
    object.insert(QStringLiteral("measuredAt"), measuredAt.toString(Qt::ISODate));
    if (!gpuUuid.isEmpty()) {
        object.insert(QStringLiteral("gpuUuid"), gpuUuid);
    }
    if (gpuIndex >= 0) {
        object.insert(QStringLiteral("gpuIndex"), gpuIndex);
    }
    if (!driverVersion.isEmpty()) {
        object.insert(QStringLiteral("driver"), driverVersion);
    }
    if (!probeVersion.isEmpty()) {
        object.insert(QStringLiteral("probeVersion"), probeVersion);
    }
    return object;
}

Result<KernelMeasurement> KernelMeasurement::fromJson(const QJsonObject& object) {
    GpuInfo gpu;
    gpu.name = object.value(QStringLiteral("gpu")).toString();
    gpu.uuid = object.value(QStringLiteral("gpuUuid")).toString();
    gpu.index = object.value(QStringLiteral("gpuIndex")).toInt(-1);
    gpu.driverVersion = object.value(QStringLiteral("driver")).toString();
    gpu.probeVersion = object.value(QStringLiteral("probeVersion")).toString();
    auto m = fromProbeResult(
        object, gpu,
        QDateTime::fromString(object.value(QStringLiteral("measuredAt")).toString(), Qt::ISODate));
    if (!m) {
        return m;
    }
    m.value().gpuIndex = gpu.index;
    m.value().recorded = true;
    return m;
}

std::optional<double> KernelMeasurement::globalEfficiencyPct(bool loads) const {
    if (!countersMeasured) {
        return std::nullopt;
    }
    const char* name = loads ? "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
                             : "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
    const auto it = counters.find(name);
    if (it == counters.end() || it->second <= 0) {
        return std::nullopt;
    }
    double requested = 0;
    for (const KernelAccessMeasurement& access : accesses) {
        // An async copy's global side counts in the load counters.
        const bool load = access.op == "load" || access.op == "copy_async";
        if (access.space == "global" && (loads ? load : access.op == "store")) {
            requested += access.bytesRequested;
        }
    }
    if (requested <= 0) {
        return std::nullopt;
    }
    return 100.0 * requested / (it->second * 32.0);
}

KernelMeasurementStore::KernelMeasurementStore(QObject* parent) : QObject(parent) {}

QString KernelMeasurementStore::keyOf(const QString& presetId, const KernelPoint& point) {
    return presetId + QLatin1Char('|') + kernelPointText(completePoint(presetId, point));
}

void KernelMeasurementStore::put(const QString& presetId, const KernelMeasurement& measurement) {
    KernelMeasurement merged = measurement;
    merged.parameters = completePoint(presetId, measurement.parameters);
    const QString key = keyOf(presetId, merged.parameters);
    // What it lacks comes from the same GPU's earlier record, never from another GPU's.
    const KernelMeasurement* earlier = nullptr;
    if (const auto byGpu = m_byGpu.find(key); byGpu != m_byGpu.end()) {
        if (const auto it = byGpu->second.find(merged.gpuKey()); it != byGpu->second.end()) {
            earlier = &it->second.second;
        }
    }
    if (earlier != nullptr) {
        const KernelMeasurement& old = *earlier;
        if (!merged.countersMeasured && old.countersMeasured) {
            merged.counters = old.counters;
            merged.countersMeasured = true;
            merged.countersUnavailableReason.clear();
        }
        if (merged.accesses.empty()) {
            merged.accesses = old.accesses;
        }
        if (merged.predicted.empty()) {
            merged.predicted = old.predicted;
        }
        if (!merged.effectiveBandwidthGBs && old.effectiveBandwidthGBs) {
            merged.kernelMs = old.kernelMs;
            merged.spreadPct = old.spreadPct;
            merged.samplesMs = old.samplesMs;
            merged.effectiveBandwidthGBs = old.effectiveBandwidthGBs;
            merged.shareOfCopyBandwidthPct = old.shareOfCopyBandwidthPct;
            merged.shareOfTheoreticalBandwidthPct = old.shareOfTheoreticalBandwidthPct;
        }
    }
    m_entries[key] = {presetId, merged};
    m_byGpu[key][merged.gpuKey()] = {presetId, merged};
    emit changed();
}

std::vector<const KernelMeasurement*>
KernelMeasurementStore::findAll(const QString& presetId, const KernelPoint& point) const {
    std::vector<const KernelMeasurement*> all;
    const auto it = m_byGpu.find(keyOf(presetId, point));
    if (it == m_byGpu.end()) {
        return all;
    }
    for (const auto& [gpu, entry] : it->second) {
        all.push_back(&entry.second);
    }
    std::sort(all.begin(), all.end(), [](const KernelMeasurement* a, const KernelMeasurement* b) {
        return std::tie(a->gpuIndex, a->gpuName, a->gpuUuid) <
               std::tie(b->gpuIndex, b->gpuName, b->gpuUuid);
    });
    return all;
}

const KernelMeasurement* KernelMeasurementStore::find(const QString& presetId,
                                                      const KernelPoint& point) const {
    const auto it = m_entries.find(keyOf(presetId, point));
    return it == m_entries.end() ? nullptr : &it->second.second;
}

void KernelMeasurementStore::clear() {
    if (m_entries.empty()) {
        return;
    }
    m_entries.clear();
    m_byGpu.clear();
    emit changed();
}

QJsonArray KernelMeasurementStore::toJson() const {
    // Each point's other GPUs first and its latest measurement last, so that reading the list
    // back in order makes the same one the latest.
    QJsonArray list;
    for (const auto& [key, entry] : m_entries) {
        const auto others = m_byGpu.find(key);
        if (others != m_byGpu.end()) {
            for (const auto& [gpu, other] : others->second) {
                if (gpu != entry.second.gpuKey()) {
                    list.append(
                        QJsonObject{{QStringLiteral("preset"), other.first},
                                    {QStringLiteral("measurement"), other.second.toJson()}});
                }
            }
        }
        list.append(QJsonObject{{QStringLiteral("preset"), entry.first},
                                {QStringLiteral("measurement"), entry.second.toJson()}});
    }
    return list;
}

void KernelMeasurementStore::takeJson(const QJsonArray& array) {
    m_entries.clear();
    m_byGpu.clear();
    for (const QJsonValue& value : array) {
        const QJsonObject object = value.toObject();
        const QString preset = object.value(QStringLiteral("preset")).toString();
        if (preset.isEmpty()) {
            continue;
        }
        auto read =
            KernelMeasurement::fromJson(object.value(QStringLiteral("measurement")).toObject());
        if (!read) {
            continue; // a record this build cannot read is left out, as one without a preset
        }
        KernelMeasurement m = std::move(read).value();
        m.parameters = completePoint(preset, m.parameters);
        m_entries[keyOf(preset, m.parameters)] = {preset, m};
        m_byGpu[keyOf(preset, m.parameters)][m.gpuKey()] = {preset, m};
    }
    emit changed();
}

std::optional<QString> KernelMeasurementStore::importJsonLines(const QByteArray& text,
                                                               const QString& gpuName,
                                                               int* pointsRead) {
    // Several runs of one point (tests/data/kernel_tables_h100.jsonl holds five): keep the run
    // of median bandwidth, so one slow run does not speak for the point.
    std::map<QString, std::vector<std::pair<QString, KernelMeasurement>>> timed;
    std::vector<std::pair<QString, KernelMeasurement>> answers;
    GpuInfo gpu;
    gpu.name = gpuName;
    const QList<QByteArray> lines = text.split('\n');
    // A {"device": {...}} line (device_info's answer) names the GPU the lines were measured on.
    for (const QByteArray& line : lines) {
        if (line.contains("\"device\"")) {
            const QJsonObject device =
                QJsonDocument::fromJson(line).object().value(QStringLiteral("device")).toObject();
            if (!device.isEmpty()) {
                gpu = GpuInfo::fromJson(device);
            }
        }
    }
    int lineNumber = 0;
    for (const QByteArray& line : lines) {
        ++lineNumber;
        if (line.trimmed().isEmpty()) {
            continue;
        }
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject()) {
            return tr("line %1 is not a JSON object: %2")
                .arg(lineNumber)
                .arg(error.error != QJsonParseError::NoError ? error.errorString()
                                                             : tr("another JSON value"));
        }
        const QJsonObject object = document.object();
        if (object.contains(QStringLiteral("device"))) {
            continue;
        }
        const QString id = object.value(QStringLiteral("id")).toString();
        if (findKernelPreset(id.toStdString()) == nullptr) {
            return tr("line %1: \"%2\" is no kernel preset of this build").arg(lineNumber).arg(id);
        }
        const auto unreadable = [&](const Error& refused) {
            return tr("line %1: %2")
                .arg(lineNumber)
                .arg(QString::fromStdString(refused.describe()));
        };
        if (object.contains(QStringLiteral("answer"))) {
            const QJsonObject answer = object.value(QStringLiteral("answer")).toObject();
            // No GPU named by the caller or a device line: the answer's own device names it.
            const QJsonObject device = answer.value(QStringLiteral("device")).toObject();
            auto read = KernelMeasurement::fromProbeResult(
                answer, gpu.name.isEmpty() && !device.isEmpty() ? GpuInfo::fromJson(device) : gpu,
                QDateTime());
            if (!read) {
                Error refused = read.error();
                refused.where = "/answer" + refused.where;
                return unreadable(refused);
            }
            read.value().recorded = true;
            answers.emplace_back(id, read.value());
            continue;
        }
        auto read = KernelMeasurement::fromProbeResult(object, gpu, QDateTime());
        if (!read) {
            return unreadable(read.error());
        }
        KernelMeasurement m = std::move(read).value();
        m.parameters = completePoint(id, pointOf(object.value(QStringLiteral("point")).toObject()));
        m.recorded = true;
        if (!m.effectiveBandwidthGBs) {
            return tr("line %1 has neither \"answer\" nor \"effectiveBandwidthGBs\"")
                .arg(lineNumber);
        }
        timed[keyOf(id, m.parameters)].emplace_back(id, m);
    }
    int points = 0;
    for (const auto& [id, m] : answers) {
        put(id, m);
        ++points;
    }
    for (auto& [key, runs] : timed) {
        std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
            return *a.second.effectiveBandwidthGBs < *b.second.effectiveBandwidthGBs;
        });
        const auto& [id, median] = runs[runs.size() / 2];
        put(id, median);
        ++points;
    }
    if (pointsRead != nullptr) {
        *pointsRead = points;
    }
    return std::nullopt;
}

} // namespace warpscope::app
