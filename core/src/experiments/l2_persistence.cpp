// measure_l2_persistence: the plan, the points with the model beside them, and the result's JSON
// written and read (experiments/l2_persistence.h). No CUDA here.
#include "warpscope/experiments/l2_persistence.h"

#include "../json_fields.h"
#include "../json_guard.h"
#include "result_fields.h"

#include <warpscope/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace warpscope::experiments {

namespace {

using json = nlohmann::json;

constexpr std::int64_t kMiB = std::int64_t{1} << 20;
constexpr std::int64_t kDefaultWindows[] = {2 * kMiB,  4 * kMiB,  8 * kMiB,  16 * kMiB,
                                            24 * kMiB, 32 * kMiB, 48 * kMiB, 64 * kMiB};
constexpr double kDefaultRatios[] = {0.25, 0.5, 0.75, 1.0};

bool sameRatio(double a, double b) {
    return std::fabs(a - b) < 1e-6;
}

} // namespace

const std::vector<std::string>& l2PersistenceCounterNames() {
    static const std::vector<std::string> names = {
        "lts__t_sector_hit_rate.pct", "lts__t_sectors_lookup_hit.sum",
        "lts__t_sectors_lookup_miss.sum", "dram__bytes_read.sum"};
    return names;
}

std::vector<L2HitRatio> l2PersistenceRatios(const L2PersistencePlan& plan,
                                            std::int64_t windowBytes) {
    std::vector<L2HitRatio> ratios;
    for (double value : plan.hitRatios) {
        ratios.push_back(L2HitRatio{value, false});
    }
    if (plan.tuned) {
        const double tuned = tunedHitRatio(windowBytes, plan.setAsideBytes);
        const auto same = std::find_if(ratios.begin(), ratios.end(), [&](const L2HitRatio& r) {
            return sameRatio(r.value, tuned);
        });
        if (same != ratios.end()) {
            same->tuned = true;
        } else {
            ratios.push_back(L2HitRatio{tuned, true});
        }
    }
    std::sort(ratios.begin(), ratios.end(),
              [](const L2HitRatio& a, const L2HitRatio& b) { return a.value < b.value; });
    return ratios;
}

std::vector<L2HitRatio> l2PersistencePointsAt(const L2PersistencePlan& plan,
                                              std::int64_t windowBytes) {
    std::vector<L2HitRatio> points{L2HitRatio{0.0, false}};
    for (const L2HitRatio& ratio : l2PersistenceRatios(plan, windowBytes)) {
        points.push_back(ratio);
    }
    return points;
}

int l2PersistencePointCount(const L2PersistencePlan& plan) {
    int count = 0;
    for (std::int64_t window : plan.windowBytes) {
        count += 1 + static_cast<int>(l2PersistenceRatios(plan, window).size());
    }
    return count;
}

L2PersistenceMeasurement startL2PersistenceMeasurement(const L2PersistencePlan& plan,
                                                       const L2PersistenceDevice& device,
                                                       bool countersMeasured,
                                                       const std::string& noCountersReason) {
    L2PersistenceMeasurement measurement;
    measurement.device = device;
    measurement.setAsideBytes = plan.setAsideBytes;
    measurement.streamBytes = plan.streamBytes;
    measurement.streamPerRegion = plan.streamPerRegion;
    measurement.repetitions = plan.repetitions;
    measurement.capNote = plan.capNote;
    measurement.countersMeasured = countersMeasured;
    measurement.countersUnavailableReason = countersMeasured ? "" : noCountersReason;
    return measurement;
}

std::int64_t l2RegionReadBytes(const L2PersistencePlan& plan) {
    return plan.streamPerRegion > 0 ? plan.streamBytes / plan.streamPerRegion : 0;
}

