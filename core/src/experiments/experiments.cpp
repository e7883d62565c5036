// The table of the probe experiments (experiments/experiments.h): one row per experiment, its key
// and command line from the experiment's traits.
#include "warpscope/experiments/experiments.h"

#include "warpscope/experiments/l2_persistence.h"
#include "warpscope/experiments/streams.h"
#include "warpscope/experiments/transfers.h"

#include <array>
#include <cassert>

namespace warpscope::experiments {

namespace {

/// A row of `Traits`: its key and command line are the traits'.
template <class Traits>
Experiment row(std::string_view title, std::string_view opName, std::string_view resultsOption,
               std::string_view sessionKey, std::string_view exampleFile) {
    return Experiment{Traits::key,          title, opName, resultsOption, sessionKey, exampleFile,
                      Traits::commandLine()};
}

const std::array<Experiment, 3>& rows() {
    // In the order of the window's tabs: title, request op, results option, session key, example.
    static const std::array<Experiment, 3> table{{
        row<TransfersExperiment>("Transfers", "measure_transfers", "transfers", "transfers.results",
                                 "tests/data/transfers_h100.json"),
        row<StreamsExperiment>("Streams", "measure_streams", "streams", "streams.results",
                               "tests/data/streams_h100.json"),
        row<L2PersistenceExperiment>("L2 persistence", "measure_l2_persistence", "l2-persistence",
                                     "l2persistence.results",
                                     "tests/data/l2_persistence_h100.json"),
    }};
    return table;
}

} // namespace

std::span<const Experiment> experiments() {
    return rows();
}

const Experiment& experiment(std::string_view key) {
    const Experiment* found = findExperiment(key);
    assert(found != nullptr);
    return *found;
}

const Experiment* findExperiment(std::string_view key) {
    for (const Experiment& row : rows()) {
        if (row.key == key) {
            return &row;
        }
    }
    return nullptr;
}

const Experiment* findExperimentByOpName(std::string_view opName) {
    for (const Experiment& row : rows()) {
        if (row.opName == opName) {
            return &row;
        }
    }
    return nullptr;
}

std::string experimentKeyList() {
    const auto& table = rows();
    std::string list;
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (i > 0) {
            list += i + 1 == table.size() ? " or " : ", ";
        }
        list += table[i].key;
    }
    return list;
}

} // namespace warpscope::experiments
