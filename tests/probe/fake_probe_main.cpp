// warpscope-probe-fake: warpscope-probe's real command line (probe_cli.cpp) over the scripted
// FakeBackend, so the process tests can check serve, run, selfcheck and info, their output and
// their exit statuses on a machine without a GPU. WARPSCOPE_FAKE_PROBE picks the script:
//   model      (default) counters equal the modern model's prediction
//   no_driver  every GPU call answers no_driver
//   no_device  every GPU call answers no_device
//   mismatch   the table row "g-load-w4-coalesced" (or the first row) measures one sector more
//   fatal      measure and sweep answer a fatal kernel_fault
//   slow       each pattern of a sweep takes 20 ms (to cancel one)
//   noisy      the backend prints to stdout (which must not reach the protocol stream)
#include "fake_backend.h"
#include "probe_cli.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

namespace {

using namespace warpscope::probe;

/// A fake whose device query writes to stdout, as a misbehaving library might.
class NoisyBackend : public FakeBackend {
public:
    ProbeResult<DeviceInfo> deviceInfo() override {
        std::printf("noise from a library on stdout\n");
        std::fflush(stdout);
        return FakeBackend::deviceInfo();
    }
};

std::unique_ptr<Backend> makeFake() {
    const char* value = std::getenv("WARPSCOPE_FAKE_PROBE");
    const std::string script = value != nullptr ? value : "model";
    if (script == "noisy") {
        return std::make_unique<NoisyBackend>();
    }
    auto fake = std::make_unique<FakeBackend>();
    if (script == "no_driver") {
        fake->failure = ProbeError{ProbeErrorCode::NoDriver,
                                   "libcuda.so.1 cannot be loaded (fake probe)", false};
    } else if (script == "no_device") {
        fake->failure = ProbeError{ProbeErrorCode::NoDevice,
                                   "the driver reports 0 CUDA devices (fake probe)", false};
    } else if (script == "mismatch") {
        fake->answer = [](const SweepItem& item, const MeasureOptions& options) {
            Measurement measurement = FakeBackend::modelMeasurement(item.access, options);
            if (item.pattern.title == "g-load-w4-coalesced") {
                measurement.counters["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] += 1;
            }
            return ProbeResult<Measurement>(measurement);
        };
    } else if (script == "fatal") {
        fake->answer = [](const SweepItem&, const MeasureOptions&) {
            return ProbeResult<Measurement>(
                ProbeError{ProbeErrorCode::KernelFault,
                           "an illegal memory access was encountered (fake probe)", true});
        };
    } else if (script == "slow") {
        fake->beforeItem = [](int) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); };
    }
    return fake;
}

} // namespace

int main(int argc, char** argv) {
    return probeMain(argc, argv, makeFake);
}
