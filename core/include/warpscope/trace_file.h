// Trace files (.wstrace, docs/file-formats.md "Trace files"): the real lane addresses of a user's
// program as warpscope-trace records them. A fixed preamble, a JSON header (the program, its
// traced launches and memory instructions) and fixed-size binary records, one per traced warp
// instruction, sorted by instruction so that one instruction's records are one contiguous range.
// TraceReader reads the preamble and header and checks the record area's size; records are read
// on request, so a trace of millions of records opens without reading them. Reading is guarded
// like the pattern files: size caps, nesting limit, schema errors with a JSON pointer, record
// errors with a byte offset; no count in the file is trusted before it is checked against the
// file's size. TraceWriter is the one writer (the tracer and the tests use it).
#pragma once

#include "warpscope/pattern.h"
#include "warpscope/result.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

inline constexpr char kTraceMagic[8] = {'W', 'S', 'T', 'R', 'A', 'C', 'E', '\0'};
inline constexpr std::uint32_t kTraceFormatVersion = 1;
/// magic (8) + version (4) + record size (4) + header length (8), little-endian.
inline constexpr std::size_t kTracePreambleBytes = 24;
/// instruction (4) + block x, y, z (12) + warp (4) + active mask (4) + 32 addresses (256).
inline constexpr std::size_t kTraceRecordBytes = 280;
/// The JSON header's largest size (the pattern files' limit, kMaxFileBytes); a longer one is
/// refused before it is read.
inline constexpr std::uint64_t kMaxTraceHeaderBytes = 16u * 1024u * 1024u;
inline constexpr std::size_t kMaxTraceLaunches = 10000;
inline constexpr std::size_t kMaxTraceInstructions = 100000;
/// The most records one read returns (about 280 MB); read larger ranges in pieces.
inline constexpr std::uint64_t kMaxTraceRecordsPerRead = 1u << 20;

/// What a traced instruction does. Atomic: an atom/red instruction, recorded but not counted by
/// the models (they count loads and stores).
enum class TraceOp { Load, Store, Atomic };
const char* toString(TraceOp op); // "load", "store", "atomic"
std::optional<TraceOp> traceOpFromString(std::string_view text);

/// One kernel launch the tracer patched.
struct TraceLaunch {
    std::string kernel;      // demangled name
    std::string mangledName; // as the module names it; may be empty
    Dim3 grid;
    Dim3 block;
    std::int64_t dynamicSharedBytes = 0;
    /// False when the program or the kernel failed before the records were copied out whole, or
    /// when records were dropped.
    bool complete = true;
    std::int64_t droppedRecords = 0;

    bool operator==(const TraceLaunch&) const = default;
};

/// One memory instruction of a traced launch and where its records are.
struct TraceInstruction {
    std::int64_t launch = 0;   // index into TraceHeader::launches
    std::int64_t pcOffset = 0; // bytes from the start of the function
    std::string sass;          // e.g. "LDG.E R2, desc[UR4][R2.64]"; may be empty
    std::string sourceFile;    // empty without line info
    std::int64_t sourceLine = 0;
    MemorySpace space = MemorySpace::Global; // global, shared or local
    TraceOp op = TraceOp::Load;
    int widthBytes = 4;
    std::uint64_t firstRecord = 0;
    std::uint64_t recordCount = 0;

    bool operator==(const TraceInstruction&) const = default;
};

struct TraceHeader {
    std::string program; // the command line that ran
    std::vector<TraceLaunch> launches;
    std::vector<TraceInstruction> instructions;
    std::uint64_t recordCount = 0;

    bool operator==(const TraceHeader&) const = default;
};

/// One warp executing one traced instruction. Addresses of inactive lanes are 0. Global
/// addresses are virtual addresses; shared ones are offsets in the block's shared window; local
/// ones are offsets in the thread's own local window.
struct TraceRecord {
    std::uint32_t instruction = 0;
    std::array<std::uint32_t, 3> block{};
    std::uint32_t warp = 0; // warp within the block, threads linearised x fastest
    std::uint32_t activeMask = 0;
    std::array<std::uint64_t, kWarpSize> addresses{};

    bool operator==(const TraceRecord&) const = default;
};

/// Where the bytes of a trace come from: a file, or memory (tests, fuzzing).
class TraceByteSource {
public:
    virtual ~TraceByteSource() = default;
    virtual std::uint64_t size() const = 0;
    /// Reads `count` bytes at `offset` into `out`; false when they cannot be read.
    virtual bool readAt(std::uint64_t offset, std::size_t count, char* out) = 0;
};

