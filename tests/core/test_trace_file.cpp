// Trace files (.wstrace): the writer and the reader round-trip, records are read lazily, a
// traced warp is counted as the typed pattern of the same addresses, and every hostile file is
// refused with a message naming the byte offset or the JSON pointer.
#include "warpscope/model.h"
#include "warpscope/trace_file.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

using namespace warpscope;

namespace {

TraceRecord makeRecord(std::uint32_t instruction, std::uint32_t blockX, std::uint32_t warp,
                       std::uint64_t base, std::uint64_t stride, std::uint32_t mask = ~0u) {
    TraceRecord record;
    record.instruction = instruction;
    record.block = {blockX, 0, 0};
    record.warp = warp;
    record.activeMask = mask;
    for (std::size_t lane = 0; lane < kWarpSize; ++lane) {
        if ((mask >> lane) & 1u) {
            record.addresses[lane] = base + stride * lane;
        }
    }
    return record;
}

/// A trace of one launch, a coalesced global load (instruction 0) and a strided shared store
/// (instruction 1); records added out of order.
TraceWriter sampleWriter() {
    TraceWriter writer("./sample --n 64");
    TraceLaunch launch;
    launch.kernel = "copy(float const*, float*)";
    launch.mangledName = "_Z4copyPKfPf";
    launch.grid = Dim3{2, 1, 1};
    launch.block = Dim3{64, 1, 1};
    writer.addLaunch(launch);
    TraceInstruction load;
    load.pcOffset = 0x90;
    load.sass = "LDG.E R3, desc[UR4][R2.64]";
    load.sourceFile = "sample.cu";
    load.sourceLine = 12;
    writer.addInstruction(load);
    TraceInstruction store;
    store.pcOffset = 0xb0;
    store.sass = "STS [R5], R3";
    store.space = MemorySpace::Shared;
    store.op = TraceOp::Store;
    writer.addInstruction(store);
    writer.addRecord(makeRecord(1, 1, 1, 0, 128));
    writer.addRecord(makeRecord(0, 1, 0, 0x7f0000001000, 4));
    writer.addRecord(makeRecord(0, 0, 1, 0x7f0000000080, 4));
    writer.addRecord(makeRecord(0, 0, 0, 0x7f0000000000, 4, 0x0000ffffu));
    writer.addRecord(makeRecord(1, 0, 0, 0, 128));
    return writer;
}

std::string sampleBytes() {
    auto bytes = sampleWriter().toBytes();
    EXPECT_TRUE(bytes.ok());
    return bytes.value();
}

void putU32(std::string& bytes, std::size_t offset, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) {
        bytes[offset + static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xff);
    }
}

void putU64(std::string& bytes, std::size_t offset, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        bytes[offset + static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xff);
    }
}

/// A file made of the real preamble with `header` as its JSON and `records` whole records of
/// zeros.
std::string withHeader(const std::string& header, std::size_t records = 0) {
    std::string bytes(kTraceMagic, sizeof kTraceMagic);
    bytes.resize(kTracePreambleBytes);
    putU32(bytes, 8, kTraceFormatVersion);
    putU32(bytes, 12, kTraceRecordBytes);
    putU64(bytes, 16, header.size());
    bytes += header;
    bytes.resize((bytes.size() + 7) / 8 * 8, ' ');
    bytes.append(records * kTraceRecordBytes, '\0');
    return bytes;
}

std::string headerText() {
    std::string bytes = sampleBytes();
    std::uint64_t length = 0;
    std::memcpy(&length, bytes.data() + 16, 8); // little-endian hosts only, as the tests run
    return bytes.substr(kTracePreambleBytes, length);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
}

Error openError(const std::string& bytes) {
    auto reader = TraceReader::fromBytes(bytes);
    EXPECT_FALSE(reader.ok());
    return reader.ok() ? Error{} : reader.error();
}

