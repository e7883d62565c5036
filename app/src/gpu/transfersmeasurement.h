// Host and device transfers as the app holds them: measure_transfers' answer (docs/protocol.md)
// read into curves, one per mode (pageable and pinned copies, both directions, the notes'
// sumArrays over device, zero-copy and managed memory), the notes' own figures (Figure 4-3:
// device memory at 144 GB/s, the PCIe Gen2 bus at 8 GB/s), and the summary the Transfers view
// prints under its chart, computed from the numbers. No widgets here.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

namespace warpscope::app {

struct TransferPointData {
    qint64 bytes = 0; // the size: bytes of one buffer or array
    double medianMs = 0.0;
    double minMs = 0.0;
    double maxMs = 0.0;
    int samples = 0;
    double bandwidthGBs = 0.0; // bytesFactor x bytes / median, GB/s
};

struct TransferCurveData {
    QString mode;   // the protocol's name: h2d_pinned, sum_zerocopy, ...
    QString label;  // "H2D pinned"
    QString counts; // what its GB/s counts, in words
    int bytesFactor = 1;
    std::vector<TransferPointData> points; // ascending sizes

    /// The point of this size, or null.
    const TransferPointData* at(qint64 bytes) const;
};

struct TransferResults {
    QString device;
    QString link; // the probe's description of the link ("PCIe 5.0 x16 (63.0 GB/s ...)")
    double linkTheoreticalGBs = 0.0;
    double deviceCopyBandwidthGBs = 0.0; // device-to-device copy, read + written
    int repetitions = 0;
    QString capped; // why sizes were left out, or empty
    std::vector<TransferCurveData> curves;
    /// The answer as read, kept whole for the session.
    QJsonObject answer;

    const TransferCurveData* curve(const QString& mode) const;
};

/// Reads measure_transfers' result object. Nullopt with `error` naming what is wrong (and where)
/// for anything else.
std::optional<TransferResults> transferResultsFromJson(const QJsonObject& result, QString* error);

/// Reads a file of recorded results: a result object, a protocol answer line
/// ({"id", "ok", "result"}), or what scripts/gpu/transfers_summary.py records ({"runs": [...]}:
/// the first run).
std::optional<TransferResults> readTransferResults(const QByteArray& bytes, QString* error);

/// The course notes' figures (Figure 4-3, their Fermi-era machine).
struct NotesTransferFigures {
    static constexpr double deviceMemoryGBs = 144.0; // GDDR5, theoretical
    static constexpr double pcieGBs = 8.0;           // PCIe Gen2 between CPU and GPU
};

struct TransferSummary {
    qint64 atBytes = 0; // the size the ratios are taken at (the largest measured by all)
    std::optional<double> pinnedOverPageable;    // H2D pinned / H2D pageable bandwidth
    std::optional<double> zeroCopyShareOfPinned; // sum_zerocopy / H2D pinned, 0..1+
    std::optional<double> deviceOverLink;        // device copy bandwidth / H2D pinned
    double linkGBs = 0.0;                        // H2D pinned at atBytes
    /// The sentences under the chart. Without results: the notes' figures and what Run does.
    QString text;
};

/// The summary of `results`, or of the notes alone when `results` is null.
TransferSummary summarizeTransfers(const TransferResults* results);

/// "4 KiB", "256 MiB", "1 GiB".
QString formatTransferBytes(qint64 bytes);

} // namespace warpscope::app
