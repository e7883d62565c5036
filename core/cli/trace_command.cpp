// warpscope-cli trace-summary FILE [--json]: one line per traced instruction of a .wstrace with
// the modern model's counters over its traced warps, under Nsight Compute's names, worst
// sectors (or wavefronts) per request first. docs/cli.md describes the output.
#include "cli_common.h"

#include "warpscope/command_line_text.h"
#include "warpscope/pattern.h"
#include "warpscope/trace_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace warpscope;

using cli::kExitBadInput;
using cli::kExitOk;

std::string dims(const Dim3& dim) {
    return std::to_string(dim.x) + "," + std::to_string(dim.y) + "," + std::to_string(dim.z);
}

std::string fixed(double value, int digits) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(digits) << value;
    return out.str();
}

std::string pcText(std::int64_t pc) {
    std::ostringstream out;
    out << "0x" << std::hex << std::setw(4) << std::setfill('0') << pc;
    return out.str();
}

std::string sourceText(const TraceInstruction& instruction) {
    if (instruction.sourceFile.empty()) {
        return "";
    }
    return instruction.sourceFile + ":" + std::to_string(instruction.sourceLine);
}

nlohmann::ordered_json summaryJson(const TraceInstruction& instruction,
                                   const TraceInstructionSummary& summary) {
    nlohmann::ordered_json item;
    item["instruction"] = summary.instruction;
    addTraceInstructionFields(item, instruction);
    item["warps"] = summary.warps;
    if (summary.counted) {
        item["metrics"] = {{summary.firstCounter, summary.first},
                           {summary.secondCounter, summary.second}};
        item[summary.ratioName == "sectors/request" ? "sectors_per_request"
                                                    : "wavefronts_per_request"] = summary.ratio;
    } else {
        item["metrics"] = nlohmann::ordered_json::object();
        item["note"] = "atomic: not counted by the models";
    }
    if (summary.warpsRefused > 0) {
        item["warps_refused"] = summary.warpsRefused;
        item["refusal"] = summary.firstRefusal->describe();
    }
    return item;
}

void printText(const TraceHeader& header, std::size_t launch,
               const std::vector<TraceInstructionSummary>& summaries) {
    const TraceLaunch& entry = header.launches[launch];
    std::cout << "launch " << launch << ": " << entry.kernel << "\n  grid " << dims(entry.grid)
              << "  block " << dims(entry.block) << "  "
              << (entry.complete ? "complete" : "INCOMPLETE");
    if (entry.droppedRecords > 0) {
        std::cout << " (" << entry.droppedRecords << " warp records dropped: buffer full)";
    }
    std::cout << "\n";
    if (summaries.empty()) {
        std::cout << "  no traced memory instruction\n";
    }
    for (const TraceInstructionSummary& summary : summaries) {
        const TraceInstruction& instruction = header.instructions[summary.instruction];
        std::cout << "  " << pcText(instruction.pcOffset) << "  " << std::left << std::setw(6)
                  << toString(instruction.space) << " " << std::setw(6) << toString(instruction.op)
                  << std::right << std::setw(3) << instruction.widthBytes << " B  warps "
                  << summary.warps << "  ";
        if (summary.counted) {
            std::cout << summary.ratioName << " " << fixed(summary.ratio, 2) << "  "
                      << summary.firstCounter << "=" << fixed(summary.first, 0) << "  "
                      << summary.secondCounter << "=" << fixed(summary.second, 0);
        } else {
            std::cout << "atomic: not counted by the models";
        }
        if (!instruction.sass.empty()) {
            std::cout << "  | " << instruction.sass;
        }
        if (const std::string source = sourceText(instruction); !source.empty()) {
            std::cout << "  | " << source;
        }
        std::cout << "\n";
        if (summary.warpsRefused > 0) {
            std::cout << "      " << summary.warpsRefused
                      << " warps not counted: " << summary.firstRefusal->describe() << "\n";
        }
    }
}

} // namespace

int runTraceSummary(const std::vector<std::string>& args) {
    std::string path;
    bool json = false;
    for (const std::string& arg : args) {
        if (arg == "--json") {
            json = true;
        } else if (arg.rfind("--", 0) == 0 && arg.size() > 2) {
            writeUsageError(std::cerr, "warpscope-cli",
                            "unknown option '" + arg + "' for trace-summary");
            return kExitBadInput;
        } else if (path.empty()) {
            path = arg;
        } else {
            writeUsageError(std::cerr, "warpscope-cli",
                            "trace-summary takes one trace file; found '" + arg + "' too");
            return kExitBadInput;
        }
    }
    if (path.empty()) {
        writeUsageError(std::cerr, "warpscope-cli",
                        "trace-summary needs a trace file (a .wstrace written by warpscope-trace)");
        return kExitBadInput;
    }
    auto reader = TraceReader::open(path);
    if (!reader) {
        writeCommandError(std::cerr, "warpscope-cli", path + ": " + reader.error().describe());
        return kExitBadInput;
    }
    const TraceHeader& header = reader.value().header();
    nlohmann::ordered_json launches = nlohmann::ordered_json::array();
    if (!json) {
        std::cout << "trace " << path << ": " << header.launches.size() << " launch"
                  << (header.launches.size() == 1 ? "" : "es") << ", " << header.instructions.size()
                  << " memory instructions, " << header.recordCount
                  << " warp records\nprogram: " << header.program << "\n";
    }
    for (std::size_t launch = 0; launch < header.launches.size(); ++launch) {
        auto summaries = summarizeTraceLaunch(reader.value(), launch);
        if (!summaries) {
            writeCommandError(std::cerr, "warpscope-cli",
                              path + ": " + summaries.error().describe());
            return kExitBadInput;
        }
        if (!json) {
            printText(header, launch, summaries.value());
            continue;
        }
        const TraceLaunch& entry = header.launches[launch];
        nlohmann::ordered_json item;
        item["kernel"] = entry.kernel;
        item["grid"] = {entry.grid.x, entry.grid.y, entry.grid.z};
        item["block"] = {entry.block.x, entry.block.y, entry.block.z};
        item["complete"] = entry.complete;
        item["dropped_records"] = entry.droppedRecords;
        item["instructions"] = nlohmann::ordered_json::array();
        for (const TraceInstructionSummary& summary : summaries.value()) {
            item["instructions"].push_back(
                summaryJson(header.instructions[summary.instruction], summary));
        }
        launches.push_back(std::move(item));
    }
    if (json) {
        nlohmann::ordered_json root;
        root["file"] = path;
        root["program"] = header.program;
        root["launches"] = std::move(launches);
        std::cout << root.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
                  << "\n";
    }
    return kExitOk;
}
