// One whole kernel as measure_kernel measured it (docs/protocol.md, "measure_kernel"), declared
// once: the probe's backend fills the counters and timing, the protocol adds what ran and the
// grid model's prediction and writes it, and the app reads the same type back from the answer,
// a recorded answer (tests/data/kernel_*_h100.jsonl) or a session.
#pragma once

#include "warpscope/buffer_footprint.h"
#include "warpscope/protocol/pattern_measurement.h"
#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::protocol {

/// How to run a whole kernel: measure_kernel's "options" (counters, warm, repetitions,
/// per_instruction) and run-kernel's flags.
struct KernelMeasureOptions {
    bool counters = true;
    /// Flush the L2 cache before every timed launch (and before the profiled one): cold, as the
    /// course notes measure. False times warm launches, and every answer says which.
    bool cold = true;
    int repetitions = 21; // timed launches for the median
    /// What "flushed" means, for experiments on the cold state (run-kernel --flush; the
    /// protocol always asks for Clean): Clean writes a buffer of 2 x L2 and reads it back, so
    /// that L2 holds clean unrelated lines; Dirty only writes it (L2 full of dirty unrelated
    /// lines); None flushes nothing, before the timed launches nor before the counted one.
    enum class Flush { Clean, Dirty, None };
    Flush flush = Flush::Clean;
    /// Also count every SASS instruction's own requests, sectors, wavefronts and conflicts with
    /// CUPTI's SASS metrics (one more launch, patched; kernels/cuda/cupti_sass.h).
    bool perInstruction = false;
};

/// measure_kernel's "options" object as a request carries it: counters, warm (not cold),
/// repetitions, and per_instruction when asked for. The flush is run-kernel's alone.
nlohmann::json toRequestJson(const KernelMeasureOptions& options);

/// "clean", "dirty", "none": an answer's "l2Flush".
const char* l2FlushName(KernelMeasureOptions::Flush flush);

/// One access of the kernel: what it is and the grid model's counts for it over the whole grid.
struct KernelAccessMeasurement {
    std::string label;
    std::string space; // "global", "shared", "constant", ...
    std::string op;    // "load", "store", "copy_async", ...
    int width = 0;     // bytes per thread
    double requests = 0;
    double sectors = 0;
    double wavefronts = 0;
    double bankConflicts = 0;
    double bytesRequested = 0;
    double activeThreads = 0;
    /// Constant loads: the grid model's constant-cache requests (each warp's distinct addresses).
    double constantAddresses = 0;
};

/// One buffer of the kernel: its size and the grid model's footprint in it (the answer carries
/// no partial-sector counts).
using KernelBufferMeasurement = BufferFootprint;

/// measure_kernel's per_instruction option: each access's own SASS instruction counts beside
/// the model's and the hardware's, or why they were not measured.
struct KernelPerInstruction {
    bool measured = false;
    std::string source;            // e.g. "CUPTI SASS metrics (lazy patching)"
    std::string unavailableReason; // why not, when not measured
    double ms = 0.0;               // wall time the per-instruction launch added
    /// The rows as the probe writes them (livePerInstructionJson's array; core's
    /// perInstructionRowsFromJsonText reads them). Empty when not measured.
    nlohmann::json rows = nlohmann::json::array();
};

struct KernelMeasurement {
    // What ran: the kernel ("kernel"), its parameter values and launch, and the grid model's
    // prediction for it ("predicted", "accesses", "buffers").
    std::string kernelName;
    std::map<std::string, std::int64_t> parameters;
    std::array<std::int64_t, 3> grid{1, 1, 1};
    std::array<std::int64_t, 3> block{1, 1, 1};
    std::int64_t threads = 0;
    std::int64_t warps = 0;
    std::int64_t sharedBytesPerBlock = 0;
    std::int64_t deviceBytes = 0; // the buffers allocated for it
    /// The SASS memory instructions the generated kernel holds, in order.
    std::vector<std::string> memoryInstructions;
    std::map<std::string, double> predicted;
    std::vector<KernelAccessMeasurement> accesses;
    std::vector<KernelBufferMeasurement> buffers;

    /// Nsight Compute metric name -> value for one launch (cold unless flush is None).
    std::map<std::string, double> counters;
    bool countersMeasured = false;
    std::string countersUnavailableReason;
    KernelMeasureOptions::Flush flush = KernelMeasureOptions::Flush::Clean;

    // Timing ("timing"; older answers and recorded points carry kernelMs and cold at the top).
    // Empty numbers are unknown: a record of a point that was not timed, or an older record.
    std::optional<Stats> kernelMs; // CUDA events around each launch
    /// kernelMs's (max - min) / median in percent; written from kernelMs when empty (records
    /// may carry the median and the spread alone).
    std::optional<double> spreadPct;
    std::vector<double> samplesMs;        // every timed launch, in order
    bool cold = true;                     // whether the L2 was flushed before each timed launch
    std::optional<double> bytesRequested; // global bytes of active lanes, read + written
    std::optional<double> effectiveBandwidthGBs; // bytesRequested / median time
    std::optional<double> copyBandwidthGBs; // the device's measured copy bandwidth (0: unknown)
    std::optional<double> theoreticalBandwidthGBs;
    /// The effective bandwidth as a share of the copy and theoretical bandwidths, in percent;
    /// written from them when empty (null when the ceiling is unknown).
    std::optional<double> shareOfCopyBandwidthPct;
    std::optional<double> shareOfTheoreticalBandwidthPct;

    /// Only when asked for: answers without the option carry none.
    std::optional<KernelPerInstruction> perInstruction;
};

/// The answer's JSON for one kernel (measure_kernel's `result`, or one of its `measurements`).
nlohmann::json toJson(const KernelMeasurement& measurement);

/// Reads one kernel's answer at `pointer`. Absent fields keep their defaults (older probes and
/// recorded points write fewer); a field of the wrong type or value is a FileFormat error naming
/// its JSON pointer ("/timing/kernelMs/median").
Result<KernelMeasurement> kernelMeasurementFromJson(const nlohmann::json& value,
                                                    const std::string& pointer = "");
/// The same from text, through the core's guarded reader (size, UTF-8, nesting, duplicate keys).
/// A sweep's answer ({"measurements": [...]}) is read one measurement at a time.
Result<KernelMeasurement> kernelMeasurementFromJsonText(std::string_view text);

} // namespace warpscope::protocol
