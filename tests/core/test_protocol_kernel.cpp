// measure_kernel's answer declared once in core (warpscope/protocol/kernel_measurement.h): what
// the probe writes reads back as the same measurement, older and recorded answers still read,
// and hostile answers are refused with the field named.
#include <warpscope/protocol/kernel_measurement.h>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace warpscope::protocol {
namespace {

using json = nlohmann::json;

KernelMeasurement sample() {
    KernelMeasurement m;
    m.kernelName = "transposeNaive";
    m.parameters = {{"bx", 16}, {"by", 16}, {"n", 4096}};
    m.grid = {256, 256, 1};
    m.block = {16, 16, 1};
    m.threads = 16777216;
    m.warps = 524288;
    m.sharedBytesPerBlock = 1024;
    m.deviceBytes = 134217728;
    m.memoryInstructions = {"LDG.E R2, [R2.64]", "STG.E [R4.64], R2"};
    m.predicted = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 2097152}};
    KernelAccessMeasurement load;
    load.label = "load A[i]";
    load.space = "global";
    load.op = "load";
    load.width = 4;
    load.requests = 524288;
    load.sectors = 2097152;
    load.bytesRequested = 67108864;
    load.activeThreads = 16777216;
    m.accesses.push_back(load);
    KernelAccessMeasurement constant = load;
    constant.label = "load c[0]";
    constant.space = "constant";
    constant.constantAddresses = 524288;
    m.accesses.push_back(constant);
    m.buffers.push_back({"A", 67108864, 2097152, 0, 2097152, 0});
    m.counters = {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 2097152},
                  {"dram__bytes_read.sum", 67108864.5}};
    m.countersMeasured = true;
    m.flush = KernelMeasureOptions::Flush::Dirty;
    m.kernelMs = Stats{0.25, 0.24, 0.3, 21};
    m.samplesMs = {0.24, 0.25, 0.3};
    m.cold = true;
    m.bytesRequested = 134217728;
    m.effectiveBandwidthGBs = 536.870912;
    m.copyBandwidthGBs = 2966.4;
    m.theoreticalBandwidthGBs = 3352.3;
    KernelPerInstruction perInstruction;
    perInstruction.measured = true;
    perInstruction.source = "CUPTI SASS metrics (lazy patching)";
    perInstruction.ms = 12.5;
    perInstruction.rows = json::array({json{{"kernel", "transposeNaive"}, {"access", 0}}});
    m.perInstruction = perInstruction;
    return m;
}

TEST(ProtocolKernelMeasurement, WhatTheProbeWritesReadsBackTheSame) {
    const KernelMeasurement written = sample();
    const json text = toJson(written);
    auto read = kernelMeasurementFromJsonText(text.dump());
    ASSERT_TRUE(read) << read.error().describe();
    const KernelMeasurement& m = read.value();
    EXPECT_EQ(m.kernelName, written.kernelName);
    EXPECT_EQ(m.parameters, written.parameters);
    EXPECT_EQ(m.grid, written.grid);
    EXPECT_EQ(m.block, written.block);
    EXPECT_EQ(m.threads, written.threads);
    EXPECT_EQ(m.warps, written.warps);
    EXPECT_EQ(m.sharedBytesPerBlock, written.sharedBytesPerBlock);
    EXPECT_EQ(m.deviceBytes, written.deviceBytes);
    EXPECT_EQ(m.memoryInstructions, written.memoryInstructions);
    EXPECT_EQ(m.predicted, written.predicted);
    ASSERT_EQ(m.accesses.size(), 2u);
    EXPECT_EQ(m.accesses[1].label, "load c[0]");
    EXPECT_EQ(m.accesses[1].space, "constant");
    EXPECT_EQ(m.accesses[1].width, 4);
    EXPECT_EQ(m.accesses[1].requests, 524288);
    EXPECT_EQ(m.accesses[1].sectors, 2097152);
    EXPECT_EQ(m.accesses[1].constantAddresses, 524288);
    EXPECT_EQ(m.accesses[1].activeThreads, 16777216);
    ASSERT_EQ(m.buffers.size(), 1u);
    EXPECT_EQ(m.buffers[0].name, "A");
    EXPECT_EQ(m.buffers[0].l2SectorsRead, 2097152);
    EXPECT_EQ(m.counters, written.counters);
    EXPECT_TRUE(m.countersMeasured);
    EXPECT_EQ(m.flush, KernelMeasureOptions::Flush::Dirty);
    ASSERT_TRUE(m.kernelMs);
    EXPECT_EQ(m.kernelMs->median, 0.25);
    EXPECT_EQ(m.kernelMs->min, 0.24);
    EXPECT_EQ(m.kernelMs->max, 0.3);
    EXPECT_EQ(m.kernelMs->samples, 21);
    ASSERT_TRUE(m.spreadPct);
    EXPECT_NEAR(*m.spreadPct, 24.0, 1e-9);
    EXPECT_EQ(m.samplesMs, written.samplesMs);
    EXPECT_TRUE(m.cold);
    EXPECT_EQ(m.bytesRequested, written.bytesRequested);
    EXPECT_EQ(m.effectiveBandwidthGBs, written.effectiveBandwidthGBs);
    EXPECT_EQ(m.copyBandwidthGBs, written.copyBandwidthGBs);
    EXPECT_EQ(m.theoreticalBandwidthGBs, written.theoreticalBandwidthGBs);
    ASSERT_TRUE(m.shareOfCopyBandwidthPct);
    EXPECT_NEAR(*m.shareOfCopyBandwidthPct, 100.0 * 536.870912 / 2966.4, 1e-9);
    ASSERT_TRUE(m.perInstruction);
    EXPECT_TRUE(m.perInstruction->measured);
    EXPECT_EQ(m.perInstruction->source, written.perInstruction->source);
    EXPECT_EQ(m.perInstruction->ms, 12.5);
    EXPECT_EQ(m.perInstruction->rows, written.perInstruction->rows);
    // Written again, the same text: nothing is lost or invented on the way.
    EXPECT_EQ(toJson(m).dump(), text.dump());
}

