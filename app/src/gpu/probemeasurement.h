// What warpscope-probe measured for one pattern, as the app keeps it: the GPU's counters under
// their Nsight Compute names, the single-warp latency, the grid's bandwidth, and the GPU it came
// from. A measurement is either live (answered by the probe in this run) or recorded (read from a
// session, so a lecture prepared on a GPU machine still shows its numbers on a laptop). The
// MeasurementStore keeps every pattern's latest measurement, keyed by the pattern itself, so an
// undo brings its measurement back and a session saves each entry's with it.
#pragma once

#include <warpscope/file_format.h>
#include <warpscope/model.h>
#include <warpscope/pattern.h>
#include <warpscope/protocol/device_info.h>
#include <warpscope/protocol/pattern_measurement.h>

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QString>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::app {

/// The probe's device_info answer, as the panel and the status bar show it.
struct GpuInfo {
    QString name;
    QString computeCapability; // "9.0"
    QString driverVersion;     // the CUDA version the driver supports, "13.0"
    int smCount = 0;
    double theoreticalBandwidthGBs = 0;
    /// A device-to-device copy: the practical peak the grid bandwidth is compared with.
    double measuredCopyBandwidthGBs = 0;
    bool countersAvailable = false;
    QString countersUnavailableReason;
    // Which device of its machine (device_info's index, uuid, busId, link) and the probe that
    // answered (hello's version).
    int index = 0;
    QString uuid;
    QString busId;
    QString link;
    qint64 memoryBytes = 0;
    QString probeVersion;

    /// The device as core's protocol reads it from the probe's answer.
    static GpuInfo fromDevice(const protocol::DeviceInfo& device);
    /// A device object (a recorded answer's "device"); empty when it cannot be read.
    static GpuInfo fromJson(const QJsonObject& result);
    /// "GPU 1 · NVIDIA H200": a column's name when two GPUs are compared.
    QString label() const;
    /// "NVIDIA H100 80GB HBM3 (compute capability 9.0)".
    QString describe() const;
};

/// An answer's text, for core's guarded readers of the probe's answers (warpscope/protocol/):
/// the app reads them into core's types once, at the boundary.
std::string compactJsonText(const QJsonObject& object);
/// The other way: an object core's protocol wrote (a request's options, a session's record).
QJsonObject qtJsonObject(const nlohmann::json& object);

struct ProbeMeasurement {
    std::map<std::string, double> counters;
    bool countersMeasured = false;
    QString countersUnavailableReason;

    // Single-warp latency (medians), when measured.
    std::optional<double> coldCycles;
    std::optional<double> warmCycles;
    std::optional<double> coldNs;
    std::optional<double> warmNs;
    std::optional<double> smClockKHz;

    // The expression over the whole grid, when measured.
    std::optional<double> gridKernelMs;
    std::optional<double> gridBytesRequested;
    std::optional<double> gridEffectiveBandwidthGBs;
    std::optional<double> gridMovedBandwidthGBs;

    // Where and when.
    QString gpuName;
    QString computeCapability;
    QString driverVersion;
    QString gpuUuid;             // the device exactly, empty when unknown
    QString probeVersion;        // the probe's build
    double peakBandwidthGBs = 0; // the GPU's measured copy bandwidth at the time
    QDateTime date;
    /// Read from a session rather than measured in this run.
    bool recorded = false;
    /// Measured earlier in this run (ahead of a drag, or before) and taken from the
    /// MeasurementCache instead of the GPU just now.
    bool fromCache = false;

    /// A measure answer's `result` (docs/protocol.md, "The measurement object"), as core's
    /// protocol reads it, on `gpu`.
    static ProbeMeasurement fromMeasured(const protocol::PatternMeasurement& measured,
                                         const GpuInfo& gpu, const QDateTime& date);
    /// The same from the answer's JSON (a recorded answer); empty when it cannot be read.
    static ProbeMeasurement fromProbeResult(const QJsonObject& result, const GpuInfo& gpu,
                                            const QDateTime& date);
    RecordedMeasurement toRecorded() const;
    static ProbeMeasurement fromRecorded(const RecordedMeasurement& recorded);

    /// A counter's value, if it was measured.
    std::optional<double> counter(const std::string& name) const;
    /// The effective grid bandwidth as a share of the measured peak, in percent.
    std::optional<double> bandwidthSharePercent() const;
    /// "NVIDIA H100 80GB HBM3 · cc 9.0 · driver 13.0 · 2026-11-21 14:03".
    QString provenance() const;
};

/// One counter compared with the modern model.
struct CounterComparison {
    QString quantity; // "sectors", "wavefronts", ...
    std::string counter;
    double predicted = 0;
    std::optional<double> measured;
    bool matches() const { return measured && *measured == predicted; }
};

/// The counters of `measurement` that the modern model predicts for `prediction`'s access (the
/// requests and sectors of global memory, the wavefronts and bank conflicts of shared memory, the
/// requests beyond a broadcast of a constant load).
std::vector<CounterComparison> compareWithModel(const ModernPrediction& prediction,
                                                const ProbeMeasurement& measurement);

/// What the warp and bank views print about a measurement: empty when there is none.
struct MeasurementMark {
    QString text;
    /// The verdict alone, for a view with little room: "✓ GPU agrees", "⚠ GPU: sectors 6 ≠ 5".
    QString shortText;
    bool mismatch = false;
    bool recorded = false;
    bool fromCache = false;
    bool isEmpty() const { return text.isEmpty(); }
};

MeasurementMark measurementMark(const ModernPrediction& prediction,
                                const ProbeMeasurement* measurement);

/// Constant, local and texture accesses and asynchronous copies (cp.async) exist only inside a
/// kernel: the probe's single-warp `measure` cannot replay them, measure_kernel measures them.
bool measuredPerKernelOnly(const AccessKind& kind);
/// The badge for such an access: why no single-warp measurement exists and where the kernel's
/// measurement is (Run the Sweep on the GPU; its counters in the metrics panel's Kernel rows).
MeasurementMark kernelOnlyMark(const AccessKind& kind);

/// Every pattern's latest measurement.
class MeasurementStore : public QObject {
    Q_OBJECT
public:
    explicit MeasurementStore(QObject* parent = nullptr);

    void put(const Pattern& pattern, const ProbeMeasurement& measurement);
    const ProbeMeasurement* find(const Pattern& pattern) const;
    void clear();
    int size() const { return static_cast<int>(m_measurements.size()); }

    /// Each entry's measurement, as the session saves it.
    void fillSession(Session& session) const;
    /// Take the measurements a session recorded (marked recorded).
    void takeFromSession(const Session& session);

signals:
    void changed();

private:
    static std::string keyOf(const Pattern& pattern);
    std::map<std::string, ProbeMeasurement> m_measurements;
};

} // namespace warpscope::app
