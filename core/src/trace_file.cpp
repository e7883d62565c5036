// Trace files, the JSON header and the traced pattern (docs/file-formats.md, "Trace files"). The
// header is read by the same guarded JSON reader as pattern files (size, UTF-8, nesting,
// duplicate keys), then field by field with a JSON pointer in every error. The record ranges it
// gives are checked here against its own record count; trace_file_io.cpp checks that count
// against the file's size.
#include "warpscope/trace_file.h"
#include "json_fields.h"
#include "json_guard.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <utility>

namespace warpscope {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;
using detail::child;
using detail::describe;

constexpr const char* kTraceFormatName = "warpscope-trace";
/// Dimensions a launch may have (CUDA's grid limit in x; enough for every other dimension).
constexpr std::int64_t kMaxDimension = 2147483647;
constexpr std::int64_t kMaxSourceLine = 1 << 30;
constexpr std::int64_t kMaxPcOffset = std::int64_t{1} << 40;

ordered_json dimToJson(const Dim3& dim) {
    return ordered_json::array({dim.x, dim.y, dim.z});
}

class TraceHeaderReader : public detail::JsonFieldReader {
public:
    bool readDim(const json& object, std::string_view key, const std::string& where, Dim3& out) {
        const json* value = member(object, key, where, true);
        if (value == nullptr) {
            return false;
        }
        const std::string at = child(where, key);
        if (!value->is_array() || value->size() != 3) {
            return fail(std::string(key) + " must be an array of three integers [x, y, z]; found " +
                            describe(*value),
                        at);
        }
        std::array<std::int64_t, 3> parts{};
        for (std::size_t i = 0; i < 3; ++i) {
            if (!readBounded((*value)[i], child(at, i), key, 1, kMaxDimension, parts[i])) {
                return false;
            }
        }
        out = Dim3{parts[0], parts[1], parts[2]};
        return true;
    }

    bool readBounded(const json& value, const std::string& where, std::string_view name,
                     std::int64_t low, std::int64_t high, std::int64_t& out) {
        if (!readInt64(value, where, name, out)) {
            return false;
        }
        if (out < low || out > high) {
            return fail(std::string(name) + " must be between " + std::to_string(low) + " and " +
                            std::to_string(high) + "; found " + std::to_string(out),
                        where);
        }
        return true;
    }

    bool boundedMember(const json& object, std::string_view key, const std::string& where,
                       bool required, std::int64_t low, std::int64_t high, std::int64_t& out) {
        const json* value = member(object, key, where, required);
        if (value == nullptr) {
            return !required;
        }
        return readBounded(*value, child(where, key), key, low, high, out);
    }

    bool readLaunch(const json& object, const std::string& where, TraceLaunch& out) {
        if (!requireObject(object, where, "a launch")) {
            return false;
        }
        if (!stringMember(object, "kernel", where, true, out.kernel) ||
            !optionalString(object, "mangledName", where, out.mangledName) ||
            !readDim(object, "grid", where, out.grid) ||
            !readDim(object, "block", where, out.block) ||
            !boundedMember(object, "dynamicSharedBytes", where, false, 0, kMaxDimension,
                           out.dynamicSharedBytes) ||
            !boundedMember(object, "droppedRecords", where, false, 0,
                           std::numeric_limits<std::int64_t>::max(), out.droppedRecords)) {
            return false;
        }
        if (out.block.count() > 1024) {
            return fail("a block has at most 1024 threads; found " +
                            std::to_string(out.block.count()),
                        child(where, "block"));
        }
        const json* complete = member(object, "complete", where, true);
        if (complete == nullptr) {
            return false;
        }
        if (!complete->is_boolean()) {
            return fail("complete must be true or false; found " + describe(*complete),
                        child(where, "complete"));
        }
        out.complete = complete->get<bool>();
        return true;
    }