TEST(ProtocolKernelMeasurement, TheWireFormatIsTheDocumentedOne) {
    const json text = toJson(sample());
    // Counts are integers, the timing nested, the flush named (docs/protocol.md).
    EXPECT_EQ(text["accesses"][0]["requests"].dump(), "524288");
    EXPECT_EQ(text["counters"]["dram__bytes_read.sum"].dump(), "67108864.5");
    EXPECT_EQ(text["bytesRequested"].dump(), "134217728");
    EXPECT_EQ(text["grid"].dump(), "[256,256,1]");
    EXPECT_EQ(text["l2Flush"], "dirty");
    EXPECT_EQ(text["countersCold"], true);
    EXPECT_EQ(text["timing"]["label"],
              "cold: L2 filled with dirty unrelated lines before each launch");
    EXPECT_EQ(text["timing"]["kernelMs"]["samples"], 21);
    // Without a ceiling, no share; without the option, no perInstruction.
    KernelMeasurement bare = sample();
    bare.copyBandwidthGBs = 0.0;
    bare.perInstruction.reset();
    const json plain = toJson(bare);
    EXPECT_TRUE(plain["shareOfCopyBandwidthPct"].is_null());
    EXPECT_FALSE(plain.contains("perInstruction"));
}

TEST(ProtocolKernelMeasurement, OlderAnswersAndRecordedPointsRead) {
    // A recorded timed point (tests/data/kernel_tables_h100.jsonl): kernelMs and cold at the top.
    auto point = kernelMeasurementFromJsonText(
        R"({"run": 0, "id": "transpose-copyrow", "point": {"bx": 16}, "effectiveBandwidthGBs": 2109.8,
            "kernelMs": {"max": 0.0169, "median": 0.0159, "min": 0.0157, "samples": 21,
            "spreadPct": 7.24}, "cold": false, "bytesRequested": 33554432,
            "shareOfCopyBandwidthPct": 71.1, "copyBandwidthGBs": 2966.4})");
    ASSERT_TRUE(point) << point.error().describe();
    ASSERT_TRUE(point->kernelMs);
    EXPECT_EQ(point->kernelMs->median, 0.0159);
    EXPECT_EQ(point->spreadPct, 7.24);
    EXPECT_FALSE(point->cold);
    EXPECT_EQ(point->shareOfCopyBandwidthPct, 71.1);
    EXPECT_FALSE(point->theoreticalBandwidthGBs);
    EXPECT_FALSE(point->shareOfTheoreticalBandwidthPct);
    // An answer from before l2Flush: countersCold alone says whether the counted launch was cold.
    auto warm = kernelMeasurementFromJsonText(R"({"countersCold": false})");
    ASSERT_TRUE(warm) << warm.error().describe();
    EXPECT_EQ(warm->flush, KernelMeasureOptions::Flush::None);
    // A record without a median was not timed.
    auto untimed = kernelMeasurementFromJsonText(R"({"kernelMs": {"spreadPct": 3}})");
    ASSERT_TRUE(untimed) << untimed.error().describe();
    EXPECT_FALSE(untimed->kernelMs);
}

