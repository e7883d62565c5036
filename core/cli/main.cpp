// warpscope-cli: the core's models from a terminal or a script, with no GPU and no Qt.
//   analyze  one pattern (preset id, pattern file or address expression) as a per-lane table
//            followed by what the modern and textbook models predict;
//   predict  JSON lines in, JSON lines out, for scripts and for checking against `ncu`;
//   presets  the built-in presets by topic.
// docs/cli.md describes every command, option, line format and exit status.
#include "tma_layout_command.h"
#include "warpscope/command_line_text.h"
#include "warpscope/expression.h"
#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"
#include "warpscope/matrix_access.h"
#include "warpscope/model.h"
#include "warpscope/pattern.h"
#include "warpscope/pattern_arguments.h"
#include "warpscope/preset.h"

#include <nlohmann/json.hpp>

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

#ifndef WARPSCOPE_VERSION
#define WARPSCOPE_VERSION "unknown"
#endif

namespace {

using namespace warpscope;

// Exit statuses (docs/cli.md).
constexpr int kExitOk = 0;
constexpr int kExitSomeLinesFailed = 1; // predict: at least one line answered with an error
constexpr int kExitBadInput = 2;        // bad usage, or a pattern that cannot be analysed

/// Longest predict line read; longer lines are answered with an error, never buffered whole.
constexpr std::size_t kMaxLineBytes = 1024u * 1024u;

const char* const kUsage = R"(warpscope-cli )" WARPSCOPE_VERSION
                           R"( - what one CUDA warp's memory access costs, predicted without a GPU.

Usage:
  warpscope-cli analyze <preset | file.json | expression> [options]
  warpscope-cli predict [--textbook-bank-mode 4|8] [--textbook-uncached-default]
  warpscope-cli presets
  warpscope-cli analyze-kernel <kernel preset | kernel.json> [--param NAME=VALUE ...]
  warpscope-cli predict-kernel [--preset ID] [--param NAME=VALUE ...]
  warpscope-cli kernels
  warpscope-cli tma-layout --swizzle none|32B|64B|128B --box INNERxROWS --element-bytes N
                           [--smem-offset N]
  warpscope-cli trace-summary FILE.wstrace [--json]
  warpscope-cli help | --help | --version

analyze   Prints each lane's address, 32-byte sector, 128-byte line and shared-memory bank,
          then what the two models predict: "modern" (compute capability 7.0 and later, as
          Nsight Compute counts) and "textbook" (the Fermi/Kepler rules of the course notes).
          The argument is tried as a preset id (see `warpscope-cli presets`), then as a
          pattern file, then as an address expression giving each lane's byte address.