/// Counts the bytes a reader asks for.
class CountingSource : public TraceByteSource {
public:
    explicit CountingSource(std::string bytes) : m_bytes(std::move(bytes)) {}
    std::uint64_t size() const override { return m_bytes.size(); }
    bool readAt(std::uint64_t offset, std::size_t count, char* out) override {
        if (offset > m_bytes.size() || count > m_bytes.size() - offset) {
            return false;
        }
        bytesRead += count;
        std::memcpy(out, m_bytes.data() + offset, count);
        return true;
    }
    std::uint64_t bytesRead = 0;

private:
    std::string m_bytes;
};

} // namespace

TEST(TraceFile, RoundTripsHeaderAndRecordsSortedByInstructionBlockAndWarp) {
    auto reader = TraceReader::fromBytes(sampleBytes());
    ASSERT_TRUE(reader.ok()) << reader.error().describe();
    const TraceHeader& header = reader.value().header();
    EXPECT_EQ(header.program, "./sample --n 64");
    ASSERT_EQ(header.launches.size(), 1u);
    EXPECT_EQ(header.launches[0].kernel, "copy(float const*, float*)");
    EXPECT_EQ(header.launches[0].mangledName, "_Z4copyPKfPf");
    EXPECT_EQ(header.launches[0].grid, (Dim3{2, 1, 1}));
    EXPECT_EQ(header.launches[0].block, (Dim3{64, 1, 1}));
    ASSERT_EQ(header.instructions.size(), 2u);
    EXPECT_EQ(header.instructions[0].sass, "LDG.E R3, desc[UR4][R2.64]");
    EXPECT_EQ(header.instructions[0].sourceFile, "sample.cu");
    EXPECT_EQ(header.instructions[0].sourceLine, 12);
    EXPECT_EQ(header.instructions[0].firstRecord, 0u);
    EXPECT_EQ(header.instructions[0].recordCount, 3u);
    EXPECT_EQ(header.instructions[1].space, MemorySpace::Shared);
    EXPECT_EQ(header.instructions[1].op, TraceOp::Store);
    EXPECT_EQ(header.instructions[1].firstRecord, 3u);
    EXPECT_EQ(header.instructions[1].recordCount, 2u);
    EXPECT_EQ(reader.value().recordCount(), 5u);

    auto load = reader.value().instructionRecords(0);
    ASSERT_TRUE(load.ok()) << load.error().describe();
    ASSERT_EQ(load.value().size(), 3u);
    EXPECT_EQ(load.value()[0], makeRecord(0, 0, 0, 0x7f0000000000, 4, 0x0000ffffu));
    EXPECT_EQ(load.value()[1], makeRecord(0, 0, 1, 0x7f0000000080, 4));
    EXPECT_EQ(load.value()[2], makeRecord(0, 1, 0, 0x7f0000001000, 4));

    auto warp = reader.value().warpRecords(0, {1, 0, 0}, 1);
    ASSERT_TRUE(warp.ok());
    ASSERT_EQ(warp.value().size(), 1u);
    EXPECT_EQ(warp.value()[0], makeRecord(1, 1, 1, 0, 128));
}

TEST(TraceFile, WritesAFileAndOpensItFromDisk) {
    const auto path = std::filesystem::temp_directory_path() / "warpscope_test_trace.wstrace";
    auto written = sampleWriter().write(path.string());
    ASSERT_TRUE(written.ok()) << written.error().describe();
    auto reader = TraceReader::open(path.string());
    ASSERT_TRUE(reader.ok()) << reader.error().describe();
    auto record = reader.value().readRecord(4);
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(record.value(), makeRecord(1, 1, 1, 0, 128));
    std::filesystem::remove(path);
}

