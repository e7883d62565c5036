// warpscope-probe's experiment commands (experiment_commands.h).
#include "experiment_commands.h"

#include "experiment_table.h"

#include <algorithm>
#include <string_view>

namespace warpscope::probe {

namespace {

const std::vector<ExperimentCommand>& commands() {
    static const std::vector<ExperimentCommand> table{transfersCommandLine(), streamsCommandLine(),
                                                      l2PersistenceCommandLine()};
    return table;
}

} // namespace

std::span<const ExperimentCommand> experimentCommands() {
    return commands();
}

const ExperimentCommand* findExperimentCommandLine(protocol::ProbeOp op) {
    const auto& table = commands();
    const auto found = std::find_if(table.begin(), table.end(),
                                    [op](const ExperimentCommand& row) { return row.op == op; });
    return found == table.end() ? nullptr : &*found;
}

int runExperimentCommand(const ExperimentRow& row, const std::vector<std::string>& args,
                         const BackendFactory& makeBackend) {
    const ExperimentCommand* command = findExperimentCommandLine(row.op);
    if (command == nullptr) {
        return commandFail("the experiment " + std::string(row.command) +
                               " has no command line in this build",
                           kExitProbeError);
    }
    return runMeasurementCommandLine(args, makeBackend, row.answer, command->progress(),
                                     command->option, command->print, command->flag);
}

int experimentCommand(const std::vector<std::string>& args, const BackendFactory& makeBackend) {
    const std::string names = experimentCommandList();
    if (args.empty() || args.front().rfind("--", 0) == 0) {
        return commandFail("experiment needs a NAME first: one of " + names, kExitBadInput);
    }
    const ExperimentRow* row = findExperimentCommand(args.front());
    if (row == nullptr) {
        return commandFail("there is no experiment '" + args.front() + "'; the experiments are " +
                               names,
                           kExitBadInput);
    }
    return runExperimentCommand(*row, std::vector<std::string>(args.begin() + 1, args.end()),
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
    for (const ExperimentCommand& command : commands()) {
        const ExperimentRow* row = findExperiment(command.op);
        if (row != nullptr) {
            text += line("warpscope-probe " + std::string(row->command) + " [options]",
                         command.synopsis);
        }
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
    for (const ExperimentCommand& command : commands()) {
        text += command.usage;
    }
    return text;
}

} // namespace warpscope::probe
