// measure_transfers: the plan, the modes' names and meanings, and the JSON forms (transfers.h,
// transfer_types.h). No CUDA here.
#include "transfers.h"

#include <warpscope/statistics.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>

namespace warpscope::probe {

namespace {

using json = nlohmann::json;

struct ModeText {
    TransferMode mode;
    const char* name;
    const char* label;
    int factor;
    const char* meaning;
};

constexpr ModeText kModes[] = {
    {TransferMode::H2dPageable, "h2d_pageable", "H2D pageable", 1,
     "bytes copied host to device from pageable (malloc) memory"},
    {TransferMode::H2dPinned, "h2d_pinned", "H2D pinned", 1,
     "bytes copied host to device from pinned (cudaHostAlloc) memory"},
    {TransferMode::D2hPageable, "d2h_pageable", "D2H pageable", 1,
     "bytes copied device to host into pageable memory"},
    {TransferMode::D2hPinned, "d2h_pinned", "D2H pinned", 1,
     "bytes copied device to host into pinned memory"},
    {TransferMode::BothPageable, "both_pageable", "both ways pageable", 2,
     "bytes copied in both directions at once (two streams), pageable"},
    {TransferMode::BothPinned, "both_pinned", "both ways pinned", 2,
     "bytes copied in both directions at once (two streams), pinned"},
    {TransferMode::SumDevice, "sum_device", "sumArrays, device memory", 3,
     "bytes the kernel reads and writes in device memory (A and B read, C written)"},
    {TransferMode::SumZeroCopy, "sum_zerocopy", "sumArrays, zero-copy", 2,
     "bytes the kernel reads over the link from mapped pinned host memory (A and B)"},
    {TransferMode::SumCopy, "sum_copy", "copy + sumArrays + copy", 3,
     "bytes that cross the link: A and B copied in, C copied out (pinned), kernel included"},
    {TransferMode::ManagedFault, "managed_fault", "managed, first touch on device", 2,
     "bytes of A and B the kernel faults in from the host (managed memory)"},
    {TransferMode::ManagedPrefetch, "managed_prefetch", "managed, prefetched", 2,
     "bytes of A and B prefetched to the device, prefetch and kernel timed together"},
};

const ModeText& textOf(TransferMode mode) {
    for (const ModeText& text : kModes) {
        if (text.mode == mode) {
            return text;
        }
    }
    return kModes[0];
}

constexpr std::int64_t kMaxTransferBytes = std::int64_t{64} << 30; // 64 GiB per buffer
constexpr int kMaxTransferRepetitions = 1000;
constexpr std::size_t kMaxTransferSizes = 64;

} // namespace

const char* transferModeName(TransferMode mode) {
    return textOf(mode).name;
}

std::optional<TransferMode> transferModeFromName(std::string_view name) {
    for (const ModeText& text : kModes) {
        if (name == text.name) {
            return text.mode;
        }
    }
    return std::nullopt;
}

const char* transferModeLabel(TransferMode mode) {
    return textOf(mode).label;
}

int transferBytesFactor(TransferMode mode) {
    return textOf(mode).factor;
}

const char* transferBytesMeaning(TransferMode mode) {
    return textOf(mode).meaning;
}

bool transferModeIsManaged(TransferMode mode) {
    return mode == TransferMode::ManagedFault || mode == TransferMode::ManagedPrefetch;
}

std::int64_t transferDeviceBytes(std::int64_t size, const std::vector<TransferMode>& modes) {
    int arrays = 0;
    for (TransferMode mode : modes) {
        const bool both = mode == TransferMode::BothPageable || mode == TransferMode::BothPinned;
        const bool kernel = !both && transferBytesFactor(mode) != 1;
        arrays = std::max(arrays, kernel ? 3 : both ? 2 : 1);
    }
    return size * arrays;
}

std::int64_t transferHostBytes(std::int64_t size, const std::vector<TransferMode>& modes) {
    int arrays = 0;
    for (TransferMode mode : modes) {
        // Managed pages live on the host between the timed runs: three arrays of them.
        const int host = mode == TransferMode::SumDevice                                ? 0
                         : mode == TransferMode::SumCopy || transferModeIsManaged(mode) ? 3
                         : transferBytesFactor(mode) == 2                               ? 2
                                                                                        : 1;
        arrays = std::max(arrays, host);
    }
    return size * arrays;
}

TransferPlanResult planTransfers(const TransferOptions& options, const TransferMemory& memory) {
    TransferPlanResult result;
    TransferPlan plan;
    plan.modes = options.modes.empty() ? std::vector<TransferMode>(std::begin(kAllTransferModes),
                                                                   std::end(kAllTransferModes))
                                       : options.modes;
    plan.repetitions = options.repetitions;
    if (options.repetitions < 1 || options.repetitions > kMaxTransferRepetitions) {
        result.error = "repetitions must be between 1 and " +
                       std::to_string(kMaxTransferRepetitions) + "; found " +
                       std::to_string(options.repetitions);
        return result;
    }
    // 90 % of the free device memory, half of the host's available memory.
    const std::int64_t deviceLimit = memory.deviceFreeBytes / 10 * 9;
    const std::int64_t hostLimit = memory.hostAvailableBytes / 2;
    const auto fitsDevice = [&](std::int64_t size) {
        return transferDeviceBytes(size, plan.modes) <= deviceLimit;
    };
    const auto fitsHost = [&](std::int64_t size) {
        return memory.hostAvailableBytes <= 0 || transferHostBytes(size, plan.modes) <= hostLimit;
    };
    const auto tooLarge = [&](std::int64_t size) {
        const bool managed =
            std::any_of(plan.modes.begin(), plan.modes.end(), transferModeIsManaged);
        std::string why;
        if (!fitsDevice(size)) {
            why = formatBytes(size) + " needs " +
                  formatBytes(transferDeviceBytes(size, plan.modes)) +
                  " of device memory and the device has " + formatBytes(memory.deviceFreeBytes) +
                  " free (90 % of it may be used)";
            if (managed) {
                why += "; managed memory is never asked for more than the device has free";
            }
        } else {
            why = formatBytes(size) + " needs " + formatBytes(transferHostBytes(size, plan.modes)) +
                  " of host memory and the host has " + formatBytes(memory.hostAvailableBytes) +
                  " available (half of it may be used)";
        }
        return why;
    };
    if (!options.sizes.empty()) {
        if (options.sizes.size() > kMaxTransferSizes) {
            result.error = "at most " + std::to_string(kMaxTransferSizes) + " sizes; found " +
                           std::to_string(options.sizes.size());
            return result;
        }
        for (std::int64_t size : options.sizes) {
            if (size < 4 || size > kMaxTransferBytes || size % 4 != 0) {
                result.error = "a size must be a multiple of 4 bytes between 4 B and 64 GiB; "
                               "found " +
                               std::to_string(size);
                return result;
            }
            if (!fitsDevice(size) || !fitsHost(size)) {
                result.error = "refused before anything ran: " + tooLarge(size);
                result.outOfMemory = true;
                return result;
            }
            plan.sizes.push_back(size);
        }
        std::sort(plan.sizes.begin(), plan.sizes.end());
        plan.sizes.erase(std::unique(plan.sizes.begin(), plan.sizes.end()), plan.sizes.end());
        result.plan = std::move(plan);
        return result;
    }
    if (options.minBytes < 4 || options.minBytes % 4 != 0 || options.maxBytes < options.minBytes ||
        options.maxBytes > kMaxTransferBytes) {
        result.error =
            "the range must run from a multiple of 4 bytes up to at most 64 GiB; found " +
            std::to_string(options.minBytes) + " to " + std::to_string(options.maxBytes);
        return result;
    }
    if (options.step < 2 || options.step > 1024) {
        result.error = "step must be between 2 and 1024; found " + std::to_string(options.step);
        return result;
    }
    std::int64_t capped = 0;
    for (std::int64_t size = options.minBytes; size <= options.maxBytes; size *= options.step) {
        if (!fitsDevice(size) || !fitsHost(size)) {
            capped = size;
            break;
        }
        plan.sizes.push_back(size);
    }
    if (capped != 0) {
        plan.capNote =
            "sizes from " + formatBytes(capped) + " up were left out: " + tooLarge(capped) + ".";
    }
    if (plan.sizes.empty()) {
        result.error = "refused before anything ran: no size fits; " + tooLarge(options.minBytes);
        result.outOfMemory = true;
        return result;
    }
    result.plan = std::move(plan);
    return result;
}

double pcieLinkGBs(int generation, int width) {
    // GT/s per lane and line coding: 8b/10b for 1 and 2, 128b/130b from 3 on.
    static constexpr double kGts[] = {0.0, 2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
    if (generation < 1 || generation > 6 || width < 1) {
        return 0.0;
    }
    const double coding = generation <= 2 ? 0.8 : 128.0 / 130.0;
    return kGts[generation] * coding / 8.0 * width;
}

std::string describeLink(const TransferLink& link) {
    char text[200];
    if (link.kind == "nvlink-c2c") {
        return "NVLink-C2C (host memory coherent with the GPU)";
    }
    const int generation = std::max(link.pcieMaxGeneration, link.pcieGeneration);
    const int width = std::max(link.pcieMaxWidth, link.pcieWidth);
    if (link.kind == "pcie" && generation > 0) {
        // The link trains down when idle: name what it can do, and what it ran at when asked.
        std::snprintf(text, sizeof text, "PCIe %d.0 x%d (%.1f GB/s per direction)", generation,
                      width, pcieLinkGBs(generation, width));
        std::string result = text;
        if (link.pcieGeneration > 0 &&
            (link.pcieGeneration < generation || link.pcieWidth < width)) {
            std::snprintf(text, sizeof text, ", at %d.0 x%d when asked (idle links slow down)",
                          link.pcieGeneration, link.pcieWidth);
            result += text;
        }
        return result;
    }
    return "unknown link (the driver did not say)";
}

TransferPoint transferPoint(TransferMode mode, std::int64_t bytes, std::vector<double> samplesMs) {
    TransferPoint point;
    point.bytes = bytes;
    if (samplesMs.empty()) {
        return point;
    }
    const SampleSummary summary = summarizeSamples(std::move(samplesMs));
    point.samples = summary.samples;
    point.minMs = summary.min;
    point.maxMs = summary.max;
    point.medianMs = summary.median;
    if (point.medianMs > 0.0) {
        point.bandwidthGBs = static_cast<double>(transferBytesFactor(mode)) *
                             static_cast<double>(bytes) / (point.medianMs * 1e6);
    }
    return point;
}

std::int64_t hostAvailableMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::int64_t value = 0;
    std::string unit;
    while (meminfo >> key >> value >> unit) {
        if (key == "MemAvailable:") {
            return value * 1024;
        }
    }
    return 0;
}

RequestResult<TransferOptions> parseTransferOptions(const json& request) {
    TransferOptions options;
    const auto found = request.find("options");
    if (found == request.end()) {
        return options;
    }
    if (!found->is_object()) {
        return badRequestAt("\"options\" must be an object", "/options");
    }
    const auto integer = [&](const char* key, std::int64_t& out) -> std::optional<RequestError> {
        const auto value = found->find(key);
        if (value == found->end()) {
            return std::nullopt;
        }
        if (!value->is_number_integer()) {
            return badRequestAt(std::string("\"") + key + "\" must be an integer",
                                std::string("/options/") + key);
        }
        out = value->get<std::int64_t>();
        return std::nullopt;
    };
    for (const auto& item : found->items()) {
        const std::string& key = item.key();
        if (key != "minBytes" && key != "maxBytes" && key != "step" && key != "sizes" &&
            key != "modes" && key != "repetitions") {
            return badRequestAt(
                "measure_transfers takes no option \"" + key +
                    "\"; the options are minBytes, maxBytes, step, sizes, modes and "
                    "repetitions",
                "/options/" + key);
        }
    }
    std::int64_t step = options.step;
    std::int64_t repetitions = options.repetitions;
    for (auto error : {integer("minBytes", options.minBytes), integer("maxBytes", options.maxBytes),
                       integer("step", step), integer("repetitions", repetitions)}) {
        if (error) {
            return *error;
        }
    }
    if (step < 2 || step > 1024) {
        return badRequestAt("\"step\" must be between 2 and 1024; found " + std::to_string(step),
                            "/options/step");
    }
    if (repetitions < 1 || repetitions > kMaxTransferRepetitions) {
        return badRequestAt("\"repetitions\" must be between 1 and " +
                                std::to_string(kMaxTransferRepetitions) + "; found " +
                                std::to_string(repetitions),
                            "/options/repetitions");
    }
    options.step = static_cast<int>(step);
    options.repetitions = static_cast<int>(repetitions);
    if (const auto sizes = found->find("sizes"); sizes != found->end()) {
        if (!sizes->is_array() || sizes->size() > kMaxTransferSizes) {
            return badRequestAt("\"sizes\" must be an array of at most " +
                                    std::to_string(kMaxTransferSizes) + " byte counts",
                                "/options/sizes");
        }
        for (std::size_t i = 0; i < sizes->size(); ++i) {
            const json& size = (*sizes)[i];
            if (!size.is_number_integer() || size.get<std::int64_t>() < 4 ||
                size.get<std::int64_t>() > kMaxTransferBytes || size.get<std::int64_t>() % 4) {
                return badRequestAt("a size must be a multiple of 4 bytes between 4 B and 64 GiB",
                                    "/options/sizes/" + std::to_string(i));
            }
            options.sizes.push_back(size.get<std::int64_t>());
        }
    }
    if (const auto modes = found->find("modes"); modes != found->end()) {
        if (!modes->is_array()) {
            return badRequestAt("\"modes\" must be an array of mode names", "/options/modes");
        }
        for (std::size_t i = 0; i < modes->size(); ++i) {
            const json& name = (*modes)[i];
            const auto mode =
                name.is_string() ? transferModeFromName(name.get<std::string>()) : std::nullopt;
            if (!mode) {
                std::string names;
                for (const ModeText& text : kModes) {
                    names += names.empty() ? "" : ", ";
                    names += text.name;
                }
                return badRequestAt("unknown transfer mode; the modes are " + names,
                                    "/options/modes/" + std::to_string(i));
            }
            if (std::find(options.modes.begin(), options.modes.end(), *mode) ==
                options.modes.end()) {
                options.modes.push_back(*mode);
            }
        }
    }
    return options;
}

json toJson(const TransferLink& link) {
    return json{{"kind", link.kind},
                {"pcieGeneration", link.pcieGeneration},
                {"pcieWidth", link.pcieWidth},
                {"pcieMaxGeneration", link.pcieMaxGeneration},
                {"pcieMaxWidth", link.pcieMaxWidth},
                {"theoreticalGBs", link.theoreticalGBs},
                {"source", link.source},
                {"description", link.description.empty() ? describeLink(link) : link.description}};
}

json toJson(const TransferMeasurement& measurement) {
    json curves = json::array();
    for (const TransferCurve& curve : measurement.curves) {
        json points = json::array();
        for (const TransferPoint& point : curve.points) {
            points.push_back(json{{"bytes", point.bytes},
                                  {"medianMs", point.medianMs},
                                  {"minMs", point.minMs},
                                  {"maxMs", point.maxMs},
                                  {"samples", point.samples},
                                  {"bandwidthGBs", point.bandwidthGBs}});
        }
        curves.push_back(json{{"mode", transferModeName(curve.mode)},
                              {"label", transferModeLabel(curve.mode)},
                              {"bytesFactor", transferBytesFactor(curve.mode)},
                              {"counts", transferBytesMeaning(curve.mode)},
                              {"points", std::move(points)}});
    }
    return json{{"device", measurement.deviceName},
                {"link", toJson(measurement.link)},
                {"deviceCopyBandwidthGBs", measurement.deviceCopyBandwidthGBs},
                {"deviceFreeBytes", measurement.deviceFreeBytes},
                {"hostAvailableBytes", measurement.hostAvailableBytes},
                {"repetitions", measurement.repetitions},
                {"capped", measurement.capNote},
                {"hostPlacement", measurement.hostPlacement},
                {"curves", std::move(curves)}};
}

} // namespace warpscope::probe
