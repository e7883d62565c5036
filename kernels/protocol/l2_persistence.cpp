// measure_l2_persistence: the plan, the model and the JSON forms (l2_persistence.h,
// l2_persistence_types.h). No CUDA here.
#include "l2_persistence.h"

#include <warpscope/format.h>

#include <warpscope/statistics.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace warpscope::probe {

namespace {

using json = nlohmann::json;

constexpr std::int64_t kMiB = std::int64_t{1} << 20;
constexpr std::int64_t kDefaultWindows[] = {2 * kMiB,  4 * kMiB,  8 * kMiB,  16 * kMiB,
                                            24 * kMiB, 32 * kMiB, 48 * kMiB, 64 * kMiB};
constexpr double kDefaultRatios[] = {0.25, 0.5, 0.75, 1.0};
constexpr std::size_t kMaxWindows = 32;
constexpr std::size_t kMaxRatios = 16;
constexpr int kMaxRepetitions = 1000;
constexpr int kMaxStreamPerRegion = 64;
constexpr std::int64_t kMaxStreamBytes = std::int64_t{64} << 30;

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

int l2PersistencePointCount(const L2PersistencePlan& plan) {
    int count = 0;
    for (std::int64_t window : plan.windowBytes) {
        count += 1 + static_cast<int>(l2PersistenceRatios(plan, window).size());
    }
    return count;
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
    if (options.repetitions < 1 || options.repetitions > kMaxRepetitions) {
        result.error = "repetitions must be between 1 and " + std::to_string(kMaxRepetitions) +
                       "; found " + std::to_string(options.repetitions);
        return result;
    }
    if (options.streamPerRegion < 1 || options.streamPerRegion > kMaxStreamPerRegion) {
        result.error = "streamPerRegion must be between 1 and " +
                       std::to_string(kMaxStreamPerRegion) + "; found " +
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
        if (options.windowBytes.size() > kMaxWindows) {
            result.error = "at most " + std::to_string(kMaxWindows) + " window sizes; found " +
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
        if (options.hitRatios.size() > kMaxRatios) {
            result.error = "at most " + std::to_string(kMaxRatios) + " hitRatios; found " +
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
    if (options.streamBytes < kMiB || options.streamBytes > kMaxStreamBytes ||
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
    if (samplesMs.empty()) {
        return point;
    }
    const SampleSummary summary = summarizeSamples(std::move(samplesMs));
    point.samples = summary.samples;
    point.minMs = summary.min;
    point.maxMs = summary.max;
    point.medianMs = summary.median;
    if (point.medianMs > 0.0) {
        const double bytes =
            static_cast<double>(plan.streamBytes) + static_cast<double>(l2RegionReadBytes(plan));
        point.bandwidthGBs = bytes / (point.medianMs * 1e6);
    }
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

RequestResult<L2PersistenceOptions> parseL2PersistenceOptions(const json& request) {
    L2PersistenceOptions options;
    const auto found = request.find("options");
    if (found == request.end()) {
        return options;
    }
    if (!found->is_object()) {
        return badRequestAt("\"options\" must be an object", "/options");
    }
    static const char* const kKeys[] = {"windowBytes",   "hitRatios",   "tuned",
                                        "setAsideBytes", "streamBytes", "streamPerRegion",
                                        "repetitions",   "counters"};
    for (const auto& item : found->items()) {
        if (std::find_if(std::begin(kKeys), std::end(kKeys),
                         [&](const char* key) { return item.key() == key; }) == std::end(kKeys)) {
            return badRequestAt("measure_l2_persistence takes no option \"" + item.key() +
                                    "\"; the options are windowBytes, hitRatios, tuned, "
                                    "setAsideBytes, streamBytes, streamPerRegion, repetitions and "
                                    "counters",
                                "/options/" + item.key());
        }
    }
    const auto integer = [&](const char* key, std::int64_t low, std::int64_t high,
                             std::int64_t& out) -> std::optional<RequestError> {
        const auto value = found->find(key);
        if (value == found->end()) {
            return std::nullopt;
        }
        if (!value->is_number_integer() || value->get<std::int64_t>() < low ||
            value->get<std::int64_t>() > high) {
            return badRequestAt(std::string("\"") + key + "\" must be an integer between " +
                                    std::to_string(low) + " and " + std::to_string(high),
                                std::string("/options/") + key);
        }
        out = value->get<std::int64_t>();
        return std::nullopt;
    };
    const auto boolean = [&](const char* key, bool& out) -> std::optional<RequestError> {
        const auto value = found->find(key);
        if (value == found->end()) {
            return std::nullopt;
        }
        if (!value->is_boolean()) {
            return badRequestAt(std::string("\"") + key + "\" must be true or false",
                                std::string("/options/") + key);
        }
        out = value->get<bool>();
        return std::nullopt;
    };
    std::int64_t streamPerRegion = options.streamPerRegion;
    std::int64_t repetitions = options.repetitions;
    for (auto error : {integer("setAsideBytes", 0, kMaxStreamBytes, options.setAsideBytes),
                       integer("streamBytes", kMiB, kMaxStreamBytes, options.streamBytes),
                       integer("streamPerRegion", 1, kMaxStreamPerRegion, streamPerRegion),
                       integer("repetitions", 1, kMaxRepetitions, repetitions),
                       boolean("tuned", options.tuned), boolean("counters", options.counters)}) {
        if (error) {
            return *error;
        }
    }
    options.streamPerRegion = static_cast<int>(streamPerRegion);
    options.repetitions = static_cast<int>(repetitions);
    if (const auto windows = found->find("windowBytes"); windows != found->end()) {
        if (!windows->is_array() || windows->size() > kMaxWindows) {
            return badRequestAt("\"windowBytes\" must be an array of at most " +
                                    std::to_string(kMaxWindows) + " byte counts",
                                "/options/windowBytes");
        }
        for (std::size_t i = 0; i < windows->size(); ++i) {
            const json& window = (*windows)[i];
            if (!window.is_number_integer() || window.get<std::int64_t>() < 1024 ||
                window.get<std::int64_t>() > kMaxStreamBytes ||
                window.get<std::int64_t>() % 1024 != 0) {
                return badRequestAt("a window size must be a multiple of 1 KiB, at least 1 KiB",
                                    "/options/windowBytes/" + std::to_string(i));
            }
            options.windowBytes.push_back(window.get<std::int64_t>());
        }
    }
    if (const auto ratios = found->find("hitRatios"); ratios != found->end()) {
        if (!ratios->is_array() || ratios->size() > kMaxRatios) {
            return badRequestAt("\"hitRatios\" must be an array of at most " +
                                    std::to_string(kMaxRatios) + " numbers",
                                "/options/hitRatios");
        }
        for (std::size_t i = 0; i < ratios->size(); ++i) {
            const json& ratio = (*ratios)[i];
            if (!ratio.is_number() || !(ratio.get<double>() > 0.0 && ratio.get<double>() <= 1.0)) {
                return badRequestAt("a hitRatio must be a number above 0 and at most 1",
                                    "/options/hitRatios/" + std::to_string(i));
            }
            options.hitRatios.push_back(ratio.get<double>());
        }
    }
    return options;
}

json toJson(const L2PersistenceMeasurement& measurement) {
    json points = json::array();
    for (const L2PersistencePoint& point : measurement.points) {
        json item{{"windowBytes", point.windowBytes},
                  {"window", point.window},
                  {"hitRatio", point.hitRatio},
                  {"tuned", point.tuned},
                  {"medianMs", point.medianMs},
                  {"minMs", point.minMs},
                  {"maxMs", point.maxMs},
                  {"samples", point.samples},
                  {"bandwidthGBs", point.bandwidthGBs},
                  {"countersMeasured", point.countersMeasured},
                  {"modelRegionHitPct", point.modelRegionHitPct},
                  {"modelHitRatePct", point.modelHitRatePct},
                  {"modelRegionHitKind", l2ModelKindName(point.modelRegionHitKind)},
                  {"modelHitRateKind", l2ModelKindName(point.modelHitRateKind)}};
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

} // namespace warpscope::probe
