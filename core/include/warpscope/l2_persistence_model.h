// The L2 persistence window's model, in the course notes' terms (seed 003, "L2 Cache"): part of L2
// is set aside (cudaLimitPersistingL2CacheSize) and hitRatio x num_bytes of a region marked by an
// access policy window is persisting. Shared by the probe (measure_l2_persistence answers carry
// it) and the app (its model-only state draws it). Header-only, plain C++.
#pragma once

#include <algorithm>
#include <cstdint>

namespace warpscope {

/// Where hitRatio x num_bytes fits the set-aside part, every re-read of the persisting lines
/// hits; where it does not, they compete for it ("tune hitRatio to avoid thrashing") and at most
/// set-aside / num_bytes of the region can be kept. The rest of the region (all of it without a
/// window) is streamed: it hits only when the traffic between two reads of it, (1 - hitRatio +
/// streamPerRegion) x num_bytes, fits the L2 the persisting lines leave (LRU reasoning; the notes
/// give no rule for it). The streaming buffer, read once, never hits.
struct L2PersistenceModel {
    double regionHitFraction = 0.0; // of the region's reads, 0..1
    double hitRateFraction = 0.0;   // of all reads: regionHitFraction / (1 + streamPerRegion)
    bool fits = true;               // hitRatio x num_bytes <= set-aside
};

inline L2PersistenceModel l2PersistenceModel(std::int64_t windowBytes, double hitRatio, bool window,
                                             std::int64_t setAsideBytes, std::int64_t l2Bytes,
                                             int streamPerRegion) {
    L2PersistenceModel model;
    const double w = static_cast<double>(windowBytes);
    const double h = window ? std::clamp(hitRatio, 0.0, 1.0) : 0.0;
    const double setAside = static_cast<double>(setAsideBytes);
    const double persisting = h * w;
    model.fits = !window || persisting <= setAside;
    const double kept = w <= 0.0 ? 0.0 : model.fits ? h : std::min(h, setAside / w);
    const double left = static_cast<double>(l2Bytes) - std::min(setAside, persisting);
    const double between = (1.0 - h + static_cast<double>(streamPerRegion)) * w;
    const double streamed = (1.0 - h) * (between <= left ? 1.0 : 0.0);
    model.regionHitFraction = std::clamp(kept + streamed, 0.0, 1.0);
    model.hitRateFraction = model.regionHitFraction / (1.0 + std::max(0, streamPerRegion));
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
           "part, every re-read of those lines hits; where it does not, at most set-aside / "
           "num_bytes of the region can be kept (the tuned hitRatio, min(1, set-aside / "
           "num_bytes), keeps exactly that without thrashing). The rest of the region hits only "
           "when the traffic between two of its reads fits the L2 that is left (plain LRU "
           "reasoning, not in the notes), and the streaming buffer, read once, never hits. The "
           "probe measures the L2 hit rate of all sectors (lts__t_sector_hit_rate.pct) and the "
           "time; the region's own hit rate is derived from it assuming streaming reads miss.";
}

} // namespace warpscope
