// warpscope-probe-fake: warpscope-probe's real command line (probe_cli.cpp) over the scripted
// FakeBackend, so the process tests can check serve, run, selfcheck and info, their output and
// their exit statuses on a machine without a GPU. WARPSCOPE_FAKE_PROBE picks the script:
//   model      (default) counters equal the modern model's prediction
//   no_driver  every GPU call answers no_driver
//   no_device  every GPU call answers no_device
//   mismatch   the table row "g-load-w4-coalesced" (or the first row) measures one sector more
//   fatal      measure and sweep answer a fatal kernel_fault
//   slow       each pattern of a sweep takes 20 ms (to cancel one)
//   gated      each pattern of a sweep or kernel batch from the fourth on waits until the file
//              WARPSCOPE_FAKE_PROBE_GATE names exists (so a test acts while the batch is surely
//              still under way, however loaded the machine, and then opens the gate)
//   error:CODE measure, sweep and measure_kernel answer the protocol error CODE (its wire name,
//              e.g. error:counters_busy), not fatal, with the message "CODE from the fake probe";
//              the no-GPU codes (no_driver, no_device, driver_too_old) fail device_info too
//   fatal_once the first measure of all the processes sharing WARPSCOPE_FAKE_PROBE_ONCE (a file
//              that does not exist yet) answers a fatal kernel_fault; later ones are answered
//   noisy      the backend prints to stdout (which must not reach the protocol stream)
//   recorded   counters recorded on a real GPU: WARPSCOPE_FAKE_PROBE_ANSWERS names a JSON-lines
//              file as tests/data/probe_answers_h100.jsonl ({"preset": id, "result": {...}});
//              a pattern with the same 32 addresses and kind as a recorded preset gets that
//              preset's counters, any other is refused (pattern_refused: no recorded answer)
// WARPSCOPE_FAKE_PROBE_LOG=FILE appends a line to FILE as each device_info ("device_info") and
// measure ("measure", the counters named, comma-separated, " | " and the pattern's title) reaches
// the backend, so a test can
// see what reached the probe without running its own event loop.
// WARPSCOPE_FAKE_PROBE_SETUP_MS=N makes device_info take N ms longer, as a GPU's set-up does.
// WARPSCOPE_FAKE_DEVICES=N makes it pretend N devices (device_info lists them; "device" picks
// one; device i has 1/(i+1) of the copy bandwidth, so its whole kernels take longer).
//   uncoalesced  a deliberately different model: every active lane its own sector (global) or
//              its own wavefront (shared), so the overlay must show the disagreement
#include "fake_backend.h"
#include "probe_cli.h"

#include <warpscope/model.h>
#include <warpscope/preset.h>
#include <warpscope/protocol/errors.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

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

/// A fake that notes each device_info and measure in WARPSCOPE_FAKE_PROBE_LOG, when it is set.
class LoggedBackend : public FakeBackend {
public:
    ProbeResult<DeviceInfo> deviceInfo() override {
        note("device_info");
        if (const char* ms = std::getenv("WARPSCOPE_FAKE_PROBE_SETUP_MS")) {
            std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
        }
        return FakeBackend::deviceInfo();
    }
    ProbeResult<Measurement> measure(const warpscope::NamedPattern& pattern,
                                     const warpscope::WarpAccess& access,
                                     const MeasureOptions& options) override {
        std::string line = "measure";
        for (std::size_t i = 0; i < options.counterNames.size(); ++i) {
            line += (i == 0 ? " " : ",") + options.counterNames[i];
        }
        line += " | " + pattern.title;
        note(line);
        return FakeBackend::measure(pattern, access, options);
    }

private:
    static void note(const std::string& line) {
        if (const char* path = std::getenv("WARPSCOPE_FAKE_PROBE_LOG")) {
            std::ofstream(path, std::ios::app) << line << '\n' << std::flush;
        }
    }
};

/// Counters recorded on a GPU for the built-in presets, keyed by each preset's resolved access.
std::vector<std::pair<warpscope::WarpAccess, std::map<std::string, double>>> readRecordedAnswers() {
    std::vector<std::pair<warpscope::WarpAccess, std::map<std::string, double>>> answers;
    const char* path = std::getenv("WARPSCOPE_FAKE_PROBE_ANSWERS");
    std::ifstream file(path != nullptr ? path : "");
    if (!file) {
        std::fprintf(stderr,
                     "warpscope-probe-fake: WARPSCOPE_FAKE_PROBE_ANSWERS (%s) cannot be read\n",
                     path != nullptr ? path : "unset");
        return answers;
    }
    std::string line;
    while (std::getline(file, line)) {
        const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
        if (!row.is_object() || !row.contains("preset")) {
            continue;
        }
        const warpscope::Preset* preset = warpscope::findPreset(row["preset"].get<std::string>());
        if (preset == nullptr) {
            continue;
        }
        auto access = warpscope::resolve(preset->pattern);
        if (!access.ok()) {
            continue;
        }
        std::map<std::string, double> counters;
        for (const auto& [name, value] : row["result"]["counters"].items()) {
            counters[name] = value.get<double>();
        }
        answers.emplace_back(access.value(), std::move(counters));
    }
    return answers;
}

