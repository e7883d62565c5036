// The probe's experiments, one row each (docs/protocol.md, "Experiments"): the op from core's
// table, the command line's name, the options reader, the answer writer, and the runner, which is
// the one the backend of the request's device added for the row's key (experiment_runners.h).
// serve() answers every experiment op through this table, and `warpscope-probe experiment NAME`
// runs the same rows, so a new experiment is its request code (options and answer), its runner on
// each backend and one row in experiment_table.cpp.
#pragma once

#include "probe_protocol.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace warpscope::probe {

struct ExperimentRow {
    protocol::ProbeOp op;
    /// The command line's name (`warpscope-probe experiment transfers`); stable.
    std::string_view command;
    /// What a backend without the runner cannot measure ("this probe backend cannot measure
    /// <what>").
    std::string_view what;
    /// Answers a request of the row's op (its id and op already checked, its device chosen by the
    /// caller): a field other than id, op, device and options is refused, the options are read,
    /// the backend's runner runs them and the measurement is written as the answer's result.
    std::function<RequestResult<nlohmann::json>(const nlohmann::json& request, Backend& backend,
                                                const ProgressCallback& progress,
                                                const CancelCallback& cancelled)>
        answer;
};

/// Every experiment, in the order of core's op table.
std::span<const ExperimentRow> experimentRows();

/// The row of `op`, or nullptr when `op` is not an experiment.
const ExperimentRow* findExperiment(protocol::ProbeOp op);

/// The row whose command line name is `command`, or nullptr.
const ExperimentRow* findExperimentCommand(std::string_view command);

/// "transfers, streams and l2-persistence": every row's command name, for messages.
std::string experimentCommandList();

/// A row from its parts: `readOptions` reads a request's "options" (BadRequest naming the field),
/// `writeAnswer` writes the measurement.
template <class Key>
ExperimentRow
makeExperimentRow(const Key& key, std::string_view command, std::string_view what,
                  RequestResult<typename Key::Options> (*readOptions)(const nlohmann::json&),
                  nlohmann::json (*writeAnswer)(const typename Key::Measurement&)) {
    auto answer = [key, what, readOptions,
                   writeAnswer](const nlohmann::json& request, Backend& backend,
                                const ProgressCallback& progress,
                                const CancelCallback& cancelled) -> RequestResult<nlohmann::json> {
        const std::string op(protocol::opInfo(key.op).name);
        for (const auto& item : request.items()) {
            if (item.key() != "id" && item.key() != "op" && item.key() != "device" &&
                item.key() != "options") {
                return badRequestAt("the op \"" + op + "\" takes no field \"" + item.key() + "\"",
                                    "/" + item.key());
            }
        }
        auto options = readOptions(request);
        if (auto* error = std::get_if<RequestError>(&options)) {
            return *error;
        }
        const ExperimentRunner<Key>* runner = backend.experimentRunners().find(key);
        if (runner == nullptr) {
            return RequestError(
                ProbeError::internal("this probe backend cannot measure " + std::string(what)));
        }
        auto measured = (*runner)(std::get<0>(options), progress, cancelled);
        if (auto* error = std::get_if<ProbeError>(&measured)) {
            return RequestError(*error);
        }
        return writeAnswer(std::get<0>(measured));
    };
    return ExperimentRow{key.op, command, what, std::move(answer)};
}

} // namespace warpscope::probe