    bool readInstruction(const json& object, const std::string& where, std::size_t launchCount,
                         TraceInstruction& out) {
        if (!requireObject(object, where, "an instruction")) {
            return false;
        }
        std::string space;
        std::string op;
        std::int64_t width = 0;
        std::int64_t first = 0;
        std::int64_t count = 0;
        const std::int64_t maxIndex = static_cast<std::int64_t>(launchCount) - 1;
        if (!boundedMember(object, "launch", where, true, 0, maxIndex, out.launch) ||
            !boundedMember(object, "pc", where, true, 0, kMaxPcOffset, out.pcOffset) ||
            !optionalString(object, "sass", where, out.sass) ||
            !optionalString(object, "file", where, out.sourceFile) ||
            !boundedMember(object, "line", where, false, 0, kMaxSourceLine, out.sourceLine) ||
            !stringMember(object, "space", where, true, space) ||
            !stringMember(object, "op", where, true, op) ||
            !boundedMember(object, "width", where, true, 1, 16, width) ||
            !boundedMember(object, "firstRecord", where, true, 0,
                           std::numeric_limits<std::int64_t>::max(), first) ||
            !boundedMember(object, "recordCount", where, true, 0,
                           std::numeric_limits<std::int64_t>::max(), count)) {
            return false;
        }
        const auto parsedSpace = memorySpaceFromString(space);
        if (!parsedSpace ||
            (*parsedSpace != MemorySpace::Global && *parsedSpace != MemorySpace::Shared &&
             *parsedSpace != MemorySpace::Local)) {
            return fail("space must be \"global\", \"shared\" or \"local\"; found \"" + space +
                            "\"",
                        child(where, "space"));
        }
        const auto parsedOp = traceOpFromString(op);
        if (!parsedOp) {
            return fail("op must be \"load\", \"store\" or \"atomic\"; found \"" + op + "\"",
                        child(where, "op"));
        }
        if (!isValidWidth(static_cast<int>(width))) {
            return fail("width must be 1, 2, 4, 8 or 16 bytes; found " + std::to_string(width),
                        child(where, "width"));
        }
        out.space = *parsedSpace;
        out.op = *parsedOp;
        out.widthBytes = static_cast<int>(width);
        out.firstRecord = static_cast<std::uint64_t>(first);
        out.recordCount = static_cast<std::uint64_t>(count);
        return true;
    }

    template <class T, class ReadOne>
    bool readArray(const json& object, std::string_view key, std::size_t limit, std::vector<T>& out,
                   ReadOne readOne) {
        const json* value = member(object, key, "", true);
        if (value == nullptr) {
            return false;
        }
        const std::string at = child("", key);
        if (!value->is_array()) {
            return fail(std::string(key) + " must be an array; found " + describe(*value), at);
        }
        if (value->size() > limit) {
            return fail(std::string(key) + " has " + std::to_string(value->size()) +
                            " entries; a trace holds at most " + std::to_string(limit),
                        at);
        }
        out.resize(value->size());
        for (std::size_t i = 0; i < value->size(); ++i) {
            if (!readOne((*value)[i], child(at, i), out[i])) {
                return false;
            }
        }
        return true;
    }

    bool readHeaderObject(const json& root, TraceHeader& out) {
        if (!requireObject(root, "", "the trace header") ||
            !readHeader(root, "", kTraceFormatName, static_cast<int>(kTraceFormatVersion), true) ||
            !stringMember(root, "program", "", true, out.program)) {
            return false;
        }
        std::int64_t records = 0;
        if (!boundedMember(root, "recordCount", "", true, 0,
                           std::numeric_limits<std::int64_t>::max(), records)) {
            return false;
        }
        out.recordCount = static_cast<std::uint64_t>(records);
        if (!readArray(root, "launches", kMaxTraceLaunches, out.launches,
                       [this](const json& v, const std::string& w, TraceLaunch& l) {
                           return readLaunch(v, w, l);
                       })) {
            return false;
        }
        const std::size_t launchCount = out.launches.size();
        if (!readArray(
                root, "instructions", kMaxTraceInstructions, out.instructions,
                [this, launchCount](const json& v, const std::string& w, TraceInstruction& i) {
                    return readInstruction(v, w, launchCount, i);
                })) {
            return false;
        }
        return checkRanges(out);
    }

    /// Each instruction's records lie inside the record area, and in order: instruction i's
    /// range starts where instruction i - 1's ended (the writer's layout).
    bool checkRanges(const TraceHeader& header) {
        std::uint64_t next = 0;
        for (std::size_t i = 0; i < header.instructions.size(); ++i) {
            const TraceInstruction& instruction = header.instructions[i];
            const std::string at = child(child("", "instructions"), i);
            if (instruction.firstRecord != next) {
                return fail("firstRecord must be " + std::to_string(next) +
                                " (where the previous instruction's records end); found " +
                                std::to_string(instruction.firstRecord),
                            child(at, "firstRecord"));
            }
            if (instruction.recordCount > header.recordCount - next) {
                return fail("recordCount " + std::to_string(instruction.recordCount) +
                                " runs past the trace's " + std::to_string(header.recordCount) +
                                " records",
                            child(at, "recordCount"));
            }
            next += instruction.recordCount;
        }
        if (next != header.recordCount) {
            return fail("the instructions' records add up to " + std::to_string(next) +
                            ", not the recordCount " + std::to_string(header.recordCount),
                        "/recordCount");
        }
        return true;
    }
};

} // namespace

