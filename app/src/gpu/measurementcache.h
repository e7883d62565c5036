// MeasurementCache: the probe's answers kept by what the GPU actually ran, so that a value already
// measured shows its overlay again at once (a slider dragged back and forth, values measured
// ahead of a drag). The key is the resolved access (space, op, width, cache path and the 32 lane
// addresses), the measurement options and where it was measured: the device (GpuInfo and the
// probe command that reached it) and the probe's build. An entry of another device or another
// probe build is never returned for this one. Measurements over the whole grid depend on more
// than the access and are not kept.
#pragma once

#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"

#include <warpscope/pattern.h>

#include <QString>

#include <cstddef>
#include <deque>
#include <map>
#include <string>

namespace warpscope::app {

class MeasurementCache {
public:
    /// At most this many entries; the oldest go first.
    explicit MeasurementCache(std::size_t capacity = 4096) : m_capacity(capacity) {}

    /// Where a measurement comes from: the GPU (its index and UUID among them), the probe command
    /// that reached it and the probe's version and build (hello). Two measurements are
    /// interchangeable only with the same origin.
    static QString originOf(const GpuInfo& gpu, const QString& probeCommand,
                            const QString& probeBuild);

    /// The key of `access` measured with `options` at `origin`; empty when such a measurement is
    /// not kept (grid measurements).
    static std::string keyOf(const WarpAccess& access, const ProbeMeasureOptions& options,
                             const QString& origin);

    /// Keeps `measurement` (as measured, not marked as cached); grid measurements are ignored.
    void put(const WarpAccess& access, const ProbeMeasureOptions& options, const QString& origin,
             const ProbeMeasurement& measurement);
    /// The measurement of `access` with `options` at `origin`, marked fromCache; nullopt when
    /// none is kept for exactly that origin.
    std::optional<ProbeMeasurement>
    find(const WarpAccess& access, const ProbeMeasureOptions& options, const QString& origin) const;
    bool contains(const WarpAccess& access, const ProbeMeasureOptions& options,
                  const QString& origin) const;

    int size() const { return static_cast<int>(m_entries.size()); }
    void clear();

private:
    std::size_t m_capacity;
    std::map<std::string, ProbeMeasurement> m_entries;
    std::deque<std::string> m_order; // insertion order, for eviction
};

} // namespace warpscope::app
