// The L2 persistence window: measure_l2_persistence's answer read, the model's points, and the
// summary under the chart.
#include "gpu/l2persistencemeasurement.h"

#include "warpscope/format.h"
#include "warpscope/l2_persistence_model.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace warpscope::app {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("L2PersistenceMeasurement", text);
}

QString number(double value, int decimals) {
    return QLocale::c().toString(value, 'f', decimals);
}

bool sameRatio(double a, double b) {
    return std::fabs(a - b) < 1e-6;
}

} // namespace

QString formatL2Bytes(qint64 bytes) {
    return QString::fromStdString(warpscope::formatBytes(
        bytes, ByteFormat{ByteUnit::KiB, ByteUnit::GiB, ByteDecimals::OneUnlessWhole}));
}

QString hitRatioLabel(const L2PointData& point) {
    if (!point.window) {
        return tr("none");
    }
    return number(point.hitRatio, 3) + (point.tuned ? tr(" (tuned)") : QString());
}

std::vector<qint64> L2PersistenceResults::windowSizes() const {
    std::vector<qint64> sizes;
    for (const L2PointData& point : points) {
        if (std::find(sizes.begin(), sizes.end(), point.windowBytes) == sizes.end()) {
            sizes.push_back(point.windowBytes);
        }
    }
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

const L2PointData* L2PersistenceResults::find(qint64 windowBytes, bool window, double hitRatio,
                                              bool tuned) const {
    for (const L2PointData& point : points) {
        if (point.windowBytes != windowBytes || point.window != window) {
            continue;
        }
        if (!window || (tuned ? point.tuned : sameRatio(point.hitRatio, hitRatio))) {
            return &point;
        }
    }
    return nullptr;
}

std::optional<L2PersistenceResults> l2PersistenceResultsFromJson(const QJsonObject& result,
                                                                 QString* error) {
    const auto fail = [&](const QString& message) {
        if (error != nullptr) {
            *error = message;
        }
        return std::optional<L2PersistenceResults>();
    };
    L2PersistenceResults results;
    results.answer = result;
    results.device = result.value(QStringLiteral("device")).toString();
    results.l2Bytes = static_cast<qint64>(result.value(QStringLiteral("l2Bytes")).toDouble());
    results.persistingL2MaxBytes =
        static_cast<qint64>(result.value(QStringLiteral("persistingL2MaxBytes")).toDouble());
    results.maxWindowBytes =
        static_cast<qint64>(result.value(QStringLiteral("maxWindowBytes")).toDouble());
    results.setAsideBytes =
        static_cast<qint64>(result.value(QStringLiteral("setAsideBytes")).toDouble());
    results.streamBytes =
        static_cast<qint64>(result.value(QStringLiteral("streamBytes")).toDouble());
    results.streamPerRegion = result.value(QStringLiteral("streamPerRegion")).toInt(4);
    results.repetitions = result.value(QStringLiteral("repetitions")).toInt();
    results.countersMeasured = result.value(QStringLiteral("countersMeasured")).toBool();
    results.countersUnavailableReason =
        result.value(QStringLiteral("countersUnavailableReason")).toString();
    results.capped = result.value(QStringLiteral("capped")).toString();
    const QJsonValue points = result.value(QStringLiteral("points"));
    if (!points.isArray()) {
        return fail(tr("the L2 persistence results have no \"points\" array"));
    }
    const QJsonArray list = points.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject item = list.at(i).toObject();
        const QString where = QStringLiteral("/points/%1").arg(i);
        const QJsonValue bytes = item.value(QStringLiteral("windowBytes"));
        const QJsonValue median = item.value(QStringLiteral("medianMs"));
        if (!bytes.isDouble() || bytes.toDouble() <= 0.0 || !median.isDouble() ||
            !std::isfinite(median.toDouble()) || median.toDouble() < 0.0) {
            return fail(tr("a point needs a positive \"windowBytes\" and a \"medianMs\" (at %1)")
                            .arg(where));
        }
        L2PointData point;
        point.windowBytes = static_cast<qint64>(bytes.toDouble());
        point.window = item.value(QStringLiteral("window")).toBool();
        point.hitRatio = item.value(QStringLiteral("hitRatio")).toDouble();
        if (point.window && !(point.hitRatio > 0.0 && point.hitRatio <= 1.0)) {
            return fail(tr("a hitRatio must be above 0 and at most 1 (at %1)").arg(where));
        }
        point.tuned = item.value(QStringLiteral("tuned")).toBool();
        point.medianMs = median.toDouble();
        point.minMs = item.value(QStringLiteral("minMs")).toDouble();
        point.maxMs = item.value(QStringLiteral("maxMs")).toDouble();
        point.samples = item.value(QStringLiteral("samples")).toInt();
        point.bandwidthGBs = item.value(QStringLiteral("bandwidthGBs")).toDouble();
        point.countersMeasured = item.value(QStringLiteral("countersMeasured")).toBool();
        point.hitRatePct = item.value(QStringLiteral("hitRatePct")).toDouble();
        point.regionHitPct = item.value(QStringLiteral("regionHitPct")).toDouble();
        point.dramReadBytes = item.value(QStringLiteral("counters"))
                                  .toObject()
                                  .value(QStringLiteral("dram__bytes_read.sum"))
                                  .toDouble();
        point.modelHitRatePct = item.value(QStringLiteral("modelHitRatePct")).toDouble();
        point.modelRegionHitPct = item.value(QStringLiteral("modelRegionHitPct")).toDouble();
        // The kind is the model's (computed here, so older files without it read the same); a
        // file that names one must name one of the two.
        for (const QString& key :
             {QStringLiteral("modelRegionHitKind"), QStringLiteral("modelHitRateKind")}) {
            const QJsonValue kind = item.value(key);
            if (!kind.isUndefined() && kind.toString() != QLatin1String("prediction") &&
                kind.toString() != QLatin1String("estimate")) {
                return fail(
                    tr("\"%1\" must be \"prediction\" or \"estimate\" (at %2)").arg(key, where));
            }
        }
        point.modelBasis = l2PersistenceBasis(point.windowBytes, point.hitRatio, point.window,
                                              results.setAsideBytes);
        results.points.push_back(point);
    }
    if (results.points.empty()) {
        return fail(tr("the L2 persistence results have no points"));
    }
    return results;
}

