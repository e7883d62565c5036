// The scripted test backend (fake_backend.h).
#include "fake_backend.h"

#include "kernel_codegen.h"
#include "kernel_request.h"

#include "warpscope/format.h"
#include "warpscope/matrix_access.h"
#include "warpscope/model.h"
#include "warpscope/per_instruction_live.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace warpscope::probe {

FakeBackend::FakeBackend() {
    m_experiments.add<experiments::TransfersExperiment>(
        [this](const experiments::TransferOptions& options, const ProgressCallback& progress,
               const CancelCallback& cancelled) {
            return measureTransfers(options, progress, cancelled);
        });
    m_experiments.add<experiments::StreamsExperiment>(
        [this](const experiments::StreamsOptions& options, const ProgressCallback& progress,
               const CancelCallback& cancelled) {
            return measureStreams(options, progress, cancelled);
        });
    m_experiments.add<experiments::L2PersistenceExperiment>(
        [this](const experiments::L2PersistenceOptions& options, const ProgressCallback& progress,
               const CancelCallback& cancelled) {
            return measureL2Persistence(options, progress, cancelled);
        });
    for (const experiments::Experiment& experiment : experiments::experiments()) {
        if (!m_experiments.has(experiment.key)) {
            m_experiments.addErased(experiment.key, recordedAnswerRunner(experiment));
        }
    }
}

ErasedExperimentRunner
FakeBackend::recordedAnswerRunner(const experiments::Experiment& experiment) {
    return [&experiment](const nlohmann::json& request, const ProgressCallback& progress,
                         const CancelCallback&) -> ExperimentAnswer {
        if (experiment.checkOptions != nullptr) {
            if (auto refusal = experiment.checkOptions(request)) {
                return ExperimentFailure{ProbeError::badRequest(refusal->message), refusal->where};
            }
        }
        const std::string path =
            std::string(WARPSCOPE_SOURCE_DIR) + "/" + std::string(experiment.exampleFile);
        std::ifstream file(path, std::ios::binary);
        std::stringstream text;
        text << file.rdbuf();
        auto parsed = nlohmann::json::parse(text.str(), nullptr, false);
        if (!file || parsed.is_discarded() || !parsed.is_object()) {
            return ExperimentFailure{ProbeError::internal("the fake backend has no fake of the "
                                                          "experiment " +
                                                          std::string(experiment.key) +
                                                          " and cannot read its example " + path),
                                     {}};
        }
        if (progress) {
            progress(1, 1);
        }
        if (parsed.contains("result") && parsed["result"].is_object()) {
            return parsed["result"];
        }
        return parsed;
    };
}

DeviceInfo FakeBackend::defaultDevice() {
    DeviceInfo info;
    info.name = "warpscope fake GPU";
    info.computeCapabilityMajor = 9;
    info.computeCapabilityMinor = 0;
    info.smCount = 4;
    info.l2Bytes = 1 << 20;
    info.globalMemoryBytes = std::int64_t{1} << 30;
    info.memoryClockKHz = 1'000'000;
    info.memoryBusWidthBits = 256;
    info.theoreticalBandwidthGBs = 64.0; // 2 x 1 GHz x 256 bits / 8
    info.measuredCopyBandwidthGBs = 50.0;
    info.driverVersion = "0.0";
    info.runtimeVersion = "0.0";
    info.countersAvailable = true;
    info.uuid = "GPU-00000000-fake-0000-0000-000000000000";
    info.busId = "0000:01:00.0";
    return info;
}

DeviceInfo FakeBackend::deviceAt(int index) const {
    DeviceInfo info = device;
    if (index == 0) {
        return info;
    }
    info.index = index;
    info.name = device.name + " " + std::to_string(index);
    info.uuid = "GPU-00000000-fake-0000-0000-00000000000" + std::to_string(index % 10);
    info.busId = "0000:0" + std::to_string(1 + index % 9) + ":00.0";
    info.measuredCopyBandwidthGBs = device.measuredCopyBandwidthGBs / (index + 1);
    return info;
}

ProbeResult<std::vector<DeviceInfo>> FakeBackend::listDevices() {
    if (failure) {
        return *failure;
    }
    std::vector<DeviceInfo> devices;
    for (int i = 0; i < std::max(1, deviceCount); ++i) {
        devices.push_back(deviceAt(i));
        if (deviceCount > 1) {
            devices.back().link = "peer access to the other fake devices";
        }
    }
    return devices;
}

