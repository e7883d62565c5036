// The JSON of the probe's device facts (device_info.h).
#include "warpscope/protocol/device_info.h"

#include "../json_guard.h"
#include "answer_reader.h"

#include <cstdlib>

namespace warpscope::protocol {

using json = nlohmann::json;
using warpscope::detail::child;

std::string DeviceInfo::computeCapability() const {
    if (computeCapabilityMajor == 0 && computeCapabilityMinor == 0) {
        return {};
    }
    return std::to_string(computeCapabilityMajor) + "." + std::to_string(computeCapabilityMinor);
}

json toJson(const DeviceInfo& info) {
    return json{
        {"name", info.name},
        {"computeCapability", std::to_string(info.computeCapabilityMajor) + "." +
                                  std::to_string(info.computeCapabilityMinor)},
        {"computeCapabilityMajor", info.computeCapabilityMajor},
        {"computeCapabilityMinor", info.computeCapabilityMinor},
        {"smCount", info.smCount},
        {"l2Bytes", info.l2Bytes},
        {"globalMemoryBytes", info.globalMemoryBytes},
        {"memoryClockKHz", info.memoryClockKHz},
        {"memoryBusWidthBits", info.memoryBusWidthBits},
        {"theoreticalBandwidthGBs", info.theoreticalBandwidthGBs},
        {"measuredCopyBandwidthGBs", info.measuredCopyBandwidthGBs},
        {"driverVersion", info.driverVersion},
        {"runtimeVersion", info.runtimeVersion},
        {"countersAvailable", info.countersAvailable},
        {"countersUnavailableReason", info.countersUnavailableReason},
        {"index", info.index},
        {"uuid", info.uuid},
        {"busId", info.busId},
        {"link", info.link},
    };
}

json deviceListEntryJson(const DeviceInfo& info) {
    // The facts that tell the devices apart, as toJson writes them.
    const json device = toJson(info);
    json entry = json::object();
    for (const char* key : {"index", "name", "uuid", "computeCapability", "globalMemoryBytes",
                            "smCount", "busId", "link"}) {
        entry[key] = device.at(key);
    }
    return entry;
}

json toJson(const DeviceInfoAnswer& answer) {
    json result = toJson(answer.device);
    json devices = json::array();
    for (const DeviceInfo& d : answer.devices) {
        devices.push_back(deviceListEntryJson(d));
    }
    result["devices"] = std::move(devices);
    return result;
}

namespace {

bool readDevice(detail::AnswerReader& reader, const json& value, const std::string& where,
                DeviceInfo& info) {
    if (!reader.requireObject(value, where, "a device")) {
        return false;
    }
    std::string capability;
    reader.optionalString(value, "name", where, info.name);
    reader.optionalString(value, "computeCapability", where, capability);
    reader.optionalInt(value, "computeCapabilityMajor", where, info.computeCapabilityMajor);
    reader.optionalInt(value, "computeCapabilityMinor", where, info.computeCapabilityMinor);
    reader.optionalInt(value, "smCount", where, info.smCount);
    reader.optionalInt64(value, "l2Bytes", where, info.l2Bytes);
    reader.optionalInt64(value, "globalMemoryBytes", where, info.globalMemoryBytes);
    reader.optionalInt(value, "memoryClockKHz", where, info.memoryClockKHz);
    reader.optionalInt(value, "memoryBusWidthBits", where, info.memoryBusWidthBits);
    reader.optionalNumber(value, "theoreticalBandwidthGBs", where, info.theoreticalBandwidthGBs);
    reader.optionalNumber(value, "measuredCopyBandwidthGBs", where, info.measuredCopyBandwidthGBs);
    reader.optionalString(value, "driverVersion", where, info.driverVersion);
    reader.optionalString(value, "runtimeVersion", where, info.runtimeVersion);
    reader.optionalBool(value, "countersAvailable", where, info.countersAvailable);
    reader.optionalString(value, "countersUnavailableReason", where,
                          info.countersUnavailableReason);
    reader.optionalInt(value, "index", where, info.index);
    reader.optionalString(value, "uuid", where, info.uuid);
    reader.optionalString(value, "busId", where, info.busId);
    reader.optionalString(value, "link", where, info.link);
    if (reader.error()) {
        return false;
    }
    if (!capability.empty() && value.find("computeCapabilityMajor") == value.end()) {
        // The entries of "devices" carry the capability as text only: "9.0".
        const std::size_t dot = capability.find('.');
        const std::string major = capability.substr(0, dot);
        const std::string minor = dot == std::string::npos ? "0" : capability.substr(dot + 1);
        const bool digits = !major.empty() && !minor.empty() && major.size() <= 3 &&
                            minor.size() <= 3 &&
                            major.find_first_not_of("0123456789") == std::string::npos &&
                            minor.find_first_not_of("0123456789") == std::string::npos;
        if (!digits) {
            return reader.fail("computeCapability must be \"MAJOR.MINOR\"; found \"" + capability +
                                   "\"",
                               child(where, "computeCapability"));
        }
        info.computeCapabilityMajor = std::atoi(major.c_str());
        info.computeCapabilityMinor = std::atoi(minor.c_str());
    }
    return true;
}

} // namespace

Result<DeviceInfo> deviceInfoFromJson(const json& value, const std::string& pointer) {
    detail::AnswerReader reader;
    DeviceInfo info;
    if (!readDevice(reader, value, pointer, info)) {
        return *reader.error();
    }
    return info;
}

Result<DeviceInfoAnswer> deviceInfoAnswerFromJson(const json& value) {
    detail::AnswerReader reader;
    DeviceInfoAnswer answer;
    if (!readDevice(reader, value, "", answer.device)) {
        return *reader.error();
    }
    if (const auto devices = value.find("devices"); devices != value.end()) {
        if (!devices->is_array()) {
            reader.fail("devices must be an array; found " + warpscope::detail::describe(*devices),
                        "/devices");
            return *reader.error();
        }
        for (std::size_t i = 0; i < devices->size(); ++i) {
            DeviceInfo entry;
            if (!readDevice(reader, (*devices)[i], child("/devices", i), entry)) {
                return *reader.error();
            }
            answer.devices.push_back(std::move(entry));
        }
    }
    return answer;
}

Result<DeviceInfoAnswer> deviceInfoAnswerFromJsonText(std::string_view text) {
    auto parsed = warpscope::detail::parseGuardedJson(text);
    if (!parsed) {
        return parsed.error();
    }
    return deviceInfoAnswerFromJson(parsed.value());
}

} // namespace warpscope::protocol
