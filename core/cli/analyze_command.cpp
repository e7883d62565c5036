// warpscope-cli analyze: one pattern (preset id, pattern file or address expression) as a
// per-lane table followed by what the modern and textbook models predict.
#include "cli_common.h"
#include "commands.h"
#include "pattern_options.h"

#include "warpscope/command_line_text.h"
#include "warpscope/expression.h"
#include "warpscope/file_format.h"
#include "warpscope/matrix_access.h"
#include "warpscope/model.h"
#include "warpscope/pattern.h"
#include "warpscope/pattern_arguments.h"
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

namespace {

std::string hex(std::int64_t value) {
    std::ostringstream out;
    out << "0x" << std::hex << value;
    return out.str();
}

/// "0-7,16,18-19" for the set bits of a lane mask.
std::string laneList(std::uint32_t mask) {
    std::string text;
    for (int lane = 0; lane < kWarpSize;) {
        if ((mask & (1u << lane)) == 0) {
            ++lane;
            continue;
        }
        int last = lane;
        while (last + 1 < kWarpSize && (mask & (1u << (last + 1))) != 0) {
            ++last;
        }
        if (!text.empty()) {
            text += ",";
        }
        text += std::to_string(lane);
        if (last > lane) {
            text += "-" + std::to_string(last);
        }
        lane = last + 1;
    }
    return text.empty() ? "none" : text;
}

std::string percent(double fraction) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(1) << fraction * 100.0 << " %";
    return out.str();
}

/// Prints `text` and a caret under its 1-based byte `column`, aligned for tabs and UTF-8.
void printCaret(const std::string& text, int column, const std::string& message) {
    std::cerr << "  " << text << "\n  " << caretPadding(text, column) << "^ column " << column
              << ": " << message << "\n";
}

// ---- analyze ---------------------------------------------------------------------------------

/// Where the pattern came from and what it is.
struct Subject {
    std::string argument;
    PatternOrigin origin = PatternOrigin::Expression;
    NamedPattern named;
    std::string presetSource; // "the lecture slides, figure 4-11"
};

/// The pattern `argument` names (preset, file or expression) with the options applied; prints
/// and returns std::nullopt on a mistake.
std::optional<Subject> findSubject(const std::string& argument, const Options& options) {
    auto found = patternSubject(argument);
    if (!found) {
        printError(found.error().describe());
        return std::nullopt;
    }
    Subject subject{argument, found->origin, found->named, found->presetSource};
    if (auto error = applyPatternArguments(options.pattern, argument, subject.named)) {
        printError(error->message);
        return std::nullopt;
    }
    return subject;
}

/// Reports why resolve() failed, with a caret under the expression when there is a column.
void reportResolveError(const Subject& subject, const Error& error) {
    const std::optional<PatternSource>& source = subject.named.pattern.source;
    const bool inAddress = error.where.rfind("addressExpression", 0) == 0;
    const bool inActive = error.where.rfind("activeExpression", 0) == 0;
    const bool parseProblem =
        error.code == ErrorCode::Syntax || error.code == ErrorCode::UnknownName;
    if (subject.origin == PatternOrigin::Expression && inAddress && parseProblem) {
        printError("'" + subject.argument +
                   "' is not a preset id, not a file, and not a valid address expression:");
        printCaret(source->addressExpression, error.column, error.message);
        std::cerr << "Run 'warpscope-cli presets' for the preset ids, or 'warpscope-cli --help' "
                     "for the expression language.\n";
        return;
    }
    if (source && error.column > 0 && (inAddress || inActive)) {
        printError("in the " + std::string(inAddress ? "address" : "active-lane") + " expression" +
                   (error.where.find(", ") != std::string::npos
                        ? " (" + error.where.substr(error.where.find(", ") + 2) + ")"
                        : std::string()) +
                   ":");
        printCaret(inAddress ? source->addressExpression : source->activeExpression, error.column,
                   error.message);
        return;
    }
    printError(error.describe());
}

