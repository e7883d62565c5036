// Host and device transfers as the app holds them: measure_transfers' answer (docs/protocol.md)
// read through core's reader into core's curves (warpscope/experiments/transfers.h), the notes'
// own figures (Figure 4-3: device memory at 144 GB/s, the PCIe Gen2 bus at 8 GB/s), and the
// summary the Transfers view prints under its chart, computed from the numbers. No widgets here.
#pragma once

#include "gpu/experimentresults.h"

#include <warpscope/experiments/transfers.h>

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

namespace warpscope::app {

/// measure_transfers' result in core's types, and the answer it was read from.
using TransferResults = ExperimentResults<experiments::TransferMeasurement>;

/// Reads measure_transfers' result object through core's reader. Nullopt with `error` naming
/// what is wrong and where (its JSON pointer) for anything else.
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
