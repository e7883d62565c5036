// measure_streams in the protocol (docs/protocol.md): its options parsed from a request, its
// answer as JSON (with the model's prediction beside each measured run), and the whole request
// run on a Backend (serve() and `warpscope-probe streams` call the same function).
#pragma once

#include "probe_protocol.h"
#include "streams_types.h"

#include <nlohmann/json.hpp>

namespace warpscope::probe {

/// The "options" object of a measure_streams request (all fields optional): bytes, streams,
/// repetitions, work, order. BadRequest naming the field for anything else.
RequestResult<StreamsOptions> parseStreamsOptions(const nlohmann::json& request);

nlohmann::json toJson(const StreamsMeasurement& measurement);

/// Runs a measure_streams request (id and op already checked).
RequestResult<nlohmann::json> runStreamsRequest(const nlohmann::json& request, Backend& backend,
                                                const ProgressCallback& progress,
                                                const CancelCallback& cancelled);

} // namespace warpscope::probe