std::unique_ptr<Backend> makeFake() {
    const char* value = std::getenv("WARPSCOPE_FAKE_PROBE");
    const std::string script = value != nullptr ? value : "model";
    if (script == "noisy") {
        return std::make_unique<NoisyBackend>();
    }
    auto fake = std::make_unique<LoggedBackend>();
    if (script == "no_driver") {
        fake->failure = ProbeError::noDriver("libcuda.so.1 cannot be loaded (fake probe)");
    } else if (script == "no_device") {
        fake->failure = ProbeError::noDevice("the driver reports 0 CUDA devices (fake probe)");
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
                ProbeError::kernelFault("an illegal memory access was encountered (fake probe)"));
        };
    } else if (script == "recorded") {
        fake->answer = [answers = readRecordedAnswers()](const SweepItem& item,
                                                         const MeasureOptions& options) {
            for (const auto& [access, counters] : answers) {
                if (access.kind == item.access.kind && access.addresses == item.access.addresses) {
                    Measurement measurement = FakeBackend::modelMeasurement(item.access, options);
                    measurement.counters = counters;
                    return ProbeResult<Measurement>(measurement);
                }
            }
            return ProbeResult<Measurement>(ProbeError::patternRefused(
                "no recorded answer for \"" + item.pattern.title + "\" (fake probe)"));
        };
    } else if (script == "uncoalesced") {
        fake->answer = [](const SweepItem& item, const MeasureOptions& options) {
            Measurement measurement = FakeBackend::modelMeasurement(item.access, options);
            const bool load = item.access.kind.op == warpscope::AccessOp::Load;
            const double lanes = item.access.activeLaneCount();
            const bool global = item.access.kind.space == warpscope::MemorySpace::Global;
            const std::string counter =
                global ? (load ? "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
                               : "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")
                       : (load ? "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
                               : "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
            if (measurement.countersMeasured) {
                measurement.counters[counter] = lanes;
            }
            return ProbeResult<Measurement>(measurement);
        };
    } else if (script == "slow") {
        fake->beforeItem = [](int) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); };
    } else if (script == "gated") {
        const char* gate = std::getenv("WARPSCOPE_FAKE_PROBE_GATE");
        fake->beforeItem = [gate = std::string(gate != nullptr ? gate : "")](int index) {
            if (index < 3) {
                return;
            }
            // Polled: the test opens the gate by creating the file (at most a minute here).
            for (int i = 0; i < 6000 && !gate.empty() && !std::ifstream(gate); ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        };
    } else if (script.rfind("error:", 0) == 0) {
        const std::string name = script.substr(6);
        const auto code = warpscope::protocol::probeErrorCodeFromName(name);
        if (!code) {
            std::fprintf(stderr, "warpscope-probe-fake: no protocol error code %s\n", name.c_str());
            std::exit(2);
        }
        const ProbeError error = ProbeError::of(*code, name + " from the fake probe");
        if (warpscope::protocol::isNoGpu(*code)) {
            fake->failure = error;
        } else {
            fake->answer = [error](const SweepItem&, const MeasureOptions&) {
                return ProbeResult<Measurement>(error);
            };
        }
    } else if (script == "fatal_once") {
        const char* once = std::getenv("WARPSCOPE_FAKE_PROBE_ONCE");
        fake->answer = [once = std::string(once != nullptr ? once : "")](
                           const SweepItem& item, const MeasureOptions& options) {
            if (!once.empty() && !std::ifstream(once)) {
                std::ofstream(once) << "faulted\n";
                return ProbeResult<Measurement>(ProbeError::kernelFault(
                    "an illegal memory access was encountered (fake probe, once)"));
            }
            return ProbeResult<Measurement>(FakeBackend::modelMeasurement(item.access, options));
        };
    }
    if (const char* devices = std::getenv("WARPSCOPE_FAKE_DEVICES")) {
        fake->deviceCount = std::clamp(std::atoi(devices), 1, 16);
    }
    return fake;
}

} // namespace

int main(int argc, char** argv) {
    return probeMain(argc, argv, makeFake);
}