const char* toString(TraceOp op) {
    switch (op) {
    case TraceOp::Load:
        return "load";
    case TraceOp::Store:
        return "store";
    case TraceOp::Atomic:
        return "atomic";
    }
    return "load";
}

std::optional<TraceOp> traceOpFromString(std::string_view text) {
    for (const TraceOp op : {TraceOp::Load, TraceOp::Store, TraceOp::Atomic}) {
        if (text == toString(op)) {
            return op;
        }
    }
    return std::nullopt;
}

void addTraceInstructionFields(ordered_json& item, const TraceInstruction& instruction) {
    item["pc"] = instruction.pcOffset;
    item["sass"] = instruction.sass;
    if (!instruction.sourceFile.empty()) {
        item["file"] = instruction.sourceFile;
        item["line"] = instruction.sourceLine;
    }
    item["space"] = toString(instruction.space);
    item["op"] = toString(instruction.op);
    item["width"] = instruction.widthBytes;
}

std::string traceHeaderToJsonText(const TraceHeader& header) {
    ordered_json root;
    root["format"] = kTraceFormatName;
    root["version"] = kTraceFormatVersion;
    root["program"] = header.program;
    root["recordCount"] = header.recordCount;
    ordered_json launches = ordered_json::array();
    for (const TraceLaunch& launch : header.launches) {
        ordered_json item;
        item["kernel"] = launch.kernel;
        if (!launch.mangledName.empty()) {
            item["mangledName"] = launch.mangledName;
        }
        item["grid"] = dimToJson(launch.grid);
        item["block"] = dimToJson(launch.block);
        item["dynamicSharedBytes"] = launch.dynamicSharedBytes;
        item["complete"] = launch.complete;
        item["droppedRecords"] = launch.droppedRecords;
        launches.push_back(std::move(item));
    }
    root["launches"] = std::move(launches);
    ordered_json instructions = ordered_json::array();
    for (const TraceInstruction& instruction : header.instructions) {
        ordered_json item;
        item["launch"] = instruction.launch;
        addTraceInstructionFields(item, instruction);
        item["firstRecord"] = instruction.firstRecord;
        item["recordCount"] = instruction.recordCount;
        instructions.push_back(std::move(item));
    }
    root["instructions"] = std::move(instructions);
    // One instruction per line would read better, but compact keeps a large header small.
    return root.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

Result<TraceHeader> traceHeaderFromJsonText(std::string_view text) {
    auto parsed = detail::parseGuardedJson(text);
    if (!parsed) {
        return parsed.error();
    }
    TraceHeaderReader reader;
    TraceHeader header;
    if (!reader.readHeaderObject(parsed.value(), header)) {
        return *reader.error();
    }
    return header;
}

Result<Pattern> tracedPattern(const TraceInstruction& instruction, const TraceRecord& record) {
    if (instruction.op == TraceOp::Atomic) {
        return Error{ErrorCode::InvalidValue,
                     "an atomic instruction: the models count loads and stores only", 0, "op"};
    }
    if (!isValidWidthFor(instruction.space, instruction.widthBytes)) {
        return Error{ErrorCode::InvalidValue,
                     std::string("a ") + std::to_string(instruction.widthBytes) + "-byte " +
                         toString(instruction.space) + " access is not one the models count",
                     0, "width"};
    }
    Pattern pattern;
    pattern.kind.space = instruction.space;
    pattern.kind.op = instruction.op == TraceOp::Store ? AccessOp::Store : AccessOp::Load;
    pattern.kind.widthBytes = instruction.widthBytes;
    for (int lane = 0; lane < kWarpSize; ++lane) {
        if ((record.activeMask & (1u << lane)) == 0) {
            continue;
        }
        const std::uint64_t address = record.addresses[static_cast<std::size_t>(lane)];
        if (address > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            return Error{ErrorCode::InvalidValue, "address beyond the signed 64-bit range", 0,
                         "lane " + std::to_string(lane)};
        }
        pattern.addresses[static_cast<std::size_t>(lane)] = static_cast<std::int64_t>(address);
    }
    return pattern;
}

} // namespace warpscope
