// What a backend can run of the probe's experiments (transfers, streams, the L2 persistence
// window, and whatever comes next): one runner per experiment, found by the experiment's key in
// core's table (warpscope/experiments/experiments.h). A backend adds each runner typed, from the
// experiment's options to its measurement (`add<experiments::TransfersExperiment>(runner)`); the
// table keeps it erased into "request in, answer out": the request's options read by the traits'
// optionsFromJson (a refusal becomes bad_request at its JSON pointer), the measurement written by
// the traits' toJson. The protocol's experiment table (experiment_table.h) calls the runner of the
// backend the request is for; the backend declares no virtual per experiment.
#pragma once

#include "warpscope/protocol/errors.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace warpscope::probe {

/// Progress of a sweep or an experiment: done of total.
using ProgressCallback = std::function<void(int done, int total)>;
/// Polled between steps; returning true cancels the work.
using CancelCallback = std::function<bool()>;

/// How one backend runs the experiment of `Traits`: the options, already read and checked, in;
/// the measurement, or the backend's error (BadRequest or OutOfMemory for a plan that does not fit
/// the device, Cancelled, a fatal KernelFault), out.
template <class Traits>
using ExperimentRunner = std::function<protocol::ProbeResult<typename Traits::Measurement>(
    const typename Traits::Options&, const ProgressCallback&, const CancelCallback&)>;

/// An experiment's request refused or failed: the error and, for an option, its JSON pointer
/// ("/options/bytes").
struct ExperimentFailure {
    protocol::ProbeError error;
    std::string where;
};

/// A runner's answer: the op's result object, or why there is none.
using ExperimentAnswer = std::variant<nlohmann::json, ExperimentFailure>;

/// A runner with its types erased: the whole request (its "options" not yet read) in.
using ErasedExperimentRunner = std::function<ExperimentAnswer(
    const nlohmann::json& request, const ProgressCallback&, const CancelCallback&)>;

/// A backend's runners, by experiment key. Not copyable: runners usually hold their backend, so a
/// copy would run on the original.
class ExperimentRunners {
public:
    ExperimentRunners() = default;
    ExperimentRunners(const ExperimentRunners&) = delete;
    ExperimentRunners& operator=(const ExperimentRunners&) = delete;
    ~ExperimentRunners() = default;

    /// Adds (or replaces) the runner of the experiment `Traits` (its key, Options, Measurement,
    /// optionsFromJson and toJson).
    template <class Traits> void add(ExperimentRunner<Traits> runner) {
        m_runners[std::string(Traits::key)] =
            [run = std::move(runner)](const nlohmann::json& request,
                                      const ProgressCallback& progress,
                                      const CancelCallback& cancelled) -> ExperimentAnswer {
            auto options = Traits::optionsFromJson(request);
            if (!options) {
                return ExperimentFailure{protocol::ProbeError::badRequest(options.error().message),
                                         options.error().where};
            }
            auto measured = run(options.value(), progress, cancelled);
            if (auto* error = std::get_if<protocol::ProbeError>(&measured)) {
                return ExperimentFailure{std::move(*error), {}};
            }
            return Traits::toJson(std::get<typename Traits::Measurement>(measured));
        };
    }

    /// Adds (or replaces) a runner of the experiment `key` that reads the request itself.
    void addErased(std::string_view key, ErasedExperimentRunner runner) {
        m_runners[std::string(key)] = std::move(runner);
    }

    /// The runner of the experiment `key`, or nullptr when this backend cannot run it.
    const ErasedExperimentRunner* find(std::string_view key) const {
        const auto found = m_runners.find(key);
        return found == m_runners.end() ? nullptr : &found->second;
    }

    /// Whether a runner of the experiment `key` was added.
    bool has(std::string_view key) const { return find(key) != nullptr; }

private:
    std::map<std::string, ErasedExperimentRunner, std::less<>> m_runners;
};

} // namespace warpscope::probe
