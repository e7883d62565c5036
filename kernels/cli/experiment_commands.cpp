// warpscope-probe's experiment commands (experiment_commands.h).
#include "experiment_commands.h"

#include "experiment_table.h"

#include <iostream>
#include <string_view>

namespace warpscope::probe {

ProgressCallback experimentProgress(const experiments::ExperimentProgress& style) {
    const std::string unit(style.unit);
    if (style.everyStep) {
        return [unit](int done, int total) {
            std::cerr << "measured " << done << " of " << total << " " << unit << "\n";
        };
    }
    // At every tenth of the way, and at the end.
    return [unit, lastPercent = -1](int done, int total) mutable {
        const int percent = total > 0 ? done * 100 / total : 100;
        if (percent / 10 != lastPercent / 10 || done == total) {
            std::cerr << "measured " << done << " of " << total << " " << unit << "\n";
            lastPercent = percent;
        }
    };
}

int runExperimentCommand(const experiments::Experiment& experiment,
                         const std::vector<std::string>& args, const BackendFactory& makeBackend) {
    const experiments::ExperimentCommandLine& commandLine = experiment.commandLine;
    const MeasurementRequest request = [&experiment](const nlohmann::json& line, Backend& backend,
                                                     const ProgressCallback& progress,
                                                     const CancelCallback& cancelled) {
        return answerExperiment(experiment, line, backend, progress, cancelled);
    };
    const MeasurementOption option = [&commandLine](const std::string& name,
                                                    const std::string& value,
                                                    nlohmann::json& options) -> std::optional<int> {
        const std::string refusal = commandLine.readOption(name, value, options);
        if (refusal.empty()) {
            return std::nullopt;
        }
        return commandFail(refusal, kExitBadInput);
    };
    MeasurementFlag flag;
    if (commandLine.readFlag != nullptr) {
        flag = commandLine.readFlag;
    }
    const auto print = [&commandLine](const nlohmann::json& answer) {
        std::cout << commandLine.report(answer);
    };
    return runMeasurementCommandLine(args, makeBackend, request,
                                     experimentProgress(commandLine.progress), option, print, flag);
}

int experimentCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend) {
    const std::string names = experimentCommandList();
    if (args.empty() || args.front().rfind("--", 0) == 0) {
        return commandFail("experiment needs a NAME first: one of " + names, kExitBadInput);
    }
    const experiments::Experiment* experiment = experiments::findExperiment(args.front());
    if (experiment == nullptr) {
        return commandFail("there is no experiment '" + args.front() + "'; the experiments are " +
                               names,
                           kExitBadInput);
    }
    return runExperimentCommand(*experiment, std::vector<std::string>(args.begin() + 1, args.end()),
                                makeBackend);
}

std::string experimentSynopses() {
    // The list's second column starts at 43, as the other commands' do.
    constexpr std::size_t kColumn = 42;
    const auto line = [](const std::string& left, std::string_view right) {
        std::string text = "  " + left;
        if (text.size() + 1 > kColumn) {
            text += "\n";
            text += std::string(kColumn, ' ');
        } else {
            text += std::string(kColumn - text.size(), ' ');
        }
        return text + std::string(right) + "\n";
    };
    std::string text =
        line("warpscope-probe experiment NAME [options]", "any experiment below, by its name");
    for (const experiments::Experiment& experiment : experiments::experiments()) {
        text += line("warpscope-probe " + std::string(experiment.key) + " [options]",
                     experiment.commandLine.synopsis);
    }
    return text;
}

std::string experimentUsages() {
    std::string text = "experiment NAME [options]\n"
                       "           Runs the experiment NAME, one of " +
                       experimentCommandList() +
                       ",\n"
                       "           with the options its paragraph below lists. "
                       "`warpscope-probe NAME [options]`\n"
                       "           is the same command.\n";
    for (const experiments::Experiment& experiment : experiments::experiments()) {
        text += experiment.commandLine.usage;
    }
    return text;
}

} // namespace warpscope::probe