  --width N              element width in bytes: 1, 2, 4, 8 or 16 (default 4)
  --op load|store        (default load)
  --space global|shared|constant|local|texture
                         (default global; constant: loads only, 64 KiB; local: each thread's
                         own words, interleaved; texture: loads through the texture cache)
  --cache default|ca|cg|nc
                         global-load cache operator, as PTX ld.global.ca/.cg/.nc
  --model modern|textbook|both
                         which predictions to print (default both)
  --param NAME=VALUE     set an expression parameter; repeat for several
  --block X[,Y[,Z]]      block shape (default 32,1,1)
  --warp N               which warp of the block (default 0)
  --active EXPR          only lanes where EXPR is non-zero execute the access (default 1)
  --bank-mode 4|8        textbook shared-memory bank width (8: Kepler's eight-byte mode)
  --uncached             textbook: plain loads bypass L1 (32-byte segments, as on K40)
  Options override what a preset or file says.

predict   Reads one pattern per line on stdin, as JSON:
            {"space":"global","op":"load","width":4,"cache":"default","addresses":[0,4,...]}
          (32 addresses, null for an inactive lane) and writes one JSON object per line:
            {"line":1,"metrics":{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum":4,...}}
          or {"line":N,"error":{"code":...,"message":...,"where":...}} and goes on.
  --textbook-bank-mode 4|8, --textbook-uncached-default: as --bank-mode and --uncached.

analyze-kernel  Evaluates every thread of a whole kernel (several accesses over real buffers,
          at its real launch) and prints, per access, the requests and sectors (or wavefronts
          and bank conflicts) summed over the grid, how the warps spread, the worst warp, each
          buffer's footprint and the totals under Nsight Compute's names.
predict-kernel  Reads one kernel per line on stdin, as JSON (docs/file-formats.md):
            {"grid":[128,128,1],"block":[16,16,1],"parameters":{"nx":2048},
             "buffers":[{"name":"in","bytes":16777216}],"accesses":[{"op":"load",...}]}
          and writes {"line":1,"metrics":{...},"accesses":[...]} per kernel, or an error line
          naming the place, and goes on. --preset ID answers for a built-in kernel instead.
kernels   The built-in kernel presets: the course notes' kernels at the notes' sizes.

Expressions are C integer arithmetic over lane, warp, gid, tid.x tid.y tid.z, bdim.x/y/z,
bid.x/y/z, gdim.x/y/z, min(a,b), max(a,b), abs(a) and your --param names. Quote them.

Examples:
  warpscope-cli analyze 'lane * 4'                     coalesced 4-byte loads
  warpscope-cli analyze '(lane + 11) * 4' --cache cg   misaligned by 11 elements, L1 bypassed
  warpscope-cli analyze 'lane * 128' --space shared    stride of 32 words: a 32-way bank conflict
  warpscope-cli analyze 'lane * 4 + o * 4' --param o=11
  warpscope-cli presets

Exit status: 0 success; 1 predict or predict-kernel answered at least one line with an error;
2 bad usage or a pattern that cannot be analysed. See docs/cli.md.
)";

// ---- Small helpers ---------------------------------------------------------------------------

void printError(const std::string& message) {
    writeCommandError(std::cerr, "warpscope-cli", message);
}

int usageError(const std::string& message) {
    writeUsageError(std::cerr, "warpscope-cli", message);
    return kExitBadInput;
}

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

// ---- Command lines ---------------------------------------------------------------------------

/// The options of analyze and predict, as given.
struct Options {
    std::vector<std::string> positional;
    PatternArguments pattern;
    std::string model = "both";
    TextbookOptions textbook;
};

/// Parses options; on a mistake prints it and returns false.
bool parseOptions(const std::vector<std::string>& args, bool allowPatternOptions,
                  Options& options) {
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (optionsEnded || arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
            options.positional.push_back(arg);
            continue;
        }
        if (arg == "--") {
            optionsEnded = true;
            continue;
        }
        std::optional<std::string> inlineValue;
        if (const std::size_t eq = arg.find('='); eq != std::string::npos) {
            inlineValue = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        const auto value = [&]() -> std::optional<std::string> {
            if (inlineValue) {
                return inlineValue;
            }
            if (i + 1 >= args.size()) {
                usageError("the option " + arg + " needs a value");
                return std::nullopt;
            }
            return args[++i];
        };
        const auto fail = [](const std::string& message) {
            usageError(message);
            return false;
        };
        const auto bad = [&](const std::string& text, const std::string& expected) {
            return fail("the option " + arg + " takes " + expected + ", not '" + text + "'");
        };

        if (arg == "--bank-mode" || arg == "--textbook-bank-mode") {
            auto text = value();
            if (!text) {
                return false;
            }
            if (*text == "4") {
                options.textbook.bankMode = SharedBankMode::FourByte;
            } else if (*text == "8") {
                options.textbook.bankMode = SharedBankMode::EightByte;
            } else {
                return bad(*text, "4 or 8");
            }
            continue;
        }
        if (arg == "--uncached" || arg == "--textbook-uncached-default") {
            if (inlineValue) {
                return fail("the option " + arg + " takes no value");
            }
            options.textbook.defaultLoadsCached = false;
            continue;
        }
        if (!allowPatternOptions) {
            return fail("unknown option '" + arg + "' for predict");
        }

        if (isPatternOption(arg)) {
            auto text = value();
            if (!text) {
                return false;
            }
            if (auto error = parsePatternOption(arg, *text, options.pattern)) {
                return fail(error->message);
            }
            continue;
        }
        if (arg == "--model") {
            auto text = value();
            if (!text) {
                return false;
            }
            if (*text != "modern" && *text != "textbook" && *text != "both") {
                return bad(*text, "modern, textbook or both");
            }
            options.model = *text;
        } else {
            return fail("unknown option '" + arg + "'");
        }
    }
    return true;
}

// ---- analyze ---------------------------------------------------------------------------------

/// Where the pattern came from and what it is.
struct Subject {
    std::string argument;
    PatternOrigin origin = PatternOrigin::Expression;
    NamedPattern named;
    std::string presetSource; // "seed 002, figure 4-11"
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
        return "constant cache: one pass per distinct address (seed 003)";
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

// ---- predict ---------------------------------------------------------------------------------

using ordered_json = nlohmann::ordered_json;

/// Reads stdin line by line, keeping at most kMaxLineBytes of a line.
class LineReader {
public:
    explicit LineReader(std::FILE* file) : m_file(file) {}

    /// Next line without its end-of-line; false at the end of the input. `tooLong` says the
    /// line was longer than kMaxLineBytes (its text is then cut).
    bool next(std::string& line, bool& tooLong) {
        line.clear();
        tooLong = false;
        bool any = false;
        for (;;) {
            if (m_pos == m_end) {
                m_end = std::fread(m_buffer.data(), 1, m_buffer.size(), m_file);
                m_pos = 0;
                if (m_end == 0) {
                    return any;
                }
            }
            any = true;
            const char* start = m_buffer.data() + m_pos;
            const auto* newline = static_cast<const char*>(std::memchr(start, '\n', m_end - m_pos));
            const std::size_t count =
                newline ? static_cast<std::size_t>(newline - start) : m_end - m_pos;
            const std::size_t room = kMaxLineBytes + 1 - std::min(line.size(), kMaxLineBytes + 1);
            line.append(start, std::min(count, room));
            m_pos += count;
            if (line.size() > kMaxLineBytes) {
                tooLong = true;
            }
            if (newline) {
                ++m_pos; // the '\n'
                break;
            }
        }
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        return true;
    }

private:
    std::FILE* m_file;
    std::array<char, 64 * 1024> m_buffer{};
    std::size_t m_pos = 0;
    std::size_t m_end = 0;
};

/// A metric value as JSON: counters as integers, the rest as numbers (null when not finite).
ordered_json metricValue(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15) {
        return static_cast<std::int64_t>(value);
    }
    return value;
}

void writeLine(const ordered_json& value) {
    const std::string text = value.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout); // a caller may be waiting for this answer before sending the next line
}

ordered_json errorLine(std::size_t lineNumber, const Error& error) {
    ordered_json details = ordered_json::object();
    details["code"] = errorCodeName(error.code);
    details["message"] = error.message;
    details["where"] = error.where;
    if (error.column > 0) {
        details["column"] = error.column;
    }
    ordered_json out = ordered_json::object();
    out["line"] = lineNumber;
    out["error"] = std::move(details);
    return out;
}

/// An answer line: {"line": N} followed by the fields of `answer`.
ordered_json answerLine(std::size_t lineNumber, const ordered_json& answer) {
    ordered_json out = ordered_json::object();
    out["line"] = lineNumber;
    for (const auto& [key, value] : answer.items()) {
        out[key] = value;
    }
    return out;
}

/// An error of a reader that took one line as its whole text: the place "line 1, column C" is
/// the line's own, so only "column C" is kept.
Error withinLine(Error error) {
    if (error.where.rfind("line 1, column ", 0) == 0) {
        error.where.erase(0, std::strlen("line 1, "));
    }
    return error;
}

/// predict and predict-kernel: answers each line of stdin with one JSON line, the fields of
/// `answer(line)` or its error. Blank lines are skipped but still counted; a line over 1 MiB is
/// answered with an error. The exit status says whether any line failed.
template <typename Answer> int answerStdinLines(std::string_view command, Answer&& answer) {
    LineReader reader(stdin);
    std::string line;
    bool tooLong = false;
    std::size_t lineNumber = 0;
    bool anyFailed = false;
    while (reader.next(line, tooLong)) {
        ++lineNumber;
        if (tooLong) {
            anyFailed = true;
            writeLine(errorLine(lineNumber, Error{ErrorCode::FileFormat,
                                                  "the line is longer than 1 MiB, the most " +
                                                      std::string(command) + " reads",
                                                  0, ""}));
            continue;
        }
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const Result<ordered_json> answered = answer(line);
        if (!answered) {
            anyFailed = true;
            writeLine(errorLine(lineNumber, answered.error()));
            continue;
        }
        writeLine(answerLine(lineNumber, answered.value()));
    }
    return anyFailed ? kExitSomeLinesFailed : kExitOk;
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

// ---- Kernels: predict-kernel, analyze-kernel, kernels
// --------------------------------------------

/// Options of the kernel commands: --param NAME=VALUE (repeatable), --preset ID.
struct KernelOptions {
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::int64_t>> parameters;
    std::string preset;
};

bool parseKernelOptions(const std::vector<std::string>& args, const std::string& command,
                        bool allowPreset, KernelOptions& options) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
            options.positional.push_back(arg);
            continue;
        }
        std::optional<std::string> value;
        if (const std::size_t eq = arg.find('='); eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        if (arg != "--param" && !(allowPreset && arg == "--preset")) {
            usageError("unknown option '" + arg + "' for " + command);
            return false;
        }
        if (!value) {
            if (i + 1 >= args.size()) {
                usageError("the option " + arg + " needs a value");
                return false;
            }
            value = args[++i];
        }
        if (arg == "--preset") {
            options.preset = *value;
            continue;
        }
        const std::size_t eq = value->find('=');
        std::int64_t number = 0;
        const char* first = value->data() + (eq == std::string::npos ? 0 : eq + 1);
        const char* last = value->data() + value->size();
        const auto parsed = std::from_chars(first, last, number);
        if (eq == std::string::npos || eq == 0 || parsed.ec != std::errc() || parsed.ptr != last) {
            usageError("the option --param takes NAME=VALUE with an integer value, not '" + *value +
                       "'");
            return false;
        }
        options.parameters.emplace_back(value->substr(0, eq), number);
    }
    return true;
}

/// Sets the --param values on the kernel; an unknown name is an error naming the kernel's
/// parameters.
std::optional<Error> applyParameters(Kernel& kernel, const KernelOptions& options) {
    for (const auto& setting : options.parameters) {
        const std::string& name = setting.first;
        const std::int64_t value = setting.second;
        auto it = std::find_if(kernel.parameters.begin(), kernel.parameters.end(),
                               [&](const Parameter& p) { return p.name == name; });
        if (it == kernel.parameters.end()) {
            std::string known;
            for (const Parameter& p : kernel.parameters) {
                known += (known.empty() ? "" : ", ") + p.name;
            }
            return Error{ErrorCode::InvalidValue,
                         "the kernel has no parameter '" + name +
                             "' (it has: " + (known.empty() ? "none" : known) + ")",
                         0, "--param"};
        }
        it->value = value;
    }
    return std::nullopt;
}

/// The grid model's answer for one kernel as a JSON line: metrics, then per access counts.
ordered_json kernelLine(const ResolvedKernel& kernel, const GridPrediction& prediction) {
    ordered_json metrics = ordered_json::object();
    for (const Metric& metric : prediction.metrics) {
        metrics[metric.name] = metricValue(metric.value);
    }
    ordered_json accesses = ordered_json::array();
    for (std::size_t a = 0; a < prediction.accesses.size(); ++a) {
        const GridAccessPrediction& p = prediction.accesses[a];
        const KernelAccess& access = kernel.kernel.accesses[a];
        ordered_json entry = ordered_json::object();
        entry["label"] = access.label;
        const AccessCounters names = nsightCountersFor(access.kind);
        if (access.kind.space == MemorySpace::Constant) {
            entry["warpscope__constant_requests"] = p.requests;
            entry["warpscope__constant_addresses"] = p.constantAddresses;
            entry["warpscope__constant_extra_requests"] = p.constantAddresses - p.requests;
        } else if (usesSectors(access.kind.space)) {
            entry[names.first] = p.requests;
            entry[names.second] = p.sectors;
            if (access.kind.space == MemorySpace::Texture) {
                entry["warpscope__global_equivalent_sectors"] = p.globalEquivalentSectors;
            }
        } else {
            entry[names.first] = p.wavefronts;
            entry[names.second] = p.bankConflicts;
        }
        entry["warpscope__active_threads"] = p.activeThreads;
        entry["warpscope__bytes_requested"] = p.bytesRequested;
        accesses.push_back(std::move(entry));
    }
    ordered_json out = ordered_json::object();
    out["metrics"] = std::move(metrics);
    out["accesses"] = std::move(accesses);
    return out;
}

Result<GridPrediction> predictKernel(const Kernel& kernel, ResolvedKernel& resolved) {
    auto r = resolveKernel(kernel);
    if (!r) {
        return r.error();
    }
    resolved = std::move(r).value();
    return predictGrid(resolved);
}

int runPredictKernel(const std::vector<std::string>& args) {
    KernelOptions options;
    if (!parseKernelOptions(args, "predict-kernel", true, options)) {
        return kExitBadInput;
    }
    if (!options.positional.empty()) {
        return usageError("predict-kernel reads its kernels from stdin (or takes --preset ID) "
                          "and takes no argument '" +
                          options.positional.front() + "'");
    }
    if (!options.preset.empty()) {
        const KernelPreset* preset = findKernelPreset(options.preset);
        if (preset == nullptr) {
            return usageError("no kernel preset is called '" + options.preset +
                              "' (warpscope-cli kernels lists them)");
        }
        Kernel kernel = preset->kernel;
        if (auto error = applyParameters(kernel, options)) {
            return usageError(error->describe());
        }
        ResolvedKernel resolved;
        auto prediction = predictKernel(kernel, resolved);
        if (!prediction) {
            writeLine(errorLine(1, prediction.error()));
            return kExitSomeLinesFailed;
        }
        writeLine(answerLine(1, kernelLine(resolved, prediction.value())));
        return kExitOk;
    }
    return answerStdinLines("predict-kernel", [&](const std::string& line) -> Result<ordered_json> {
        auto kernel = kernelFromJsonText(line);
        if (!kernel) {
            return withinLine(kernel.error());
        }
        if (auto error = applyParameters(kernel.value(), options)) {
            return *error;
        }
        ResolvedKernel resolved;
        auto prediction = predictKernel(kernel.value(), resolved);
        if (!prediction) {
            return prediction.error();
        }
        return kernelLine(resolved, prediction.value());
    });
}

std::string groupDigits(std::int64_t value) {
    std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
    return (value < 0 ? "-" : "") + out;
}

std::string dimText(const Dim3& d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) +
           ")";
}

