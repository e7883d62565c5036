// The L2 persistence window's model, in the course notes' terms (the best-practice summary, "L2
// Cache"): part of L2 is set aside (cudaLimitPersistingL2CacheSize) and hitRatio x num_bytes of a
// region marked by an access policy window is persisting. Shared by the probe
// (measure_l2_persistence answers carry it) and the app (its model-only state draws it).
// Header-only, plain C++.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace warpscope {

/// L2 partitions of the GPUs whose L2 NVIDIA documents as split in two (the A100 and H100
/// whitepapers: "each L2 partition localizes and caches data for memory accesses from SMs in
/// the GPCs directly connected to the partition"): compute capability 8.0 and 9.0. Others: 1.
inline int l2PartitionCount(int ccMajor, int ccMinor) {
    return (ccMajor == 8 || ccMajor == 9) && ccMinor == 0 ? 2 : 1;
}

/// The fraction of a set of lines that keeps its place when every line read again is evicted
/// by a line picked at random, and `ratio` = bytes competing / bytes of room: 1 where they fit,
/// else the root of s = exp(-(1 - s) x ratio) in (0, 1) (a missed line's refill evicts a random
/// one: a line survives the (1 - s) x competing bytes refilled between two of its reads).
inline double randomReplacementSurvival(double ratio) {
    if (!(ratio > 1.0)) {
        return 1.0;
    }
    // Fixed-point iteration from 0 rises monotonically to the root below 1.
    double s = 0.0;
    for (int i = 0; i < 200; ++i) {
        const double next = std::exp(-(1.0 - s) * ratio);
        if (std::fabs(next - s) < 1e-12) {
            return next;
        }
        s = next;
    }
    return s;
}

/// What the model predicts for one point of the experiment (a region of num_bytes read again
/// and again, streamPerRegion bytes of a buffer read once between two reads of each region
/// byte). Three rules, each from the notes, the device's properties or the experiment:
/// - persisting lines (hitRatio x num_bytes) that fit the set-aside part are all served by L2;
///   where they do not, they evict one another at random inside it
///   (randomReplacementSurvival(hitRatio x num_bytes / set-aside) of them stay);
/// - lines given missProp = streaming (the other 1 - hitRatio) are evicted first: none is
///   served (ncu on the H100: 1 % of them hit in their home partition);
/// - without a window, a region line stays while streamPerRegion x num_bytes of the buffer pass
///   through L2 between two of its reads with probability exp(-that / L2 size) (random
///   replacement; NVIDIA does not document L2's policy, and plain LRU, 100 % or 0 %, is what the
///   H100 does not do).
/// Cold (regionReadsPerLaunch > 0): the launch starts with the region out of L2, so the first
/// of its reads misses (ncu's replays start so; the probe's counted launch follows timed ones
/// and does not). Lookups: a sector homed in the other partition is looked up in the near one
/// first and then over the fabric, so with P partitions one sector costs 1 + (P - 1) / P
/// lookups when it is not served near; lts__t_sector_hit_rate counts hits / lookups.
/// Whether a number of the model is a prediction (a rule the notes or the CUDA Programming Guide
/// state, which the H100 confirms exactly) or an estimate (the model's own reasoning where NVIDIA
/// documents no rule; the H100 measures something else, docs/models.md says how far off).
enum class L2ModelKind { Prediction, Estimate };

/// "prediction" or "estimate", as measure_l2_persistence's answers name them.
inline const char* l2ModelKindName(L2ModelKind kind) {
    return kind == L2ModelKind::Prediction ? "prediction" : "estimate";
}

/// Which case of the model a point is, and so what its region share rests on.
enum class L2ModelBasis {
    WholeRegionPersists, // a window, hitRatio 1, num_bytes <= set-aside: the notes' rule
    PartialHitRatio,     // a window, hitRatio < 1, hitRatio x num_bytes <= set-aside
    PastSetAside,        // a window, hitRatio x num_bytes > set-aside: persisting lines thrash
    NoWindow,            // no window: L2's own replacement
};

