// The L2 persistence window (measure_l2_persistence, `warpscope-probe l2-persistence`): the course
// notes' best-practice summary (seed 003, "L2 Cache") sets part of L2 aside for a region read
// again and again (cudaLimitPersistingL2CacheSize) and marks the region with an access policy
// window (accessPolicyWindow: base_ptr, num_bytes, hitRatio, hitProp, missProp). The experiment
// keeps re-reading a region of `windowBytes` while streaming a much larger buffer through L2, once
// without a window and once per hitRatio with one, and reports the time and the L2 hit rate.
// Declared once: the options and the plan, the measurement the probe's backends fill (with the
// model of warpscope/l2_persistence_model.h beside each point), its JSON as the probe writes it
// (docs/protocol.md) and the guarded reader the app reads it back with.
#pragma once

#include "warpscope/experiments/command_line.h"
#include "warpscope/l2_persistence_model.h"
#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::experiments {

/// Limits of the options (docs/protocol.md names them).
inline constexpr std::size_t kL2MaxWindows = 32;
inline constexpr std::size_t kL2MaxRatios = 16;
inline constexpr int kL2MaxRepetitions = 1000;
inline constexpr int kL2MaxStreamPerRegion = 64;
inline constexpr std::int64_t kL2MinStreamBytes = std::int64_t{1} << 20;
inline constexpr std::int64_t kL2MaxStreamBytes = std::int64_t{64} << 30;

struct L2PersistenceOptions {
    /// Sizes of the re-read region, which the window covers exactly (num_bytes). Empty: 2, 4, 8,
    /// 16, 24, 32, 48 and 64 MiB, those above the device's largest window left out with a note.
    std::vector<std::int64_t> windowBytes;
    /// hitRatio values measured with the window, each in (0, 1]. Empty: 0.25, 0.5, 0.75 and 1.
    std::vector<double> hitRatios;
    /// Also measure hitRatio = min(1, set-aside / window), the notes' "tune hitRatio".
    bool tuned = true;
    /// Bytes set aside for persisting lines (cudaLimitPersistingL2CacheSize); 0: the device's
    /// persistingL2CacheMaxSize.
    std::int64_t setAsideBytes = 0;
    /// The streaming buffer, read once per launch.
    std::int64_t streamBytes = std::int64_t{2} << 30;
    /// Streaming bytes read for every byte of the region read (the traffic between two reads of
    /// the same region byte is (1 + streamPerRegion) x windowBytes).
    int streamPerRegion = 4;
    int repetitions = 7; // timed launches per point, after one warm-up launch
    bool counters = true;
};

/// What the device says about persisting L2 (cudaDeviceProp).
struct L2PersistenceDevice {
    std::string name;
    std::int64_t l2Bytes = 0;
    std::int64_t persistingL2MaxBytes = 0; // persistingL2CacheMaxSize; 0: no persisting L2
    std::int64_t maxWindowBytes = 0;       // accessPolicyMaxWindowSize
    std::int64_t deviceFreeBytes = 0;
    /// L2 partitions (l2PartitionCount: 2 on compute capability 8.0 and 9.0, else 1).
    int l2Partitions = 1;
};

struct L2PersistencePlan {
    std::vector<std::int64_t> windowBytes; // ascending
    std::vector<double> hitRatios;         // ascending, without the tuned one
    bool tuned = true;
    std::int64_t setAsideBytes = 0;
    std::int64_t streamBytes = 0;
    int streamPerRegion = 4;
    int repetitions = 7;
    bool counters = true;
    int l2Partitions = 1; // the device's, for the model's lookups per sector
    std::string capNote;  // why default sizes were left out (empty when none were)
};

/// One measured point: a region size, with or without the window.
struct L2PersistencePoint {
    std::int64_t windowBytes = 0;
    bool window = false;   // false: the same launch with no access policy window
    double hitRatio = 0.0; // 0 without the window
    bool tuned = false;    // hitRatio = min(1, set-aside / window)
    double medianMs = 0.0;
    double minMs = 0.0;
    double maxMs = 0.0;
    int samples = 0;
    /// Bytes one launch reads (region reads + streaming reads) / median time, GB/s.
    double bandwidthGBs = 0.0;
    bool countersMeasured = false;
    double hitRatePct = 0.0; // lts__t_sector_hit_rate.pct of one launch
    double sectorHits = 0.0; // lts__t_sectors_lookup_hit.sum
    double sectorMisses = 0.0;
    double dramReadBytes = 0.0; // dram__bytes_read.sum
    /// The share of the region's reads served by L2, derived from dramReadBytes: 100 x (1 -
    /// (dramReadBytes - streamBytes) / region bytes read), within 0..100 (the streaming buffer,
    /// read once per launch, always comes from DRAM).
    double regionHitPct = 0.0;
    /// The model's region hit rate and overall hit rate (l2PersistenceModel).
    double modelRegionHitPct = 0.0;
    double modelHitRatePct = 0.0;
    /// Whether each model number is a prediction (a documented rule, exact on the H100) or an
    /// estimate (no documented rule): the answer's modelRegionHitKind and modelHitRateKind.
    L2ModelKind modelRegionHitKind = L2ModelKind::Estimate;
    L2ModelKind modelHitRateKind = L2ModelKind::Estimate;
};