L2PersistencePlanResult planL2Persistence(const L2PersistenceOptions& options,
                                          const L2PersistenceDevice& device) {
    L2PersistencePlanResult result;
    if (device.persistingL2MaxBytes <= 0) {
        result.noPersistingL2 = true;
        result.error = "this device (" +
                       (device.name.empty() ? std::string("unnamed") : device.name) +
                       ") has no persisting L2: persistingL2CacheMaxSize is 0, so no part of L2 "
                       "can be set aside for an access policy window (it needs compute "
                       "capability 8.0 or newer, and no MIG or MPS limit that takes it away)";
        return result;
    }
    L2PersistencePlan plan;
    plan.tuned = options.tuned;
    plan.streamPerRegion = options.streamPerRegion;
    plan.repetitions = options.repetitions;
    plan.counters = options.counters;
    plan.streamBytes = options.streamBytes;
    plan.l2Partitions = device.l2Partitions;
    if (options.repetitions < 1 || options.repetitions > kL2MaxRepetitions) {
        result.error = "repetitions must be between 1 and " + std::to_string(kL2MaxRepetitions) +
                       "; found " + std::to_string(options.repetitions);
        return result;
    }
    if (options.streamPerRegion < 1 || options.streamPerRegion > kL2MaxStreamPerRegion) {
        result.error = "streamPerRegion must be between 1 and " +
                       std::to_string(kL2MaxStreamPerRegion) + "; found " +
                       std::to_string(options.streamPerRegion);
        return result;
    }
    plan.setAsideBytes =
        options.setAsideBytes == 0 ? device.persistingL2MaxBytes : options.setAsideBytes;
    if (plan.setAsideBytes < 0 || plan.setAsideBytes > device.persistingL2MaxBytes) {
        result.error = "setAsideBytes must be between 1 B and this device's "
                       "persistingL2CacheMaxSize, " +
                       formatBytes(device.persistingL2MaxBytes) + "; found " +
                       std::to_string(options.setAsideBytes);
        return result;
    }
    const std::int64_t maxWindow = device.maxWindowBytes > 0 ? device.maxWindowBytes : 0;
    if (options.windowBytes.empty()) {
        std::int64_t left = 0;
        for (std::int64_t window : kDefaultWindows) {
            if (window <= maxWindow) {
                plan.windowBytes.push_back(window);
            } else if (left == 0) {
                left = window;
            }
        }
        if (left != 0) {
            plan.capNote = "window sizes from " + formatBytes(left) +
                           " up were left out: this device's accessPolicyMaxWindowSize is " +
                           formatBytes(maxWindow) + ".";
        }
        if (plan.windowBytes.empty()) {
            result.error =
                "no window size fits: accessPolicyMaxWindowSize is " + formatBytes(maxWindow);
            return result;
        }
    } else {
        if (options.windowBytes.size() > kL2MaxWindows) {
            result.error = "at most " + std::to_string(kL2MaxWindows) + " window sizes; found " +
                           std::to_string(options.windowBytes.size());
            return result;
        }
        for (std::int64_t window : options.windowBytes) {
            if (window < 1024 || window % 1024 != 0) {
                result.error = "a window size must be a multiple of 1 KiB, at least 1 KiB; found " +
                               std::to_string(window);
                return result;
            }
            if (window > maxWindow) {
                result.error = "the window " + formatBytes(window) +
                               " is larger than this device's accessPolicyMaxWindowSize, " +
                               formatBytes(maxWindow);
                return result;
            }
            plan.windowBytes.push_back(window);
        }
        std::sort(plan.windowBytes.begin(), plan.windowBytes.end());
        plan.windowBytes.erase(std::unique(plan.windowBytes.begin(), plan.windowBytes.end()),
                               plan.windowBytes.end());
    }
    if (options.hitRatios.empty()) {
        plan.hitRatios.assign(std::begin(kDefaultRatios), std::end(kDefaultRatios));
    } else {
        if (options.hitRatios.size() > kL2MaxRatios) {
            result.error = "at most " + std::to_string(kL2MaxRatios) + " hitRatios; found " +
                           std::to_string(options.hitRatios.size());
            return result;
        }
        for (double ratio : options.hitRatios) {
            if (!(ratio > 0.0 && ratio <= 1.0)) {
                result.error =
                    "a hitRatio must be above 0 and at most 1; found " + std::to_string(ratio);
                return result;
            }
            if (std::none_of(plan.hitRatios.begin(), plan.hitRatios.end(),
                             [&](double r) { return sameRatio(r, ratio); })) {
                plan.hitRatios.push_back(ratio);
            }
        }
        std::sort(plan.hitRatios.begin(), plan.hitRatios.end());
    }
    const std::int64_t unit = std::int64_t{16} * options.streamPerRegion;
    if (options.streamBytes < kL2MinStreamBytes || options.streamBytes > kL2MaxStreamBytes ||
        options.streamBytes % unit != 0) {
        result.error = "streamBytes must be a multiple of " + std::to_string(unit) +
                       " bytes (16 x streamPerRegion) between 1 MiB and 64 GiB; found " +
                       std::to_string(options.streamBytes);
        return result;
    }
    const std::int64_t largest = plan.windowBytes.back();
    if (l2RegionReadBytes(plan) < 2 * largest) {
        result.error = "the region must be read at least twice per launch: streamBytes / "
                       "streamPerRegion is " +
                       formatBytes(l2RegionReadBytes(plan)) + ", less than twice the window " +
                       formatBytes(largest) + "; raise streamBytes";
        return result;
    }
    const std::int64_t needed = plan.streamBytes + largest;
    if (device.deviceFreeBytes > 0 && needed > device.deviceFreeBytes / 10 * 9) {
        result.error = "refused before anything ran: the streaming buffer and the largest region "
                       "need " +
                       formatBytes(needed) + " of device memory and the device has " +
                       formatBytes(device.deviceFreeBytes) + " free (90 % of it may be used)";
        result.outOfMemory = true;
        return result;
    }
    result.plan = std::move(plan);
    return result;
}

