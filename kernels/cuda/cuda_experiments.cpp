// The CUDA backend's experiment runners (experiment_runners.h), one per row of the probe's
// experiment table: each opens the device, plans the experiment against what the device has now
// and runs the plan with that experiment's CUDA code (experiments/transfers_cuda.cpp,
// experiments/streams_cuda.cpp, experiments/l2_persistence_cuda.cpp). addCudaExperiments() lists
// them; a new experiment adds its runner here.
#include "cuda_backend.h"

#include "l2_persistence_cuda.h"
#include "streams_cuda.h"
#include "transfers_cuda.h"

#include <memory>
#include <string>

namespace warpscope::probe::cuda {

namespace {

/// A plan refused: OutOfMemory where the memory free now is too small, else BadRequest.
ProbeError refusedPlan(bool outOfMemory, const std::string& why) {
    return ProbeError::of(outOfMemory ? ProbeErrorCode::OutOfMemory : ProbeErrorCode::BadRequest,
                          why);
}

ProbeResult<experiments::TransferMeasurement>
runTransfers(CudaBackend& backend, const experiments::TransferOptions& options,
             const ProgressCallback& progress, const CancelCallback& cancelled) {
    if (auto error = backend.ensureDevice()) {
        return *error;
    }
    if (auto error = backend.ensureCopyBandwidth()) {
        return *error;
    }
    auto memory = currentTransferMemory();
    if (auto* error = std::get_if<ProbeError>(&memory)) {
        return *error;
    }
    const experiments::TransferMemory& free = std::get<experiments::TransferMemory>(memory);
    const experiments::TransferPlanResult planned = experiments::planTransfers(options, free);
    if (!planned.plan) {
        return refusedPlan(planned.outOfMemory, planned.error);
    }
    auto measured = runTransfersOnDevice(*planned.plan, progress, cancelled);
    if (auto* result = std::get_if<experiments::TransferMeasurement>(&measured)) {
        result->deviceName = backend.info().name;
        result->link = findTransferLink();
        result->deviceCopyBandwidthGBs = backend.info().measuredCopyBandwidthGBs;
        result->deviceFreeBytes = free.deviceFreeBytes;
        result->hostAvailableBytes = free.hostAvailableBytes;
    }
    return measured;
}

ProbeResult<experiments::StreamsMeasurement> runStreams(CudaBackend& backend,
                                                        const experiments::StreamsOptions& options,
                                                        const ProgressCallback& progress,
                                                        const CancelCallback& cancelled) {
    if (auto error = backend.ensureDevice()) {
        return *error;
    }
    auto measured = runStreamsOnDevice(options, progress, cancelled);
    if (auto* result = std::get_if<experiments::StreamsMeasurement>(&measured)) {
        result->deviceName = backend.info().name;
    }
    return measured;
}

ProbeResult<experiments::L2PersistenceMeasurement>
runL2Persistence(CudaBackend& backend, const experiments::L2PersistenceOptions& options,
                 const ProgressCallback& progress, const CancelCallback& cancelled) {
    if (auto error = backend.ensureDevice()) {
        return *error;
    }
    auto device = currentL2PersistenceDevice(backend.device());
    if (auto* error = std::get_if<ProbeError>(&device)) {
        return *error;
    }
    const experiments::L2PersistenceDevice& facts =
        std::get<experiments::L2PersistenceDevice>(device);
    const experiments::L2PersistencePlanResult planned =
        experiments::planL2Persistence(options, facts);
    if (!planned.plan) {
        return refusedPlan(planned.outOfMemory, planned.error);
    }
    // A context has one range profiler: the other sessions give way and reopen when wanted.
    std::unique_ptr<CounterSession> session;
    std::string noCounters = "counters were not asked for";
    if (planned.plan->counters) {
        backend.releaseCounterSessions();
        auto opened = CounterSession::open(experiments::l2PersistenceCounterNames());
        if (auto* error = std::get_if<ProbeError>(&opened)) {
            noCounters = error->message;
        } else {
            session = std::move(std::get<0>(opened));
        }
    }
    return runL2PersistenceOnDevice(*planned.plan, facts, backend.info().smCount, session.get(),
                                    noCounters, progress, cancelled);
}

} // namespace

void addCudaExperiments(CudaBackend& backend, ExperimentRunners& runners) {
    runners.add<experiments::TransfersExperiment>(
        [&backend](const experiments::TransferOptions& options, const ProgressCallback& progress,
                   const CancelCallback& cancelled) {
            return runTransfers(backend, options, progress, cancelled);
        });
    runners.add<experiments::StreamsExperiment>(
        [&backend](const experiments::StreamsOptions& options, const ProgressCallback& progress,
                   const CancelCallback& cancelled) {
            return runStreams(backend, options, progress, cancelled);
        });
    runners.add<experiments::L2PersistenceExperiment>(
        [&backend](const experiments::L2PersistenceOptions& options,
                   const ProgressCallback& progress, const CancelCallback& cancelled) {
            return runL2Persistence(backend, options, progress, cancelled);
        });
}

} // namespace warpscope::probe::cuda