/// "4:131072 5:3" for the non-empty buckets of a histogram.
std::string histogramText(const std::array<std::int64_t, kHistogramBuckets>& histogram) {
    std::string text;
    for (std::size_t k = 0; k < histogram.size(); ++k) {
        if (histogram[k] != 0) {
            text += (text.empty() ? "" : "  ") + std::to_string(k) +
                    (k + 1 == histogram.size() ? "+" : "") + ": " + groupDigits(histogram[k]);
        }
    }
    return text.empty() ? "none" : text;
}

int runAnalyzeKernel(const std::vector<std::string>& args) {
    KernelOptions options;
    if (!parseKernelOptions(args, "analyze-kernel", false, options)) {
        return kExitBadInput;
    }
    if (options.positional.size() != 1) {
        return usageError("analyze-kernel takes one kernel preset id or kernel file, e.g. "
                          "warpscope-cli analyze-kernel transpose-naivecol");
    }
    const std::string& subject = options.positional.front();
    Kernel kernel;
    std::string source;
    if (const KernelPreset* preset = findKernelPreset(subject)) {
        kernel = preset->kernel;
        source = preset->title + " (" + preset->source + ")";
    } else {
        auto text = readTextFile(subject);
        if (!text) {
            printError("'" + subject +
                       "' is neither a kernel preset (warpscope-cli kernels lists them) nor a "
                       "readable file: " +
                       text.error().message);
            return kExitBadInput;
        }
        auto parsed = kernelFromJsonText(text.value());
        if (!parsed) {
            printError(subject + ": " + parsed.error().describe());
            return kExitBadInput;
        }
        kernel = std::move(parsed).value();
        source = subject;
    }
    if (auto error = applyParameters(kernel, options)) {
        return usageError(error->describe());
    }
    ResolvedKernel resolved;
    auto prediction = predictKernel(kernel, resolved);
    if (!prediction) {
        printError(prediction.error().describe());
        return kExitBadInput;
    }
    const GridPrediction& grid = prediction.value();
    std::cout << "Kernel "
              << (kernel.name.empty() ? std::string("(unnamed)") : terminalText(kernel.name))
              << ": " << terminalText(source) << "\n";
    if (!kernel.parameters.empty()) {
        std::cout << "Parameters:";
        for (const Parameter& p : kernel.parameters) {
            std::cout << " " << p.name << "=" << p.value;
        }
        std::cout << "\n";
    }
    std::cout << "Launch: grid " << dimText(resolved.grid) << ", block " << dimText(resolved.block)
              << ": " << groupDigits(resolved.threadCount()) << " threads, "
              << groupDigits(resolved.warpCount()) << " warps\n";
    for (const ResolvedBuffer& buffer : resolved.buffers) {
        std::cout << "Buffer " << buffer.name << ": " << groupDigits(buffer.bytes) << " bytes\n";
    }
    if (grid.sharedBytesPerBlock > 0) {
        std::cout << "Shared memory: " << groupDigits(grid.sharedBytesPerBlock)
                  << " bytes per block\n";
    }
    if (grid.localBytesPerThread > 0) {
        std::cout << "Local memory: " << groupDigits(grid.localBytesPerThread)
                  << " bytes per thread (interleaved: a warp's same word side by side)\n";
    }
    std::cout << "\n";
    for (std::size_t a = 0; a < grid.accesses.size(); ++a) {
        const KernelAccess& access = kernel.accesses[a];
        const GridAccessPrediction& p = grid.accesses[a];
        std::cout << "Access " << a << (access.label.empty() ? "" : " (" + access.label + ")")
                  << ": " << describeAccessKind(access.kind)
                  << (access.buffer.empty() ? "" : ", buffer " + access.buffer) << "\n";
        std::cout << "  address  " << access.addressExpression << "\n";
        if (access.kind.op == AccessOp::CopyAsync) {
            std::cout << "  shared   " << access.sharedAddressExpression << "\n";
        }
        if (access.activeExpression != "1") {
            std::cout << "  active   " << access.activeExpression << "\n";
        }
        std::cout << "  active threads   " << std::setw(16) << groupDigits(p.activeThreads) << "\n";
        if (usesSectors(access.kind.space)) {
            std::cout << "  requests         " << std::setw(16) << groupDigits(p.requests) << "\n"
                      << "  sectors          " << std::setw(16) << groupDigits(p.sectors) << "\n";
            if (access.kind.space == MemorySpace::Texture) {
                std::cout << "  global-load equivalent sectors " << std::setw(16)
                          << groupDigits(p.globalEquivalentSectors) << "\n";
            }
            if (p.requests > 0) {
                std::cout << "  sectors/request  " << std::setw(16) << std::fixed
                          << std::setprecision(2)
                          << static_cast<double>(p.sectors) / static_cast<double>(p.requests)
                          << "\n";
            }
            if (access.kind.op == AccessOp::CopyAsync) {
                std::cout << "  shared side (written one global line at a time):\n"
                          << "  wavefronts       " << std::setw(16) << groupDigits(p.wavefronts)
                          << "\n"
                          << "  bank conflicts   " << std::setw(16) << groupDigits(p.bankConflicts)
                          << "\n";
            }
        } else if (access.kind.space == MemorySpace::Constant) {
            std::cout << "  requests         " << std::setw(16) << groupDigits(p.requests) << "\n"
                      << "  distinct addr.   " << std::setw(16) << groupDigits(p.constantAddresses)
                      << "   (constant-cache rounds, served one after another)\n";
            if (p.requests > 0) {
                std::cout << "  rounds/request   " << std::setw(16) << std::fixed
                          << std::setprecision(2)
                          << static_cast<double>(p.constantAddresses) /
                                 static_cast<double>(p.requests)
                          << "\n";
            }
        } else {
            std::cout << "  wavefronts       " << std::setw(16) << groupDigits(p.wavefronts) << "\n"
                      << "  bank conflicts   " << std::setw(16) << groupDigits(p.bankConflicts)
                      << "\n";
        }
        std::cout << "  bytes requested  " << std::setw(16) << groupDigits(p.bytesRequested)
                  << "\n";
        std::cout << "  warps by "
                  << (usesSectors(access.kind.space)               ? "sectors per request"
                      : access.kind.space == MemorySpace::Constant ? "distinct addresses"
                                                                   : "wavefronts")
                  << ": " << histogramText(p.histogram) << "\n";
        if (!p.worstWarps.empty()) {
            const WarpRef& worst = p.worstWarps.front();
            std::cout << "  worst warp: block " << groupDigits(worst.blockLinear) << ", warp "
                      << worst.warpInBlock << " (" << worst.value << ")\n";
        }
        std::cout << "\n";
    }
    std::cout << "Buffers (footprint: distinct 32-byte sectors; L2: sectors L1 asks L2 for, "
                 "estimated; in part: written sectors some store request writes only in part)\n";
    std::cout << "  " << std::left << std::setw(12) << "buffer" << std::right << std::setw(14)
              << "read" << std::setw(14) << "written" << std::setw(14) << "L2 read" << std::setw(14)
              << "L2 written" << std::setw(14) << "in part"
              << "\n";
    std::int64_t footprintRead = 0;
    std::int64_t inPart = 0;
    std::int64_t filled = 0;
    for (const GridBufferFootprint& b : grid.buffers) {
        std::cout << "  " << std::left << std::setw(12) << b.name << std::right << std::setw(14)
                  << groupDigits(b.sectorsRead) << std::setw(14) << groupDigits(b.sectorsWritten)
                  << std::setw(14) << groupDigits(b.l2SectorsRead) << std::setw(14)
                  << groupDigits(b.l2SectorsWritten) << std::setw(14)
                  << groupDigits(b.sectorsWrittenInPart) << "\n";
        footprintRead += b.sectorsRead;
        inPart += b.sectorsWrittenInPart;
        filled += b.sectorsFilled;
    }
    std::cout << "DRAM read of a cold launch: at least the footprint, "
              << groupDigits(footprintRead * 32) << " bytes";
    if (inPart > 0) {
        std::cout << ", plus DRAM fills of the sectors written in part that L2 evicts before "
                     "they are complete (predicted: "
                  << groupDigits(filled * 32)
                  << " bytes, by a rule that does not see warps drift apart; "
                  << groupDigits(inPart * 32)
                  << " bytes if each were filled once; docs/models.md, \"Sectors written in "
                     "part\")";
    }
    std::cout << "\n";
    std::cout << "\nTotals (Nsight Compute names; warpscope__ extras in docs/metrics.md)\n";
    for (const Metric& metric : grid.metrics) {
        std::cout << "  " << std::left << std::setw(58) << metric.name << std::right
                  << std::setw(18) << groupDigits(static_cast<std::int64_t>(metric.value)) << "\n";
    }
    return kExitOk;
}

