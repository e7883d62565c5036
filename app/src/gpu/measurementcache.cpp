// MeasurementCache: keys built from the resolved access, the options and the origin.
#include "gpu/measurementcache.h"

#include <warpscope/file_format.h>

#include <QStringList>

namespace warpscope::app {

QString MeasurementCache::originOf(const GpuInfo& gpu, const QString& probeCommand,
                                   const QString& probeBuild) {
    // The device index and UUID keep two identical GPUs of one machine apart.
    return QStringList{gpu.name,
                       gpu.computeCapability,
                       QString::number(gpu.smCount),
                       gpu.driverVersion,
                       QString::number(gpu.index),
                       gpu.uuid,
                       probeCommand,
                       probeBuild}
        .join(QChar(0x1f));
}

std::string MeasurementCache::keyOf(const WarpAccess& access, const ProbeMeasureOptions& options,
                                    const QString& origin) {
    if (options.grid) {
        return {};
    }
    const AccessKind& kind = access.kind;
    std::string key = origin.toStdString();
    key += '\x1e';
    key += std::to_string(static_cast<int>(kind.space)) + ',' +
           std::to_string(static_cast<int>(kind.op)) + ',' + std::to_string(kind.widthBytes) + ',' +
           std::to_string(static_cast<int>(kind.cache));
    key += '\x1e';
    for (const auto& address : access.addresses) {
        key += address ? std::to_string(*address) : std::string("-");
        key += ',';
    }
    key += '\x1e';
    key += std::string(options.counters ? "c" : "") + (options.latency ? "l" : "") + "r" +
           std::to_string(options.repetitions);
    for (const std::string& name : options.counterNames) {
        key += ',' + name;
    }
    return key;
}

void MeasurementCache::put(const WarpAccess& access, const ProbeMeasureOptions& options,
                           const QString& origin, const ProbeMeasurement& measurement) {
    const std::string key = keyOf(access, options, origin);
    if (key.empty() || measurement.recorded) {
        return;
    }
    ProbeMeasurement kept = measurement;
    kept.fromCache = false;
    const auto [it, inserted] = m_entries.insert_or_assign(key, std::move(kept));
    (void)it;
    if (inserted) {
        m_order.push_back(key);
    }
    while (m_entries.size() > m_capacity && !m_order.empty()) {
        m_entries.erase(m_order.front());
        m_order.pop_front();
    }
}

std::optional<ProbeMeasurement> MeasurementCache::find(const WarpAccess& access,
                                                       const ProbeMeasureOptions& options,
                                                       const QString& origin) const {
    const std::string key = keyOf(access, options, origin);
    if (key.empty()) {
        return std::nullopt;
    }
    const auto it = m_entries.find(key);
    if (it == m_entries.end()) {
        return std::nullopt;
    }
    ProbeMeasurement found = it->second;
    found.fromCache = true;
    return found;
}

bool MeasurementCache::contains(const WarpAccess& access, const ProbeMeasureOptions& options,
                                const QString& origin) const {
    const std::string key = keyOf(access, options, origin);
    return !key.empty() && m_entries.count(key) != 0;
}

void MeasurementCache::clear() {
    m_entries.clear();
    m_order.clear();
}

} // namespace warpscope::app