struct L2PersistenceMeasurement {
    L2PersistenceDevice device;
    std::int64_t setAsideBytes = 0;
    /// cudaLimitPersistingL2CacheSize before the measurement; set back afterwards.
    std::int64_t previousSetAsideBytes = 0;
    std::int64_t streamBytes = 0;
    int streamPerRegion = 4;
    int repetitions = 0;
    bool countersMeasured = false;
    std::string countersUnavailableReason;
    std::string capNote;
    std::vector<L2PersistencePoint> points;
};

/// Checks the options against the device: refuses (the message says why) where the device has
/// no persisting L2, a window is larger than accessPolicyMaxWindowSize, a set-aside is larger
/// than persistingL2CacheMaxSize, or the buffers do not fit 90 % of free memory.
struct L2PersistencePlanResult {
    std::optional<L2PersistencePlan> plan;
    std::string error;
    bool noPersistingL2 = false; // the refusal is persistingL2CacheMaxSize == 0
    bool outOfMemory = false;
};
L2PersistencePlanResult planL2Persistence(const L2PersistenceOptions& options,
                                          const L2PersistenceDevice& device);

/// Median, min and max of the timed samples and the point's bandwidth and model.
L2PersistencePoint l2PersistencePoint(std::int64_t windowBytes, bool window, double hitRatio,
                                      bool tuned, std::vector<double> samplesMs,
                                      const L2PersistencePlan& plan, std::int64_t l2Bytes);
/// Fills dramReadBytes' derived regionHitPct (call after the counters are set).
void deriveRegionHit(L2PersistencePoint& point, const L2PersistencePlan& plan);

/// The hitRatio values measured at one window size, ascending, each with whether it is the tuned
/// one (a listed value equal to the tuned one is marked instead of measured twice).
struct L2HitRatio {
    double value = 1.0;
    bool tuned = false;
};
std::vector<L2HitRatio> l2PersistenceRatios(const L2PersistencePlan& plan,
                                            std::int64_t windowBytes);
/// The points measured at one window size, in order: first without the window (hitRatio 0,
/// not tuned), then each of l2PersistenceRatios().
std::vector<L2HitRatio> l2PersistencePointsAt(const L2PersistencePlan& plan,
                                              std::int64_t windowBytes);
/// Points a plan measures: per window size, one without the window and one per hitRatio.
int l2PersistencePointCount(const L2PersistencePlan& plan);

/// A measurement of `plan` on `device` before its points: the device, the plan's sizes, counts
/// and note, and whether counters come with it (`countersUnavailableReason` when they do not).
L2PersistenceMeasurement startL2PersistenceMeasurement(const L2PersistencePlan& plan,
                                                       const L2PersistenceDevice& device,
                                                       bool countersMeasured,
                                                       const std::string& noCountersReason);

/// The region bytes one launch reads: streamBytes / streamPerRegion.
std::int64_t l2RegionReadBytes(const L2PersistencePlan& plan);

/// The Nsight Compute metrics the probe asks CUPTI for.
const std::vector<std::string>& l2PersistenceCounterNames();

/// measure_l2_persistence's result object (docs/protocol.md): the device's figures, the
/// set-aside, each point with the model's numbers and their kinds, the counters where measured,
/// and the model's statement.
nlohmann::json toJson(const L2PersistenceMeasurement& measurement);

/// Reads measure_l2_persistence's result object at `pointer`. Required: a "points" array of at
/// least one point, each with a positive "windowBytes" and a "medianMs" of at least 0, with the
/// window a "hitRatio" above 0 and at most 1; "modelRegionHitKind" and "modelHitRateKind", where
/// given, "prediction" or "estimate". Other absent fields keep their defaults; a field of the
/// wrong type is a FileFormat error naming its JSON pointer.
Result<L2PersistenceMeasurement> l2PersistenceMeasurementFromJson(const nlohmann::json& value,
                                                                  const std::string& pointer = "");
/// The same from text, through the core's guarded reader (size, nesting, duplicate keys).
Result<L2PersistenceMeasurement> l2PersistenceMeasurementFromJsonText(std::string_view text);

/// The experiment's traits: what the experiment table (experiments.h), the probe's runners and the
/// app's registry know of it by type.
struct L2PersistenceExperiment {
    static constexpr std::string_view key = "l2-persistence";
    using Options = L2PersistenceOptions;
    using Measurement = L2PersistenceMeasurement;
    /// The measure_l2_persistence request's "options" (absent: the defaults; all fields optional:
    /// windowBytes, hitRatios, tuned, setAsideBytes, streamBytes, streamPerRegion, repetitions,
    /// counters); an InvalidValue Error whose `where` is the field's JSON pointer ("/options/...").
    static Result<Options> optionsFromJson(const nlohmann::json& request);
    static nlohmann::json toJson(const Measurement& measurement) {
        return experiments::toJson(measurement);
    }
    static Result<Measurement> measurementFromJsonText(std::string_view text) {
        return l2PersistenceMeasurementFromJsonText(text);
    }
    /// `warpscope-probe l2-persistence [options]`.
    static ExperimentCommandLine commandLine();
};

} // namespace warpscope::experiments
