// ProbeMeasurement: reading the probe's answers, recording them in sessions, comparing them with
// the model.
#include "gpu/probemeasurement.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

#include <cmath>

namespace warpscope::app {

namespace {

// Timing and provenance in a session's metrics map (docs/metrics.md, "Measured timing").
constexpr const char* kColdCycles = "warpscope__latency_cold_cycles";
constexpr const char* kWarmCycles = "warpscope__latency_warm_cycles";
constexpr const char* kColdNs = "warpscope__latency_cold_ns";
constexpr const char* kWarmNs = "warpscope__latency_warm_ns";
constexpr const char* kSmClock = "warpscope__sm_clock_khz";
constexpr const char* kGridMs = "warpscope__grid_kernel_ms";
constexpr const char* kGridBytes = "warpscope__grid_bytes_requested";
constexpr const char* kGridEffective = "warpscope__grid_effective_bandwidth_gbs";
constexpr const char* kGridMoved = "warpscope__grid_moved_bandwidth_gbs";
constexpr const char* kPeak = "warpscope__peak_bandwidth_gbs";
constexpr const char* kCountersMeasured = "warpscope__counters_measured";

std::optional<double> metricAt(const RecordedMeasurement& recorded, const char* name) {
    const auto it = recorded.metrics.find(name);
    if (it == recorded.metrics.end() || std::isnan(it->second)) {
        return std::nullopt;
    }
    return it->second;
}

void putOptional(std::map<std::string, double>& metrics, const char* name,
                 const std::optional<double>& value) {
    if (value) {
        metrics[name] = *value;
    }
}

} // namespace

std::string compactJsonText(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString();
}

QJsonObject qtJsonObject(const nlohmann::json& object) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(object.dump())).object();
}

GpuInfo GpuInfo::fromDevice(const protocol::DeviceInfo& device) {
    GpuInfo info;
    info.name = QString::fromStdString(device.name);
    info.computeCapability = QString::fromStdString(device.computeCapability());
    info.driverVersion = QString::fromStdString(device.driverVersion);
    info.smCount = device.smCount;
    info.theoreticalBandwidthGBs = device.theoreticalBandwidthGBs;
    info.measuredCopyBandwidthGBs = device.measuredCopyBandwidthGBs;
    info.countersAvailable = device.countersAvailable;
    info.countersUnavailableReason = QString::fromStdString(device.countersUnavailableReason);
    info.index = device.index;
    info.uuid = QString::fromStdString(device.uuid);
    info.busId = QString::fromStdString(device.busId);
    info.link = QString::fromStdString(device.link);
    info.memoryBytes = device.globalMemoryBytes;
    return info;
}

GpuInfo GpuInfo::fromJson(const QJsonObject& result) {
    const auto answer = protocol::deviceInfoAnswerFromJsonText(compactJsonText(result));
    return answer ? fromDevice(answer->device) : GpuInfo{};
}

QString GpuInfo::label() const {
    return QObject::tr("GPU %1 · %2").arg(index).arg(name);
}

QString GpuInfo::describe() const {
    if (computeCapability.isEmpty()) {
        return name;
    }
    return QObject::tr("%1 (compute capability %2)").arg(name, computeCapability);
}

ProbeMeasurement ProbeMeasurement::fromProbeResult(const QJsonObject& result, const GpuInfo& gpu,
                                                   const QDateTime& date) {
    const auto measured = protocol::patternMeasurementFromJsonText(compactJsonText(result));
    return fromMeasured(measured ? measured.value() : protocol::PatternMeasurement{}, gpu, date);
}

