// KernelMeasurement: one whole kernel as the probe's measure_kernel measured it (docs/protocol.md,
// "measure_kernel"; the type and its JSON are core's, warpscope/protocol/kernel_measurement.h),
// with the GPU it was measured on, and KernelMeasurementStore, the session's record of them keyed
// by kernel preset and parameter point, so the notes-vs-GPU view can draw what was measured earlier
// or recorded on another machine (an H100's answers in tests/data).
#pragma once

#include "gpu/probemeasurement.h"

#include <warpscope/per_instruction.h>
#include <warpscope/protocol/kernel_measurement.h>
#include <warpscope/result.h>

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::app {

/// Parameter name -> value: a point of a kernel preset ({"bx": 8, "by": 32}).
using KernelPoint = std::map<std::string, std::int64_t>;

/// "bx=8, by=32": the key and the label of a point.
QString kernelPointText(const KernelPoint& point);

/// One access of a measured kernel: what it is and the grid model's counts for it (core's).
using protocol::KernelAccessMeasurement;

/// A whole kernel's measurement as the app keeps it: the probe's answer as core's protocol reads
/// it, the per-instruction rows read from it, and the GPU and time it was measured on.
struct KernelMeasurement : protocol::KernelMeasurement {
    /// perInstruction's rows as core reads them (empty without the option, or unreadable: then
    /// perInstructionUnavailableReason() says why).
    std::vector<PerInstructionRow> perInstructionRows;
    QString perInstructionRowsError;

    QString gpuName;
    // Which device exactly, and what measured it (empty / -1 when unknown: older records).
    QString gpuUuid;
    int gpuIndex = -1;
    QString driverVersion;
    QString probeVersion;
    QDateTime measuredAt;
    /// Read from a session or a file of recorded answers, not measured in this run of the app.
    bool recorded = false;

    /// One answer of measure_kernel as core read it, measured on `gpu` at `when`.
    static KernelMeasurement fromMeasured(protocol::KernelMeasurement measured, const GpuInfo& gpu,
                                          const QDateTime& when);
    /// The same from the answer's JSON (a `result`, one of its `measurements`, or a recorded
    /// answer), read by core's guarded reader: an error names the field.
    static Result<KernelMeasurement> fromProbeResult(const QJsonObject& result, const GpuInfo& gpu,
                                                     const QDateTime& when);
    /// A session's record: the answer's JSON and the GPU and time ("gpu", "gpuUuid", "gpuIndex",
    /// "driver", "probeVersion", "measuredAt").
    QJsonObject toJson() const;
    static Result<KernelMeasurement> fromJson(const QJsonObject& object);

    /// The median of the timed launches; empty when not timed.
    std::optional<double> kernelMsMedian() const;
    /// Why the per-instruction counts are missing: the probe's reason, or why the rows could not
    /// be read.
    QString perInstructionUnavailableReason() const;
    QString perInstructionSource() const;

    /// Bytes requested by the active lanes of the global loads (or stores) over the measured
    /// sectors of them, in percent: nvprof's gld_efficiency / gst_efficiency on this GPU. Empty
    /// without counters.
    std::optional<double> globalEfficiencyPct(bool loads) const;

    /// "GPU 1 · NVIDIA H200" (the name alone when the index is unknown): a column's name.
    QString gpuLabel() const;
    /// What tells two GPUs apart: the UUID, else the name and index.
    QString gpuKey() const;
};

class KernelMeasurementStore : public QObject {
    Q_OBJECT
public:
    explicit KernelMeasurementStore(QObject* parent = nullptr);

    /// Record `measurement` of preset `presetId` at its parameters. What it lacks (counters, or
    /// timing) is kept from an earlier record of the same point.
    void put(const QString& presetId, const KernelMeasurement& measurement);
    const KernelMeasurement* find(const QString& presetId, const KernelPoint& point) const;
    /// The point's latest measurement on every GPU it was measured on (ordered by device index,
    /// then name): two GPUs compared side by side.
    std::vector<const KernelMeasurement*> findAll(const QString& presetId,
                                                  const KernelPoint& point) const;
    int size() const { return static_cast<int>(m_entries.size()); }
    void clear();

    /// Every record as a JSON array (for sessions) and back.
    QJsonArray toJson() const;
    void takeJson(const QJsonArray& array);

    /// Read recorded answers, one JSON object per line: either {"id": PRESET, "answer": RESULT}
    /// (a measure_kernel result), or {"id": PRESET, "point": {...}, "effectiveBandwidthGBs": ..,
    /// "kernelMs": {"median": ..}, ...} (one timed point). Several lines of one point keep the
    /// median bandwidth. `gpuName` names the GPU they were measured on. Returns how many points
    /// were read, or an error naming the line.
    std::optional<QString> importJsonLines(const QByteArray& text, const QString& gpuName,
                                           int* pointsRead = nullptr);

signals:
    void changed();

private:
    static QString keyOf(const QString& presetId, const KernelPoint& point);
    std::map<QString, std::pair<QString, KernelMeasurement>> m_entries; // the latest per point
    /// Per point, the latest measurement of each GPU (gpuKey()), the latest overall included.
    std::map<QString, std::map<QString, std::pair<QString, KernelMeasurement>>> m_byGpu;
};

} // namespace warpscope::app
