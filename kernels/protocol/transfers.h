// measure_transfers in the protocol (docs/protocol.md): its options parsed from a request, its
// answer as JSON, and the whole request run on a Backend (serve() and `warpscope-probe transfers`
// call the same function).
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

/// Runs a measure_transfers request (id and op already checked): its options, the backend's
/// measurement, the answer's result object.
RequestResult<nlohmann::json> runTransfersRequest(const nlohmann::json& request, Backend& backend,
                                                  const ProgressCallback& progress,
                                                  const CancelCallback& cancelled);

} // namespace warpscope::probe
