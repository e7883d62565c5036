// The GPU as the probe protocol describes it (docs/protocol.md, "device_info"), declared once:
// the probe fills DeviceInfo and writes it, the app reads the same type back.
#pragma once

#include "warpscope/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::protocol {

/// Facts about one GPU.
struct DeviceInfo {
    std::string name;
    int computeCapabilityMajor = 0;
    int computeCapabilityMinor = 0;
    int smCount = 0;
    std::int64_t l2Bytes = 0;
    std::int64_t globalMemoryBytes = 0;
    int memoryClockKHz = 0;
    int memoryBusWidthBits = 0;
    /// 2 x memory clock x bus width / 8 (double data rate), in GB/s (1e9 bytes per second).
    double theoreticalBandwidthGBs = 0.0;
    /// Device-to-device cudaMemcpy of a large buffer, bytes read plus bytes written, GB/s.
    double measuredCopyBandwidthGBs = 0.0;
    std::string driverVersion;  // e.g. "13.0" (cudaDriverGetVersion)
    std::string runtimeVersion; // the CUDA runtime the probe was built with
    bool countersAvailable = false;
    /// Why counters are not available, when they are not (a message for the user).
    std::string countersUnavailableReason;
    // Which device of the machine this is (device_info's "devices" lists every one).
    int index = 0;     // the CUDA device ordinal the probe measures on ("device" in requests)
    std::string uuid;  // "GPU-4a5b…" as nvidia-smi prints it; empty when unknown
    std::string busId; // PCI bus id, "0000:1b:00.0"
    std::string link;  // how it reaches the other devices: "peer access to 1 (native atomics)"

    /// "9.0"; empty when unknown (major 0).
    std::string computeCapability() const;
};

/// device_info's answer: the device asked for, and every device of the probe's machine (empty
/// from probes older than "devices"; those entries carry no bandwidth and no versions).
struct DeviceInfoAnswer {
    DeviceInfo device;
    std::vector<DeviceInfo> devices;
};

nlohmann::json toJson(const DeviceInfo& info);
/// An entry of "devices": index, name, uuid, computeCapability, globalMemoryBytes, smCount,
/// busId, link.
nlohmann::json deviceListEntryJson(const DeviceInfo& info);
nlohmann::json toJson(const DeviceInfoAnswer& answer);

/// Reads a device object at `pointer`. Absent fields keep their defaults (older probes write
/// fewer); a field of the wrong type is a FileFormat error naming its JSON pointer.
Result<DeviceInfo> deviceInfoFromJson(const nlohmann::json& value, const std::string& pointer = "");
Result<DeviceInfoAnswer> deviceInfoAnswerFromJson(const nlohmann::json& value);
/// The same from text, through the core's guarded reader (size, UTF-8, nesting, duplicate keys).
Result<DeviceInfoAnswer> deviceInfoAnswerFromJsonText(std::string_view text);

} // namespace warpscope::protocol
