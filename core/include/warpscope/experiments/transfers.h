// Host and device transfers (measure_transfers, `warpscope-probe transfers`): what the course
// notes measure in their first half. Copies between host and device (pageable and pinned host
// memory, one direction or both at once), the notes' sumArrays kernel over device memory, over
// zero-copy (mapped pinned) host memory and with the copies around it, and over managed memory
// (pages faulted in by the kernel's first touch, or prefetched). Declared once: the plan (sizes
// capped by free memory, managed memory refused before it would oversubscribe the device), the
// measurement the probe's backends fill, its JSON as the probe writes it (docs/protocol.md) and
// the guarded reader the app reads it back with.
#pragma once

#include "warpscope/experiments/command_line.h"
#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::experiments {

/// One way of moving data. The names are stable protocol strings (docs/protocol.md).
enum class TransferMode {
    H2dPageable,     // cudaMemcpy host -> device from malloc'd memory
    H2dPinned,       // the same from cudaHostAlloc'd memory
    D2hPageable,     // device -> host into malloc'd memory
    D2hPinned,       // into pinned memory
    BothPageable,    // one copy each way at once, on two streams from two host threads
    BothPinned,      // the same with pinned memory
    SumDevice,       // sumArrays over device memory (the kernel alone)
    SumZeroCopy,     // sumArrays reading A and B from mapped pinned host memory (C on the device)
    SumCopy,         // copy A and B in, sumArrays, copy C out (pinned)
    ManagedFault,    // sumArrays over managed memory whose pages are on the host: first touch
    ManagedPrefetch, // the same, prefetched to the device first (prefetch + kernel timed)
};

inline constexpr TransferMode kAllTransferModes[] = {
    TransferMode::H2dPageable,  TransferMode::H2dPinned,       TransferMode::D2hPageable,
    TransferMode::D2hPinned,    TransferMode::BothPageable,    TransferMode::BothPinned,
    TransferMode::SumDevice,    TransferMode::SumZeroCopy,     TransferMode::SumCopy,
    TransferMode::ManagedFault, TransferMode::ManagedPrefetch,
};

const char* transferModeName(TransferMode mode);
std::optional<TransferMode> transferModeFromName(std::string_view name);
/// "h2d_pageable, h2d_pinned, ...": every mode's name, for messages.
std::string transferModeNameList();
/// A short label for tables and legends ("H2D pinned").
const char* transferModeLabel(TransferMode mode);
/// What a point's bandwidth counts, as a multiple of its size (the bytes of one buffer or array):
/// 1 for a copy, 2 for both directions at once, 3 for sumArrays over device memory (two arrays
/// read, one written), 2 for zero-copy and managed (A and B cross the link), 3 for copy + kernel
/// (A and B in, C out).
int transferBytesFactor(TransferMode mode);
/// The sentence behind transferBytesFactor, for documentation and answers.
const char* transferBytesMeaning(TransferMode mode);
bool transferModeIsManaged(TransferMode mode);

/// Limits of the options (docs/protocol.md names them).
inline constexpr std::int64_t kMaxTransferBytes = std::int64_t{64} << 30; // 64 GiB per buffer
inline constexpr int kMaxTransferRepetitions = 1000;
inline constexpr std::size_t kMaxTransferSizes = 64;

struct TransferOptions {
    /// Sizes: every power of `step` from minBytes to maxBytes (inclusive), unless `sizes` is given.
    std::int64_t minBytes = 4 * 1024;
    std::int64_t maxBytes = std::int64_t{1} << 30;
    int step = 4;
    /// Explicit sizes (bytes of one buffer). Each must fit, or the request is refused before
    /// anything runs (a range is capped instead, with a note).
    std::vector<std::int64_t> sizes;
    std::vector<TransferMode> modes; // empty: all
    int repetitions = 7;             // least timed repetitions per point (transfers_cuda.cpp)
};

/// The memory a plan may use, as the backend found it.
struct TransferMemory {
    std::int64_t deviceFreeBytes = 0;
    std::int64_t hostAvailableBytes = 0; // MemAvailable; 0 when unknown (then not capped by it)
};

struct TransferPlan {
    std::vector<std::int64_t> sizes; // ascending
    std::vector<TransferMode> modes;
    int repetitions = 7;
    /// Why sizes were dropped from the requested range (empty when none were).
    std::string capNote;
};

/// Device bytes one size needs at most (three arrays), host bytes likewise (three pinned arrays).
std::int64_t transferDeviceBytes(std::int64_t size, const std::vector<TransferMode>& modes);
std::int64_t transferHostBytes(std::int64_t size, const std::vector<TransferMode>& modes);