ProbeMeasurement ProbeMeasurement::fromMeasured(const protocol::PatternMeasurement& measured,
                                                const GpuInfo& gpu, const QDateTime& date) {
    ProbeMeasurement m;
    m.counters = measured.counters;
    m.countersMeasured = measured.countersMeasured;
    m.countersUnavailableReason = QString::fromStdString(measured.countersUnavailableReason);
    if (measured.latencyColdCycles || measured.latencyWarmCycles) {
        m.smClockKHz = measured.smClockKHz;
    }
    if (measured.latencyColdCycles) {
        m.coldCycles = measured.latencyColdCycles->median;
        m.coldNs = protocol::cyclesToNs(*m.coldCycles, measured.smClockKHz);
    }
    if (measured.latencyWarmCycles) {
        m.warmCycles = measured.latencyWarmCycles->median;
        m.warmNs = protocol::cyclesToNs(*m.warmCycles, measured.smClockKHz);
    }
    if (measured.gridKernelMs) {
        m.gridKernelMs = measured.gridKernelMs->median;
        m.gridBytesRequested = measured.gridBytesRequested;
        m.gridEffectiveBandwidthGBs = measured.gridEffectiveBandwidthGBs;
        m.gridMovedBandwidthGBs = measured.gridMovedBandwidthGBs;
    }
    m.gpuName = gpu.name;
    m.computeCapability = gpu.computeCapability;
    m.driverVersion = gpu.driverVersion;
    m.gpuUuid = gpu.uuid;
    m.probeVersion = gpu.probeVersion;
    m.peakBandwidthGBs = gpu.measuredCopyBandwidthGBs;
    m.date = date;
    return m;
}

RecordedMeasurement ProbeMeasurement::toRecorded() const {
    RecordedMeasurement r;
    r.gpu = gpuName.toStdString();
    r.computeCapability = computeCapability.toStdString();
    r.driver = driverVersion.toStdString();
    r.gpuUuid = gpuUuid.toStdString();
    r.probeVersion = probeVersion.toStdString();
    r.date = date.toUTC().toString(Qt::ISODate).toStdString();
    if (countersMeasured) {
        r.metrics = counters;
    }
    r.metrics[kCountersMeasured] = countersMeasured ? 1 : 0;
    putOptional(r.metrics, kColdCycles, coldCycles);
    putOptional(r.metrics, kWarmCycles, warmCycles);
    putOptional(r.metrics, kColdNs, coldNs);
    putOptional(r.metrics, kWarmNs, warmNs);
    putOptional(r.metrics, kSmClock, smClockKHz);
    putOptional(r.metrics, kGridMs, gridKernelMs);
    putOptional(r.metrics, kGridBytes, gridBytesRequested);
    putOptional(r.metrics, kGridEffective, gridEffectiveBandwidthGBs);
    putOptional(r.metrics, kGridMoved, gridMovedBandwidthGBs);
    if (peakBandwidthGBs > 0) {
        r.metrics[kPeak] = peakBandwidthGBs;
    }
    return r;
}

ProbeMeasurement ProbeMeasurement::fromRecorded(const RecordedMeasurement& recorded) {
    ProbeMeasurement m;
    m.recorded = true;
    m.gpuName = QString::fromStdString(recorded.gpu);
    m.computeCapability = QString::fromStdString(recorded.computeCapability);
    m.driverVersion = QString::fromStdString(recorded.driver);
    m.gpuUuid = QString::fromStdString(recorded.gpuUuid);
    m.probeVersion = QString::fromStdString(recorded.probeVersion);
    m.date = QDateTime::fromString(QString::fromStdString(recorded.date), Qt::ISODate);
    for (const auto& [name, value] : recorded.metrics) {
        if (name.rfind("warpscope__", 0) != 0 && !std::isnan(value)) {
            m.counters[name] = value;
        }
    }
    // Sessions written by hand may lack the flag: counters present means counters measured.
    m.countersMeasured =
        metricAt(recorded, kCountersMeasured).value_or(m.counters.empty() ? 0 : 1) != 0;
    if (!m.countersMeasured) {
        m.counters.clear();
        m.countersUnavailableReason = QObject::tr("counters were not measured");
    }
    m.coldCycles = metricAt(recorded, kColdCycles);
    m.warmCycles = metricAt(recorded, kWarmCycles);
    m.coldNs = metricAt(recorded, kColdNs);
    m.warmNs = metricAt(recorded, kWarmNs);
    m.smClockKHz = metricAt(recorded, kSmClock);
    m.gridKernelMs = metricAt(recorded, kGridMs);
    m.gridBytesRequested = metricAt(recorded, kGridBytes);
    m.gridEffectiveBandwidthGBs = metricAt(recorded, kGridEffective);
    m.gridMovedBandwidthGBs = metricAt(recorded, kGridMoved);
    m.peakBandwidthGBs = metricAt(recorded, kPeak).value_or(0);
    return m;
}