std::optional<L2PersistenceResults> readL2PersistenceResults(const QByteArray& bytes,
                                                             QString* error) {
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(bytes.trimmed(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        if (error != nullptr) {
            *error = parseError.error != QJsonParseError::NoError
                         ? tr("not JSON: %1 at offset %2")
                               .arg(parseError.errorString())
                               .arg(parseError.offset)
                         : tr("not a JSON object");
        }
        return std::nullopt;
    }
    QJsonObject object = document.object();
    if (object.contains(QStringLiteral("result")) || object.contains(QStringLiteral("ok"))) {
        if (!object.value(QStringLiteral("ok")).toBool(true)) {
            if (error != nullptr) {
                *error = tr("the probe answered an error: %1")
                             .arg(object.value(QStringLiteral("error"))
                                      .toObject()
                                      .value(QStringLiteral("message"))
                                      .toString());
            }
            return std::nullopt;
        }
        object = object.value(QStringLiteral("result")).toObject();
    }
    return l2PersistenceResultsFromJson(object, error);
}

L2PersistenceResults modelL2Persistence(qint64 l2Bytes, qint64 setAsideBytes, int streamPerRegion) {
    L2PersistenceResults results;
    results.modelOnly = true;
    results.device = tr("the model (H100 figures: L2 %1, %2 set aside)")
                         .arg(formatL2Bytes(l2Bytes), formatL2Bytes(setAsideBytes));
    results.l2Bytes = l2Bytes;
    results.persistingL2MaxBytes = setAsideBytes;
    results.setAsideBytes = setAsideBytes;
    results.streamPerRegion = streamPerRegion;
    constexpr qint64 kMiB = qint64{1} << 20;
    for (qint64 size :
         {2 * kMiB, 4 * kMiB, 8 * kMiB, 16 * kMiB, 24 * kMiB, 32 * kMiB, 48 * kMiB, 64 * kMiB}) {
        const double tuned = tunedHitRatio(size, setAsideBytes);
        std::vector<std::pair<double, bool>> ratios{{0.0, false}};
        for (double ratio : {0.25, 0.5, 0.75, 1.0}) {
            ratios.emplace_back(ratio, sameRatio(ratio, tuned));
        }
        if (!sameRatio(tuned, 1.0) && !sameRatio(tuned, 0.25) && !sameRatio(tuned, 0.5) &&
            !sameRatio(tuned, 0.75)) {
            ratios.emplace_back(tuned, true);
        }
        for (std::size_t r = 0; r < ratios.size(); ++r) {
            const bool window = r > 0;
            const L2PersistenceModel model =
                l2PersistenceModel(size, ratios[r].first, window, setAsideBytes, l2Bytes,
                                   streamPerRegion, l2PartitionCount(9, 0));
            L2PointData point;
            point.windowBytes = size;
            point.window = window;
            point.hitRatio = window ? ratios[r].first : 0.0;
            point.tuned = ratios[r].second;
            point.modelRegionHitPct = 100.0 * model.regionHitFraction;
            point.modelHitRatePct = 100.0 * model.hitRateFraction;
            point.modelBasis = model.basis;
            results.points.push_back(point);
        }
    }
    return results;
}

L2PersistenceSummary summarizeL2Persistence(const L2PersistenceResults& results) {
    L2PersistenceSummary summary;
    summary.details = QString::fromUtf8(l2PersistenceModelStatement());
    QStringList lines;
    if (results.modelOnly) {
        lines << tr("No measurement: the curves are the model for an H100 (L2 %1, %2 set aside "
                    "for persisting lines), %3 bytes streamed per region byte.")
                     .arg(formatL2Bytes(results.l2Bytes), formatL2Bytes(results.setAsideBytes))
                     .arg(results.streamPerRegion);
        lines << tr("The best-practice notes: \"A portion of the L2 cache can be set aside for "
                    "persistent (repeatedly) accesses\"; hitRatio is the \"percentage of lines "
                    "assigned hitProp\"; \"tune the value of hitRatio to avoid thrashing\".");
        lines << tr("Prediction (the notes' rule, exact on the H100): with hitRatio 1 and the "
                    "region within the set-aside part, every re-read is served by L2 (the "
                    "ringed crosses at 100 %).");
        lines << tr("Estimates (no documented rule, dashed): hitRatio < 1 serves only hitRatio "
                    "of the region (the H100 serves more on small regions); past the set-aside the "
                    "persisting "
                    "lines evict one another at random (the H100 thrashes worse); without a "
                    "window a line survives the streamed bytes with probability exp(-bytes / L2 "
                    "size). The L2 hit rate is always an estimate: the region's share / (1 + "
                    "streamed bytes per region byte) / 1.5 lookups per sector on two "
                    "partitions.");
        summary.text = lines.join(QLatin1Char('\n'));
        return summary;
    }
    // The largest size with all three points.
    const std::vector<qint64> sizes = results.windowSizes();
    for (auto it = sizes.rbegin(); it != sizes.rend(); ++it) {
        const L2PointData* none = results.find(*it, false, 0.0, false);
        const L2PointData* tuned = results.find(*it, true, 0.0, true);
        if (none != nullptr && tuned != nullptr) {
            summary.atBytes = *it;
            if (none->countersMeasured) {
                summary.noWindowRegionHit = none->regionHitPct;
            }
            if (tuned->countersMeasured) {
                summary.tunedRegionHit = tuned->regionHitPct;
            }
            if (const L2PointData* full = results.find(*it, true, 1.0, false);
                full != nullptr && full->countersMeasured) {
                summary.fullRatioRegionHit = full->regionHitPct;
            }
            if (tuned->medianMs > 0.0) {
                summary.tunedSpeedup = none->medianMs / tuned->medianMs;
            }
            break;
        }
    }
    double gap = -1.0;
    double predictionGap = -1.0;
    double estimateGap = -1.0;
    for (const L2PointData& point : results.points) {
        if (point.countersMeasured) {
            const double here = std::fabs(point.regionHitPct - point.modelRegionHitPct);
            gap = std::max(gap, here);
            double& kindGap = point.modelRegionPredicted() ? predictionGap : estimateGap;
            kindGap = std::max(kindGap, here);
        }
        if (point.modelRegionPredicted()) {
            ++summary.predictedPoints;
        }
    }
    if (gap >= 0.0) {
        summary.largestModelGapPct = gap;
    }
    if (predictionGap >= 0.0) {
        summary.largestPredictionGapPct = predictionGap;
    }
    if (estimateGap >= 0.0) {
        summary.largestEstimateGapPct = estimateGap;
    }
    lines << tr("%1: L2 %2, persistingL2CacheMaxSize %3, %4 set aside; medians of %5 launches.")
                 .arg(results.device, formatL2Bytes(results.l2Bytes),
                      formatL2Bytes(results.persistingL2MaxBytes),
                      formatL2Bytes(results.setAsideBytes))
                 .arg(results.repetitions);
    if (summary.atBytes > 0) {
        QString line = tr("At %1: the share of the region's reads served by L2 is")
                           .arg(formatL2Bytes(summary.atBytes));
        if (summary.noWindowRegionHit) {
            line += tr(" %1 % without a window").arg(number(*summary.noWindowRegionHit, 1));
        }
        if (summary.fullRatioRegionHit) {
            line += tr(", %1 % with hitRatio 1").arg(number(*summary.fullRatioRegionHit, 1));
        }
        if (summary.tunedRegionHit) {
            line += tr(", %1 % with the tuned hitRatio").arg(number(*summary.tunedRegionHit, 1));
        }
        if (summary.tunedSpeedup) {
            line += tr("; the tuned window runs %1x as fast as none.")
                        .arg(number(*summary.tunedSpeedup, 2));
        } else {
            line += QLatin1Char('.');
        }
        lines << line;
    }
    if (summary.largestModelGapPct) {
        QString line;
        if (summary.largestPredictionGapPct) {
            line = tr("The model predicts the share of the region's reads served by L2 only where "
                      "the window holds the whole region (hitRatio 1, within the set-aside; the "
                      "notes' rule), at %1 of the %2 points: largest gap %3 points.")
                       .arg(summary.predictedPoints)
                       .arg(results.points.size())
                       .arg(number(*summary.largestPredictionGapPct, 2));
        } else {
            line = tr("No point has the window holding the whole region, so the model predicts "
                      "nothing here.");
        }
        if (summary.largestEstimateGapPct) {
            line += QLatin1Char(' ') + tr("Elsewhere it is an estimate with no documented rule "
                                          "(dashed): largest gap %1 points. The L2 hit rate is "
                                          "an estimate everywhere.")
                                           .arg(number(*summary.largestEstimateGapPct, 1));
        }
        lines << line;
    } else {
        lines << tr("No counters: %1").arg(results.countersUnavailableReason);
    }
    summary.text = lines.join(QLatin1Char('\n'));
    return summary;
}

} // namespace warpscope::app