/// The column cells for one lane.
struct LaneRow {
    std::string lane, thread, address, hexAddress, sector, line, bank, wavefront;
};

void printLaneTable(const WarpAccess& access, const ModernPrediction& modern) {
    const bool shared = access.kind.space == MemorySpace::Shared;
    const bool threads = access.threads.has_value();
    std::vector<LaneRow> rows;
    const bool constant = access.kind.space == MemorySpace::Constant;
    rows.push_back(LaneRow{"lane", "thread (x,y,z)", "address", "hex", "sector", "line", "bank",
                           constant ? "round" : "wavefront"});
    for (int lane = 0; lane < kWarpSize; ++lane) {
        const auto index = static_cast<std::size_t>(lane);
        LaneRow row;
        row.lane = std::to_string(lane);
        if (threads) {
            const LaneThread& t = (*access.threads)[index];
            row.thread = t.existsInBlock ? "(" + std::to_string(t.threadIdx.x) + "," +
                                               std::to_string(t.threadIdx.y) + "," +
                                               std::to_string(t.threadIdx.z) + ")"
                                         : "-";
        }
        const auto& address = access.addresses[index];
        if (!address) {
            const bool exists = !threads || (*access.threads)[index].existsInBlock;
            row.address = exists ? "inactive" : "no thread (past the end of the block)";
            rows.push_back(row);
            continue;
        }
        row.address = std::to_string(*address);
        row.hexAddress = hex(*address);
        row.sector = std::to_string(*address / kSectorBytes);
        row.line = std::to_string(*address / kLineBytes);
        row.bank = std::to_string((*address / kBankWordBytes) % kBankCount);
        if (constant && modern.constant) {
            const auto& rounds = modern.constant->rounds;
            for (std::size_t r = 0; r < rounds.size(); ++r) {
                if ((rounds[r].laneMask & (1u << lane)) != 0) {
                    row.wavefront = std::to_string(r + 1);
                }
            }
        }
        if (shared && modern.shared) {
            const auto& wavefronts = modern.shared->wavefrontList;
            for (std::size_t w = 0; w < wavefronts.size(); ++w) {
                if ((wavefronts[w].laneMask & (1u << lane)) != 0) {
                    row.wavefront += (row.wavefront.empty() ? "" : ",") + std::to_string(w);
                }
            }
        }
        rows.push_back(row);
    }

    // Column widths from the contents; a lane without an address spans the rest of the row.
    std::array<std::size_t, 8> widths{};
    for (const LaneRow& row : rows) {
        const std::string* cells[] = {&row.lane,   &row.thread, &row.address, &row.hexAddress,
                                      &row.sector, &row.line,   &row.bank,    &row.wavefront};
        const bool spanning = row.hexAddress.empty() && &row != &rows.front();
        for (std::size_t c = 0; c < widths.size(); ++c) {
            if (!(spanning && c == 2)) {
                widths[c] = std::max(widths[c], cells[c]->size());
            }
        }
    }
    for (const LaneRow& row : rows) {
        std::ostringstream line;
        const bool header = &row == &rows.front();
        line << std::setw(static_cast<int>(widths[0])) << row.lane;
        if (threads) {
            line << "  " << std::left << std::setw(static_cast<int>(widths[1])) << row.thread
                 << std::right;
        }
        if (!header && row.hexAddress.empty()) {
            line << "  " << row.address;
        } else {
            line << "  " << std::setw(static_cast<int>(widths[2])) << row.address << "  "
                 << std::left << std::setw(static_cast<int>(widths[3])) << row.hexAddress
                 << std::right << "  " << std::setw(static_cast<int>(widths[4])) << row.sector
                 << "  " << std::setw(static_cast<int>(widths[5])) << row.line << "  "
                 << std::setw(static_cast<int>(widths[6])) << row.bank;
            if (shared || constant) {
                line << "  " << std::setw(static_cast<int>(widths[7])) << row.wavefront;
            }
        }
        std::string text = line.str();
        text.erase(text.find_last_not_of(' ') + 1);
        std::cout << text << "\n";
    }
    std::cout << "  sector = address / 32, line = address / 128, bank = (address / 4) % 32\n";
}

