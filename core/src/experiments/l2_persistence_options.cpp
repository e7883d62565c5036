// measure_l2_persistence's request options (L2PersistenceExperiment::optionsFromJson,
// l2_persistence.h): every field optional, each refusal naming the field's JSON pointer. No CUDA
// here.
#include "warpscope/experiments/l2_persistence.h"

#include "request_options.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>

namespace warpscope::experiments {

namespace {

using json = nlohmann::json;

} // namespace

Result<L2PersistenceExperiment::Options>
L2PersistenceExperiment::optionsFromJson(const json& request) {
    const auto object =
        detail::optionsObject(request, "measure_l2_persistence",
                              {"windowBytes", "hitRatios", "tuned", "setAsideBytes", "streamBytes",
                               "streamPerRegion", "repetitions", "counters"});
    if (!object) {
        return object.error();
    }
    L2PersistenceOptions options;
    const json* found = *object;
    const auto boolean = [&](const char* field, bool& out) -> std::optional<Error> {
        const auto value = found->find(field);
        if (value == found->end()) {
            return std::nullopt;
        }
        if (!value->is_boolean()) {
            return detail::optionError(std::string("\"") + field + "\" must be true or false",
                                       std::string("/options/") + field);
        }
        out = value->get<bool>();
        return std::nullopt;
    };
    std::int64_t streamPerRegion = options.streamPerRegion;
    std::int64_t repetitions = options.repetitions;
    for (auto error :
         {detail::readIntegerOption(*found, "setAsideBytes", 0, kL2MaxStreamBytes,
                                    options.setAsideBytes),
          detail::readIntegerOption(*found, "streamBytes", kL2MinStreamBytes, kL2MaxStreamBytes,
                                    options.streamBytes),
          detail::readIntegerOption(*found, "streamPerRegion", 1, kL2MaxStreamPerRegion,
                                    streamPerRegion),
          detail::readIntegerOption(*found, "repetitions", 1, kL2MaxRepetitions, repetitions),
          boolean("tuned", options.tuned), boolean("counters", options.counters)}) {
        if (error) {
            return *error;
        }
    }
    options.streamPerRegion = static_cast<int>(streamPerRegion);
    options.repetitions = static_cast<int>(repetitions);
    if (const auto windows = found->find("windowBytes"); windows != found->end()) {
        if (!windows->is_array() || windows->size() > kL2MaxWindows) {
            return detail::optionError("\"windowBytes\" must be an array of at most " +
                                           std::to_string(kL2MaxWindows) + " byte counts",
                                       "/options/windowBytes");
        }
        for (std::size_t i = 0; i < windows->size(); ++i) {
            const json& window = (*windows)[i];
            if (!window.is_number_integer() || window.get<std::int64_t>() < 1024 ||
                window.get<std::int64_t>() > kL2MaxStreamBytes ||
                window.get<std::int64_t>() % 1024 != 0) {
                return detail::optionError(
                    "a window size must be a multiple of 1 KiB, at least 1 KiB",
                    "/options/windowBytes/" + std::to_string(i));
            }
            options.windowBytes.push_back(window.get<std::int64_t>());
        }
    }
    if (const auto ratios = found->find("hitRatios"); ratios != found->end()) {
        if (!ratios->is_array() || ratios->size() > kL2MaxRatios) {
            return detail::optionError("\"hitRatios\" must be an array of at most " +
                                           std::to_string(kL2MaxRatios) + " numbers",
                                       "/options/hitRatios");
        }
        for (std::size_t i = 0; i < ratios->size(); ++i) {
            const json& ratio = (*ratios)[i];
            if (!ratio.is_number() || !(ratio.get<double>() > 0.0 && ratio.get<double>() <= 1.0)) {
                return detail::optionError("a hitRatio must be a number above 0 and at most 1",
                                           "/options/hitRatios/" + std::to_string(i));
            }
            options.hitRatios.push_back(ratio.get<double>());
        }
    }
    return options;
}

} // namespace warpscope::experiments
