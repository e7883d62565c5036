// The probe experiments, declared once: each row an experiment's stable key, its title, the probe
// op that measures it, the command-line option that shows recorded results and the session key
// its results are kept under. The app's registry (app/src/experiments) and its command line,
// export, lecture decks and sessions read this table; the probe's runner table answers its op.
// Adding an experiment is adding a row (docs/app-architecture.md, "Adding an experiment").
#pragma once

#include <warpscope/protocol/ops.h>

#include <span>
#include <string>
#include <string_view>

namespace warpscope::experiments {

enum class ExperimentId {
    Transfers,
    Streams,
    L2Persistence,
};

struct Experiment {
    ExperimentId id;
    /// The stable name: `--view KEY`, `--preset KEY`, `--export --view KEY`, a deck slide's view.
    /// Never renamed (decks and scripts hold it).
    std::string_view key;
    /// The tab's title, in English (the app translates it).
    std::string_view title;
    /// The probe op that measures it (protocol/ops.h's table says it takes a device, is
    /// cancellable and reports progress).
    protocol::ProbeOp op;
    /// `--OPTION FILE` shows recorded results (a result object or a protocol answer line).
    std::string_view resultsOption;
    /// Where a session keeps its results (stable: sessions written earlier use it).
    std::string_view sessionKey;
    /// A recorded results file in the source tree, for help texts and tests.
    std::string_view exampleFile;
};

/// Every experiment, in the order the window's tabs show them.
std::span<const Experiment> experiments();

/// The row of `id`.
const Experiment& experiment(ExperimentId id);

/// The row whose key is `key`, or nullptr.
const Experiment* findExperiment(std::string_view key);

/// The row measured by `op`, or nullptr for an op that is no experiment's.
const Experiment* findExperimentByOp(protocol::ProbeOp op);

/// "transfers, streams or l2-persistence": every key, for messages.
std::string experimentKeyList();

} // namespace warpscope::experiments
