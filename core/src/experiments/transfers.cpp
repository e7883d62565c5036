// measure_transfers: the modes' names and meanings, the plan, and the result's JSON written and
// read (experiments/transfers.h). No CUDA here.
#include "warpscope/experiments/transfers.h"

#include "../json_fields.h"
#include "../json_guard.h"
#include "result_fields.h"

#include <warpscope/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace warpscope::experiments {

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
    detail::setTiming(point, std::move(samplesMs),
                      static_cast<double>(transferBytesFactor(mode)) * static_cast<double>(bytes));
    return point;
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
            json item = detail::timingJson(point);
            item["bytes"] = point.bytes;
            points.push_back(std::move(item));
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

std::string transferModeNameList() {
    std::string names;
    for (const ModeText& text : kModes) {
        names += names.empty() ? "" : ", ";
        names += text.name;
    }
    return names;
}

const TransferPoint* TransferCurve::at(std::int64_t bytes) const {
    const auto found = std::ranges::find(points, bytes, &TransferPoint::bytes);
    return found != points.end() ? &*found : nullptr;
}

const TransferCurve* TransferMeasurement::curve(TransferMode mode) const {
    const auto found = std::ranges::find(curves, mode, &TransferCurve::mode);
    return found != curves.end() ? &*found : nullptr;
}

namespace {

using detail::AnswerReader;
using detail::arrayMember;
using detail::readTiming;
using detail::requiredNumber;
using detail::requiredPositiveInt64;
using warpscope::detail::child;

bool readLink(AnswerReader& reader, const json& result, const std::string& where,
              TransferLink& link) {
    const json* object = reader.optionalObject(result, "link", where);
    if (object == nullptr) {
        return !reader.error();
    }
    const std::string at = child(where, "link");
    return reader.optionalString(*object, "kind", at, link.kind) &&
           reader.optionalInt(*object, "pcieGeneration", at, link.pcieGeneration) &&
           reader.optionalInt(*object, "pcieWidth", at, link.pcieWidth) &&
           reader.optionalInt(*object, "pcieMaxGeneration", at, link.pcieMaxGeneration) &&
           reader.optionalInt(*object, "pcieMaxWidth", at, link.pcieMaxWidth) &&
           reader.optionalNumber(*object, "theoreticalGBs", at, link.theoreticalGBs) &&
           reader.optionalString(*object, "source", at, link.source) &&
           reader.optionalString(*object, "description", at, link.description);
}

bool readPoint(AnswerReader& reader, const json& value, const std::string& where,
               TransferPoint& point) {
    if (!reader.requireObject(value, where, "a point")) {
        return false;
    }
    return requiredPositiveInt64(reader, value, "bytes", where, point.bytes) &&
           readTiming(reader, value, where, point) &&
           requiredNumber(reader, value, "bandwidthGBs", where, 0.0, point.bandwidthGBs);
}

bool readCurve(AnswerReader& reader, const json& value, const std::string& where,
               TransferCurve& curve) {
    if (!reader.requireObject(value, where, "a curve")) {
        return false;
    }
    std::string name;
    if (!reader.stringMember(value, "mode", where, true, name)) {
        return false;
    }
    const auto mode = transferModeFromName(name);
    if (!mode) {
        return reader.fail("unknown transfer mode \"" + name + "\"; the modes are " +
                               transferModeNameList(),
                           child(where, "mode"));
    }
    curve.mode = *mode;
    const json* points = arrayMember(reader, value, "points", where, false);
    if (points == nullptr) {
        return !reader.error();
    }
    const std::string at = child(where, "points");
    for (std::size_t i = 0; i < points->size(); ++i) {
        TransferPoint point;
        if (!readPoint(reader, (*points)[i], child(at, i), point)) {
            return false;
        }
        curve.points.push_back(point);
    }
    std::ranges::sort(curve.points, {}, &TransferPoint::bytes);
    return true;
}

} // namespace

Result<TransferMeasurement> transferMeasurementFromJson(const json& value,
                                                        const std::string& pointer) {
    AnswerReader reader;
    TransferMeasurement m;
    if (!reader.requireObject(value, pointer, "measure_transfers' result") ||
        !reader.optionalString(value, "device", pointer, m.deviceName) ||
        !readLink(reader, value, pointer, m.link) ||
        !reader.optionalNumber(value, "deviceCopyBandwidthGBs", pointer,
                               m.deviceCopyBandwidthGBs) ||
        !reader.optionalInt64(value, "deviceFreeBytes", pointer, m.deviceFreeBytes) ||
        !reader.optionalInt64(value, "hostAvailableBytes", pointer, m.hostAvailableBytes) ||
        !reader.optionalInt(value, "repetitions", pointer, m.repetitions) ||
        !reader.optionalString(value, "capped", pointer, m.capNote) ||
        !reader.optionalString(value, "hostPlacement", pointer, m.hostPlacement)) {
        return *reader.error();
    }
    const json* curves = arrayMember(reader, value, "curves", pointer, true);
    if (curves == nullptr) {
        return *reader.error();
    }
    const std::string at = child(pointer, "curves");
    for (std::size_t i = 0; i < curves->size(); ++i) {
        TransferCurve curve;
        if (!readCurve(reader, (*curves)[i], child(at, i), curve)) {
            return *reader.error();
        }
        m.curves.push_back(std::move(curve));
    }
    return m;
}

Result<TransferMeasurement> transferMeasurementFromJsonText(std::string_view text) {
    return warpscope::detail::readGuardedJsonText(text, &transferMeasurementFromJson);
}

} // namespace warpscope::experiments
