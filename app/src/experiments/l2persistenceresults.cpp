// The L2 persistence window: measure_l2_persistence's answer read, the model's points, and the
// summary under the chart.
#include "experiments/l2persistenceview.h"

#include "warpscope/format.h"
#include "warpscope/l2_persistence_model.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace warpscope::app {

namespace {

using experiments::L2PersistencePoint;

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

QString hitRatioLabel(const L2PersistencePoint& point) {
    if (!point.window) {
        return tr("none");
    }
    return number(point.hitRatio, 3) + (point.tuned ? tr(" (tuned)") : QString());
}

std::vector<std::int64_t> L2PersistenceResults::windowSizes() const {
    std::vector<std::int64_t> sizes;
    for (const L2PersistencePoint& point : measurement.points) {
        if (std::find(sizes.begin(), sizes.end(), point.windowBytes) == sizes.end()) {
            sizes.push_back(point.windowBytes);
        }
    }
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

const L2PersistencePoint* L2PersistenceResults::find(std::int64_t windowBytes, bool window,
                                                     double hitRatio, bool tuned) const {
    for (const L2PersistencePoint& point : measurement.points) {
        if (point.windowBytes != windowBytes || point.window != window) {
            continue;
        }
        if (!window || (tuned ? point.tuned : sameRatio(point.hitRatio, hitRatio))) {
            return &point;
        }
    }
    return nullptr;
}

L2ModelBasis L2PersistenceResults::modelBasis(const L2PersistencePoint& point) const {
    return l2PersistenceBasis(point.windowBytes, point.hitRatio, point.window,
                              measurement.setAsideBytes);
}

L2PersistenceResults modelL2Persistence(qint64 l2Bytes, qint64 setAsideBytes, int streamPerRegion) {
    L2PersistenceResults results;
    results.modelOnly = true;
    experiments::L2PersistenceMeasurement& model = results.measurement;
    model.device.name = tr("the model (H100 figures: L2 %1, %2 set aside)")
                            .arg(formatL2Bytes(l2Bytes), formatL2Bytes(setAsideBytes))
                            .toStdString();
    model.device.l2Bytes = l2Bytes;
    model.device.persistingL2MaxBytes = setAsideBytes;
    model.setAsideBytes = setAsideBytes;
    model.streamPerRegion = streamPerRegion;
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
            const L2PersistenceModel predicted =
                l2PersistenceModel(size, ratios[r].first, window, setAsideBytes, l2Bytes,
                                   streamPerRegion, l2PartitionCount(9, 0));
            L2PersistencePoint point;
            point.windowBytes = size;
            point.window = window;
            point.hitRatio = window ? ratios[r].first : 0.0;
            point.tuned = ratios[r].second;
            point.modelRegionHitPct = 100.0 * predicted.regionHitFraction;
            point.modelHitRatePct = 100.0 * predicted.hitRateFraction;
            point.modelRegionHitKind = predicted.regionKind;
            point.modelHitRateKind = predicted.hitRateKind;
            model.points.push_back(point);
        }
    }
    return results;
}

L2PersistenceSummary summarizeL2Persistence(const L2PersistenceResults& results) {
    L2PersistenceSummary summary;
    summary.details = QString::fromUtf8(l2PersistenceModelStatement());
    QStringList lines;
    const experiments::L2PersistenceMeasurement& measured = results.measurement;
    if (results.modelOnly) {
        lines << tr("No measurement: the curves are the model for an H100 (L2 %1, %2 set aside "
                    "for persisting lines), %3 bytes streamed per region byte.")
                     .arg(formatL2Bytes(measured.device.l2Bytes),
                          formatL2Bytes(measured.setAsideBytes))
                     .arg(measured.streamPerRegion);
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
    const std::vector<std::int64_t> sizes = results.windowSizes();
    for (auto it = sizes.rbegin(); it != sizes.rend(); ++it) {
        const L2PersistencePoint* none = results.find(*it, false, 0.0, false);
        const L2PersistencePoint* tuned = results.find(*it, true, 0.0, true);
        if (none != nullptr && tuned != nullptr) {
            summary.atBytes = *it;
            if (none->countersMeasured) {
                summary.noWindowRegionHit = none->regionHitPct;
            }
            if (tuned->countersMeasured) {
                summary.tunedRegionHit = tuned->regionHitPct;
            }
            if (const L2PersistencePoint* full = results.find(*it, true, 1.0, false);
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
    for (const L2PersistencePoint& point : measured.points) {
        if (point.countersMeasured) {
            const double here = std::fabs(point.regionHitPct - point.modelRegionHitPct);
            gap = std::max(gap, here);
            double& kindGap = modelRegionPredicted(point) ? predictionGap : estimateGap;
            kindGap = std::max(kindGap, here);
        }
        if (modelRegionPredicted(point)) {
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
                 .arg(qString(measured.device.name), formatL2Bytes(measured.device.l2Bytes),
                      formatL2Bytes(measured.device.persistingL2MaxBytes),
                      formatL2Bytes(measured.setAsideBytes))
                 .arg(measured.repetitions);
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
                       .arg(measured.points.size())
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
        lines << tr("No counters: %1").arg(qString(measured.countersUnavailableReason));
    }
    summary.text = lines.join(QLatin1Char('\n'));
    return summary;
}

} // namespace warpscope::app