TEST(TraceFile, OpeningReadsOnlyThePreambleAndHeaderAndARecordReadsOnlyItself) {
    TraceWriter writer = sampleWriter();
    for (std::uint32_t i = 0; i < 5000; ++i) {
        writer.addRecord(makeRecord(0, 2 + i, 0, 0x1000 * i, 4));
    }
    auto bytes = writer.toBytes();
    ASSERT_TRUE(bytes.ok());
    auto source = std::make_shared<CountingSource>(bytes.value());
    auto reader = TraceReader::fromSource(source);
    ASSERT_TRUE(reader.ok()) << reader.error().describe();
    const std::uint64_t afterOpen = source->bytesRead;
    std::uint64_t headerLength = 0;
    std::memcpy(&headerLength, bytes.value().data() + 16, 8);
    EXPECT_EQ(afterOpen, kTracePreambleBytes + headerLength);
    EXPECT_LT(afterOpen, 2000u) << "the 5005 records (1.4 MB) must not be read on open";
    auto record = reader.value().readRecord(4000);
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(source->bytesRead - afterOpen, kTraceRecordBytes);
    // Instruction 0 holds blocks 0 (two warps), 1, then 2..5001: record 4000 is block 3999.
    EXPECT_EQ(record.value().block[0], 3999u);
}

TEST(TraceFile, TracedWarpIsCountedExactlyAsTheTypedPattern) {
    auto reader = TraceReader::fromBytes(sampleBytes());
    ASSERT_TRUE(reader.ok());
    const TraceInstruction& load = reader.value().header().instructions[0];
    auto records = reader.value().instructionRecords(0);
    ASSERT_TRUE(records.ok());
    auto pattern = tracedPattern(load, records.value()[0]);
    ASSERT_TRUE(pattern.ok()) << pattern.error().describe();
    EXPECT_EQ(pattern.value().kind.space, MemorySpace::Global);
    EXPECT_EQ(pattern.value().kind.op, AccessOp::Load);
    EXPECT_EQ(pattern.value().kind.widthBytes, 4);
    EXPECT_EQ(pattern.value().addresses[0], std::optional<std::int64_t>(0x7f0000000000));
    EXPECT_EQ(pattern.value().addresses[15], std::optional<std::int64_t>(0x7f000000003c));
    EXPECT_FALSE(pattern.value().addresses[16].has_value()) << "inactive lanes are null";

    Pattern typed;
    for (std::size_t lane = 0; lane < 16; ++lane) {
        typed.addresses[lane] = 0x7f0000000000 + 4 * static_cast<std::int64_t>(lane);
    }
    const auto fromTrace = resolve(pattern.value());
    const auto fromTyped = resolve(typed);
    ASSERT_TRUE(fromTrace.ok() && fromTyped.ok());
    const ModernPrediction traced = predictModern(fromTrace.value());
    EXPECT_EQ(traced.global->requests, 1);
    EXPECT_EQ(traced.global->sectors, 2); // 16 lanes x 4 bytes = 64 bytes
    EXPECT_EQ(traced.global->sectors, predictModern(fromTyped.value()).global->sectors);

    const TraceInstruction& store = reader.value().header().instructions[1];
    auto shared = tracedPattern(store, reader.value().readRecord(3).value());
    ASSERT_TRUE(shared.ok());
    const ModernPrediction conflict = predictModern(resolve(shared.value()).value());
    EXPECT_EQ(conflict.shared->wavefronts, 32); // stride 128 bytes: one bank, 32 words
}

TEST(TraceFile, AtomicsAndHugeAddressesAreNotTurnedIntoPatterns) {
    TraceInstruction atomic;
    atomic.op = TraceOp::Atomic;
    auto refused = tracedPattern(atomic, makeRecord(0, 0, 0, 0, 4));
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("atomic"), std::string::npos);

    TraceInstruction load;
    auto huge = tracedPattern(load, makeRecord(0, 0, 0, 0x8000000000000000u, 4));
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.error().where, "lane 0");
}

TEST(TraceFile, ARecordNamingAMissingInstructionIsRefusedByTheWriter) {
    TraceWriter writer("x");
    writer.addRecord(makeRecord(3, 0, 0, 0, 4));
    EXPECT_FALSE(writer.toBytes().ok());
}