/// Copies share one byte source; a reader (and its copies) is used from one thread at a time.
class TraceReader {
public:
    /// Opens a trace file: reads the preamble and the header and checks that the record area
    /// holds exactly the records the header says. Errors: Io for a file that cannot be read,
    /// FileFormat (with a byte offset or a JSON pointer in `where`) for everything else.
    static Result<TraceReader> open(const std::string& path);
    /// The same over bytes held in memory.
    static Result<TraceReader> fromBytes(std::string bytes);
    static Result<TraceReader> fromSource(std::shared_ptr<TraceByteSource> source);

    const TraceHeader& header() const { return m_header; }
    std::uint64_t recordCount() const { return m_header.recordCount; }
    /// Byte offset of record 0.
    std::uint64_t recordAreaOffset() const { return m_recordOffset; }

    /// Records first .. first + count - 1 (at most kMaxTraceRecordsPerRead).
    Result<std::vector<TraceRecord>> readRecords(std::uint64_t first, std::uint64_t count) const;
    Result<TraceRecord> readRecord(std::uint64_t index) const;
    /// Every record of instruction `instruction` (its contiguous range).
    Result<std::vector<TraceRecord>> instructionRecords(std::size_t instruction) const;
    /// The records of one warp of one launch, in instruction order: each instruction of the
    /// launch's range is searched, one instruction's records at a time.
    Result<std::vector<TraceRecord>> warpRecords(std::size_t launch,
                                                 const std::array<std::uint32_t, 3>& block,
                                                 std::uint32_t warp) const;

private:
    std::shared_ptr<TraceByteSource> m_source;
    TraceHeader m_header;
    std::uint64_t m_recordOffset = 0;
};

/// The header as JSON text (the writer's form; fixed key order).
std::string traceHeaderToJsonText(const TraceHeader& header);
/// An instruction's identity as the trace header and `warpscope-cli trace --json` write it: its
/// pc, SASS, source file and line (when known), space, op and width, added to `item`.
void addTraceInstructionFields(nlohmann::ordered_json& item, const TraceInstruction& instruction);
/// Parses and checks a header (JSON pointer errors), without the record area.
Result<TraceHeader> traceHeaderFromJsonText(std::string_view text);

/// Builds a trace: launches, instructions and records in any order; write() sorts the records by
/// instruction, then block (z, y, x) and warp, fills each instruction's range and writes the file.
class TraceWriter {
public:
    explicit TraceWriter(std::string program) { m_header.program = std::move(program); }

    std::size_t addLaunch(TraceLaunch launch);
    /// firstRecord and recordCount are filled by write().
    std::size_t addInstruction(TraceInstruction instruction);
    void addRecord(const TraceRecord& record) { m_records.push_back(record); }
    TraceLaunch& launch(std::size_t index) { return m_header.launches.at(index); }

    /// The whole file as bytes; an error for a record naming an instruction that does not exist.
    Result<std::string> toBytes() const;
    /// Writes to `path` (through a temporary file renamed into place).
    Result<bool> write(const std::string& path) const;

private:
    TraceHeader m_header;
    std::vector<TraceRecord> m_records;
};

/// One traced warp's instruction as a pattern of literal addresses: the instruction's space,
/// load or store and width; inactive lanes null. The models then count it exactly as a typed
/// pattern. An error for an atomic (not modelled), a width the models do not take, or an address
/// beyond the signed 64-bit range.
Result<Pattern> tracedPattern(const TraceInstruction& instruction, const TraceRecord& record);

} // namespace warpscope

namespace warpscope {

/// What the modern model counts for one traced instruction over all its traced warps, under
/// Nsight Compute's names: requests and sectors (global and local memory) or wavefronts and bank
/// conflicts (shared memory), summed over the warps, and their ratio per request.
struct TraceInstructionSummary {
    std::size_t instruction = 0; // index into TraceHeader::instructions
    std::uint64_t warps = 0;     // records read
    /// False for atomics, which the models do not count; the counters are then zero.
    bool counted = true;
    std::string firstCounter;  // requests, or wavefronts
    std::string secondCounter; // sectors, or bank conflicts
    double first = 0.0;
    double second = 0.0;
    /// "sectors/request" (sectors / requests) or "wavefronts/request" (wavefronts / warps with an
    /// active lane).
    std::string ratioName;
    double ratio = 0.0;
    /// Warps whose addresses the models refuse (misaligned, say), not counted; the first reason.
    std::uint64_t warpsRefused = 0;
    std::optional<Error> firstRefusal;
};

/// One instruction's summary; reads its records in pieces, never all at once.
Result<TraceInstructionSummary> summarizeTraceInstruction(const TraceReader& reader,
                                                          std::size_t instruction);
/// Every instruction of one launch, worst ratio first (ties in PC order).
Result<std::vector<TraceInstructionSummary>> summarizeTraceLaunch(const TraceReader& reader,
                                                                  std::size_t launch);

} // namespace warpscope