struct L2PersistenceModel {
    double regionHitFraction = 0.0; // of the region's reads, served by L2 (not DRAM), 0..1
    /// lts__t_sector_hit_rate as ncu counts it: region hits / (sectors x lookupsPerSector).
    double hitRateFraction = 0.0;
    double lookupsPerSector = 1.0; // 1 + (P - 1) / P
    bool fits = true;              // hitRatio x num_bytes <= set-aside
    L2ModelBasis basis = L2ModelBasis::NoWindow;
    /// regionHitFraction is a prediction only for WholeRegionPersists: the window holds the whole
    /// region in the set-aside part, so every re-read is served by L2 (the notes; the H100: 100.00
    /// % warm, (k - 1) / k cold under ncu, within 0.01 points at 2 to 24 MiB). Every other case is
    /// an estimate: with hitRatio < 1 the H100 serves more than hitRatio of a small region (up to
    /// 29.8 points more) and less where the region exceeds the set-aside (the tuned ratio, up to
    /// 14.0 points less); past the set-aside it thrashes worse than random eviction (up to 15.5
    /// points less); without a window L2's policy is not documented (up to 6.8 points off).
    L2ModelKind regionKind = L2ModelKind::Estimate;
    /// Always an estimate: NVIDIA documents neither the lookups per sector nor which lookups count
    /// as hits (ncu on the H100: 1.41 to 1.52 lookups per sector, not 1.5, and about 1.5 million
    /// hits per launch that the DRAM bytes do not account for: 0.2 to 1.5 points above the model
    /// even where the region share is exact).
    L2ModelKind hitRateKind = L2ModelKind::Estimate;
};

/// Which case of the model a point is: the window holding the whole region (hitRatio 1 and
/// num_bytes <= set-aside, the one case with a rule), a smaller hitRatio that fits, persisting
/// lines past the set-aside part, or no window.
inline L2ModelBasis l2PersistenceBasis(std::int64_t windowBytes, double hitRatio, bool window,
                                       std::int64_t setAsideBytes) {
    if (!window) {
        return L2ModelBasis::NoWindow;
    }
    const double h = std::clamp(hitRatio, 0.0, 1.0);
    const double w = static_cast<double>(windowBytes);
    if (h * w > static_cast<double>(setAsideBytes)) {
        return L2ModelBasis::PastSetAside;
    }
    return h < 1.0 || w <= 0.0 ? L2ModelBasis::PartialHitRatio : L2ModelBasis::WholeRegionPersists;
}

inline L2PersistenceModel l2PersistenceModel(std::int64_t windowBytes, double hitRatio, bool window,
                                             std::int64_t setAsideBytes, std::int64_t l2Bytes,
                                             int streamPerRegion, int l2Partitions,
                                             double regionReadsPerLaunch = 0.0) {
    L2PersistenceModel model;
    const double w = static_cast<double>(windowBytes);
    const double h = window ? std::clamp(hitRatio, 0.0, 1.0) : 0.0;
    const double setAside = static_cast<double>(setAsideBytes);
    const double l2 = static_cast<double>(l2Bytes);
    const double stream = static_cast<double>(std::max(0, streamPerRegion));
    const double persisting = h * w;
    model.fits = !window || persisting <= setAside;
    model.basis = l2PersistenceBasis(windowBytes, hitRatio, window, setAsideBytes);
    model.regionKind = model.basis == L2ModelBasis::WholeRegionPersists ? L2ModelKind::Prediction
                                                                        : L2ModelKind::Estimate;
    double served = 0.0;
    if (w > 0.0) {
        if (window) {
            served = model.fits       ? h
                     : setAside > 0.0 ? h * randomReplacementSurvival(persisting / setAside)
                                      : 0.0;
        } else if (l2 > 0.0) {
            served = std::exp(-stream * w / l2);
        }
    }
    if (regionReadsPerLaunch > 1.0) {
        served *= (regionReadsPerLaunch - 1.0) / regionReadsPerLaunch;
    } else if (regionReadsPerLaunch > 0.0) {
        served = 0.0;
    }
    model.regionHitFraction = std::clamp(served, 0.0, 1.0);
    const int partitions = std::max(1, l2Partitions);
    model.lookupsPerSector = 1.0 + static_cast<double>(partitions - 1) / partitions;
    model.hitRateFraction = model.regionHitFraction / (1.0 + stream) / model.lookupsPerSector;
    return model;
}

