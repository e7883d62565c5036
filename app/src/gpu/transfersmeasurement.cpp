// Transfers: measure_transfers' answer read, and the summary under the chart.
#include "gpu/transfersmeasurement.h"

#include "gpu/experimentresults.h"

#include <warpscope/format.h>

#include <QCoreApplication>
#include <QJsonArray>

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

const TransferPointData* TransferCurveData::at(qint64 bytes) const {
    const auto found = std::ranges::find(points, bytes, &TransferPointData::bytes);
    return found != points.end() ? &*found : nullptr;
}

const TransferCurveData* TransferResults::curve(const QString& mode) const {
    const auto found = std::ranges::find(curves, mode, &TransferCurveData::mode);
    return found != curves.end() ? &*found : nullptr;
}

std::optional<TransferResults> transferResultsFromJson(const QJsonObject& result, QString* error) {
    const auto fail = [&](const QString& message) {
        return refuseResults<TransferResults>(error, message);
    };
    TransferResults results;
    results.answer = result;
    results.device = result.value(QStringLiteral("device")).toString();
    const QJsonObject link = result.value(QStringLiteral("link")).toObject();
    results.link = link.value(QStringLiteral("description")).toString();
    results.linkTheoreticalGBs = link.value(QStringLiteral("theoreticalGBs")).toDouble();
    results.deviceCopyBandwidthGBs =
        result.value(QStringLiteral("deviceCopyBandwidthGBs")).toDouble();
    results.repetitions = result.value(QStringLiteral("repetitions")).toInt();
    results.capped = result.value(QStringLiteral("capped")).toString();
    const QJsonValue curves = result.value(QStringLiteral("curves"));
    if (!curves.isArray()) {
        return fail(tr("the transfer results have no \"curves\" array"));
    }
    const QJsonArray list = curves.toArray();
    for (int c = 0; c < list.size(); ++c) {
        const QJsonObject object = list.at(c).toObject();
        TransferCurveData curve;
        curve.mode = object.value(QStringLiteral("mode")).toString();
        curve.label = object.value(QStringLiteral("label")).toString(curve.mode);
        curve.counts = object.value(QStringLiteral("counts")).toString();
        curve.bytesFactor = object.value(QStringLiteral("bytesFactor")).toInt(1);
        if (curve.mode.isEmpty()) {
            return fail(tr("/curves/%1: a curve needs a \"mode\"").arg(c));
        }
        const QJsonArray points = object.value(QStringLiteral("points")).toArray();
        for (int p = 0; p < points.size(); ++p) {
            const QJsonObject point = points.at(p).toObject();
            TransferPointData data;
            double bytes = 0.0;
            double samples = 0.0;
            if (!readFiniteNumber(point, "bytes", bytes) || bytes <= 0 ||
                !readFiniteNumber(point, "medianMs", data.medianMs) ||
                !readFiniteNumber(point, "bandwidthGBs", data.bandwidthGBs) ||
                data.bandwidthGBs < 0) {
                return fail(tr("/curves/%1/points/%2: a point needs a positive \"bytes\", a "
                               "\"medianMs\" and a \"bandwidthGBs\"")
                                .arg(c)
                                .arg(p));
            }
            readFiniteNumber(point, "minMs", data.minMs);
            readFiniteNumber(point, "maxMs", data.maxMs);
            readFiniteNumber(point, "samples", samples);
            data.bytes = static_cast<qint64>(bytes);
            data.samples = static_cast<int>(samples);
            curve.points.push_back(data);
        }
        std::sort(curve.points.begin(), curve.points.end(),
                  [](const TransferPointData& a, const TransferPointData& b) {
                      return a.bytes < b.bytes;
                  });
        results.curves.push_back(std::move(curve));
    }
    return results;
}

std::optional<TransferResults> readTransferResults(const QByteArray& bytes, QString* error) {
    const std::optional<QJsonObject> document = readResultsObject(bytes, kContext, error);
    if (!document) {
        return std::nullopt;
    }
    QJsonObject object = *document;
    if (object.contains(QStringLiteral("result"))) {
        object = object.value(QStringLiteral("result")).toObject();
    } else if (object.value(QStringLiteral("runs")).isArray()) {
        const QJsonArray runs = object.value(QStringLiteral("runs")).toArray();
        if (runs.isEmpty()) {
            if (error != nullptr) {
                *error = tr("the record holds no run (\"runs\" is empty)");
            }
            return std::nullopt;
        }
        object = runs.first().toObject();
    }
    return transferResultsFromJson(object, error);
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
    const TransferCurveData* pinned =
        results ? results->curve(QStringLiteral("h2d_pinned")) : nullptr;
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
    const TransferCurveData* pageable = results->curve(QStringLiteral("h2d_pageable"));
    const TransferCurveData* zeroCopy = results->curve(QStringLiteral("sum_zerocopy"));
    // The largest size pinned copies were measured at (where the others have it too, if any).
    qint64 size = pinned->points.back().bytes;
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
    if (results->deviceCopyBandwidthGBs > 0 && link > 0) {
        summary.deviceOverLink = results->deviceCopyBandwidthGBs / link;
        parts << tr("the device's own memory is %1× the link (%2 GB/s against %3 GB/s)")
                     .arg(ratioText(*summary.deviceOverLink),
                          fixedNumber(results->deviceCopyBandwidthGBs, 0), fixedNumber(link, 1));
    }
    QString text = parts.join(QStringLiteral("; "));
    if (!text.isEmpty()) {
        text = tr("At %1, host to device: %2.").arg(formatTransferBytes(size), text);
    }
    summary.text = text + QLatin1Char(' ') + notes;
    return summary;
}

} // namespace warpscope::app
