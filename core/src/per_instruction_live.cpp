// Per-instruction counts measured live: matching accesses to SASS instructions and the rows of a
// measure_kernel answer (per_instruction_live.h).
#include "warpscope/per_instruction_live.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace warpscope {

namespace {

using nlohmann::json;

std::optional<std::uint64_t> counterOf(const std::map<std::string, double>& counters,
                                       const std::string& name) {
    const auto found = counters.find(name);
    if (found == counters.end() || !(found->second >= 0.0) || !std::isfinite(found->second)) {
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(std::llround(found->second));
}

json optionalJson(const std::optional<std::uint64_t>& value) {
    return value ? json(*value) : json(nullptr);
}

} // namespace

const char* sassOpFamily(SassOpKind kind) {
    switch (kind) {
    case SassOpKind::GlobalLoad:
        return "LDG";
    case SassOpKind::GlobalStore:
        return "STG";
    case SassOpKind::SharedLoad:
        return "LDS";
    case SassOpKind::SharedStore:
        return "STS";
    case SassOpKind::Ldsm:
        return "LDSM";
    case SassOpKind::Ldgsts:
        return "LDGSTS";
    case SassOpKind::None:
    case SassOpKind::Global:
    case SassOpKind::Shared:
        break;
    }
    return "";
}

bool sassKindFits(SassOpKind access, SassOpKind instruction) {
    if (access == SassOpKind::None || instruction == SassOpKind::None) {
        return false;
    }
    if (access == instruction) {
        return true;
    }
    switch (instruction) {
    case SassOpKind::Global:
        return access == SassOpKind::GlobalLoad || access == SassOpKind::GlobalStore ||
               access == SassOpKind::Ldgsts;
    case SassOpKind::Shared:
        return access == SassOpKind::SharedLoad || access == SassOpKind::SharedStore ||
               access == SassOpKind::Ldsm;
    default:
        return false;
    }
}

SassOpKind sassOpKindOf(const AccessKind& access) {
    if (access.space == MemorySpace::Global) {
        switch (access.op) {
        case AccessOp::Load:
            return SassOpKind::GlobalLoad;
        case AccessOp::Store:
            return SassOpKind::GlobalStore;
        case AccessOp::CopyAsync:
            return SassOpKind::Ldgsts;
        }
    }
    if (access.space == MemorySpace::Shared) {
        if (access.matrices > 0) {
            // ldmatrix; stmatrix has no per-opcode SASS metric to tell it apart.
            return access.op == AccessOp::Load ? SassOpKind::Ldsm : SassOpKind::None;
        }
        return access.op == AccessOp::Store ? SassOpKind::SharedStore : SassOpKind::SharedLoad;
    }
    return SassOpKind::None;
}

SassAccessMatch
matchAccessesToInstructions(const std::vector<SassOpKind>& accessKinds,
                            const std::vector<SassInstructionCounts>& instructions) {
    std::vector<int> memory; // indices of instructions with a kind, in address order
    for (std::size_t i = 0; i < instructions.size(); ++i) {
        if (instructions[i].kind != SassOpKind::None) {
            memory.push_back(static_cast<int>(i));
        }
    }
    std::stable_sort(memory.begin(), memory.end(), [&](int a, int b) {
        return instructions[static_cast<std::size_t>(a)].pcOffset <
               instructions[static_cast<std::size_t>(b)].pcOffset;
    });
    std::vector<SassOpKind> wanted;
    for (SassOpKind kind : accessKinds) {
        if (kind != SassOpKind::None) {
            wanted.push_back(kind);
        }
    }
    std::vector<SassOpKind> got;
    got.reserve(memory.size());
    for (int index : memory) {
        got.push_back(instructions[static_cast<std::size_t>(index)].kind);
    }
    SassAccessMatch match;
    match.instructionOfAccess.assign(accessKinds.size(), -1);
    bool inOrder = got.size() == wanted.size();
    for (std::size_t i = 0; inOrder && i < got.size(); ++i) {
        inOrder = sassKindFits(wanted[i], got[i]);
    }
    if (inOrder) {
        match.mapping = "order";
        std::size_t next = 0;
        for (std::size_t a = 0; a < accessKinds.size(); ++a) {
            if (accessKinds[a] != SassOpKind::None) {
                match.instructionOfAccess[a] = memory[next++];
            }
        }
        return match;
    }
    match.mapping = "opcode";
    std::vector<bool> used(memory.size(), false);
    for (std::size_t a = 0; a < accessKinds.size(); ++a) {
        if (accessKinds[a] == SassOpKind::None) {
            continue;
        }
        for (std::size_t m = 0; m < memory.size(); ++m) {
            if (!used[m] && sassKindFits(accessKinds[a], got[m])) {
                used[m] = true;
                match.instructionOfAccess[a] = memory[m];
                break;
            }
        }
    }
    return match;
}

std::vector<std::string> hardwareMetricsOfAccess(const AccessKind& access) {
    if (access.space == MemorySpace::Global) {
        const std::string op = access.op == AccessOp::CopyAsync ? "ldgsts_cache_access"
                               : access.op == AccessOp::Store   ? "st"
                                                                : "ld";
        return {"l1tex__t_requests_pipe_lsu_mem_global_op_" + op + ".sum",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_" + op + ".sum"};
    }
    if (access.space == MemorySpace::Shared) {
        const std::string op = access.op == AccessOp::Store ? "st" : "ld";
        return {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum",
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum"};
    }
    return {};
}

json livePerInstructionJson(const ResolvedKernel& kernel, const GridPrediction& prediction,
                            const std::map<std::string, double>& counters,
                            std::vector<SassInstructionCounts> instructions) {
    std::sort(instructions.begin(), instructions.end(),
              [](const SassInstructionCounts& a, const SassInstructionCounts& b) {
                  return a.pcOffset < b.pcOffset;
              });
    const std::size_t count = std::min(kernel.accesses.size(), prediction.accesses.size());
    std::vector<SassOpKind> kinds;
    std::vector<std::vector<std::string>> metrics;
    for (std::size_t a = 0; a < count; ++a) {
        const AccessKind& kind = kernel.accesses[a].access.kind;
        kinds.push_back(sassOpKindOf(kind));
        metrics.push_back(hardwareMetricsOfAccess(kind));
    }
    const SassAccessMatch match = matchAccessesToInstructions(kinds, instructions);
    json rows = json::array();
    for (std::size_t a = 0; a < count; ++a) {
        if (metrics[a].empty()) {
            continue; // constant, local and texture accesses have no row (per_instruction.py)
        }
        const KernelAccess& access = kernel.accesses[a].access;
        const GridAccessPrediction& predicted = prediction.accesses[a];
        const bool global = access.kind.space == MemorySpace::Global;
        json shared = json::array();
        for (std::size_t b = 0; b < count; ++b) {
            if (metrics[b] == metrics[a]) {
                shared.push_back(static_cast<int>(b));
            }
        }
        json row{{"kernel", kernel.kernel.name},
                 {"access", static_cast<int>(a)},
                 {"label", access.label},
                 {"space", toString(access.kind.space)},
                 {"op", toString(access.kind.op)},
                 {"width", access.kind.widthBytes},
                 {"cache", toString(access.kind.cache)},
                 {"hardwareMetrics", metrics[a]},
                 {"hardwareShared", std::move(shared)}};
        const std::optional<std::uint64_t> first = counterOf(counters, metrics[a][0]);
        const std::optional<std::uint64_t> second = counterOf(counters, metrics[a][1]);
        if (global) {
            row["predicted"] = {{"requests", predicted.requests}, {"sectors", predicted.sectors}};
            row["hardware"] = {{"requests", optionalJson(first)},
                               {"sectors", optionalJson(second)}};
        } else {
            row["predicted"] = {{"wavefronts", predicted.wavefronts},
                                {"conflicts", predicted.bankConflicts}};
            row["hardware"] = {{"wavefronts", optionalJson(first)},
                               {"conflicts", optionalJson(second)}};
        }
        const int pick = match.instructionOfAccess[a];
        if (pick < 0) {
            row["mapping"] = "unmapped";
        } else {
            const SassInstructionCounts& found = instructions[static_cast<std::size_t>(pick)];
            char sass[64];
            // Where only the space was told, the family is the one the probe generated for it.
            const SassOpKind family = sassOpFamily(found.kind)[0] != '\0' ? found.kind : kinds[a];
            std::snprintf(sass, sizeof sass, "%s at offset 0x%04x", sassOpFamily(family),
                          static_cast<unsigned>(found.pcOffset));
            row["mapping"] = match.mapping;
            row["sass"] = sass;
            row["pcOffset"] = found.pcOffset;
            if (global) {
                row["instruction"] = {{"executed", found.executed},
                                      {"requests", found.sectors > 0 ? found.executed : 0},
                                      {"sectors", found.sectors}};
            } else {
                row["instruction"] = {{"executed", found.executed},
                                      {"wavefronts", found.wavefronts},
                                      {"conflicts", found.conflicts}};
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace warpscope
