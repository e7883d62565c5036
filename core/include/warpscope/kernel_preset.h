// The built-in kernel presets: the course notes' whole kernels at the notes' sizes (readOffset,
// writeOffset, readSegment/writeSegment, AoS and SoA, sumArrays, the eight transposes of seed
// 002 and seed 003's shared-memory tiled transpose). Their data lives in resources/kernels.json,
// compiled into the core; each names the table or figure it reproduces and carries the notes'
// own numbers.
#pragma once

#include "warpscope/kernel.h"
#include "warpscope/result.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

/// One number the notes report for a preset's kernel: "CopyRow, L1 on: 125.67 GB/s".
struct KernelReference {
    std::string label;
    /// The parameter values the row was measured at ({"bx": 8, "by": 32}); the preset's own
    /// values for the others.
    std::map<std::string, std::int64_t> parameters;
    /// What was measured: "bandwidth", "gld_efficiency", "gld_transactions", "time", ...
    std::string quantity;
    double value = 0.0;
    std::string unit; // "GB/s", "%", "s", ""

    bool operator==(const KernelReference&) const = default;
};

/// A parameter and the values the notes measure it at (the offsets 0, 11, 128).
struct KernelSweep {
    std::string parameter;
    std::vector<std::int64_t> values;

    bool operator==(const KernelSweep&) const = default;
};

struct KernelPreset {
    std::string id;      // "transpose-naivecol-cg"
    std::string topic;   // "Transpose", "Offsets", "Layouts"
    std::string title;   // "NaiveCol, L1 off"
    std::string caption; // what to look at
    std::string source;  // "seed 002, Table 4-6"
    /// The GPU the notes' numbers come from, as the notes name it (or say they do not).
    std::string notesGpu;
    Kernel kernel;
    std::vector<KernelSweep> sweeps;
    std::vector<KernelReference> references;

    bool operator==(const KernelPreset&) const = default;
};

/// Parse a kernel preset list (a JSON array like resources/kernels.json); errors name a JSON
/// pointer ("/3/kernel/accesses/1/width").
Result<std::vector<KernelPreset>> parseKernelPresets(std::string_view jsonText);

/// All built-in kernel presets, in display order. Parsed once from the embedded JSON.
const std::vector<KernelPreset>& builtinKernelPresets();

/// The kernel preset with this id, or nullptr.
const KernelPreset* findKernelPreset(std::string_view id);

} // namespace warpscope