Backend* FakeBackend::forDevice(int index) {
    if (index == device.index) {
        return this;
    }
    if (index < 0 || index >= deviceCount) {
        return nullptr;
    }
    if (m_others.size() < static_cast<std::size_t>(deviceCount)) {
        m_others.resize(static_cast<std::size_t>(deviceCount));
    }
    auto& other = m_others[static_cast<std::size_t>(index)];
    if (!other) {
        other = std::make_unique<FakeBackend>();
        other->device = deviceAt(index);
        other->failure = failure;
        other->answer = answer;
        other->beforeItem = beforeItem;
        other->kernelSourceText = kernelSourceText;
    }
    return other.get();
}

Measurement FakeBackend::modelMeasurement(const WarpAccess& access, const MeasureOptions& options) {
    Measurement measurement;
    if (options.counters) {
        const auto metrics = modernMetrics(predictModern(access));
        // The counters asked for, as the CUDA backend answers.
        std::vector<std::string> names =
            options.counterNames.empty() ? nsightCounterNames() : options.counterNames;
        if (isMatrixAccess(access.kind)) {
            names.emplace_back(kLdsmInstructionsMetric); // as the CUDA backend adds it
        }
        for (const Metric& metric : metrics) {
            if (std::find(names.begin(), names.end(), metric.name) != names.end()) {
                measurement.counters[metric.name] = metric.value;
            }
        }
        measurement.countersMeasured = true;
    } else {
        measurement.countersUnavailableReason = "counters were not asked for";
    }
    if (options.latency) {
        const auto samples = options.repetitions;
        measurement.latencyColdCycles = Stats{600.0, 590.0, 640.0, samples};
        measurement.latencyWarmCycles = Stats{40.0, 38.0, 44.0, samples};
        measurement.smClockKHz = 2'000'000.0; // 2 GHz: 600 cycles are 300 ns
    }
    return measurement;
}

ProbeResult<DeviceInfo> FakeBackend::deviceInfo() {
    if (failure) {
        return *failure;
    }
    return device;
}

ProbeResult<Measurement> FakeBackend::answerFor(const SweepItem& item,
                                                const MeasureOptions& options) {
    if (answer) {
        return answer(item, options);
    }
    return modelMeasurement(item.access, options);
}

ProbeResult<Measurement> FakeBackend::measure(const NamedPattern& pattern, const WarpAccess& access,
                                              const MeasureOptions& options) {
    ++measureCalls;
    lastOptions = options;
    if (failure) {
        return *failure;
    }
    return answerFor(SweepItem{pattern, access}, options);
}

ProbeResult<std::vector<Measurement>> FakeBackend::sweep(const std::vector<SweepItem>& items,
                                                         const MeasureOptions& options,
                                                         const ProgressCallback& progress,
                                                         const CancelCallback& cancelled) {
    ++sweepCalls;
    lastOptions = options;
    if (failure) {
        return *failure;
    }
    std::vector<Measurement> measurements;
    const int total = static_cast<int>(items.size());
    for (int i = 0; i < total; ++i) {
        if (cancelled && cancelled()) {
            return ProbeError::cancelled("sweep cancelled after " + std::to_string(i) + " of " +
                                         std::to_string(total) + " patterns");
        }
        if (beforeItem) {
            beforeItem(i);
        }
        auto measured = answerFor(items[static_cast<std::size_t>(i)], options);
        if (auto* error = std::get_if<ProbeError>(&measured)) {
            return *error;
        }
        measurements.push_back(std::get<Measurement>(std::move(measured)));
        ++sweepItemsDone;
        if (progress) {
            progress(i + 1, total);
        }
    }
    return measurements;
}

ProbeResult<std::string> FakeBackend::kernelSource(const NamedPattern& pattern) {
    if (failure) {
        return *failure;
    }
    const std::string expression =
        pattern.pattern.source ? pattern.pattern.source->addressExpression : std::string();
    return kernelSourceText + "// address: " + expression + "\n";
}

