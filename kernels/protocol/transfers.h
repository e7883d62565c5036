// measure_transfers in the protocol (docs/protocol.md): its options parsed from a request and its
// key; its row in experiment_table.cpp runs it for serve() and for `warpscope-probe experiment
// transfers`. The options, plan, measurement and its JSON are core's
// (warpscope/experiments/transfers.h).
#pragma once

#include "probe_protocol.h"

#include <warpscope/experiments/transfers.h>

#include <nlohmann/json.hpp>

#include <cstdint>

namespace warpscope::probe {

/// The "options" object of a measure_transfers request (all fields optional): minBytes, maxBytes,
/// step, sizes, modes, repetitions. BadRequest naming the field for anything else.
RequestResult<experiments::TransferOptions> parseTransferOptions(const nlohmann::json& request);

/// MemAvailable from /proc/meminfo in bytes, 0 when unknown.
std::int64_t hostAvailableMemoryBytes();

/// measure_transfers in the experiment table (experiment_table.h) and in every backend's runners.
inline constexpr ExperimentKey<experiments::TransferOptions, experiments::TransferMeasurement>
    kTransfersExperiment{protocol::ProbeOp::MeasureTransfers};

} // namespace warpscope::probe
