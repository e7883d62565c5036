// measure_transfers' request options (TransfersExperiment::optionsFromJson, transfers.h): every
// field optional, each refusal naming the field's JSON pointer. No CUDA here.
#include "warpscope/experiments/transfers.h"

#include "request_options.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

namespace warpscope::experiments {

namespace {

using json = nlohmann::json;

} // namespace

Result<TransfersExperiment::Options> TransfersExperiment::optionsFromJson(const json& request) {
    const auto object =
        detail::optionsObject(request, "measure_transfers",
                              {"minBytes", "maxBytes", "step", "sizes", "modes", "repetitions"});
    if (!object) {
        return object.error();
    }
    TransferOptions options;
    const json* found = *object;
    const auto integer = [&](const char* field, std::int64_t& out) -> std::optional<Error> {
        const auto value = found->find(field);
        if (value == found->end()) {
            return std::nullopt;
        }
        if (!value->is_number_integer()) {
            return detail::optionError(std::string("\"") + field + "\" must be an integer",
                                       std::string("/options/") + field);
        }
        out = value->get<std::int64_t>();
        return std::nullopt;
    };
    std::int64_t step = options.step;
    std::int64_t repetitions = options.repetitions;
    for (auto error : {integer("minBytes", options.minBytes), integer("maxBytes", options.maxBytes),
                       integer("step", step), integer("repetitions", repetitions)}) {
        if (error) {
            return *error;
        }
    }
    if (step < 2 || step > 1024) {
        return detail::optionError(
            "\"step\" must be between 2 and 1024; found " + std::to_string(step), "/options/step");
    }
    if (repetitions < 1 || repetitions > kMaxTransferRepetitions) {
        return detail::optionError("\"repetitions\" must be between 1 and " +
                                       std::to_string(kMaxTransferRepetitions) + "; found " +
                                       std::to_string(repetitions),
                                   "/options/repetitions");
    }
    options.step = static_cast<int>(step);
    options.repetitions = static_cast<int>(repetitions);
    if (const auto sizes = found->find("sizes"); sizes != found->end()) {
        if (!sizes->is_array() || sizes->size() > kMaxTransferSizes) {
            return detail::optionError("\"sizes\" must be an array of at most " +
                                           std::to_string(kMaxTransferSizes) + " byte counts",
                                       "/options/sizes");
        }
        for (std::size_t i = 0; i < sizes->size(); ++i) {
            const json& size = (*sizes)[i];
            if (!size.is_number_integer() || size.get<std::int64_t>() < 4 ||
                size.get<std::int64_t>() > kMaxTransferBytes || size.get<std::int64_t>() % 4) {
                return detail::optionError(
                    "a size must be a multiple of 4 bytes between 4 B and 64 GiB",
                    "/options/sizes/" + std::to_string(i));
            }
            options.sizes.push_back(size.get<std::int64_t>());
        }
    }
    if (const auto modes = found->find("modes"); modes != found->end()) {
        if (!modes->is_array()) {
            return detail::optionError("\"modes\" must be an array of mode names",
                                       "/options/modes");
        }
        for (std::size_t i = 0; i < modes->size(); ++i) {
            const json& name = (*modes)[i];
            const auto mode = name.is_string()
                                  ? experiments::transferModeFromName(name.get<std::string>())
                                  : std::nullopt;
            if (!mode) {
                return detail::optionError("unknown transfer mode; the modes are " +
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

} // namespace warpscope::experiments