std::optional<double> ProbeMeasurement::counter(const std::string& name) const {
    if (!countersMeasured) {
        return std::nullopt;
    }
    const auto it = counters.find(name);
    if (it == counters.end()) {
        return std::nullopt;
    }
    return it->second;
}

std::optional<double> ProbeMeasurement::bandwidthSharePercent() const {
    if (!gridEffectiveBandwidthGBs || peakBandwidthGBs <= 0) {
        return std::nullopt;
    }
    return *gridEffectiveBandwidthGBs / peakBandwidthGBs * 100.0;
}

QString ProbeMeasurement::provenance() const {
    QStringList parts;
    parts << (gpuName.isEmpty() ? QObject::tr("an unnamed GPU") : gpuName);
    if (!computeCapability.isEmpty()) {
        parts << QObject::tr("cc %1").arg(computeCapability);
    }
    if (!driverVersion.isEmpty()) {
        parts << QObject::tr("driver %1").arg(driverVersion);
    }
    if (date.isValid()) {
        parts << date.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    }
    return parts.join(QStringLiteral(" · "));
}

std::vector<CounterComparison> compareWithModel(const ModernPrediction& prediction,
                                                const ProbeMeasurement& measurement) {
    std::vector<CounterComparison> out;
    const std::vector<Metric> metrics = modernMetrics(prediction);
    auto predicted = [&](const std::string& name) {
        for (const Metric& metric : metrics) {
            if (metric.name == name) {
                return metric.value;
            }
        }
        return 0.0;
    };
    const auto add = [&](const QString& quantity, const std::string& counter) {
        out.push_back({quantity, counter, predicted(counter), measurement.counter(counter)});
    };
    if (prediction.kind.space == MemorySpace::Constant) {
        // No l1tex counter counts a constant load (the shared ones nsightCountersFor() falls back
        // to would read 0 = 0): its serialisation is what the probe's counters give.
        add(QObject::tr("requests beyond a broadcast"), "warpscope__constant_extra_requests");
        return out;
    }
    const AccessCounters counters = nsightCountersFor(prediction.kind);
    if (usesSectors(prediction.kind.space)) {
        add(QObject::tr("requests"), counters.first);
        add(QObject::tr("sectors"), counters.second);
    } else {
        add(QObject::tr("wavefronts"), counters.first);
        add(QObject::tr("bank conflicts"), counters.second);
    }
    return out;
}

bool measuredPerKernelOnly(const AccessKind& kind) {
    return kind.space == MemorySpace::Constant || kind.space == MemorySpace::Local ||
           kind.space == MemorySpace::Texture || kind.op == AccessOp::CopyAsync;
}

MeasurementMark kernelOnlyMark(const AccessKind& kind) {
    MeasurementMark mark;
    if (!measuredPerKernelOnly(kind)) {
        return mark;
    }
    const QString what = kind.op == AccessOp::CopyAsync        ? QObject::tr("asynchronous copies")
                         : kind.space == MemorySpace::Constant ? QObject::tr("constant loads")
                         : kind.space == MemorySpace::Local    ? QObject::tr("local accesses")
                                                               : QObject::tr("texture reads");
    mark.text = QObject::tr("No single-warp GPU run: %1 exist only in a kernel — measured per "
                            "kernel: Run the Sweep on the GPU (Shift+F5), counters in the Kernel "
                            "rows")
                    .arg(what);
    mark.shortText = QObject::tr("per kernel: Shift+F5");
    return mark;
}

