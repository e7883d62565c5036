// A scripted Backend for tests of the protocol and of warpscope-probe's command line: no GPU, no
// CUDA. By default it behaves like a GPU whose counters are exactly the modern model's prediction
// (so the self-check passes, since the model matches the hardware table); every answer can be
// replaced by a script, and every GPU call can be made to fail with one error. It never pretends
// to be real: buildInfo() says "fake" and the device is named "warpscope fake GPU". It runs
// every experiment of core's table: those with a fake of their own (transfers, streams, L2
// persistence) through it, any other from the experiment's recorded example file, so that a new
// experiment runs here without an edit.
#pragma once

#include "probe_backend.h"

#include "warpscope/experiments/experiments.h"
#include "warpscope/experiments/l2_persistence.h"
#include "warpscope/experiments/streams.h"
#include "warpscope/experiments/transfers.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::probe {

class FakeBackend : public Backend {
public:
    /// Adds the runners of transfers, streams and the L2 persistence window (the methods below).
    FakeBackend();

    /// Answered by deviceInfo().
    DeviceInfo device = defaultDevice();
    /// When set, every GPU call (deviceInfo, measure, sweep, kernelSource) answers this error.
    std::optional<ProbeError> failure;
    /// When set, measure() and each pattern of sweep() answer this instead of the default
    /// (counters = the modern model's prediction, fixed latency). A ProbeError from it ends a
    /// sweep with that error.
    std::function<ProbeResult<Measurement>(const SweepItem&, const MeasureOptions&)> answer;
    /// Called in sweep() before each pattern (to sleep, or to wait for a test's signal).
    std::function<void(int index)> beforeItem;
    /// How many devices it pretends to have (device_info's "devices"). Device i > 0
    /// (forDevice(i)) is a copy of this fake made on first use (the same scripts), named
    /// "warpscope fake GPU i", with its own UUID and bus id and 1/(i+1) of the copy bandwidth:
    /// an older GPU whose kernels are slower.
    int deviceCount = 1;

    /// Answered by kernelSource() (for patterns with an expression).
    std::string kernelSourceText = "// warpscope fake kernel\n";

    // What the tests can check afterwards.
    std::atomic<int> measureCalls{0};
    std::atomic<int> sweepCalls{0};
    std::atomic<int> sweepItemsDone{0};
    MeasureOptions lastOptions;

    static DeviceInfo defaultDevice();

    /// The runner of an experiment without a fake of its own: its options read by its traits
    /// (bad_request at the option's pointer), then one step of progress and the result object of
    /// its recorded example file (the row's exampleFile, in the source tree; a protocol answer
    /// line's "result"). Internal when that file cannot be read.
    static ErasedExperimentRunner recordedAnswerRunner(const experiments::Experiment& experiment);
    /// The default answer for one pattern: the model's counters, as a perfect GPU would count.
    static Measurement modelMeasurement(const WarpAccess& access, const MeasureOptions& options);

    ProbeResult<DeviceInfo> deviceInfo() override;
    ProbeResult<std::vector<DeviceInfo>> listDevices() override;
    Backend* forDevice(int index) override;
    /// Device `index` as forDevice(index) describes it.
    DeviceInfo deviceAt(int index) const;
    ProbeResult<Measurement> measure(const NamedPattern& pattern, const WarpAccess& access,
                                     const MeasureOptions& options) override;
    ProbeResult<std::vector<Measurement>> sweep(const std::vector<SweepItem>& items,
                                                const MeasureOptions& options,
                                                const ProgressCallback& progress,
                                                const CancelCallback& cancelled) override;
    ProbeResult<std::string> kernelSource(const NamedPattern& pattern) override;
    BuildInfo buildInfo() const override;

    /// TMA tile loads: by default the layout model's chunks, as a perfect GPU would write them
    /// (refused with BadRequest where the model refuses the load); `tmaAnswer`, when set,
    /// answers instead, so that a test can make the GPU disagree.
    ProbeResult<TmaDump> dumpTmaTile(const TmaTileLoad& load) override;
    std::function<ProbeResult<TmaDump>(const TmaTileLoad&)> tmaAnswer;
    std::atomic<int> dumpTmaTileCalls{0};

    /// Whole kernels: refuses buffers larger than device.globalMemoryBytes together
    /// (OutOfMemory, naming them), else answers the grid model's counters as a perfect GPU
    /// would count them and a time of the kernel's global bytes at the fake copy bandwidth.
    /// beforeItem(i) is called before each kernel, as in sweep().
    ProbeResult<std::vector<KernelMeasurement>>
    measureKernels(const std::vector<KernelItem>& items, const KernelMeasureOptions& options,
                   const ProgressCallback& progress, const CancelCallback& cancelled) override;
    std::atomic<int> measureKernelCalls{0};
    KernelMeasureOptions lastKernelOptions;

    /// Transfers: planned against device.globalMemoryBytes free and `hostAvailableBytes` (so the
    /// default range is capped at 256 MiB and managed memory refused above it), then timed as a
    /// link of fixed bandwidth per mode after 10 us of latency, with a 1 % spread. beforeItem(i)
    /// is called before each point.
    ProbeResult<experiments::TransferMeasurement>
    measureTransfers(const experiments::TransferOptions& options, const ProgressCallback& progress,
                     const CancelCallback& cancelled);
    std::int64_t hostAvailableBytes = std::int64_t{16} << 30;
    std::atomic<int> measureTransfersCalls{0};

    /// Streams: a device of `streamsEngines` copy engines whose copies run at 25 GB/s and whose
    /// kernel takes as long as the copy in (work 0) or work x 1 us per MiB, every operation
    /// 10 us longer than its share (a launch cost the model leaves out, so measured and
    /// predicted speed-ups differ), scheduled as the model schedules them. Arrays larger than
    /// half of device.globalMemoryBytes are refused (OutOfMemory). beforeItem(i) is called
    /// before each stream count.
    ProbeResult<experiments::StreamsMeasurement>
    measureStreams(const experiments::StreamsOptions& options, const ProgressCallback& progress,
                   const CancelCallback& cancelled);
    int streamsEngines = 2;
    std::atomic<int> measureStreamsCalls{0};
    /// The L2 persistence window: planned against `l2Device` (set persistingL2MaxBytes to 0 for
    /// a device without persisting L2), then answered from the model: the hit rate the model
    /// predicts, and a time of the bytes that miss at the fake copy bandwidth. beforeItem(i) is
    /// called before each point. The set-aside limit it "restores" is `persistingL2Limit`.
    ProbeResult<experiments::L2PersistenceMeasurement>
    measureL2Persistence(const experiments::L2PersistenceOptions& options,
                         const ProgressCallback& progress, const CancelCallback& cancelled);
    experiments::L2PersistenceDevice l2Device{"Fake GPU",
                                              std::int64_t{50} << 20,
                                              std::int64_t{30} << 20,
                                              std::int64_t{128} << 20,
                                              std::int64_t{16} << 30,
                                              2};
    std::int64_t persistingL2Limit = 0;
    std::atomic<int> measureL2PersistenceCalls{0};

private:
    std::vector<std::unique_ptr<FakeBackend>> m_others; // devices 1, 2, ... once used
    ProbeResult<Measurement> answerFor(const SweepItem& item, const MeasureOptions& options);
};

} // namespace warpscope::probe
