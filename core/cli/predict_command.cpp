// warpscope-cli presets (the built-in presets by topic) and predict (JSON lines in, JSON lines
// out, for scripts and for checking against `ncu`).
#include "cli_common.h"
#include "commands.h"
#include "pattern_options.h"

#include "warpscope/file_format.h"
#include "warpscope/model.h"
#include "warpscope/pattern.h"
#include "warpscope/preset.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace warpscope::cli {

// ---- presets ---------------------------------------------------------------------------------

int runPresets(const std::vector<std::string>& args) {
    if (!args.empty()) {
        return usageError("presets takes no arguments");
    }
    const std::vector<Preset>& presets = builtinPresets();
    if (presets.empty()) {
        printError("this build has no built-in presets");
        return kExitBadInput;
    }
    std::size_t idWidth = 0;
    std::vector<std::string> topics;
    for (const Preset& preset : presets) {
        idWidth = std::max(idWidth, preset.id.size());
        if (std::find(topics.begin(), topics.end(), preset.topic) == topics.end()) {
            topics.push_back(preset.topic);
        }
    }
    for (std::size_t t = 0; t < topics.size(); ++t) {
        std::cout << (t ? "\n" : "") << topics[t] << "\n";
        for (const Preset& preset : presets) {
            if (preset.topic == topics[t]) {
                std::cout << "  " << std::left << std::setw(static_cast<int>(idWidth)) << preset.id
                          << std::right << "  " << preset.title << "\n";
            }
        }
    }
    std::cout << "\nShow one with: warpscope-cli analyze <id>\n";
    return kExitOk;
}

int runPredict(const std::vector<std::string>& args) {
    Options options;
    if (!parseOptions(args, false, options)) {
        return kExitBadInput;
    }
    if (!options.positional.empty()) {
        return usageError("predict reads its patterns from stdin and takes no argument '" +
                          options.positional.front() + "'");
    }
    return answerStdinLines("predict", [&](const std::string& line) -> Result<ordered_json> {
        auto named = patternFromJsonText(line);
        if (!named) {
            return withinLine(named.error());
        }
        auto access = resolve(named->pattern);
        if (!access) {
            return access.error();
        }
        ordered_json metrics = ordered_json::object();
        for (const Metric& metric : modernMetrics(predictModern(access.value()))) {
            metrics[metric.name] = metricValue(metric.value);
        }
        const TextbookPrediction textbook = predictTextbook(access.value(), options.textbook);
        for (const Metric& metric : textbookMetrics(textbook)) {
            metrics[metric.name] = metricValue(metric.value);
        }
        ordered_json answer = ordered_json::object();
        answer["metrics"] = std::move(metrics);
        // ldmatrix and stmatrix: why the textbook model gives no textbook__ values.
        if (!textbook.notInNotes.empty()) {
            answer["textbook"] = textbook.notInNotes;
        }
        return answer;
    });
}

} // namespace warpscope::cli
