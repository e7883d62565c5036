// measure_l2_persistence in the protocol (docs/protocol.md): its options parsed from a request and
// its key; its row in experiment_table.cpp runs it for serve() and for `warpscope-probe experiment
// l2-persistence`. The options, plan, measurement and its JSON are core's
// (warpscope/experiments/l2_persistence.h).
#pragma once

#include "probe_protocol.h"

#include <warpscope/experiments/l2_persistence.h>

#include <nlohmann/json.hpp>

namespace warpscope::probe {

/// The "options" object of a measure_l2_persistence request (all fields optional): windowBytes,
/// hitRatios, tuned, setAsideBytes, streamBytes, streamPerRegion, repetitions, counters.
/// BadRequest naming the field for anything else.
RequestResult<experiments::L2PersistenceOptions>
parseL2PersistenceOptions(const nlohmann::json& request);

/// measure_l2_persistence in the experiment table (experiment_table.h) and in every backend's
/// runners.
inline constexpr ExperimentKey<experiments::L2PersistenceOptions,
                               experiments::L2PersistenceMeasurement>
    kL2PersistenceExperiment{protocol::ProbeOp::MeasureL2Persistence};

} // namespace warpscope::probe
