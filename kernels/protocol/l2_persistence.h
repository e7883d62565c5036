// measure_l2_persistence in the protocol (docs/protocol.md): its options parsed from a request, its
// answer as JSON, and the whole request run on a Backend (serve() and `warpscope-probe
// l2-persistence` call the same function).
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

/// Runs a measure_l2_persistence request (id and op already checked).
RequestResult<nlohmann::json> runL2PersistenceRequest(const nlohmann::json& request,
                                                      Backend& backend,
                                                      const ProgressCallback& progress,
                                                      const CancelCallback& cancelled);

} // namespace warpscope::probe