int readRecordedAnswers(const std::string& file, bool sameText) {
    std::ifstream in(std::string(WARPSCOPE_TEST_DATA_DIR "/") + file);
    EXPECT_TRUE(in) << file;
    std::string line;
    int answers = 0;
    while (std::getline(in, line)) {
        const json record = json::parse(line);
        if (!record.contains("answer")) {
            continue;
        }
        auto read = kernelMeasurementFromJson(record["answer"], "/answer");
        EXPECT_TRUE(read) << file << ": " << read.error().describe();
        if (!read) {
            continue;
        }
        EXPECT_FALSE(read->kernelName.empty()) << file;
        EXPECT_FALSE(read->accesses.empty()) << file;
        EXPECT_TRUE(read->kernelMs) << file;
        if (sameText) {
            // What the probe wrote is what core writes from the same measurement (the recording
            // script adds the device to each answer).
            json answer = record["answer"];
            answer.erase("device");
            EXPECT_EQ(toJson(read.value()).dump(), answer.dump())
                << file << ": " << read->kernelName;
        }
        ++answers;
    }
    return answers;
}

TEST(ProtocolKernelMeasurement, EveryRecordedAnswerReads) {
    // Answers of today's probe: written back byte for byte.
    EXPECT_EQ(readRecordedAnswers("merged_2026-11-23c/kernel_check.jsonl", true), 39);
    EXPECT_EQ(readRecordedAnswers("per_instruction_live_h200.jsonl", true), 39);
    // Older probes' answers (fewer fields): read.
    EXPECT_EQ(readRecordedAnswers("kernel_check_h100.jsonl", false), 28);
    EXPECT_EQ(readRecordedAnswers("constant_sweep_h100.jsonl", false), 32);
    EXPECT_EQ(readRecordedAnswers("copy_async_sweep_h100.jsonl", false), 18);
}

struct Hostile {
    const char* answer;
    const char* where;  // the JSON pointer the error names
    const char* reason; // a part of its message
};

TEST(ProtocolKernelMeasurement, HostileAnswersAreRefusedNamingTheField) {
    const Hostile cases[] = {
        {R"([1, 2])", "", "object"},
        {R"({"kernel": 7})", "/kernel", "string"},
        {R"({"parameters": {"bx": "sixteen"}})", "/parameters/bx", "integer"},
        {R"({"parameters": {"bx": 1.5}})", "/parameters/bx", "integer"},
        {R"({"grid": [1, 2]})", "/grid", "[x, y, z]"},
        {R"({"block": [1, "2", 3]})", "/block/1", "integer"},
        {R"({"accesses": {"label": "x"}})", "/accesses", "array"},
        {R"({"accesses": [{"sectors": "many"}]})", "/accesses/0/sectors", "number"},
        {R"({"accesses": [{}, {"width": 1e30}]})", "/accesses/1/width", ""},
        {R"({"buffers": [7]})", "/buffers/0", "object"},
        {R"({"counters": {"dram__bytes_read.sum": "1"}})", "/counters/dram__bytes_read.sum",
         "number"},
        {R"({"countersMeasured": "yes"})", "/countersMeasured", "true or false"},
        {R"({"l2Flush": "tepid"})", "/l2Flush", "\"clean\", \"dirty\" or \"none\""},
        {R"({"timing": []})", "/timing", "object"},
        {R"({"timing": {"kernelMs": {"median": "fast"}}})", "/timing/kernelMs/median", "number"},
        {R"({"timing": {"samplesMs": [1, null]}})", "/timing/samplesMs/1", "number"},
        {R"({"timing": {"cold": 1}})", "/timing/cold", "true or false"},
        {R"({"kernelMs": {"samples": 100000000000}})", "/kernelMs/samples", "out of range"},
        {R"({"effectiveBandwidthGBs": "2 TB/s"})", "/effectiveBandwidthGBs", "number"},
        {R"({"memoryInstructions": ["LDG", 4]})", "/memoryInstructions/1", "string"},
        {R"({"perInstruction": {"rows": {}}})", "/perInstruction/rows", "array"},
        {R"({"perInstruction": {"measured": "no"}})", "/perInstruction/measured", "true or false"},
    };
    for (const Hostile& c : cases) {
        auto read = kernelMeasurementFromJsonText(c.answer);
        ASSERT_FALSE(read) << c.answer;
        EXPECT_EQ(read.error().code, ErrorCode::FileFormat) << c.answer;
        EXPECT_EQ(read.error().where, c.where) << c.answer << ": " << read.error().describe();
        EXPECT_NE(read.error().message.find(c.reason), std::string::npos)
            << c.answer << ": " << read.error().message;
    }
    // The guarded reader's own limits hold too: no JSON, duplicate keys.
    EXPECT_FALSE(kernelMeasurementFromJsonText("{\"kernel\": "));
    EXPECT_FALSE(kernelMeasurementFromJsonText(R"({"kernel": "a", "kernel": "b"})"));
}

} // namespace
} // namespace warpscope::protocol