namespace {

/// measure_kernel's per_instruction option, as a perfect GPU would count: one instruction per
/// access, 16 bytes apart in program order, counting exactly what the grid model predicts for
/// it (a global access executes once per request, a shared one once per warp), beside the fake's
/// hardware counters. Sets the source so that nobody takes it for a measurement.
void addFakePerInstruction(const KernelItem& item, KernelMeasurement& m) {
    std::vector<SassInstructionCounts> instructions;
    for (std::size_t a = 0; a < item.prediction.accesses.size(); ++a) {
        const AccessKind& kind = item.kernel.accesses[a].access.kind;
        const GridAccessPrediction& predicted = item.prediction.accesses[a];
        SassInstructionCounts instruction;
        instruction.pcOffset = static_cast<std::uint32_t>(0x100 + 16 * a);
        instruction.kind = sassOpKindOf(kind);
        const bool global = kind.space == MemorySpace::Global;
        instruction.executed =
            static_cast<std::uint64_t>(global ? predicted.requests : item.prediction.warps);
        instruction.sectors = global ? static_cast<std::uint64_t>(predicted.sectors) : 0;
        instruction.wavefronts = global ? 0 : static_cast<std::uint64_t>(predicted.wavefronts);
        instruction.conflicts = global ? 0 : static_cast<std::uint64_t>(predicted.bankConflicts);
        if (instruction.kind != SassOpKind::None) {
            instructions.push_back(instruction);
        }
    }
    KernelPerInstruction& perInstruction = m.perInstruction.emplace();
    perInstruction.measured = true;
    perInstruction.rows =
        livePerInstructionJson(item.kernel, item.prediction, m.counters, std::move(instructions));
    perInstruction.source = "the fake probe: the grid model's counts, no GPU";
}

} // namespace

ProbeResult<std::vector<KernelMeasurement>>
FakeBackend::measureKernels(const std::vector<KernelItem>& items,
                            const KernelMeasureOptions& options, const ProgressCallback& progress,
                            const CancelCallback& cancelled) {
    ++measureKernelCalls;
    lastKernelOptions = options;
    if (failure) {
        return *failure;
    }
    std::vector<KernelMeasurement> results;
    const int total = static_cast<int>(items.size());
    for (int i = 0; i < total; ++i) {
        if (cancelled && cancelled()) {
            return ProbeError::cancelled("cancelled after " + std::to_string(i) + " of " +
                                         std::to_string(total) + " kernels");
        }
        if (beforeItem) {
            beforeItem(i);
        }
        const KernelItem& item = items[static_cast<std::size_t>(i)];
        std::int64_t bytes = 0;
        std::string listing;
        for (const ResolvedBuffer& buffer : item.kernel.buffers) {
            bytes += buffer.bytes;
            listing += (listing.empty() ? "" : ", ") + buffer.name + " " +
                       std::to_string(buffer.bytes) + " bytes";
        }
        if (bytes > device.globalMemoryBytes) {
            return ProbeError::outOfMemory("the kernel's buffers need " + std::to_string(bytes) +
                                           " bytes (" + listing + ") but the GPU has " +
                                           std::to_string(device.globalMemoryBytes) +
                                           " bytes free; nothing was launched");
        }
        KernelMeasurement m;
        m.cold = options.cold && options.flush != KernelMeasureOptions::Flush::None;
        m.flush = options.flush;
        m.deviceBytes = bytes;
        m.sharedBytesPerBlock = item.prediction.sharedBytesPerBlock;
        m.memoryInstructions =
            generateKernelSource(item.kernel, item.prediction.localBytesPerThread)
                .expectedMemoryInstructions;
        m.copyBandwidthGBs = device.measuredCopyBandwidthGBs;
        m.theoreticalBandwidthGBs = device.theoreticalBandwidthGBs;
        double bytesRequested = 0.0;
        for (std::size_t a = 0; a < item.prediction.accesses.size(); ++a) {
            if (item.kernel.accesses[a].access.kind.space == MemorySpace::Global ||
                item.kernel.accesses[a].access.kind.space == MemorySpace::Texture) {
                bytesRequested += static_cast<double>(item.prediction.accesses[a].bytesRequested);
            }
        }
        m.bytesRequested = bytesRequested;
        // A perfect fake: the effective bandwidth is the fake copy bandwidth; constant loads add
        // 1 ns per distinct address (served one after another).
        double constantAddresses = 0.0;
        for (const GridAccessPrediction& access : item.prediction.accesses) {
            constantAddresses += static_cast<double>(access.constantAddresses);
        }
        const double ms =
            std::max(1e-9, bytesRequested / (device.measuredCopyBandwidthGBs * 1e9) * 1e3 +
                               constantAddresses * 1e-6);
        m.samplesMs.assign(static_cast<std::size_t>(std::max(1, options.repetitions)), ms);
        m.kernelMs = Stats{ms, ms, ms, std::max(1, options.repetitions)};
        m.effectiveBandwidthGBs = bytesRequested / (ms * 1e-3) / 1e9;
        if (options.counters) {
            // kernelCopyCounterNames() holds kernelCounterNames() and the async copy's, which
            // only kernels with a copy predict.
            std::vector<std::string> names = kernelCopyCounterNames();
            // Kernels with local or texture accesses carry those counters too (the prediction
            // names them only then), as the CUDA backend measures them.
            names.insert(names.end(), localCounterNames().begin(), localCounterNames().end());
            names.insert(names.end(), textureCounterNames().begin(), textureCounterNames().end());
            for (const Metric& metric : item.prediction.metrics) {
                if (std::find(names.begin(), names.end(), metric.name) != names.end()) {
                    m.counters[metric.name] = metric.value;
                }
                // The constant cache's counters as a GPU without parameter loads would count.
                if (metric.name == "warpscope__constant_addresses") {
                    m.counters["idc__requests.sum"] = metric.value;
                } else if (metric.name == "warpscope__constant_requests") {
                    m.counters["smsp__inst_executed_op_ldc_pred_on_any.sum"] = metric.value;
                }
            }
            addConstantExtraRequests(m.counters);
            m.countersMeasured = true;
        } else {
            m.countersUnavailableReason = "counters were not asked for";
        }
        if (options.perInstruction) {
            addFakePerInstruction(item, m);
        }
        results.push_back(std::move(m));
        if (progress) {
            progress(i + 1, total);
        }
    }
    return results;
}

