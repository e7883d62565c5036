// warpscope-trace's plain C++ (kernels/trace), tested without a GPU: nvdisasm's and cuobjdump's
// listings read back, the injected library's raw launch file read guardedly, and records grouped
// into instructions (PC offsets, load/store/atomic from the Sanitizer API's flags, widths).
#include "raw_launch.h"
#include "sass_listing.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace warpscope;
using namespace warpscope::trace;

TEST(SassListing, ReadsInstructionsAndLinesOfOneFunction) {
    const std::string listing = R"(
	.section	.text._Z5otherv,"ax",@progbits
.text._Z5otherv:
        /*0000*/                   LDG.E R0, desc[UR4][R2.64] ;
	.section	.text._Z4copyPKfPf,"ax",@progbits
.text._Z4copyPKfPf:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "/src/copy.cu", line 12
        /*00c0*/                   LDG.E R2, desc[UR4][R2.64] ;
	//## File "/src/copy.cu", line 13 inlined at "/src/copy.cu", line 20
        /*00f0*/              @!P0 STG.E desc[UR4][R4.64], R7 ;
)";
    const auto sass = parseSassListing(listing, "_Z4copyPKfPf");
    ASSERT_EQ(sass.size(), 3u);
    EXPECT_EQ(sass.at(0xc0).text, "LDG.E R2, desc[UR4][R2.64]");
    EXPECT_EQ(sass.at(0xc0).sourceFile, "/src/copy.cu");
    EXPECT_EQ(sass.at(0xc0).sourceLine, 12);
    EXPECT_EQ(sass.at(0xf0).text, "@!P0 STG.E desc[UR4][R4.64], R7");
    EXPECT_EQ(sass.at(0xf0).sourceLine, 13);
    EXPECT_EQ(sass.at(0).sourceLine, 0);
    EXPECT_TRUE(parseSassListing(listing, "_Z7missingv").empty());
}

TEST(SassListing, ReadsCuobjdumpsForm) {
    const std::string listing =
        "\t\tFunction : vector_add\n"
        "        /*0180*/              @!P0 LDG.E.128 R16, desc[UR4][R20.64] ;  /* 0x000 */\n";
    const auto sass = parseSassListing(listing, "vector_add");
    ASSERT_EQ(sass.size(), 1u);
    EXPECT_EQ(sass.at(0x180).text, "@!P0 LDG.E.128 R16, desc[UR4][R20.64]");
}

namespace {

RawRecord rawRecord(std::uint64_t pc, std::uint32_t flags, std::uint32_t bytes,
                    std::uint32_t warp) {
    RawRecord record{};
    record.pc = pc;
    record.warp = warp;
    record.activeMask = 0xffffffffu;
    record.accessBytes = bytes;
    record.flags = flags;
    record.space = RawGlobal;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        record.addresses[lane] = 0x1000 + lane * bytes;
    }
    return record;
}

std::string rawFile(RawLaunchHeader header, const std::string& name,
                    const std::vector<RawRecord>& records) {
    std::memcpy(header.magic, kRawLaunchMagic, sizeof header.magic);
    header.version = kRawLaunchVersion;
    header.recordBytes = sizeof(RawRecord);
    header.nameBytes = static_cast<std::uint32_t>(name.size());
    header.recordCount = records.size();
    std::string bytes(reinterpret_cast<const char*>(&header), sizeof header);
    bytes += name;
    bytes.append(reinterpret_cast<const char*>(records.data()), records.size() * sizeof(RawRecord));
    return bytes;
}

} // namespace