L2PersistencePoint l2PersistencePoint(std::int64_t windowBytes, bool window, double hitRatio,
                                      bool tuned, std::vector<double> samplesMs,
                                      const L2PersistencePlan& plan, std::int64_t l2Bytes) {
    L2PersistencePoint point;
    point.windowBytes = windowBytes;
    point.window = window;
    point.hitRatio = window ? hitRatio : 0.0;
    point.tuned = window && tuned;
    const L2PersistenceModel model =
        l2PersistenceModel(windowBytes, hitRatio, window, plan.setAsideBytes, l2Bytes,
                           plan.streamPerRegion, plan.l2Partitions);
    point.modelRegionHitPct = 100.0 * model.regionHitFraction;
    point.modelHitRatePct = 100.0 * model.hitRateFraction;
    point.modelRegionHitKind = model.regionKind;
    point.modelHitRateKind = model.hitRateKind;
    detail::setTiming(point, std::move(samplesMs),
                      static_cast<double>(plan.streamBytes) +
                          static_cast<double>(l2RegionReadBytes(plan)));
    return point;
}

void deriveRegionHit(L2PersistencePoint& point, const L2PersistencePlan& plan) {
    const double regionBytes = static_cast<double>(l2RegionReadBytes(plan));
    if (!point.countersMeasured || regionBytes <= 0.0) {
        point.regionHitPct = 0.0;
        return;
    }
    const double fromDram = point.dramReadBytes - static_cast<double>(plan.streamBytes);
    point.regionHitPct = std::clamp(100.0 * (1.0 - fromDram / regionBytes), 0.0, 100.0);
}

