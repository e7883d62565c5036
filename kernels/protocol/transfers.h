// measure_transfers in the protocol (docs/protocol.md): its options parsed from a request, its
// answer as JSON, and its key; its row in experiment_table.cpp runs it for serve() and for
// `warpscope-probe experiment transfers`.
#pragma once

#include "probe_protocol.h"
#include "transfer_types.h"

#include <nlohmann/json.hpp>

namespace warpscope::probe {

/// The "options" object of a measure_transfers request (all fields optional): minBytes, maxBytes,
/// step, sizes, modes, repetitions. BadRequest naming the field for anything else.
RequestResult<TransferOptions> parseTransferOptions(const nlohmann::json& request);

nlohmann::json toJson(const TransferLink& link);
nlohmann::json toJson(const TransferMeasurement& measurement);

/// measure_transfers in the experiment table (experiment_table.h) and in every backend's runners.
inline constexpr ExperimentKey<TransferOptions, TransferMeasurement> kTransfersExperiment{
    protocol::ProbeOp::MeasureTransfers};

} // namespace warpscope::probe