TEST(RawLaunch, GroupsRecordsIntoInstructionsByOffsetOpAndWidth) {
    RawLaunchHeader header{};
    header.grid[0] = header.grid[1] = header.grid[2] = 1;
    header.block[0] = 64;
    header.block[1] = header.block[2] = 1;
    header.complete = 1;
    header.functionPc = 0x7f0000001000;
    header.functionBytes = 0x400;
    const std::vector<RawRecord> records = {
        rawRecord(0x7f0000001000 + 0xf0, 0x2, 4, 0),   // a store
        rawRecord(0x7f0000001000 + 0xc0, 0x1, 4, 1),   // a load, warp 1
        rawRecord(0x7f0000001000 + 0xc0, 0x1, 4, 0),   // the same load, warp 0
        rawRecord(0x7f0000001000 + 0x100, 0x3, 4, 0),  // read and write: an atomic
        rawRecord(0x7f0000001000 + 0x110, 0x1, 32, 0), // wider than the format takes
    };
    auto raw = readRawLaunch(rawFile(header, "_Z4copyPKfPf", records));
    ASSERT_TRUE(raw.ok()) << raw.error().describe();
    std::map<std::uint64_t, SassInstruction> sass;
    sass[0xc0] = SassInstruction{"LDG.E R2, desc[UR4][R2.64]", "copy.cu", 12};
    BuiltTrace built = buildTrace(raw.value(), sass, "./copy");
    EXPECT_EQ(built.instructions, 3u);
    EXPECT_EQ(built.recordsKept, 4u);
    EXPECT_EQ(built.recordsSkipped, 1u);
    auto reader = TraceReader::fromBytes(built.writer.toBytes().value());
    ASSERT_TRUE(reader.ok()) << reader.error().describe();
    const TraceHeader& trace = reader.value().header();
    EXPECT_EQ(trace.launches.at(0).kernel, "copy(float const*, float*)");
    EXPECT_TRUE(trace.launches.at(0).complete);
    ASSERT_EQ(trace.instructions.size(), 3u);
    EXPECT_EQ(trace.instructions[0].pcOffset, 0xc0);
    EXPECT_EQ(trace.instructions[0].op, TraceOp::Load);
    EXPECT_EQ(trace.instructions[0].sass, "LDG.E R2, desc[UR4][R2.64]");
    EXPECT_EQ(trace.instructions[0].recordCount, 2u);
    EXPECT_EQ(trace.instructions[1].pcOffset, 0xf0);
    EXPECT_EQ(trace.instructions[1].op, TraceOp::Store);
    EXPECT_EQ(trace.instructions[2].op, TraceOp::Atomic);
    EXPECT_EQ(reader.value().readRecord(0).value().warp, 0u);
}

TEST(RawLaunch, DroppedRecordsMarkTheLaunchIncomplete) {
    RawLaunchHeader header{};
    header.grid[0] = header.grid[1] = header.grid[2] = 1;
    header.block[0] = header.block[1] = header.block[2] = 1;
    header.complete = 1;
    header.droppedRecords = 7;
    auto raw = readRawLaunch(rawFile(header, "k", {}));
    ASSERT_TRUE(raw.ok());
    BuiltTrace built = buildTrace(raw.value(), {}, "./k");
    auto reader = TraceReader::fromBytes(built.writer.toBytes().value());
    ASSERT_TRUE(reader.ok());
    EXPECT_FALSE(reader.value().header().launches[0].complete);
    EXPECT_EQ(reader.value().header().launches[0].droppedRecords, 7);
}

TEST(RawLaunch, CutOrForeignFilesAreRefused) {
    RawLaunchHeader header{};
    const std::string good = rawFile(header, "kernel", {rawRecord(0, 1, 4, 0)});
    EXPECT_FALSE(readRawLaunch(good.substr(0, 10)).ok());
    EXPECT_NE(readRawLaunch(good.substr(0, good.size() - 1))
                  .error()
                  .message.find("says 1 records but holds 0"),
              std::string::npos);
    std::string foreign = good;
    foreign[0] = 'X';
    EXPECT_FALSE(readRawLaunch(foreign).ok());
    std::string longName = good;
    const std::uint32_t huge = 0xffffffffu;
    std::memcpy(longName.data() + offsetof(RawLaunchHeader, nameBytes), &huge, sizeof huge);
    EXPECT_FALSE(readRawLaunch(longName).ok());
}