json toJson(const L2PersistenceMeasurement& measurement) {
    json points = json::array();
    for (const L2PersistencePoint& point : measurement.points) {
        json item = detail::timingJson(point);
        item.update(json{{"windowBytes", point.windowBytes},
                         {"window", point.window},
                         {"hitRatio", point.hitRatio},
                         {"tuned", point.tuned},
                         {"countersMeasured", point.countersMeasured},
                         {"modelRegionHitPct", point.modelRegionHitPct},
                         {"modelHitRatePct", point.modelHitRatePct},
                         {"modelRegionHitKind", l2ModelKindName(point.modelRegionHitKind)},
                         {"modelHitRateKind", l2ModelKindName(point.modelHitRateKind)}});
        if (point.countersMeasured) {
            item["hitRatePct"] = point.hitRatePct;
            item["regionHitPct"] = point.regionHitPct;
            item["counters"] = json{{"lts__t_sector_hit_rate.pct", point.hitRatePct},
                                    {"lts__t_sectors_lookup_hit.sum", point.sectorHits},
                                    {"lts__t_sectors_lookup_miss.sum", point.sectorMisses},
                                    {"dram__bytes_read.sum", point.dramReadBytes}};
        }
        points.push_back(std::move(item));
    }
    const L2PersistenceDevice& device = measurement.device;
    return json{{"device", device.name},
                {"l2Bytes", device.l2Bytes},
                {"persistingL2MaxBytes", device.persistingL2MaxBytes},
                {"maxWindowBytes", device.maxWindowBytes},
                {"deviceFreeBytes", device.deviceFreeBytes},
                {"l2Partitions", device.l2Partitions},
                {"setAsideBytes", measurement.setAsideBytes},
                {"previousSetAsideBytes", measurement.previousSetAsideBytes},
                {"streamBytes", measurement.streamBytes},
                {"streamPerRegion", measurement.streamPerRegion},
                {"repetitions", measurement.repetitions},
                {"countersMeasured", measurement.countersMeasured},
                {"countersUnavailableReason", measurement.countersUnavailableReason},
                {"capped", measurement.capNote},
                {"model", l2PersistenceModelStatement()},
                {"points", std::move(points)}};
}

namespace {

using detail::AnswerReader;
using detail::arrayMember;
using detail::readTiming;
using detail::requiredPositiveInt64;
using warpscope::detail::child;
using warpscope::detail::describe;

/// "prediction" or "estimate", where given.
bool readKind(AnswerReader& reader, const json& object, std::string_view key,
              const std::string& where, L2ModelKind& out) {
    std::string name = l2ModelKindName(out);
    if (!reader.optionalString(object, key, where, name)) {
        return false;
    }
    if (name != l2ModelKindName(L2ModelKind::Prediction) &&
        name != l2ModelKindName(L2ModelKind::Estimate)) {
        return reader.fail("\"" + std::string(key) +
                               "\" must be \"prediction\" or \"estimate\"; found \"" + name + "\"",
                           child(where, key));
    }
    out = name == l2ModelKindName(L2ModelKind::Prediction) ? L2ModelKind::Prediction
                                                           : L2ModelKind::Estimate;
    return true;
}

bool readPoint(AnswerReader& reader, const json& value, const std::string& where,
               std::int64_t setAsideBytes, L2PersistencePoint& point) {
    if (!reader.requireObject(value, where, "a point")) {
        return false;
    }
    if (!requiredPositiveInt64(reader, value, "windowBytes", where, point.windowBytes) ||
        !readTiming(reader, value, where, point) ||
        !reader.optionalBool(value, "window", where, point.window) ||
        !reader.optionalNumber(value, "hitRatio", where, point.hitRatio) ||
        !reader.optionalBool(value, "tuned", where, point.tuned) ||
        !reader.optionalNumber(value, "bandwidthGBs", where, point.bandwidthGBs) ||
        !reader.optionalBool(value, "countersMeasured", where, point.countersMeasured) ||
        !reader.optionalNumber(value, "hitRatePct", where, point.hitRatePct) ||
        !reader.optionalNumber(value, "regionHitPct", where, point.regionHitPct) ||
        !reader.optionalNumber(value, "modelRegionHitPct", where, point.modelRegionHitPct) ||
        !reader.optionalNumber(value, "modelHitRatePct", where, point.modelHitRatePct)) {
        return false;
    }
    if (point.window && !(point.hitRatio > 0.0 && point.hitRatio <= 1.0)) {
        return reader.fail("a hitRatio must be above 0 and at most 1 with the window; found " +
                               describe(json(point.hitRatio)),
                           child(where, "hitRatio"));
    }
    // The kinds are the model's (an older answer without them reads the same); an answer that
    // names one must name one of the two.
    point.modelRegionHitKind =
        l2PersistenceBasis(point.windowBytes, point.hitRatio, point.window, setAsideBytes) ==
                L2ModelBasis::WholeRegionPersists
            ? L2ModelKind::Prediction
            : L2ModelKind::Estimate;
    point.modelHitRateKind = L2ModelKind::Estimate;
    if (!readKind(reader, value, "modelRegionHitKind", where, point.modelRegionHitKind) ||
        !readKind(reader, value, "modelHitRateKind", where, point.modelHitRateKind)) {
        return false;
    }
    if (const json* counters = reader.optionalObject(value, "counters", where)) {
        const std::string at = child(where, "counters");
        if (!reader.optionalNumber(*counters, "lts__t_sectors_lookup_hit.sum", at,
                                   point.sectorHits) ||
            !reader.optionalNumber(*counters, "lts__t_sectors_lookup_miss.sum", at,
                                   point.sectorMisses) ||
            !reader.optionalNumber(*counters, "dram__bytes_read.sum", at, point.dramReadBytes)) {
            return false;
        }
    }
    return !reader.error();
}

} // namespace

