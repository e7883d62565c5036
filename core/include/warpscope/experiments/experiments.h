// The probe experiments, declared once: each row an experiment's stable key, its title, the
// request op that measures it, the command-line option that shows recorded results, the session
// key its results are kept under, and its probe command line. The app's registry
// (app/src/experiments) and its command line, export, lecture decks and sessions read this table;
// the probe's runner table answers its op and its command line runs it. Each experiment's header
// declares its traits (TransfersExperiment: key, Options, Measurement, their JSON); adding an
// experiment is its two files here and a row in experiments.cpp (docs/app-architecture.md,
// "Adding an experiment").
#pragma once

#include "warpscope/experiments/command_line.h"

#include <span>
#include <string>
#include <string_view>

namespace warpscope::experiments {

struct Experiment {
    /// The stable name: `--view KEY`, `--preset KEY`, `--export --view KEY`, a deck slide's view,
    /// `warpscope-probe KEY`. Never renamed (decks and scripts hold it); the traits' key.
    std::string_view key;
    /// The tab's title, in English (the app translates it).
    std::string_view title;
    /// The request's "op" that measures it ("measure_transfers"); stable. protocol/ops.h's
    /// Experiment row says it takes a device, is cancellable and reports progress.
    std::string_view opName;
    /// `--OPTION FILE` shows recorded results (a result object or a protocol answer line).
    std::string_view resultsOption;
    /// Where a session keeps its results (stable: sessions written earlier use it).
    std::string_view sessionKey;
    /// A recorded results file in the source tree, for help texts and tests.
    std::string_view exampleFile;
    /// `warpscope-probe KEY [options]`: usage, options, text report, progress.
    ExperimentCommandLine commandLine;
};

/// Every experiment, in the order the window's tabs show them.
std::span<const Experiment> experiments();

/// The row whose key is `key`; the key must be one (asserted).
const Experiment& experiment(std::string_view key);

/// The row whose key is `key`, or nullptr.
const Experiment* findExperiment(std::string_view key);

/// The row whose opName is `opName`, or nullptr for an op that is no experiment's.
const Experiment* findExperimentByOpName(std::string_view opName);

/// "transfers, streams or l2-persistence": every key, for messages.
std::string experimentKeyList();

} // namespace warpscope::experiments