ProbeResult<TmaDump> FakeBackend::dumpTmaTile(const TmaTileLoad& load) {
    ++dumpTmaTileCalls;
    if (failure) {
        return *failure;
    }
    if (tmaAnswer) {
        return tmaAnswer(load);
    }
    auto layout = layTmaTile(load);
    if (!layout) {
        return ProbeError::badRequest(layout.error().describe());
    }
    TmaDump dump;
    dump.chunks = layout.value().chunks;
    dump.arrived = true;
    dump.windowAddress = 1024;
    return dump;
}

BuildInfo FakeBackend::buildInfo() const {
    BuildInfo info;
    info.backend = "fake";
    return info;
}

ProbeResult<experiments::TransferMeasurement>
FakeBackend::measureTransfers(const experiments::TransferOptions& options,
                              const ProgressCallback& progress, const CancelCallback& cancelled) {
    ++measureTransfersCalls;
    if (failure) {
        return *failure;
    }
    const experiments::TransferPlanResult planned = experiments::planTransfers(
        options, experiments::TransferMemory{device.globalMemoryBytes, hostAvailableBytes});
    if (!planned.plan) {
        return ProbeError::of(planned.outOfMemory ? ProbeErrorCode::OutOfMemory
                                                  : ProbeErrorCode::BadRequest,
                              planned.error);
    }
    const experiments::TransferPlan& plan = *planned.plan;
    experiments::TransferMeasurement measurement;
    measurement.deviceName = device.name;
    measurement.link.kind = "pcie";
    measurement.link.pcieGeneration = 4;
    measurement.link.pcieWidth = 16;
    measurement.link.pcieMaxGeneration = 4;
    measurement.link.pcieMaxWidth = 16;
    measurement.link.theoreticalGBs = experiments::pcieLinkGBs(4, 16);
    measurement.link.source = "fake";
    measurement.link.description = experiments::describeLink(measurement.link);
    measurement.deviceCopyBandwidthGBs = device.measuredCopyBandwidthGBs;
    measurement.deviceFreeBytes = device.globalMemoryBytes;
    measurement.hostAvailableBytes = hostAvailableBytes;
    measurement.repetitions = plan.repetitions;
    measurement.capNote = plan.capNote;
    const auto gbs = [](experiments::TransferMode mode) {
        switch (mode) {
        case experiments::TransferMode::H2dPageable:
        case experiments::TransferMode::D2hPageable:
            return 10.0;
        case experiments::TransferMode::H2dPinned:
        case experiments::TransferMode::D2hPinned:
            return 25.0;
        case experiments::TransferMode::BothPageable:
            return 14.0;
        case experiments::TransferMode::BothPinned:
            return 45.0;
        case experiments::TransferMode::SumDevice:
            return 50.0;
        case experiments::TransferMode::SumZeroCopy:
        case experiments::TransferMode::ManagedPrefetch:
            return 20.0;
        case experiments::TransferMode::SumCopy:
            return 24.0;
        case experiments::TransferMode::ManagedFault:
            return 6.0;
        }
        return 1.0;
    };
    const int total = static_cast<int>(plan.modes.size() * plan.sizes.size());
    int done = 0;
    for (experiments::TransferMode mode : plan.modes) {
        measurement.curves.push_back(experiments::TransferCurve{mode, {}});
    }
    for (std::int64_t size : plan.sizes) {
        for (std::size_t m = 0; m < plan.modes.size(); ++m) {
            if (cancelled && cancelled()) {
                return ProbeError::cancelled("cancelled after " + std::to_string(done) + " of " +
                                             std::to_string(total) + " points");
            }
            if (beforeItem) {
                beforeItem(done);
            }
            const experiments::TransferMode mode = plan.modes[m];
            const double ms = 0.01 + static_cast<double>(experiments::transferBytesFactor(mode)) *
                                         static_cast<double>(size) / (gbs(mode) * 1e6);
            std::vector<double> samples;
            for (int r = 0; r < plan.repetitions; ++r) {
                samples.push_back(ms * (1.0 + 0.01 * ((r % 3) - 1)));
            }
            measurement.curves[m].points.push_back(experiments::transferPoint(mode, size, samples));
            ++done;
            if (progress) {
                progress(done, total);
            }
        }
    }
    return measurement;
}