/// One "  name    value   ncu-name" line of the totals.
void printTotal(const std::string& name, const std::string& value, const std::string& metric = {}) {
    std::cout << "  " << std::left << std::setw(20) << name << std::right << std::setw(10) << value;
    if (!metric.empty()) {
        std::cout << "   " << metric;
    }
    std::cout << "\n";
}

std::string counterName(const AccessKind& kind, const char* globalPrefix,
                        const char* sharedPrefix) {
    // An async copy's global side counts as a load (Nsight Compute's op_ld counters).
    const std::string op = kind.op != AccessOp::Store ? "_op_ld.sum" : "_op_st.sum";
    return std::string(usesSectors(kind.space) ? globalPrefix : sharedPrefix) + op;
}

void printModern(const ModernPrediction& modern) {
    std::cout << "\nModern model (compute capability 7.0 and later, as Nsight Compute counts)\n";
    const AccessKind& kind = modern.kind;
    if (usesSectors(kind.space)) {
        const GlobalPrediction global = modern.global.value_or(GlobalPrediction{});
        const AccessCounters counters = nsightCountersFor(kind);
        if (kind.space == MemorySpace::Texture) {
            const TexturePrediction texture = modern.texture.value_or(TexturePrediction{});
            printTotal("texture requests", std::to_string(texture.requests), counters.first);
            printTotal("texture sectors", std::to_string(texture.sectors), counters.second);
            std::cout << "  as a global load of the same addresses:\n";
        } else if (kind.space == MemorySpace::Local) {
            std::cout << "  (interleaved addresses: offset / 4 x 128 + lane x 4 + offset % 4)\n";
        }
        printTotal("requests", std::to_string(global.requests),
                   kind.space == MemorySpace::Texture ? std::string() : counters.first);
        printTotal("sectors", std::to_string(global.sectors),
                   kind.space == MemorySpace::Texture ? std::string() : counters.second);
        printTotal("lines", std::to_string(global.lines));
        printTotal("bytes requested", std::to_string(global.bytesRequested));
        printTotal("bytes unique", std::to_string(global.uniqueBytesRequested));
        printTotal("bytes moved", std::to_string(global.bytesMoved));
        printTotal("efficiency", percent(global.efficiency));
        if (!global.sectorList.empty()) {
            std::cout << "  sectors touched:\n";
            std::cout << "    " << std::left << std::setw(20) << "address" << std::setw(12)
                      << "bytes used"
                      << "lanes" << std::right << "\n";
            for (const SectorUse& sector : global.sectorList) {
                std::cout << "    " << std::left << std::setw(20)
                          << (hex(sector.address) + " (" + std::to_string(sector.address) + ")")
                          << std::setw(12) << (std::to_string(sector.bytesUsed) + "/32")
                          << laneList(sector.laneMask) << std::right << "\n";
            }
        }
        if (kind.op == AccessOp::CopyAsync && modern.shared) {
            const std::vector<std::string>& copy = copyAsyncCounterNames();
            std::cout << "  async copy (LDGSTS), written to shared one global line at a time:\n";
            printTotal("copy requests", std::to_string(global.requests), copy[0]);
            printTotal("copy sectors", std::to_string(global.sectors), copy[1]);
            printTotal("shared wavefronts", std::to_string(modern.shared->wavefronts), copy[2]);
            printTotal("ideal wavefronts", std::to_string(modern.shared->idealWavefronts));
            printTotal("bank conflicts", std::to_string(modern.shared->bankConflicts), copy[3]);
        }
        return;
    }
    if (kind.space == MemorySpace::Constant) {
        const ConstantPrediction constant = modern.constant.value_or(ConstantPrediction{});
        printTotal("LDC instructions", std::to_string(constant.requests),
                   constant.requests > 1 ? "32-bit parts of a wide load" : "");
        printTotal("distinct addresses", std::to_string(constant.distinctAddresses));
        printTotal("cache requests", std::to_string(constant.cacheRequests),
                   "idc__requests.sum (this instruction's share)");
        printTotal("serialized extra", std::to_string(constant.extraRequests),
                   "warpscope__constant_extra_requests");
        printTotal("bytes requested", std::to_string(constant.bytesRequested));
        if (!constant.rounds.empty()) {
            std::cout << "  rounds (one distinct address each, served one after another):\n"
                      << "    #    " << std::left << std::setw(20) << "address"
                      << "lanes" << std::right << "\n";
            for (std::size_t r = 0; r < constant.rounds.size(); ++r) {
                const ConstantRound& round = constant.rounds[r];
                std::cout << "    " << std::left << std::setw(5) << r + 1 << std::setw(20)
                          << (hex(round.address) + " (" + std::to_string(round.address) + ")")
                          << laneList(round.laneMask) << std::right << "\n";
            }
        }
        return;
    }
    const SharedPrediction shared = modern.shared.value_or(SharedPrediction{});
    printTotal("wavefronts", std::to_string(shared.wavefronts),
               counterName(kind, "", "l1tex__data_pipe_lsu_wavefronts_mem_shared"));
    printTotal("ideal wavefronts", std::to_string(shared.idealWavefronts));
    printTotal("bank conflicts", std::to_string(shared.bankConflicts),
               counterName(kind, "", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared"));
    printTotal("worst bank degree", std::to_string(shared.worstBankDegree));
    if (isMatrixAccess(kind)) {
        printTotal("LDSM instructions", kind.op == AccessOp::Load ? "1" : "0",
                   kLdsmInstructionsMetric);
    }
    if (!shared.wavefrontList.empty()) {
        std::cout << "  wavefronts:\n    #    lanes\n";
        for (std::size_t w = 0; w < shared.wavefrontList.size(); ++w) {
            std::cout << "    " << std::left << std::setw(5) << w
                      << laneList(shared.wavefrontList[w].laneMask) << std::right << "\n";
        }
    }
}

std::string describeRule(const TextbookPrediction& textbook) {
    switch (textbook.rule) {
    case TextbookRule::CachedLoad:
        return "cached load: 128-byte transactions";
    case TextbookRule::UncachedLoad:
        return "uncached load: 32-byte segments";
    case TextbookRule::Store:
        return "store: 1-, 2- or 4-segment transactions";
    case TextbookRule::SharedMemory:
        return "shared memory: " + std::to_string(textbook.bankWidthBytes) + "-byte banks";
    case TextbookRule::ConstantCache:
        return "constant cache: one pass per distinct address (the notes' best-practice summary)";
    }
    return toString(textbook.rule);
}

void printTextbook(const TextbookPrediction& textbook) {
    std::cout << "\nTextbook model (Fermi/Kepler rules of the course notes; not a measurement)\n";
    if (!textbook.notInNotes.empty()) {
        std::cout << "  " << textbook.notInNotes << "\n";
        return;
    }
    std::cout << "  " << std::left << std::setw(20) << "rule" << std::right
              << describeRule(textbook) << "\n";
    const bool shared = textbook.kind.space == MemorySpace::Shared;
    const bool constant = textbook.kind.space == MemorySpace::Constant;
    if (shared) {
        printTotal("passes", std::to_string(textbook.transactions.size()));
        printTotal("conflict degree", std::to_string(textbook.bankConflictDegree) + "-way");
    } else if (constant) {
        printTotal("passes", std::to_string(textbook.transactions.size()),
                   "one per distinct address");
    } else {
        printTotal("transactions", std::to_string(textbook.transactions.size()));
    }
    if (!textbook.transactions.empty()) {
        if (shared) {
            std::cout << "    #    lanes\n";
        } else {
            std::cout << "    #    " << std::left << std::setw(20) << "address" << std::setw(8)
                      << "bytes"
                      << "lanes" << std::right << "\n";
        }
        for (std::size_t t = 0; t < textbook.transactions.size(); ++t) {
            const Transaction& transaction = textbook.transactions[t];
            std::cout << "    " << std::left << std::setw(5) << t;
            if (!shared) {
                std::cout << std::setw(20)
                          << (hex(transaction.address) + " (" +
                              std::to_string(transaction.address) + ")")
                          << std::setw(8) << transaction.sizeBytes;
            }
            std::cout << laneList(transaction.laneMask) << std::right << "\n";
        }
    }
    if (!shared && !constant) {
        printTotal("bytes requested", std::to_string(textbook.bytesRequested));
        printTotal("bytes unique", std::to_string(textbook.uniqueBytesRequested));
        printTotal("bytes moved", std::to_string(textbook.bytesMoved));
        printTotal("efficiency", percent(textbook.efficiency));
    }
}

} // namespace

int runAnalyze(const std::vector<std::string>& args) {
    Options options;
    if (!parseOptions(args, true, options)) {
        return kExitBadInput;
    }
    if (options.positional.size() != 1) {
        return usageError(options.positional.empty()
                              ? "analyze needs a preset id, a pattern file or an address "
                                "expression, e.g. warpscope-cli analyze 'lane * 4'"
                              : "analyze takes one pattern; quote an expression that has spaces");
    }
    auto subject = findSubject(options.positional.front(), options);
    if (!subject) {
        return kExitBadInput;
    }
    auto access = resolve(subject->named.pattern);
    if (!access) {
        reportResolveError(*subject, access.error());
        return kExitBadInput;
    }

    const NamedPattern& named = subject->named;
    const Pattern& pattern = named.pattern;
    switch (subject->origin) {
    case PatternOrigin::Preset:
        std::cout << "Preset   " << subject->argument << ": " << terminalText(named.title) << "\n";
        break;
    case PatternOrigin::File:
        std::cout << "File     " << terminalText(subject->argument)
                  << (named.title.empty() ? "" : ": " + terminalText(named.title)) << "\n";
        break;
    case PatternOrigin::Expression:
        std::cout << "Pattern  expression\n";
        break;
    }
    if (!named.caption.empty()) {
        std::cout << "         " << terminalText(named.caption) << "\n";
    }
    if (!subject->presetSource.empty()) {
        std::cout << "Source   " << subject->presetSource << "\n";
    }
    if (pattern.source) {
        const PatternSource& source = *pattern.source;
        std::cout << "Address  " << source.addressExpression << "\n";
        if (source.activeExpression != "1") {
            std::cout << "Active   " << source.activeExpression << "\n";
        }
        for (const Parameter& p : source.parameters) {
            std::cout << "Param    " << p.name << " = " << p.value << "  (" << p.minimum << " to "
                      << p.maximum << ")\n";
        }
        std::cout << "Block    " << source.blockDim.x << "x" << source.blockDim.y << "x"
                  << source.blockDim.z << ", warp " << source.warpIndex << "\n";
    }
    std::cout << "Access   " << describeAccessKind(pattern.kind) << ", "
              << access->activeLaneCount() << " of 32 lanes active\n";
    if (isMatrixAccess(pattern.kind)) {
        std::cout << "Matrix   " << opName(pattern.kind) << " .x" << pattern.kind.matrices
                  << (pattern.kind.transpose ? " .trans" : "")
                  << ": lanes 8i..8i+7 give the 16-byte rows of matrix i\n";
    }
    std::cout << "\n";

    const ModernPrediction modern = predictModern(access.value());
    printLaneTable(access.value(), modern);
    if (options.model != "textbook") {
        printModern(modern);
    }
    if (options.model != "modern") {
        printTextbook(predictTextbook(access.value(), options.textbook));
    }
    return kExitOk;
}

} // namespace warpscope::cli
