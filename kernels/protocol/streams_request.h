// measure_streams in the protocol (docs/protocol.md): its options parsed from a request, its
// answer as JSON (with the model's prediction beside each measured run), and its key; its row in
// experiment_table.cpp runs it for serve() and for `warpscope-probe experiment streams`.
#pragma once

#include "probe_protocol.h"
#include "streams_types.h"

#include <nlohmann/json.hpp>

namespace warpscope::probe {

/// The "options" object of a measure_streams request (all fields optional): bytes, streams,
/// repetitions, work, order. BadRequest naming the field for anything else.
RequestResult<StreamsOptions> parseStreamsOptions(const nlohmann::json& request);

nlohmann::json toJson(const StreamsMeasurement& measurement);

/// measure_streams in the experiment table (experiment_table.h) and in every backend's runners.
inline constexpr ExperimentKey<StreamsOptions, StreamsMeasurement> kStreamsExperiment{
    protocol::ProbeOp::MeasureStreams};

} // namespace warpscope::probe
