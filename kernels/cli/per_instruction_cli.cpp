// `run-kernel ... --per-instruction FILE` (per_instruction_cli.h).
#include "per_instruction_cli.h"

#include "probe_cli.h"
#include "probe_text.h"
#include "warpscope/file_format.h"
#include "warpscope/per_instruction.h"

#include <iostream>
#include <set>

namespace warpscope::probe {

int printPerInstructionTable(const std::string& kernel, const std::string& path) {
    auto text = readTextFile(path);
    if (!text) {
        std::cerr << "warpscope-probe: --per-instruction " << path << ": " << text.error().message
                  << " (a table written by scripts/gpu/per_instruction.sh, e.g. "
                     "tests/data/per_instruction_h200.jsonl)\n";
        return kExitBadInput;
    }
    auto rows = perInstructionRowsFromJsonLines(text.value());
    if (!rows) {
        std::cerr << "warpscope-probe: --per-instruction " << path << ": "
                  << rows.error().describe() << "\n";
        return kExitBadInput;
    }
    const std::string table = perInstructionTableText(rows.value(), kernel);
    if (table.empty()) {
        std::set<std::string> kernels;
        for (const PerInstructionRow& row : rows.value()) {
            kernels.insert(row.kernel);
        }
        std::string names;
        for (const std::string& name : kernels) {
            names += (names.empty() ? "" : ", ") + name;
        }
        std::cerr << "warpscope-probe: " << path << " has no rows for the kernel '" << kernel
                  << "'; it has " << (names.empty() ? std::string("none") : names) << "\n";
        return kExitBadInput;
    }
    std::cout << "Kernel " << kernel << ", per access (recorded in " << path
              << "): the model, the access's own SASS instruction as Nsight Compute's source "
                 "counters count it (✓ where equal), and the kernel's hardware counter\n"
              << table;
    return kExitOk;
}

void printLivePerInstruction(const nlohmann::json& answer) {
    const nlohmann::json& live = answer.at("perInstruction");
    if (!live.value("measured", false)) {
        std::cout << "\nPer instruction not measured: "
                  << live.value("unavailableReason", std::string("no reason given")) << "\n";
        return;
    }
    auto rows = perInstructionRowsFromJsonText(live.at("rows").dump());
    if (!rows) {
        std::cout << "\nPer instruction: the answer's rows could not be read: "
                  << rows.error().describe() << "\n";
        return;
    }
    const std::string kernel = answer.value("kernel", std::string());
    std::cout << "\nPer access, measured now: the model, the access's own SASS instruction ("
              << live.value("source", std::string("CUPTI SASS metrics")) << ", "
              << fixed(live.value("ms", 0.0), 1)
              << " ms; ✓ where it equals the model) and the kernel's hardware counter\n"
              << perInstructionTableText(rows.value(), kernel);
}

} // namespace warpscope::probe