/// What the region share of a point of this basis rests on, in a sentence (tooltips, docs): the
/// rule where there is one, else why the number is only an estimate and what the H100 did.
inline const char* l2ModelBasisText(L2ModelBasis basis) {
    switch (basis) {
    case L2ModelBasis::WholeRegionPersists:
        return "prediction: the window holds the whole region (hitRatio 1) in the set-aside part, "
               "so every re-read is served by L2 (the notes' rule; exact on the H100)";
    case L2ModelBasis::PartialHitRatio:
        return "estimate (no documented rule): hitRatio of the region persists and the model "
               "serves only that; the H100 serves more of a small region (up to 30 points) and "
               "less where the region exceeds the set-aside (up to 14 points)";
    case L2ModelBasis::PastSetAside:
        return "estimate (no documented rule): the persisting lines exceed the set-aside part and "
               "the model assumes random eviction among them; the H100 thrashes worse (up to 15 "
               "points)";
    case L2ModelBasis::NoWindow:
        return "estimate (no documented rule): without a window the model assumes random "
               "replacement, since NVIDIA does not document L2's policy (up to 7 points off)";
    }
    return "";
}

/// Why the L2 hit rate is never more than an estimate, in a sentence.
inline const char* l2HitRateEstimateText() {
    return "estimate (no documented rule): 1.5 lookups per sector on two L2 partitions and one "
           "hit per served sector; ncu counts 1.41 to 1.52 lookups and unexplained extra hits "
           "(0.2 to 1.5 points above the model where the region share is exact)";
}

/// The notes' "tune hitRatio": min(1, set-aside / num_bytes).
inline double tunedHitRatio(std::int64_t windowBytes, std::int64_t setAsideBytes) {
    if (windowBytes <= 0) {
        return 1.0;
    }
    return std::min(1.0, static_cast<double>(setAsideBytes) / static_cast<double>(windowBytes));
}

/// The notes' passage and the model in words (answers, the app's model-only state, docs).
inline const char* l2PersistenceModelStatement() {
    return "The notes' best-practice summary (\"L2 Cache\"): \"A portion of the L2 cache can be "
           "set aside for "
           "persistent (repeatedly) accesses to a data region in global memory\"; hitRatio is the "
           "\"percentage of lines assigned hitProp, rest are assigned missProp\", and \"depending "
           "on the value of the num_bytes parameter and the size of L2 cache, one may need to "
           "tune the value of hitRatio to avoid thrashing of L2 cache lines\". The model in those "
           "terms: hitRatio x num_bytes of the region is persisting; where that fits the set-aside "
           "part, every re-read of those lines is served by L2; where it does not, the persisting "
           "lines evict one another at random inside the set-aside part and only a share s stays, "
           "s = exp(-(1 - s) x hitRatio x num_bytes / set-aside) (the tuned hitRatio, min(1, "
           "set-aside / num_bytes), avoids that thrashing). The lines given missProp = streaming "
           "are evicted first and are never served. Without a window a region line survives the "
           "streaming bytes read between two of its reads with probability exp(-those bytes / L2 "
           "size) (random replacement: NVIDIA does not document L2's policy). Only the first rule "
           "with hitRatio 1 (the window holds the whole region in the set-aside part) is a "
           "prediction, exact on the H100; the rest, and the L2 hit rate, are estimates with no "
           "documented rule. The region's "
           "measured share is 1 - (DRAM bytes read - streaming bytes) / region bytes read "
           "(dram__bytes_read.sum; the streaming buffer, read once, always misses). The L2 hit "
           "rate (lts__t_sector_hit_rate.pct) counts hits over lookups, and on a GPU whose L2 is "
           "split in two partitions (A100, H100) a sector homed in the far partition is looked "
           "up twice, near and then over the fabric: 1.5 lookups per sector, so the hit rate is "
           "the region's share / (1 + streaming bytes per region byte) / 1.5.";
}

} // namespace warpscope