MeasurementMark measurementMark(const ModernPrediction& prediction,
                                const ProbeMeasurement* measurement) {
    MeasurementMark mark;
    if (measurement == nullptr) {
        return mark;
    }
    mark.recorded = measurement->recorded;
    mark.fromCache = measurement->fromCache;
    const QString where =
        measurement->recorded ? QObject::tr("%1 (recorded)").arg(measurement->gpuName)
        : measurement->fromCache
            ? QObject::tr("%1 (measured earlier, from the cache)").arg(measurement->gpuName)
            : measurement->gpuName;
    if (!measurement->countersMeasured) {
        mark.text = QObject::tr("GPU timing only, no counters — %1").arg(where);
        mark.shortText = QObject::tr("GPU timing only");
        return mark;
    }
    QStringList mismatches;
    QStringList shortMismatches;
    QStringList matches;
    for (const CounterComparison& c : compareWithModel(prediction, *measurement)) {
        const QString predicted = QLocale::c().toString(c.predicted, 'g', 12);
        if (!c.measured) {
            mismatches << QObject::tr("%1 not counted").arg(c.quantity);
            shortMismatches << QObject::tr("%1 not counted").arg(c.quantity);
        } else if (c.matches()) {
            matches << QObject::tr("%1 %2").arg(c.quantity, predicted);
        } else {
            mismatches << QObject::tr("%1 %2 measured, %3 predicted")
                              .arg(c.quantity, QLocale::c().toString(*c.measured, 'g', 12),
                                   predicted);
            shortMismatches << QObject::tr("%1 %2 ≠ %3")
                                   .arg(c.quantity, QLocale::c().toString(*c.measured, 'g', 12),
                                        predicted);
        }
    }
    if (!mismatches.isEmpty()) {
        mark.mismatch = true;
        // The verdict first: a narrow view elides the GPU's name, not the numbers.
        mark.text = QObject::tr("⚠ GPU differs: %1 — %2")
                        .arg(mismatches.join(QStringLiteral(" · ")), where);
        mark.shortText = QObject::tr("⚠ GPU: %1").arg(shortMismatches.join(QStringLiteral(" · ")));
    } else {
        mark.text =
            QObject::tr("✓ GPU agrees: %1 — %2").arg(matches.join(QStringLiteral(" · ")), where);
        mark.shortText = QObject::tr("✓ GPU agrees");
    }
    return mark;
}

MeasurementStore::MeasurementStore(QObject* parent) : QObject(parent) {}

std::string MeasurementStore::keyOf(const Pattern& pattern) {
    return patternToJsonText(NamedPattern{{}, {}, pattern});
}

void MeasurementStore::put(const Pattern& pattern, const ProbeMeasurement& measurement) {
    m_measurements[keyOf(pattern)] = measurement;
    emit changed();
}

const ProbeMeasurement* MeasurementStore::find(const Pattern& pattern) const {
    const auto it = m_measurements.find(keyOf(pattern));
    return it == m_measurements.end() ? nullptr : &it->second;
}

void MeasurementStore::clear() {
    m_measurements.clear();
    emit changed();
}

void MeasurementStore::fillSession(Session& session) const {
    for (SessionEntry& entry : session.entries) {
        entry.measurements.clear();
        if (const ProbeMeasurement* m = find(entry.pattern.pattern)) {
            entry.measurements.push_back(m->toRecorded());
        }
    }
}

void MeasurementStore::takeFromSession(const Session& session) {
    for (const SessionEntry& entry : session.entries) {
        if (!entry.measurements.empty()) {
            // The last one is the newest: the app writes one, a hand-made file may list several.
            m_measurements[keyOf(entry.pattern.pattern)] =
                ProbeMeasurement::fromRecorded(entry.measurements.back());
        }
    }
    emit changed();
}

} // namespace warpscope::app
