// measure_streams in the protocol (docs/protocol.md): its options parsed from a request and its
// key; its row in experiment_table.cpp runs it for serve() and for `warpscope-probe experiment
// streams`. The options, measurement and its JSON (with the model's prediction beside each
// measured run) are core's (warpscope/experiments/streams.h).
#pragma once

#include "probe_protocol.h"

#include <warpscope/experiments/streams.h>

#include <nlohmann/json.hpp>

namespace warpscope::probe {

/// The "options" object of a measure_streams request (all fields optional): bytes, streams,
/// repetitions, work, order. BadRequest naming the field for anything else.
RequestResult<experiments::StreamsOptions> parseStreamsOptions(const nlohmann::json& request);

/// measure_streams in the experiment table (experiment_table.h) and in every backend's runners.
inline constexpr ExperimentKey<experiments::StreamsOptions, experiments::StreamsMeasurement>
    kStreamsExperiment{protocol::ProbeOp::MeasureStreams};

} // namespace warpscope::probe