/// The sizes and modes to run. A range is capped at what fits in 90 % of the device's free memory
/// and half of the host's available memory, with a note naming both; explicit sizes that do not
/// fit are refused (the message names the size, what it needs and what is free): managed memory
/// is never asked for more than the device has free. Returns the error message on refusal.
struct TransferPlanResult {
    std::optional<TransferPlan> plan;
    std::string error;        // set when refused
    bool outOfMemory = false; // the refusal is about memory (else a bad option)
};
TransferPlanResult planTransfers(const TransferOptions& options, const TransferMemory& memory);

/// The link between host and device, as the driver names it.
struct TransferLink {
    std::string kind = "unknown"; // "pcie", "nvlink-c2c" or "unknown"
    int pcieGeneration = 0;       // current; 0 unknown
    int pcieWidth = 0;            // lanes, current
    int pcieMaxGeneration = 0;
    int pcieMaxWidth = 0;
    /// Per direction, from generation and width (GB/s, 1e9 bytes); 0 unknown.
    double theoreticalGBs = 0.0;
    std::string source;      // "nvml", "sysfs" or "" (how it was found)
    std::string description; // "PCIe 5.0 x16 (63.0 GB/s per direction)"
};

/// Per-direction bandwidth of a PCIe link in GB/s (after line coding), 0 for unknown generation.
double pcieLinkGBs(int generation, int width);
std::string describeLink(const TransferLink& link);

struct TransferPoint {
    std::int64_t bytes = 0; // the size: bytes of one buffer or array
    double medianMs = 0.0;
    double minMs = 0.0;
    double maxMs = 0.0;
    int samples = 0;
    /// transferBytesFactor x bytes / median time, GB/s (1e9 bytes per second).
    double bandwidthGBs = 0.0;
};

struct TransferCurve {
    TransferMode mode = TransferMode::H2dPinned;
    std::vector<TransferPoint> points; // ascending sizes

    /// The point of this size, or null.
    const TransferPoint* at(std::int64_t bytes) const;
};

struct TransferMeasurement {
    std::string deviceName;
    TransferLink link;
    /// The device's own device-to-device copy bandwidth (read + written), GB/s; 0 unknown.
    double deviceCopyBandwidthGBs = 0.0;
    std::int64_t deviceFreeBytes = 0;
    std::int64_t hostAvailableBytes = 0;
    int repetitions = 0;
    std::string capNote;
    /// Where the host threads ran ("host threads pinned to CPUs of the GPU's NUMA node 0 ..."),
    /// "" when not measured on a device.
    std::string hostPlacement;
    std::vector<TransferCurve> curves;

    /// The curve of `mode`, or null.
    const TransferCurve* curve(TransferMode mode) const;
};

/// Median, min and max of timed samples, and the point's bandwidth.
TransferPoint transferPoint(TransferMode mode, std::int64_t bytes, std::vector<double> samplesMs);

/// measure_transfers' result object (docs/protocol.md): each curve with its mode's label, bytes
/// factor and what its GB/s counts, the link with its description.
nlohmann::json toJson(const TransferLink& link);
nlohmann::json toJson(const TransferMeasurement& measurement);

/// Reads measure_transfers' result object at `pointer`. Absent fields keep their defaults
/// (except "curves", a curve's "mode" and a point's "bytes", "medianMs" and "bandwidthGBs"); a
/// field of the wrong type or out of range is a FileFormat error naming its JSON pointer. Points
/// come back in ascending sizes; a curve's label, bytes factor and meaning follow from its mode.
Result<TransferMeasurement> transferMeasurementFromJson(const nlohmann::json& value,
                                                        const std::string& pointer = "");
/// The same from text, through the core's guarded reader (size, nesting, duplicate keys).
Result<TransferMeasurement> transferMeasurementFromJsonText(std::string_view text);

/// The experiment's traits: what the experiment table (experiments.h), the probe's runners and the
/// app's registry know of it by type.
struct TransfersExperiment {
    static constexpr std::string_view key = "transfers";
    using Options = TransferOptions;
    using Measurement = TransferMeasurement;
    /// The measure_transfers request's "options" (absent: the defaults; all fields optional:
    /// minBytes, maxBytes, step, sizes, modes, repetitions); an InvalidValue Error whose `where` is
    /// the field's JSON pointer ("/options/...").
    static Result<Options> optionsFromJson(const nlohmann::json& request);
    static nlohmann::json toJson(const Measurement& measurement) {
        return experiments::toJson(measurement);
    }
    static Result<Measurement> measurementFromJsonText(std::string_view text) {
        return transferMeasurementFromJsonText(text);
    }
    /// `warpscope-probe transfers [options]`.
    static ExperimentCommandLine commandLine();
};

} // namespace warpscope::experiments