// ---- Hostile files: each refused with its message and place -------------------------------

TEST(TraceFileHostile, EmptyAndShortFiles) {
    EXPECT_NE(openError("").message.find("shorter than a trace's 24-byte preamble"),
              std::string::npos);
    EXPECT_EQ(openError(std::string("WSTRACE\0", 8)).where, "byte 0");
}

TEST(TraceFileHostile, BadMagic) {
    std::string bytes = sampleBytes();
    bytes[0] = 'X';
    const Error error = openError(bytes);
    EXPECT_NE(error.message.find("not a warpscope trace"), std::string::npos);
    EXPECT_EQ(error.where, "byte 0");
}

TEST(TraceFileHostile, VersionZeroAndNewerVersions) {
    std::string bytes = sampleBytes();
    putU32(bytes, 8, 2);
    Error error = openError(bytes);
    EXPECT_NE(error.message.find("version 2; this warpscope reads version 1 (update"),
              std::string::npos)
        << error.message;
    EXPECT_EQ(error.where, "byte 8");
    putU32(bytes, 8, 0);
    EXPECT_EQ(openError(bytes).where, "byte 8");
}

TEST(TraceFileHostile, WrongRecordSize) {
    std::string bytes = sampleBytes();
    putU32(bytes, 12, 8);
    EXPECT_EQ(openError(bytes).where, "byte 12");
}

TEST(TraceFileHostile, HugeHeaderLengthIsRefusedBeforeAnyAllocation) {
    std::string bytes = sampleBytes();
    putU64(bytes, 16, 0xffffffffffffffffu);
    Error error = openError(bytes);
    EXPECT_NE(error.message.find("at most 16 MiB"), std::string::npos) << error.message;
    EXPECT_EQ(error.where, "byte 16");
    putU64(bytes, 16, 1u << 20); // under the cap, but longer than the file
    error = openError(bytes);
    EXPECT_NE(error.message.find("cut short"), std::string::npos) << error.message;
}

TEST(TraceFileHostile, TruncatedRecordArea) {
    std::string bytes = sampleBytes();
    bytes.resize(bytes.size() - 100);
    const Error error = openError(bytes);
    EXPECT_NE(error.message.find("not a whole number of 280-byte records"), std::string::npos)
        << error.message;
    bytes.resize(bytes.size() - 180); // a whole record missing
    EXPECT_NE(openError(bytes).message.find("the header says 5 records but the file holds 4"),
              std::string::npos);
}

TEST(TraceFileHostile, CountsThatLieAboutTheFile) {
    const std::string header = headerText();
    const Error lying = openError(withHeader(
        replaced(header, "\"recordCount\":5", "\"recordCount\":9223372036854775807"), 5));
    EXPECT_EQ(lying.where, "/recordCount") << lying.describe();

    const Error past =
        openError(withHeader(replaced(header, "\"firstRecord\":3,\"recordCount\":2",
                                      "\"firstRecord\":3,\"recordCount\":2000000000000"),
                             5));
    EXPECT_EQ(past.where, "/instructions/1/recordCount") << past.describe();

    const Error gap =
        openError(withHeader(replaced(header, "\"firstRecord\":3", "\"firstRecord\":4"), 5));
    EXPECT_EQ(gap.where, "/instructions/1/firstRecord") << gap.describe();

    const Error launch = openError(withHeader(replaced(header, "\"launch\":0", "\"launch\":7"), 5));
    EXPECT_EQ(launch.where, "/instructions/0/launch") << launch.describe();
}

