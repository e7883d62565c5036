// warpscope-cli: the core's models from a terminal or a script, with no GPU and no Qt.
//   analyze  one pattern (preset id, pattern file or address expression) as a per-lane table
//            followed by what the modern and textbook models predict;
//   predict  JSON lines in, JSON lines out, for scripts and for checking against `ncu`;
//   presets  the built-in presets by topic.
// docs/cli.md describes every command, option, line format and exit status.
#include "warpscope/command_line_text.h"
#include "warpscope/expression.h"
#include "warpscope/file_format.h"
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
  warpscope-cli help | --help | --version

analyze   Prints each lane's address, 32-byte sector, 128-byte line and shared-memory bank,
          then what the two models predict: "modern" (compute capability 7.0 and later, as
          Nsight Compute counts) and "textbook" (the Fermi/Kepler rules of the course notes).
          The argument is tried as a preset id (see `warpscope-cli presets`), then as a
          pattern file, then as an address expression giving each lane's byte address.

  --width N              element width in bytes: 1, 2, 4, 8 or 16 (default 4)
  --op load|store        (default load)
  --space global|shared  (default global)
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

Expressions are C integer arithmetic over lane, warp, gid, tid.x tid.y tid.z, bdim.x/y/z,
bid.x/y/z, gdim.x/y/z, min(a,b), max(a,b), abs(a) and your --param names. Quote them.

Examples:
  warpscope-cli analyze 'lane * 4'                     coalesced 4-byte loads
  warpscope-cli analyze '(lane + 11) * 4' --cache cg   misaligned by 11 elements, L1 bypassed
  warpscope-cli analyze 'lane * 128' --space shared    stride of 32 words: a 32-way bank conflict
  warpscope-cli analyze 'lane * 4 + o * 4' --param o=11
  warpscope-cli presets

Exit status: 0 success; 1 predict answered at least one line with an error;
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
    rows.push_back(
        LaneRow{"lane", "thread (x,y,z)", "address", "hex", "sector", "line", "bank", "wavefront"});
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
            if (shared) {
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
    const std::string op = kind.op == AccessOp::Load ? "_op_ld.sum" : "_op_st.sum";
    return std::string(kind.space == MemorySpace::Global ? globalPrefix : sharedPrefix) + op;
}

void printModern(const ModernPrediction& modern) {
    std::cout << "\nModern model (compute capability 7.0 and later, as Nsight Compute counts)\n";
    const AccessKind& kind = modern.kind;
    if (kind.space == MemorySpace::Global) {
        const GlobalPrediction global = modern.global.value_or(GlobalPrediction{});
        printTotal("requests", std::to_string(global.requests),
                   counterName(kind, "l1tex__t_requests_pipe_lsu_mem_global", ""));
        printTotal("sectors", std::to_string(global.sectors),
                   counterName(kind, "l1tex__t_sectors_pipe_lsu_mem_global", ""));
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
        return;
    }
    const SharedPrediction shared = modern.shared.value_or(SharedPrediction{});
    printTotal("wavefronts", std::to_string(shared.wavefronts),
               counterName(kind, "", "l1tex__data_pipe_lsu_wavefronts_mem_shared"));
    printTotal("ideal wavefronts", std::to_string(shared.idealWavefronts));
    printTotal("bank conflicts", std::to_string(shared.bankConflicts),
               counterName(kind, "", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared"));
    printTotal("worst bank degree", std::to_string(shared.worstBankDegree));
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
    }
    return toString(textbook.rule);
}

void printTextbook(const TextbookPrediction& textbook) {
    std::cout << "\nTextbook model (Fermi/Kepler rules of the course notes; not a measurement)\n";
    std::cout << "  " << std::left << std::setw(20) << "rule" << std::right
              << describeRule(textbook) << "\n";
    const bool shared = textbook.kind.space == MemorySpace::Shared;
    if (shared) {
        printTotal("passes", std::to_string(textbook.transactions.size()));
        printTotal("conflict degree", std::to_string(textbook.bankConflictDegree) + "-way");
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
    if (!shared) {
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
        std::cout << "Preset   " << subject->argument << ": " << named.title << "\n";
        break;
    case PatternOrigin::File:
        std::cout << "File     " << subject->argument
                  << (named.title.empty() ? "" : ": " + named.title) << "\n";
        break;
    case PatternOrigin::Expression:
        std::cout << "Pattern  expression\n";
        break;
    }
    if (!named.caption.empty()) {
        std::cout << "         " << named.caption << "\n";
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
              << access->activeLaneCount() << " of 32 lanes active\n\n";

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

int runPredict(const std::vector<std::string>& args) {
    Options options;
    if (!parseOptions(args, false, options)) {
        return kExitBadInput;
    }
    if (!options.positional.empty()) {
        return usageError("predict reads its patterns from stdin and takes no argument '" +
                          options.positional.front() + "'");
    }
    LineReader reader(stdin);
    std::string line;
    bool tooLong = false;
    std::size_t lineNumber = 0;
    bool anyFailed = false;
    while (reader.next(line, tooLong)) {
        ++lineNumber;
        if (tooLong) {
            anyFailed = true;
            writeLine(errorLine(
                lineNumber, Error{ErrorCode::FileFormat,
                                  "the line is longer than 1 MiB, the most predict reads", 0, ""}));
            continue;
        }
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue; // blank lines are skipped, but still counted
        }
        auto named = patternFromJsonText(line);
        if (!named) {
            anyFailed = true;
            Error error = named.error();
            // The reader counts lines of a file; here the text is one line.
            if (error.where.rfind("line 1, column ", 0) == 0) {
                error.where.erase(0, std::strlen("line 1, "));
            }
            writeLine(errorLine(lineNumber, error));
            continue;
        }
        auto access = resolve(named->pattern);
        if (!access) {
            anyFailed = true;
            writeLine(errorLine(lineNumber, access.error()));
            continue;
        }
        ordered_json metrics = ordered_json::object();
        for (const Metric& metric : modernMetrics(predictModern(access.value()))) {
            metrics[metric.name] = metricValue(metric.value);
        }
        for (const Metric& metric :
             textbookMetrics(predictTextbook(access.value(), options.textbook))) {
            metrics[metric.name] = metricValue(metric.value);
        }
        ordered_json out = ordered_json::object();
        out["line"] = lineNumber;
        out["metrics"] = std::move(metrics);
        writeLine(out);
    }
    return anyFailed ? kExitSomeLinesFailed : kExitOk;
}

} // namespace

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
    return usageError("unknown command '" + command +
                      "'; the commands are analyze, predict, "
                      "presets and help");
}
