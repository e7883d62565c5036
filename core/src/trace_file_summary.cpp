// The modern model over a traced instruction's warps (trace_file.h): each record becomes the
// pattern a user would type (tracedPattern) and is counted by predictModern, so a traced warp and
// a typed pattern of the same addresses always count alike.
#include "warpscope/model.h"
#include "warpscope/trace_file.h"

#include <algorithm>

namespace warpscope {

Result<TraceInstructionSummary> summarizeTraceInstruction(const TraceReader& reader,
                                                          std::size_t instruction) {
    const std::vector<TraceInstruction>& instructions = reader.header().instructions;
    if (instruction >= instructions.size()) {
        return Error{ErrorCode::InvalidValue,
                     "no instruction " + std::to_string(instruction) + "; the trace has " +
                         std::to_string(instructions.size()),
                     0, "instruction"};
    }
    const TraceInstruction& entry = instructions[instruction];
    TraceInstructionSummary summary;
    summary.instruction = instruction;
    summary.counted = entry.op != TraceOp::Atomic;
    AccessKind kind;
    kind.space = entry.space;
    kind.op = entry.op == TraceOp::Store ? AccessOp::Store : AccessOp::Load;
    kind.widthBytes = entry.widthBytes;
    const AccessCounters names = nsightCountersFor(kind);
    summary.firstCounter = names.first;
    summary.secondCounter = names.second;
    const bool shared = entry.space == MemorySpace::Shared;
    summary.ratioName = shared ? "wavefronts/request" : "sectors/request";
    std::uint64_t requests = 0;
    for (std::uint64_t done = 0; done < entry.recordCount;) {
        const std::uint64_t piece = std::min<std::uint64_t>(entry.recordCount - done, 65536);
        auto records = reader.readRecords(entry.firstRecord + done, piece);
        if (!records) {
            return records.error();
        }
        done += piece;
        summary.warps += records.value().size();
        if (!summary.counted) {
            continue;
        }
        for (const TraceRecord& record : records.value()) {
            auto pattern = tracedPattern(entry, record);
            auto access = pattern ? resolve(pattern.value()) : Result<WarpAccess>(pattern.error());
            if (!access) {
                if (++summary.warpsRefused == 1) {
                    summary.firstRefusal = access.error();
                }
                continue;
            }
            const ModernPrediction prediction = predictModern(access.value());
            if (prediction.shared) {
                summary.first += prediction.shared->wavefronts;
                summary.second += prediction.shared->bankConflicts;
                requests += access.value().activeLaneCount() > 0 ? 1 : 0;
            } else if (prediction.global) {
                summary.first += prediction.global->requests;
                summary.second += prediction.global->sectors;
                requests += static_cast<std::uint64_t>(prediction.global->requests);
            }
        }
    }
    const double numerator = shared ? summary.first : summary.second;
    summary.ratio = requests > 0 ? numerator / static_cast<double>(requests) : 0.0;
    return summary;
}

Result<std::vector<TraceInstructionSummary>> summarizeTraceLaunch(const TraceReader& reader,
                                                                  std::size_t launch) {
    const TraceHeader& header = reader.header();
    if (launch >= header.launches.size()) {
        return Error{ErrorCode::InvalidValue,
                     "no launch " + std::to_string(launch) + "; the trace has " +
                         std::to_string(header.launches.size()),
                     0, "launch"};
    }
    std::vector<TraceInstructionSummary> summaries;
    for (std::size_t i = 0; i < header.instructions.size(); ++i) {
        if (header.instructions[i].launch != static_cast<std::int64_t>(launch)) {
            continue;
        }
        auto summary = summarizeTraceInstruction(reader, i);
        if (!summary) {
            return summary.error();
        }
        summaries.push_back(std::move(summary).value());
    }
    std::stable_sort(summaries.begin(), summaries.end(),
                     [&](const TraceInstructionSummary& a, const TraceInstructionSummary& b) {
                         if (a.ratio != b.ratio) {
                             return a.ratio > b.ratio;
                         }
                         return header.instructions[a.instruction].pcOffset <
                                header.instructions[b.instruction].pcOffset;
                     });
    return summaries;
}

} // namespace warpscope
