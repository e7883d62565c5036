// measure_l2_persistence in the protocol (docs/protocol.md): its options parsed from a request, its
// answer as JSON, and its key; its row in experiment_table.cpp runs it for serve() and for
// `warpscope-probe experiment l2-persistence`.
#pragma once

#include "l2_persistence_types.h"
#include "probe_protocol.h"

#include <nlohmann/json.hpp>

namespace warpscope::probe {

/// The "options" object of a measure_l2_persistence request (all fields optional): windowBytes,
/// hitRatios, tuned, setAsideBytes, streamBytes, streamPerRegion, repetitions, counters.
/// BadRequest naming the field for anything else.
RequestResult<L2PersistenceOptions> parseL2PersistenceOptions(const nlohmann::json& request);

nlohmann::json toJson(const L2PersistenceMeasurement& measurement);

/// measure_l2_persistence in the experiment table (experiment_table.h) and in every backend's
/// runners.
inline constexpr ExperimentKey<L2PersistenceOptions, L2PersistenceMeasurement>
    kL2PersistenceExperiment{protocol::ProbeOp::MeasureL2Persistence};

} // namespace warpscope::probe
