// What a backend can run of the probe's experiments (transfers, streams, the L2 persistence
// window, and whatever comes next): one runner per experiment, from the experiment's typed
// options to its typed measurement, found by the experiment's key. The protocol's experiment
// table (experiment_table.h) reads a request's options, calls the runner of the backend the
// request is for and writes the answer; the backend declares no virtual per experiment.
#pragma once

#include "warpscope/protocol/errors.h"
#include "warpscope/protocol/ops.h"

#include <any>
#include <functional>
#include <map>
#include <utility>

namespace warpscope::probe {

/// Progress of a sweep or an experiment: done of total.
using ProgressCallback = std::function<void(int done, int total)>;
/// Polled between steps; returning true cancels the work.
using CancelCallback = std::function<bool()>;

/// One experiment's identity: its op in core's table (warpscope/protocol/ops.h) and the types its
/// runner takes and gives. Declared once per experiment beside its request code (transfers.h,
/// streams_request.h, l2_persistence.h), so that the table and every backend agree on the types.
template <class OptionsType, class MeasurementType> struct ExperimentKey {
    using Options = OptionsType;
    using Measurement = MeasurementType;
    protocol::ProbeOp op;
};

/// How one backend runs one experiment: the options, already read and checked, in; the
/// measurement, or the backend's error (BadRequest or OutOfMemory for a plan that does not fit the
/// device, Cancelled, a fatal KernelFault), out.
template <class Key>
using ExperimentRunner = std::function<protocol::ProbeResult<typename Key::Measurement>(
    const typename Key::Options&, const ProgressCallback&, const CancelCallback&)>;

/// A backend's runners, by op. Not copyable: runners usually hold their backend, so a copy would
/// run on the original.
class ExperimentRunners {
public:
    ExperimentRunners() = default;
    ExperimentRunners(const ExperimentRunners&) = delete;
    ExperimentRunners& operator=(const ExperimentRunners&) = delete;
    ~ExperimentRunners() = default;

    /// Adds (or replaces) the runner of the experiment `key`.
    template <class Key> void add(const Key& key, ExperimentRunner<Key> runner) {
        m_runners[key.op] = std::move(runner);
    }

    /// The runner of `key`, or nullptr when this backend cannot run that experiment.
    template <class Key> const ExperimentRunner<Key>* find(const Key& key) const {
        const auto found = m_runners.find(key.op);
        if (found == m_runners.end()) {
            return nullptr;
        }
        // The key fixes the types, and add() stored exactly this type for this op.
        return std::any_cast<ExperimentRunner<Key>>(&found->second);
    }

    /// Whether a runner of `op` was added.
    bool has(protocol::ProbeOp op) const { return m_runners.count(op) != 0; }

private:
    std::map<protocol::ProbeOp, std::any> m_runners;
};

} // namespace warpscope::probe
