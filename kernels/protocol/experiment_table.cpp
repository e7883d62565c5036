// The probe's experiment table (experiment_table.h): one row per experiment.
#include "experiment_table.h"

#include "l2_persistence.h"
#include "streams_request.h"
#include "transfers.h"

#include <algorithm>
#include <vector>

namespace warpscope::probe {

namespace {

const std::vector<ExperimentRow>& rows() {
    // In the order of core's op table (hello lists the ops in that order).
    static const std::vector<ExperimentRow> table = [] {
        std::vector<ExperimentRow> list;
        list.push_back(makeExperimentRow(kTransfersExperiment, "transfers", "transfers",
                                         parseTransferOptions, experiments::toJson));
        list.push_back(makeExperimentRow(kL2PersistenceExperiment, "l2-persistence",
                                         "the L2 persistence window", parseL2PersistenceOptions,
                                         experiments::toJson));
        list.push_back(makeExperimentRow(kStreamsExperiment, "streams", "streams",
                                         parseStreamsOptions, experiments::toJson));
        return list;
    }();
    return table;
}

} // namespace

std::span<const ExperimentRow> experimentRows() {
    return rows();
}

const ExperimentRow* findExperiment(protocol::ProbeOp op) {
    const auto& table = rows();
    const auto found = std::find_if(table.begin(), table.end(),
                                    [op](const ExperimentRow& row) { return row.op == op; });
    return found == table.end() ? nullptr : &*found;
}

const ExperimentRow* findExperimentCommand(std::string_view command) {
    const auto& table = rows();
    const auto found =
        std::find_if(table.begin(), table.end(),
                     [command](const ExperimentRow& row) { return row.command == command; });
    return found == table.end() ? nullptr : &*found;
}

std::string experimentCommandList() {
    const auto& table = rows();
    std::string text;
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (i > 0) {
            text += i + 1 == table.size() ? " and " : ", ";
        }
        text += table[i].command;
    }
    return text;
}

} // namespace warpscope::probe
