// KernelMeasurement: one whole kernel as the probe's measure_kernel measured it (docs/protocol.md,
// "measure_kernel"), and KernelMeasurementStore, the session's record of them keyed by kernel
// preset and parameter point, so the notes-vs-GPU view can draw what was measured earlier or
// recorded on another machine (an H100's answers in tests/data).
#pragma once

#include "gpu/probemeasurement.h"

#include <warpscope/per_instruction.h>

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

struct KernelAccessMeasurement {
    QString label;
    QString op;    // "load", "store"
    QString space; // "global", "shared"
    int width = 0;
    double requests = 0;
    double sectors = 0;
    double wavefronts = 0;
    double bankConflicts = 0;
    double bytesRequested = 0;
    /// Constant loads: the grid model's constant-cache requests (each warp's distinct addresses).
    double constantAddresses = 0;
};

struct KernelMeasurement {
    QString kernelName;
    KernelPoint parameters;
    /// Kernel-level counters under ncu names (empty when not measured) and the grid model's
    /// totals sent back with them (`predicted`).
    std::map<std::string, double> counters;
    std::map<std::string, double> predicted;
    bool countersMeasured = false;
    QString countersUnavailableReason;
    std::vector<KernelAccessMeasurement> accesses;
    /// measure_kernel's per_instruction option (docs/protocol.md): each access's own SASS
    /// instruction counts beside the model's and the hardware's, as core reads the answer's
    /// rows; how they were measured, or why not. perInstructionJson is the answer's object,
    /// empty when the option was not asked for.
    QJsonObject perInstructionJson;
    std::vector<PerInstructionRow> perInstructionRows;
    QString perInstructionSource;
    QString perInstructionUnavailableReason;

    std::optional<double> kernelMsMedian;
    std::optional<double> spreadPct;
    bool cold = true;
    std::optional<double> bytesRequested;
    std::optional<double> effectiveBandwidthGBs;
    std::optional<double> copyBandwidthGBs;
    std::optional<double> theoreticalBandwidthGBs;
    std::optional<double> shareOfCopyPct;
    std::optional<double> shareOfTheoreticalPct;

    QString gpuName;
    // Which device exactly, and what measured it (empty / -1 when unknown: older records).
    QString gpuUuid;
    int gpuIndex = -1;
    QString driverVersion;
    QString probeVersion;
    QDateTime measuredAt;
    /// Read from a session or a file of recorded answers, not measured in this run of the app.
    bool recorded = false;

    /// One answer of measure_kernel (a `result`, or one of its `measurements`).
    static KernelMeasurement fromProbeResult(const QJsonObject& result, const GpuInfo& gpu,
                                             const QDateTime& when);
    QJsonObject toJson() const;
    static KernelMeasurement fromJson(const QJsonObject& object);

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
