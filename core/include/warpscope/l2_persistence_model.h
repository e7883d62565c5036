// The L2 persistence window's model, in the course notes' terms (seed 003, "L2 Cache"): part of L2
// is set aside (cudaLimitPersistingL2CacheSize) and hitRatio x num_bytes of a region marked by an
// access policy window is persisting. Shared by the probe (measure_l2_persistence answers carry
// it) and the app (its model-only state draws it). Header-only, plain C++.
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
struct L2PersistenceModel {
    double regionHitFraction = 0.0; // of the region's reads, served by L2 (not DRAM), 0..1
    /// lts__t_sector_hit_rate as ncu counts it: region hits / (sectors x lookupsPerSector).
    double hitRateFraction = 0.0;
    double lookupsPerSector = 1.0; // 1 + (P - 1) / P
    bool fits = true;              // hitRatio x num_bytes <= set-aside
};

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

/// The notes' "tune hitRatio": min(1, set-aside / num_bytes).
inline double tunedHitRatio(std::int64_t windowBytes, std::int64_t setAsideBytes) {
    if (windowBytes <= 0) {
        return 1.0;
    }
    return std::min(1.0, static_cast<double>(setAsideBytes) / static_cast<double>(windowBytes));
}

/// The notes' passage and the model in words (answers, the app's model-only state, docs).
inline const char* l2PersistenceModelStatement() {
    return "The notes (seed 003, \"L2 Cache\"): \"A portion of the L2 cache can be set aside for "
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
           "size) (random replacement: NVIDIA does not document L2's policy). The region's "
           "measured share is 1 - (DRAM bytes read - streaming bytes) / region bytes read "
           "(dram__bytes_read.sum; the streaming buffer, read once, always misses). The L2 hit "
           "rate (lts__t_sector_hit_rate.pct) counts hits over lookups, and on a GPU whose L2 is "
           "split in two partitions (A100, H100) a sector homed in the far partition is looked "
           "up twice, near and then over the fabric: 1.5 lookups per sector, so the hit rate is "
           "the region's share / (1 + streaming bytes per region byte) / 1.5.";
}

} // namespace warpscope
