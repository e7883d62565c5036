// The probe's experiments (experiment_table.h): one answer for every row of core's table.
#include "experiment_table.h"

#include <utility>
#include <variant>

namespace warpscope::probe {

RequestResult<nlohmann::json> answerExperiment(const experiments::Experiment& experiment,
                                               const nlohmann::json& request, Backend& backend,
                                               const ProgressCallback& progress,
                                               const CancelCallback& cancelled) {
    for (const auto& item : request.items()) {
        if (item.key() != "id" && item.key() != "op" && item.key() != "device" &&
            item.key() != "options") {
            return badRequestAt("the op \"" + std::string(experiment.opName) +
                                    "\" takes no field \"" + item.key() + "\"",
                                "/" + item.key());
        }
    }
    const ErasedExperimentRunner* runner = backend.experimentRunners().find(experiment.key);
    if (runner == nullptr) {
        return RequestError(ProbeError::internal(
            "this probe backend cannot measure the experiment " + std::string(experiment.key)));
    }
    ExperimentAnswer answer = (*runner)(request, progress, cancelled);
    if (auto* failure = std::get_if<ExperimentFailure>(&answer)) {
        if (failure->where.empty()) {
            return RequestError(std::move(failure->error));
        }
        return badRequestAt(std::move(failure->error.message), std::move(failure->where));
    }
    return std::get<nlohmann::json>(std::move(answer));
}

std::string experimentCommandList() {
    const auto rows = experiments::experiments();
    std::string text;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i > 0) {
            text += i + 1 == rows.size() ? " and " : ", ";
        }
        text += rows[i].key;
    }
    return text;
}

} // namespace warpscope::probe