ProbeResult<experiments::StreamsMeasurement>
FakeBackend::measureStreams(const experiments::StreamsOptions& options,
                            const ProgressCallback& progress, const CancelCallback& cancelled) {
    ++measureStreamsCalls;
    if (failure) {
        return *failure;
    }
    if (2 * options.bytes > device.globalMemoryBytes) {
        return ProbeError::outOfMemory("refused before anything ran: two arrays of " +
                                       formatBytes(options.bytes) + " do not fit the device's " +
                                       formatBytes(device.globalMemoryBytes));
    }
    constexpr double kOverheadMs = 0.01;
    const double copyMs = static_cast<double>(options.bytes) / 25e6;
    const double mib = static_cast<double>(options.bytes) / (1 << 20);
    const StreamStageTimes whole{copyMs, options.work == 0 ? copyMs : options.work * mib * 1e-3,
                                 copyMs};
    experiments::StreamsMeasurement measurement;
    measurement.deviceName = device.name;
    measurement.asyncEngineCount = streamsEngines;
    measurement.concurrentKernels = true;
    measurement.bytes = options.bytes;
    measurement.work = options.work == 0 ? 1000 : options.work;
    measurement.repetitions = options.repetitions;
    measurement.order = options.order;
    measurement.timelineSource = "cupti_activity";
    measurement.timelineNote = "fake: scheduled by the model with 10 us per operation added";
    measurement.stages = StreamStageTimes{whole.h2dMs + kOverheadMs, whole.kernelMs + kOverheadMs,
                                          whole.d2hMs + kOverheadMs};
    const std::vector<int> counts = experiments::streamsCounts(options);
    const int total = static_cast<int>(counts.size());
    for (int i = 0; i < total; ++i) {
        if (cancelled && cancelled()) {
            return ProbeError::cancelled("cancelled after " + std::to_string(i) + " of " +
                                         std::to_string(total) + " stream counts");
        }
        if (beforeItem) {
            beforeItem(i);
        }
        const int n = counts[static_cast<std::size_t>(i)];
        const StreamStageTimes padded{whole.h2dMs + n * kOverheadMs,
                                      whole.kernelMs + n * kOverheadMs,
                                      whole.d2hMs + n * kOverheadMs};
        const StreamPrediction schedule = predictStreams(padded, n, streamsEngines, options.order);
        experiments::StreamsRun run;
        run.streams = n;
        run.totalMs = schedule.totalMs;
        run.minMs = schedule.totalMs * 0.99;
        run.maxMs = schedule.totalMs * 1.01;
        run.samples = options.repetitions;
        for (const StreamSpan& span : schedule.spans) {
            const experiments::StreamsChunk chunk =
                experiments::streamsChunk(options.bytes / 4, n, span.stream);
            run.timeline.push_back(experiments::StreamsOpRecord{span.stream, span.op, span.startMs,
                                                                span.endMs, chunk.count * 4, -1});
        }
        measurement.runs.push_back(std::move(run));
        if (progress) {
            progress(i + 1, total);
        }
    }
    return measurement;
}
ProbeResult<experiments::L2PersistenceMeasurement>
FakeBackend::measureL2Persistence(const experiments::L2PersistenceOptions& options,
                                  const ProgressCallback& progress,
                                  const CancelCallback& cancelled) {
    ++measureL2PersistenceCalls;
    if (failure) {
        return *failure;
    }
    const experiments::L2PersistencePlanResult planned =
        experiments::planL2Persistence(options, l2Device);
    if (!planned.plan) {
        return ProbeError::of(planned.outOfMemory ? ProbeErrorCode::OutOfMemory
                                                  : ProbeErrorCode::BadRequest,
                              planned.error);
    }
    const experiments::L2PersistencePlan& plan = *planned.plan;
    experiments::L2PersistenceMeasurement measurement = experiments::startL2PersistenceMeasurement(
        plan, l2Device, plan.counters, "counters were not asked for");
    measurement.previousSetAsideBytes = persistingL2Limit;
    const int total = experiments::l2PersistencePointCount(plan);
    const double bandwidth = device.measuredCopyBandwidthGBs > 0.0
                                 ? device.measuredCopyBandwidthGBs
                                 : 2000.0; // GB/s of bytes that miss
    const double regionBytes = static_cast<double>(experiments::l2RegionReadBytes(plan));
    const double sectors = (static_cast<double>(plan.streamBytes) + regionBytes) / 32.0;
    int done = 0;
    for (std::int64_t windowBytes : plan.windowBytes) {
        const std::vector<experiments::L2HitRatio> ratios =
            experiments::l2PersistencePointsAt(plan, windowBytes);
        for (std::size_t r = 0; r < ratios.size(); ++r) {
            if (cancelled && cancelled()) {
                return ProbeError::cancelled("cancelled after " + std::to_string(done) + " of " +
                                             std::to_string(total) + " points");
            }
            if (beforeItem) {
                beforeItem(done);
            }
            const bool window = r > 0;
            const L2PersistenceModel model =
                l2PersistenceModel(windowBytes, ratios[r].value, window, plan.setAsideBytes,
                                   l2Device.l2Bytes, plan.streamPerRegion, plan.l2Partitions);
            const double missBytes = static_cast<double>(plan.streamBytes) +
                                     regionBytes * (1.0 - model.regionHitFraction);
            const double ms = 0.005 + missBytes / (bandwidth * 1e6);
            std::vector<double> samples;
            for (int rep = 0; rep < plan.repetitions; ++rep) {
                samples.push_back(ms * (1.0 + 0.01 * ((rep % 3) - 1)));
            }
            experiments::L2PersistencePoint point =
                experiments::l2PersistencePoint(windowBytes, window, ratios[r].value,
                                                ratios[r].tuned, samples, plan, l2Device.l2Bytes);
            if (plan.counters) {
                point.countersMeasured = true;
                point.hitRatePct = 100.0 * model.hitRateFraction;
                const double lookups = sectors * model.lookupsPerSector;
                point.sectorHits = lookups * model.hitRateFraction;
                point.sectorMisses = lookups - point.sectorHits;
                point.dramReadBytes = missBytes;
                experiments::deriveRegionHit(point, plan);
            }
            measurement.points.push_back(point);
            ++done;
            if (progress) {
                progress(done, total);
            }
        }
    }
    return measurement;
}

} // namespace warpscope::probe