TEST(TraceFileHostile, HeaderSchemaErrorsNameTheirJsonPointer) {
    const std::string header = headerText();
    struct Case {
        std::string from, to, where, words;
    };
    const Case cases[] = {
        {"\"warpscope-trace\"", "\"warpscope-pattern\"", "/format", "format must be"},
        {"\"version\":1", "\"version\":3", "/version", "newer warpscope"},
        {"\"width\":4", "\"width\":3", "/instructions/0/width", "1, 2, 4, 8 or 16"},
        {"\"space\":\"global\"", "\"space\":\"texture\"", "/instructions/0/space",
         "\"global\", \"shared\" or \"local\""},
        {"\"op\":\"store\"", "\"op\":\"exchange\"", "/instructions/1/op", "atomic"},
        {"\"grid\":[2,1,1]", "\"grid\":[2,1]", "/launches/0/grid", "three integers"},
        {"\"block\":[64,1,1]", "\"block\":[64,64,1]", "/launches/0/block", "1024 threads"},
        {"\"complete\":true", "\"complete\":1", "/launches/0/complete", "true or false"},
        {"\"kernel\":", "\"kernelName\":", "/launches/0/kernel", "missing"},
    };
    for (const Case& c : cases) {
        const Error error = openError(withHeader(replaced(header, c.from, c.to), 5));
        EXPECT_EQ(error.where, c.where) << c.to << ": " << error.describe();
        EXPECT_NE(error.message.find(c.words), std::string::npos) << error.describe();
        EXPECT_EQ(error.message.rfind("in the trace header: ", 0), 0u) << error.message;
    }
}

TEST(TraceFileHostile, HeaderThatIsNotJsonOrNestsTooDeep) {
    EXPECT_EQ(openError(withHeader("{\"format\": ")).code, ErrorCode::FileFormat);
    EXPECT_NE(
        openError(withHeader(std::string(100, '[') + std::string(100, ']'))).message.find("nested"),
        std::string::npos);
}

TEST(TraceFileHostile, TooManyInstructionsIsRefusedByCount) {
    std::string list = "[";
    for (std::size_t i = 0; i <= kMaxTraceInstructions; ++i) {
        list += i == 0 ? "0" : ",0";
    }
    list += "]";
    const std::string header =
        replaced(headerText(), headerText().substr(headerText().find("\"instructions\":")),
                 "\"instructions\":" + list + "}");
    const Error error = openError(withHeader(header, 5));
    EXPECT_EQ(error.where, "/instructions") << error.describe();
}

TEST(TraceFileHostile, ARecordOutsideItsInstructionsRangeNamesItsByteOffset) {
    std::string bytes = sampleBytes();
    auto reader = TraceReader::fromBytes(bytes);
    ASSERT_TRUE(reader.ok());
    const std::uint64_t offset = reader.value().recordAreaOffset();
    putU32(bytes, static_cast<std::size_t>(offset), 1); // record 0 claims instruction 1
    auto changed = TraceReader::fromBytes(bytes);
    ASSERT_TRUE(changed.ok()) << "the header is still right; records are checked when read";
    auto records = changed.value().instructionRecords(0);
    ASSERT_FALSE(records.ok());
    EXPECT_EQ(records.error().where, "byte " + std::to_string(offset));
    putU32(bytes, static_cast<std::size_t>(offset), 99);
    auto missing = TraceReader::fromBytes(bytes).value().readRecord(0);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("names instruction 99; the trace has 2"),
              std::string::npos);
}

TEST(TraceFileHostile, ReadsPastTheEndAreRefused) {
    auto reader = TraceReader::fromBytes(sampleBytes());
    ASSERT_TRUE(reader.ok());
    EXPECT_FALSE(reader.value().readRecords(4, 2).ok());
    EXPECT_FALSE(reader.value().readRecords(0xffffffffffffffffu, 2).ok());
    EXPECT_FALSE(reader.value().instructionRecords(2).ok());
    EXPECT_FALSE(reader.value().warpRecords(1, {0, 0, 0}, 0).ok());
}

TEST(TraceFileHostile, MissingFileAndDirectoryAreIoErrors) {
    EXPECT_EQ(TraceReader::open("/nonexistent/trace.wstrace").error().code, ErrorCode::Io);
    EXPECT_EQ(TraceReader::open(std::filesystem::temp_directory_path().string()).error().code,
              ErrorCode::Io);
}