Result<L2PersistenceMeasurement> l2PersistenceMeasurementFromJson(const json& value,
                                                                  const std::string& pointer) {
    AnswerReader reader;
    L2PersistenceMeasurement m;
    L2PersistenceDevice& device = m.device;
    if (!reader.requireObject(value, pointer, "measure_l2_persistence's result") ||
        !reader.optionalString(value, "device", pointer, device.name) ||
        !reader.optionalInt64(value, "l2Bytes", pointer, device.l2Bytes) ||
        !reader.optionalInt64(value, "persistingL2MaxBytes", pointer,
                              device.persistingL2MaxBytes) ||
        !reader.optionalInt64(value, "maxWindowBytes", pointer, device.maxWindowBytes) ||
        !reader.optionalInt64(value, "deviceFreeBytes", pointer, device.deviceFreeBytes) ||
        !reader.optionalInt(value, "l2Partitions", pointer, device.l2Partitions) ||
        !reader.optionalInt64(value, "setAsideBytes", pointer, m.setAsideBytes) ||
        !reader.optionalInt64(value, "previousSetAsideBytes", pointer, m.previousSetAsideBytes) ||
        !reader.optionalInt64(value, "streamBytes", pointer, m.streamBytes) ||
        !reader.optionalInt(value, "streamPerRegion", pointer, m.streamPerRegion) ||
        !reader.optionalInt(value, "repetitions", pointer, m.repetitions) ||
        !reader.optionalBool(value, "countersMeasured", pointer, m.countersMeasured) ||
        !reader.optionalString(value, "countersUnavailableReason", pointer,
                               m.countersUnavailableReason) ||
        !reader.optionalString(value, "capped", pointer, m.capNote)) {
        return *reader.error();
    }
    const json* points = arrayMember(reader, value, "points", pointer, true);
    if (points == nullptr) {
        return *reader.error();
    }
    const std::string at = child(pointer, "points");
    if (points->empty()) {
        reader.fail("the L2 persistence results have no points (\"points\" is empty)", at);
        return *reader.error();
    }
    for (std::size_t i = 0; i < points->size(); ++i) {
        L2PersistencePoint point;
        if (!readPoint(reader, (*points)[i], child(at, i), m.setAsideBytes, point)) {
            return *reader.error();
        }
        m.points.push_back(point);
    }
    return m;
}

Result<L2PersistenceMeasurement> l2PersistenceMeasurementFromJsonText(std::string_view text) {
    return warpscope::detail::readGuardedJsonText(text, &l2PersistenceMeasurementFromJson);
}

} // namespace warpscope::experiments
