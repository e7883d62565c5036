// warpscope-probe's experiment commands: `warpscope-probe experiment NAME [options]`, driven by
// the protocol's experiment table (experiment_table.h), and each NAME also as a command of its own
// (`warpscope-probe transfers`, as before). One row per experiment holds what only the command
// line needs: the usage paragraph, how its options are read from the arguments, how its answer is
// printed for a person and how progress is told; the op, the name, the request and the runner
// come from the protocol's row of the same op.
#pragma once

#include "measurement_cli.h"
#include "probe_cli.h"

#include "warpscope/protocol/ops.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace warpscope::probe {

struct ExperimentRow;

struct ExperimentCommand {
    protocol::ProbeOp op;
    /// The command's line in the usage's list, after "warpscope-probe NAME [options]".
    const char* synopsis;
    /// The paragraph --help prints for it.
    const char* usage;
    /// Reads "--name value" into the request's options.
    MeasurementOption option;
    /// Reads an option without a value; may be empty (every option takes a value).
    MeasurementFlag flag;
    /// Prints the answer for a person (without --json).
    std::function<void(const nlohmann::json&)> print;
    /// A fresh progress teller for one run (on stderr).
    std::function<ProgressCallback()> progress;
};

// Each experiment's command line, in its own source (transfers_cli.cpp, streams_cli.cpp,
// l2_persistence_cli.cpp).
ExperimentCommand transfersCommandLine();
ExperimentCommand streamsCommandLine();
ExperimentCommand l2PersistenceCommandLine();

/// Every experiment's command line, in the order --help lists them.
std::span<const ExperimentCommand> experimentCommands();

/// The command line of `op`, or nullptr.
const ExperimentCommand* findExperimentCommandLine(protocol::ProbeOp op);

/// `warpscope-probe experiment NAME [options]`: NAME's row run with the rest of `args`. A missing
/// or unknown NAME is bad usage, naming the experiments there are.
int experimentCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend);

/// The same for a NAME already found (`warpscope-probe transfers [options]`).
int runExperimentCommand(const ExperimentRow& row, const std::vector<std::string>& args,
                         const BackendFactory& makeBackend);

/// The usage's list lines for `experiment NAME` and every experiment, and every experiment's
/// paragraph, for --help.
std::string experimentSynopses();
std::string experimentUsages();

} // namespace warpscope::probe
