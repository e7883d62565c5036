// measure_transfers in the protocol: its options parsed from a request and the host's available
// memory (transfers.h). The plan, the modes and the JSON of the result are core's
// (warpscope/experiments/transfers.h). No CUDA here.
#include "transfers.h"

#include <algorithm>
#include <fstream>
#include <string>

namespace warpscope::probe {

namespace {

using json = nlohmann::json;
using experiments::kMaxTransferBytes;
using experiments::kMaxTransferRepetitions;
using experiments::kMaxTransferSizes;
using experiments::TransferOptions;

} // namespace

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
            const auto mode = name.is_string()
                                  ? experiments::transferModeFromName(name.get<std::string>())
                                  : std::nullopt;
            if (!mode) {
                return badRequestAt("unknown transfer mode; the modes are " +
                                        experiments::transferModeNameList(),
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

} // namespace warpscope::probe
