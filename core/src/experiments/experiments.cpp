// The table of the probe experiments (experiments/experiments.h).
#include "warpscope/experiments/experiments.h"

#include <array>
#include <cassert>

namespace warpscope::experiments {

namespace {

using protocol::ProbeOp;

// id, key, title, op, results option, session key, example file.
constexpr std::array<Experiment, 3> kExperiments{{
    {ExperimentId::Transfers, "transfers", "Transfers", ProbeOp::MeasureTransfers, "transfers",
     "transfers.results", "tests/data/transfers_h100.json"},
    {ExperimentId::Streams, "streams", "Streams", ProbeOp::MeasureStreams, "streams",
     "streams.results", "tests/data/streams_h100.json"},
    {ExperimentId::L2Persistence, "l2-persistence", "L2 persistence", ProbeOp::MeasureL2Persistence,
     "l2-persistence", "l2persistence.results", "tests/data/l2_persistence_h100.json"},
}};

constexpr bool rowsInEnumOrder() {
    for (std::size_t i = 0; i < kExperiments.size(); ++i) {
        if (static_cast<std::size_t>(kExperiments[i].id) != i) {
            return false;
        }
    }
    return true;
}
static_assert(rowsInEnumOrder(), "kExperiments holds one row per ExperimentId, in its order");

} // namespace

std::span<const Experiment> experiments() {
    return kExperiments;
}

const Experiment& experiment(ExperimentId id) {
    const auto index = static_cast<std::size_t>(id);
    assert(index < kExperiments.size());
    return kExperiments[index];
}

const Experiment* findExperiment(std::string_view key) {
    for (const Experiment& row : kExperiments) {
        if (row.key == key) {
            return &row;
        }
    }
    return nullptr;
}

const Experiment* findExperimentByOp(protocol::ProbeOp op) {
    for (const Experiment& row : kExperiments) {
        if (row.op == op) {
            return &row;
        }
    }
    return nullptr;
}

std::string experimentKeyList() {
    std::string list;
    for (std::size_t i = 0; i < kExperiments.size(); ++i) {
        if (i > 0) {
            list += i + 1 == kExperiments.size() ? " or " : ", ";
        }
        list += kExperiments[i].key;
    }
    return list;
}

} // namespace warpscope::experiments
