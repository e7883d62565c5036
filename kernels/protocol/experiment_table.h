// The probe's experiments (docs/protocol.md, "Experiments"): core's table
// (warpscope/experiments/experiments.h) names each one, its request op and its command line; the
// backend of the request's device holds its runner (experiment_runners.h). serve() answers every
// experiment's op here, and `warpscope-probe experiment NAME` runs the same, so a new experiment
// is its core files, its runner on each backend and nothing in this folder.
#pragma once

#include "probe_protocol.h"

#include "warpscope/experiments/experiments.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace warpscope::probe {

/// Answers a request of `experiment`'s op (its id and op already checked, its device chosen by
/// the caller): a field other than id, op, device and options is refused, the backend's runner
/// reads the options (bad_request at the option's pointer) and runs them, and the measurement is
/// the answer's result.
RequestResult<nlohmann::json> answerExperiment(const experiments::Experiment& experiment,
                                               const nlohmann::json& request, Backend& backend,
                                               const ProgressCallback& progress,
                                               const CancelCallback& cancelled);

/// "transfers, streams and l2-persistence": every experiment's key, the command line's names.
std::string experimentCommandList();

} // namespace warpscope::probe
