// Transfers: measure_transfers' answer read, and the summary under the chart.
#include "gpu/transfersmeasurement.h"

#include <warpscope/format.h>

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace warpscope::app {

namespace {

constexpr const char* kContext = "TransfersMeasurement";

QString tr(const char* text) {
    return QCoreApplication::translate(kContext, text);
}

/// A ratio with two significant figures at most: "6.7", "53", "0.52".
QString ratioText(double value) {
    return value >= 10.0 ? fixedNumber(value, 0) : fixedNumber(value, value >= 1.0 ? 1 : 2);
}

} // namespace

std::optional<TransferResults> transferResultsFromJson(const QJsonObject& result, QString* error) {
    return readThroughCore<TransferResults>(result, experiments::transferMeasurementFromJsonText,
                                            error);
}

std::optional<TransferResults> readTransferResults(const QByteArray& bytes, QString* error) {
    const std::optional<QJsonObject> object =
        recordedResultObject(bytes, kContext, RunsRecord::Read, error);
    if (!object) {
        return std::nullopt;
    }
    return transferResultsFromJson(*object, error);
}

QString formatTransferBytes(qint64 bytes) {
    return QString::fromStdString(warpscope::formatBytes(bytes)); // as the probe writes sizes
}

TransferSummary summarizeTransfers(const TransferResults* results) {
    TransferSummary summary;
    const double notesRatio = NotesTransferFigures::deviceMemoryGBs / NotesTransferFigures::pcieGBs;
    const QString notes =
        tr("The notes' machine (Figure 4-3): device memory at %1 GB/s, the PCIe "
           "Gen2 bus at %2 GB/s, %3× apart.")
            .arg(fixedNumber(NotesTransferFigures::deviceMemoryGBs, 0),
                 fixedNumber(NotesTransferFigures::pcieGBs, 0), ratioText(notesRatio));
    using experiments::TransferCurve;
    using experiments::TransferMode;
    const experiments::TransferMeasurement* measured = results ? &results->measurement : nullptr;
    const TransferCurve* pinned = measured ? measured->curve(TransferMode::H2dPinned) : nullptr;
    if (results == nullptr || pinned == nullptr || pinned->points.empty()) {
        summary.text =
            notes + QLatin1Char(' ') +
            (results == nullptr
                 ? tr("Nothing measured here yet: with a GPU, Measure transfers times copies from "
                      "pageable and pinned host memory and the sumArrays kernel over device, "
                      "zero-copy and managed memory, and draws them against these lines.")
                 : tr("These results hold no pinned host-to-device copies to compare with."));
        return summary;
    }
    const TransferCurve* pageable = measured->curve(TransferMode::H2dPageable);
    const TransferCurve* zeroCopy = measured->curve(TransferMode::SumZeroCopy);
    // The largest size pinned copies were measured at (where the others have it too, if any).
    std::int64_t size = pinned->points.back().bytes;
    for (auto it = pinned->points.rbegin(); it != pinned->points.rend(); ++it) {
        if ((!pageable || pageable->at(it->bytes)) && (!zeroCopy || zeroCopy->at(it->bytes))) {
            size = it->bytes;
            break;
        }
    }
    summary.atBytes = size;
    const double link = pinned->at(size)->bandwidthGBs;
    summary.linkGBs = link;
    QStringList parts;
    if (pageable != nullptr && pageable->at(size) && pageable->at(size)->bandwidthGBs > 0) {
        summary.pinnedOverPageable = link / pageable->at(size)->bandwidthGBs;
        parts << tr("pinned copies are %1× faster than pageable here")
                     .arg(ratioText(*summary.pinnedOverPageable));
    }
    if (zeroCopy != nullptr && zeroCopy->at(size) && link > 0) {
        summary.zeroCopyShareOfPinned = zeroCopy->at(size)->bandwidthGBs / link;
        parts << tr("zero-copy reads reach %1 % of pinned copy bandwidth")
                     .arg(fixedNumber(100.0 * *summary.zeroCopyShareOfPinned, 0));
    }
    if (measured->deviceCopyBandwidthGBs > 0 && link > 0) {
        summary.deviceOverLink = measured->deviceCopyBandwidthGBs / link;
        parts << tr("the device's own memory is %1× the link (%2 GB/s against %3 GB/s)")
                     .arg(ratioText(*summary.deviceOverLink),
                          fixedNumber(measured->deviceCopyBandwidthGBs, 0), fixedNumber(link, 1));
    }
    QString text = parts.join(QStringLiteral("; "));
    if (!text.isEmpty()) {
        text = tr("At %1, host to device: %2.").arg(formatTransferBytes(size), text);
    }
    summary.text = text + QLatin1Char(' ') + notes;
    return summary;
}

} // namespace warpscope::app
