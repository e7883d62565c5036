// warpscope-probe's experiment commands: `warpscope-probe experiment NAME [options]` for every row
// of core's experiment table (warpscope/experiments/experiments.h), and each NAME also as a
// command of its own (`warpscope-probe transfers`, as before). The row's command line says what
// only the command line needs (the usage paragraph, how its options are read from the arguments,
// how its answer is told to a person, how progress is told); the request runs as serve() runs it
// (experiment_table.h).
#pragma once

#include "measurement_cli.h"
#include "probe_cli.h"

#include "warpscope/experiments/experiments.h"

#include <string>
#include <vector>

namespace warpscope::probe {

/// `warpscope-probe experiment NAME [options]`: NAME's row run with the rest of `args`. A missing
/// or unknown NAME is bad usage, naming the experiments there are.
int experimentCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend);

/// The same for a NAME already found (`warpscope-probe transfers [options]`).
int runExperimentCommand(const experiments::Experiment& experiment,
                         const std::vector<std::string>& args, const BackendFactory& makeBackend);

/// A fresh teller of an experiment's progress on stderr, as its command line asks.
ProgressCallback experimentProgress(const experiments::ExperimentProgress& style);

/// The usage's list lines for `experiment NAME` and every experiment, and every experiment's
/// paragraph, for --help.
std::string experimentSynopses();
std::string experimentUsages();

} // namespace warpscope::probe