int runKernelPresets(const std::vector<std::string>& args) {
    if (!args.empty()) {
        return usageError("kernels takes no argument '" + args.front() + "'");
    }
    std::string topic;
    for (const KernelPreset& preset : builtinKernelPresets()) {
        if (preset.topic != topic) {
            topic = preset.topic;
            std::cout << (topic.empty() ? "" : "\n") << topic << "\n";
        }
        std::cout << "  " << std::left << std::setw(28) << preset.id << std::right << preset.title
                  << "  [" << preset.source << "]\n";
    }
    std::cout << "\nAnalyze one with: warpscope-cli analyze-kernel <id> [--param NAME=VALUE]\n";
    return kExitOk;
}

} // namespace

int runTraceSummary(const std::vector<std::string>& args); // trace_command.cpp

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << kUsage;
        return kExitBadInput;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return kExitOk;
    }
    if (command == "--version") {
        std::cout << "warpscope-cli " << WARPSCOPE_VERSION << "\n";
        return kExitOk;
    }
    if (std::find(args.begin(), args.end(), "--help") != args.end()) {
        std::cout << kUsage;
        return kExitOk;
    }
    if (command == "analyze") {
        return runAnalyze(args);
    }
    if (command == "predict") {
        return runPredict(args);
    }
    if (command == "presets") {
        return runPresets(args);
    }
    if (command == "predict-kernel") {
        return runPredictKernel(args);
    }
    if (command == "analyze-kernel") {
        return runAnalyzeKernel(args);
    }
    if (command == "kernels") {
        return runKernelPresets(args);
    }
    if (command == "tma-layout") {
        return warpscope::cli::runTmaLayout(args);
    }
    if (command == "trace-summary") {
        return runTraceSummary(args);
    }
    return usageError("unknown command '" + command +
                      "'; the commands are analyze, predict, presets, analyze-kernel, "
                      "predict-kernel, kernels, tma-layout, trace-summary and help");
}
