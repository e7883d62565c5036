// The experiments' results and request options declared once in core (warpscope/experiments/):
// each measurement written as the probe writes it and read back as the app reads it gives the same
// values, a hostile answer is refused with a message naming the field's JSON pointer, and so is a
// bad request option (the probe answers it as bad_request at that pointer).
#include <warpscope/experiments/command_line.h>
#include <warpscope/experiments/l2_persistence.h>
#include <warpscope/experiments/streams.h>
#include <warpscope/experiments/transfers.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace warpscope::experiments {
namespace {

using json = nlohmann::json;

/// The error `text` is refused with, as "where: message"; "" when it is read.
template <class Read> std::string refusal(Read read, const std::string& text) {
    const auto result = read(text);
    return result ? std::string() : result.error().describe();
}

/// A good answer's text and its reader, for edits of it that must be refused: each edit's
/// refusal as refusal() gives it.
template <class Read> struct AnswerEdits {
    Read read;
    std::string good;

    /// The answer with the value at `pointer` replaced (or added).
    std::string with(const std::string& pointer, const json& value) const {
        json answer = json::parse(good);
        answer[json::json_pointer(pointer)] = value;
        return refusal(read, answer.dump());
    }
    /// The answer without the member at `pointer`.
    std::string without(const std::string& pointer) const {
        json answer = json::parse(good);
        answer[json::json_pointer(pointer).parent_pointer()].erase(
            json::json_pointer(pointer).back());
        return refusal(read, answer.dump());
    }
};

/// Whether a refusal names `pointer` as the place it is about.
bool names(const std::string& message, const std::string& pointer) {
    return message.starts_with(pointer + ":");
}

/// A recorded file of tests/data, parsed.
json recorded(const char* name) {
    std::ifstream file(std::string(WARPSCOPE_TEST_DATA_DIR) + "/" + name, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return json::parse(text.str());
}

TransferMeasurement sampleTransfers() {
    TransferMeasurement m;
    m.deviceName = "NVIDIA H100 80GB HBM3";
    m.link.kind = "pcie";
    m.link.pcieGeneration = 5;
    m.link.pcieWidth = 16;
    m.link.pcieMaxGeneration = 5;
    m.link.pcieMaxWidth = 16;
    m.link.theoreticalGBs = pcieLinkGBs(5, 16);
    m.link.source = "nvml";
    m.link.description = describeLink(m.link);
    m.deviceCopyBandwidthGBs = 2920.5;
    m.deviceFreeBytes = std::int64_t{80} << 30;
    m.hostAvailableBytes = std::int64_t{128} << 30;
    m.repetitions = 7;
    m.capNote = "sizes from 4 GiB up were left out";
    m.hostPlacement = "host threads pinned to CPUs of the GPU's NUMA node 0";
    for (TransferMode mode : {TransferMode::H2dPinned, TransferMode::SumZeroCopy}) {
        TransferCurve curve{mode, {}};
        curve.points.push_back(transferPoint(mode, 4096, {0.01, 0.012, 0.011}));
        curve.points.push_back(transferPoint(mode, 1 << 20, {0.05, 0.0625, 0.07}));
        m.curves.push_back(curve);
    }
    return m;
}

TEST(TransferResults, WrittenAndReadBackGiveTheSameMeasurement) {
    const TransferMeasurement written = sampleTransfers();
    const json answer = toJson(written);
    const auto read = transferMeasurementFromJsonText(answer.dump());
    ASSERT_TRUE(read) << read.error().describe();
    const TransferMeasurement& m = read.value();
    EXPECT_EQ(m.deviceName, written.deviceName);
    EXPECT_EQ(m.link.kind, "pcie");
    EXPECT_EQ(m.link.pcieGeneration, 5);
    EXPECT_EQ(m.link.pcieMaxWidth, 16);
    EXPECT_DOUBLE_EQ(m.link.theoreticalGBs, written.link.theoreticalGBs);
    EXPECT_EQ(m.link.source, "nvml");
    EXPECT_EQ(m.link.description, written.link.description);
    EXPECT_DOUBLE_EQ(m.deviceCopyBandwidthGBs, 2920.5);
    EXPECT_EQ(m.deviceFreeBytes, written.deviceFreeBytes);
    EXPECT_EQ(m.hostAvailableBytes, written.hostAvailableBytes);
    EXPECT_EQ(m.repetitions, 7);
    EXPECT_EQ(m.capNote, written.capNote);
    EXPECT_EQ(m.hostPlacement, written.hostPlacement);
    ASSERT_EQ(m.curves.size(), 2u);
    for (std::size_t c = 0; c < m.curves.size(); ++c) {
        EXPECT_EQ(m.curves[c].mode, written.curves[c].mode);
        ASSERT_EQ(m.curves[c].points.size(), 2u);
        for (std::size_t p = 0; p < 2; ++p) {
            const TransferPoint& a = m.curves[c].points[p];
            const TransferPoint& b = written.curves[c].points[p];
            EXPECT_EQ(a.bytes, b.bytes);
            EXPECT_DOUBLE_EQ(a.medianMs, b.medianMs);
            EXPECT_DOUBLE_EQ(a.minMs, b.minMs);
            EXPECT_DOUBLE_EQ(a.maxMs, b.maxMs);
            EXPECT_EQ(a.samples, 3);
            EXPECT_DOUBLE_EQ(a.bandwidthGBs, b.bandwidthGBs);
        }
    }
    EXPECT_EQ(m.curve(TransferMode::SumZeroCopy), &m.curves[1]);
    EXPECT_EQ(m.curve(TransferMode::D2hPinned), nullptr);
    EXPECT_EQ(m.curves[0].at(1 << 20), &m.curves[0].points[1]);
    // Written again, the answer is the same, byte for byte.
    EXPECT_EQ(toJson(m).dump(), answer.dump());
}

// The H100's recorded run (scripts/gpu's record: the first of its runs) reads, and written again
// gives back what the probe wrote.
TEST(TransferResults, TheRecordedH100RunReadsAndWritesBackAsRecorded) {
    const json run = recorded("transfers_h100.json")["runs"][0];
    const auto read = transferMeasurementFromJson(run, "/runs/0");
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_EQ(read.value().deviceName, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(read.value().curves.size(), 11u);
    const json written = toJson(read.value());
    for (const auto& [key, value] : run.items()) { // an older probe wrote no hostPlacement
        EXPECT_EQ(written.value(key, json()), value) << key;
    }
}

TEST(TransferResults, PointsComeBackInAscendingSizes) {
    json answer = toJson(sampleTransfers());
    auto& points = answer["curves"][0]["points"];
    std::swap(points[0], points[1]);
    const auto read = transferMeasurementFromJson(answer);
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_EQ(read.value().curves[0].points.front().bytes, 4096);
}

TEST(TransferResults, HostileAnswersAreRefusedByField) {
    const auto read = [](const std::string& text) { return transferMeasurementFromJsonText(text); };
    const std::string good = toJson(sampleTransfers()).dump();
    ASSERT_EQ(refusal(read, good), "");
    const AnswerEdits<decltype(read)> edits{read, good};
    EXPECT_NE(refusal(read, "[1]").find("must be a JSON object"), std::string::npos);
    EXPECT_NE(refusal(read, "{\"curves\": 3}").find("/curves: \"curves\" must be an array"),
              std::string::npos);
    EXPECT_NE(edits.without("/curves").find("/curves"), std::string::npos);
    EXPECT_NE(edits.with("/device", 3).find("/device"), std::string::npos);
    EXPECT_NE(edits.with("/link/pcieWidth", "x16").find("/link/pcieWidth"), std::string::npos);
    EXPECT_NE(edits.with("/link", json::array()).find("/link"), std::string::npos);
    EXPECT_NE(edits.with("/repetitions", 1.5).find("/repetitions"), std::string::npos);
    EXPECT_NE(edits.with("/deviceFreeBytes", "lots").find("/deviceFreeBytes"), std::string::npos);
    EXPECT_NE(edits.with("/curves/1", 7).find("/curves/1"), std::string::npos);
    EXPECT_NE(
        edits.with("/curves/1/mode", "h2d_teleport").find("/curves/1/mode: unknown transfer mode"),
        std::string::npos);
    EXPECT_NE(edits.without("/curves/0/mode").find("/curves/0/mode"), std::string::npos);
    EXPECT_NE(edits.with("/curves/0/points", "many").find("/curves/0/points"), std::string::npos);
    EXPECT_NE(edits.with("/curves/0/points/1/bytes", 0).find("/curves/0/points/1/bytes"),
              std::string::npos);
    EXPECT_NE(edits.with("/curves/0/points/1/bytes", 4096.5).find("/curves/0/points/1/bytes"),
              std::string::npos);
    EXPECT_NE(edits.without("/curves/1/points/0/medianMs").find("/curves/1/points/0/medianMs"),
              std::string::npos);
    EXPECT_NE(
        edits.with("/curves/1/points/0/bandwidthGBs", -2).find("/curves/1/points/0/bandwidthGBs"),
        std::string::npos);
    EXPECT_NE(edits.with("/curves/1/points/0/bandwidthGBs", nullptr)
                  .find("/curves/1/points/0/bandwidthGBs"),
              std::string::npos);
    EXPECT_NE(edits.with("/curves/1/points/0/samples", "seven").find("/curves/1/points/0/samples"),
              std::string::npos);
    // Through the guarded reader: not JSON, and duplicate keys.
    EXPECT_NE(refusal(read, "{\"curves\": ["), "");
    EXPECT_NE(refusal(read, R"({"curves": [], "curves": []})"), "");
}

StreamsMeasurement sampleStreams() {
    StreamsMeasurement m;
    m.deviceName = "NVIDIA H100 80GB HBM3";
    m.asyncEngineCount = 2;
    m.concurrentKernels = true;
    m.bytes = 64 << 20;
    m.work = 96;
    m.repetitions = 7;
    m.order = StreamIssueOrder::ByStage;
    m.timelineSource = "cupti_activity";
    m.timelineNote = "CUPTI's records of when each copy and kernel ran";
    m.stages = StreamStageTimes{2.75, 2.5, 2.625};
    for (int streams : {2, 1}) { // out of order: the reader sorts them
        StreamsRun run;
        run.streams = streams;
        run.totalMs = streams == 1 ? 7.875 : 5.25;
        run.minMs = run.totalMs - 0.125;
        run.maxMs = run.totalMs + 0.25;
        run.samples = 7;
        for (int s = 0; s < streams; ++s) {
            const double at = 1.5 * s;
            run.timeline.push_back({s, StreamOp::H2d, at, at + 1.25, (64 << 20) / streams, 3});
            run.timeline.push_back({s, StreamOp::Kernel, at + 1.25, at + 2.5, 0, -1});
            run.timeline.push_back(
                {s, StreamOp::D2h, at + 2.5, at + 3.75, (64 << 20) / streams, 5});
        }
        m.runs.push_back(run);
    }
    return m;
}

TEST(StreamsResults, WrittenAndReadBackGiveTheSameMeasurement) {
    const StreamsMeasurement written = sampleStreams();
    const json answer = toJson(written);
    const auto read = streamsMeasurementFromJsonText(answer.dump());
    ASSERT_TRUE(read) << read.error().describe();
    const StreamsMeasurement& m = read.value();
    EXPECT_EQ(m.deviceName, written.deviceName);
    EXPECT_EQ(m.asyncEngineCount, 2);
    EXPECT_TRUE(m.concurrentKernels);
    EXPECT_EQ(m.bytes, written.bytes);
    EXPECT_EQ(m.work, 96);
    EXPECT_EQ(m.repetitions, 7);
    EXPECT_EQ(m.order, StreamIssueOrder::ByStage);
    EXPECT_EQ(m.timelineSource, "cupti_activity");
    EXPECT_EQ(m.timelineNote, written.timelineNote);
    EXPECT_DOUBLE_EQ(m.stages.h2dMs, 2.75);
    EXPECT_DOUBLE_EQ(m.stages.kernelMs, 2.5);
    EXPECT_DOUBLE_EQ(m.stages.d2hMs, 2.625);
    ASSERT_EQ(m.runs.size(), 2u);
    EXPECT_EQ(m.runs[0].streams, 1); // ascending
    for (const StreamsRun& run : m.runs) {
        const StreamsRun& same = *written.run(run.streams);
        EXPECT_DOUBLE_EQ(run.totalMs, same.totalMs);
        EXPECT_DOUBLE_EQ(run.minMs, same.minMs);
        EXPECT_DOUBLE_EQ(run.maxMs, same.maxMs);
        EXPECT_EQ(run.samples, 7);
        ASSERT_EQ(run.timeline.size(), same.timeline.size());
        for (std::size_t i = 0; i < run.timeline.size(); ++i) {
            EXPECT_EQ(run.timeline[i].stream, same.timeline[i].stream);
            EXPECT_EQ(run.timeline[i].op, same.timeline[i].op);
            EXPECT_DOUBLE_EQ(run.timeline[i].startMs, same.timeline[i].startMs);
            EXPECT_DOUBLE_EQ(run.timeline[i].endMs, same.timeline[i].endMs);
            EXPECT_EQ(run.timeline[i].bytes, same.timeline[i].bytes);
            EXPECT_EQ(run.timeline[i].channel, same.timeline[i].channel);
        }
    }
    EXPECT_DOUBLE_EQ(m.speedup(*m.run(2)), 7.875 / 5.25);
    EXPECT_DOUBLE_EQ(answer["runs"][0]["speedup"].get<double>(), 1.0);
    // Written again (in the reader's order), the answer is the same as the probe's.
    StreamsMeasurement sorted = written;
    std::swap(sorted.runs[0], sorted.runs[1]);
    EXPECT_EQ(toJson(m).dump(), toJson(sorted).dump());
}

// The H100's recorded answer reads, and written again gives back what the probe wrote (the
// model's numbers included: they are core's model over the same stages).
TEST(StreamsResults, TheRecordedH100AnswerReadsAndWritesBackAsRecorded) {
    const json recordedAnswer = recorded("streams_h100.json");
    const auto read = streamsMeasurementFromJson(recordedAnswer);
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_EQ(read.value().runs.size(), 8u);
    const json written = toJson(read.value());
    for (const auto& [key, value] : recordedAnswer.items()) {
        EXPECT_EQ(written.value(key, json()), value) << key;
    }
}

TEST(StreamsResults, HostileAnswersAreRefusedByField) {
    const auto read = [](const std::string& text) { return streamsMeasurementFromJsonText(text); };
    StreamsMeasurement sorted = sampleStreams();
    std::swap(sorted.runs[0], sorted.runs[1]);
    const std::string good = toJson(sorted).dump();
    ASSERT_EQ(refusal(read, good), "");
    const AnswerEdits<decltype(read)> edits{read, good};
    EXPECT_TRUE(names(edits.without("/asyncEngineCount"), "/asyncEngineCount"));
    EXPECT_TRUE(names(edits.with("/asyncEngineCount", 65), "/asyncEngineCount"));
    EXPECT_TRUE(names(edits.with("/asyncEngineCount", "two"), "/asyncEngineCount"));
    EXPECT_TRUE(names(edits.without("/stages"), "/stages"));
    EXPECT_TRUE(names(edits.with("/stages", 3), "/stages"));
    EXPECT_TRUE(names(edits.with("/stages/kernelMs", -1), "/stages/kernelMs"));
    EXPECT_TRUE(names(edits.without("/stages/d2hMs"), "/stages/d2hMs"));
    EXPECT_TRUE(names(edits.with("/order", "sideways"), "/order"));
    EXPECT_TRUE(names(edits.with("/concurrentKernels", "yes"), "/concurrentKernels"));
    EXPECT_TRUE(names(edits.with("/bytes", 1.5), "/bytes"));
    EXPECT_TRUE(names(edits.without("/runs"), "/runs"));
    EXPECT_TRUE(names(edits.with("/runs", json::array()), "/runs"));
    EXPECT_NE(edits.with("/runs", json::array()).find("one-stream run"), std::string::npos);
    EXPECT_TRUE(names(edits.with("/runs/0/streams", 2), "/runs"));
    EXPECT_TRUE(names(edits.with("/runs/1/streams", 0), "/runs/1/streams"));
    EXPECT_TRUE(names(edits.with("/runs/1/totalMs", 0), "/runs/1/totalMs"));
    EXPECT_TRUE(names(edits.without("/runs/1/totalMs"), "/runs/1/totalMs"));
    EXPECT_TRUE(names(edits.with("/runs/1/timeline", "none"), "/runs/1/timeline"));
    EXPECT_TRUE(names(edits.with("/runs/1/timeline/4/op", "memset"), "/runs/1/timeline/4/op"));
    EXPECT_TRUE(names(edits.with("/runs/1/timeline/4/stream", 2), "/runs/1/timeline/4/stream"));
    EXPECT_TRUE(names(edits.with("/runs/0/timeline/0/stream", 1), "/runs/0/timeline/0/stream"));
    EXPECT_TRUE(names(edits.with("/runs/1/timeline/4/endMs", 0.5), "/runs/1/timeline/4/endMs"));
    EXPECT_TRUE(names(edits.without("/runs/1/timeline/4/startMs"), "/runs/1/timeline/4/startMs"));
    EXPECT_TRUE(
        names(edits.with("/runs/1/timeline/4/channel", "dma"), "/runs/1/timeline/4/channel"));
    EXPECT_TRUE(names(edits.with("/runs/1/timeline/4", 9), "/runs/1/timeline/4"));
}

L2PersistenceMeasurement sampleL2() {
    L2PersistenceMeasurement m;
    m.device.name = "NVIDIA H100 80GB HBM3";
    m.device.l2Bytes = std::int64_t{50} << 20;
    m.device.persistingL2MaxBytes = 32768000;
    m.device.maxWindowBytes = std::int64_t{128} << 20;
    m.device.deviceFreeBytes = std::int64_t{80} << 30;
    m.device.l2Partitions = 2;
    m.setAsideBytes = 32768000;
    m.previousSetAsideBytes = 4096;
    m.streamBytes = std::int64_t{2} << 30;
    m.streamPerRegion = 4;
    m.repetitions = 7;
    m.countersMeasured = true;
    m.capNote = "window sizes from 128 MiB up were left out";
    L2PersistencePlan plan;
    plan.setAsideBytes = m.setAsideBytes;
    plan.streamBytes = m.streamBytes;
    plan.l2Partitions = 2;
    const std::int64_t window = std::int64_t{16} << 20;
    m.points.push_back(
        l2PersistencePoint(window, false, 0.0, false, {1.5, 1.625, 1.75}, plan, m.device.l2Bytes));
    m.points.push_back(
        l2PersistencePoint(window, true, 1.0, false, {1.25, 1.5}, plan, m.device.l2Bytes));
    m.points.push_back(
        l2PersistencePoint(window, true, 0.5, true, {1.375}, plan, m.device.l2Bytes));
    for (std::size_t i = 0; i < 2; ++i) { // the third without counters
        L2PersistencePoint& point = m.points[i];
        point.countersMeasured = true;
        point.hitRatePct = 20.5 + static_cast<double>(i);
        point.sectorHits = 1.5e6;
        point.sectorMisses = 3.25e6;
        point.dramReadBytes = 2.25e9;
        deriveRegionHit(point, plan);
    }
    return m;
}

TEST(L2PersistenceResults, WrittenAndReadBackGiveTheSameMeasurement) {
    const L2PersistenceMeasurement written = sampleL2();
    const json answer = toJson(written);
    const auto read = l2PersistenceMeasurementFromJsonText(answer.dump());
    ASSERT_TRUE(read) << read.error().describe();
    const L2PersistenceMeasurement& m = read.value();
    EXPECT_EQ(m.device.name, written.device.name);
    EXPECT_EQ(m.device.l2Bytes, written.device.l2Bytes);
    EXPECT_EQ(m.device.persistingL2MaxBytes, 32768000);
    EXPECT_EQ(m.device.maxWindowBytes, written.device.maxWindowBytes);
    EXPECT_EQ(m.device.deviceFreeBytes, written.device.deviceFreeBytes);
    EXPECT_EQ(m.device.l2Partitions, 2);
    EXPECT_EQ(m.setAsideBytes, 32768000);
    EXPECT_EQ(m.previousSetAsideBytes, 4096);
    EXPECT_EQ(m.streamBytes, written.streamBytes);
    EXPECT_EQ(m.streamPerRegion, 4);
    EXPECT_EQ(m.repetitions, 7);
    EXPECT_TRUE(m.countersMeasured);
    EXPECT_EQ(m.capNote, written.capNote);
    ASSERT_EQ(m.points.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        const L2PersistencePoint& a = m.points[i];
        const L2PersistencePoint& b = written.points[i];
        EXPECT_EQ(a.windowBytes, b.windowBytes);
        EXPECT_EQ(a.window, b.window);
        EXPECT_DOUBLE_EQ(a.hitRatio, b.hitRatio);
        EXPECT_EQ(a.tuned, b.tuned);
        EXPECT_DOUBLE_EQ(a.medianMs, b.medianMs);
        EXPECT_DOUBLE_EQ(a.minMs, b.minMs);
        EXPECT_DOUBLE_EQ(a.maxMs, b.maxMs);
        EXPECT_EQ(a.samples, b.samples);
        EXPECT_DOUBLE_EQ(a.bandwidthGBs, b.bandwidthGBs);
        EXPECT_EQ(a.countersMeasured, b.countersMeasured);
        EXPECT_DOUBLE_EQ(a.hitRatePct, b.hitRatePct);
        EXPECT_DOUBLE_EQ(a.sectorHits, b.sectorHits);
        EXPECT_DOUBLE_EQ(a.sectorMisses, b.sectorMisses);
        EXPECT_DOUBLE_EQ(a.dramReadBytes, b.dramReadBytes);
        EXPECT_DOUBLE_EQ(a.regionHitPct, b.regionHitPct);
        EXPECT_DOUBLE_EQ(a.modelRegionHitPct, b.modelRegionHitPct);
        EXPECT_DOUBLE_EQ(a.modelHitRatePct, b.modelHitRatePct);
        EXPECT_EQ(a.modelRegionHitKind, b.modelRegionHitKind);
        EXPECT_EQ(a.modelHitRateKind, b.modelHitRateKind);
    }
    EXPECT_EQ(m.points[1].modelRegionHitKind, L2ModelKind::Prediction); // 16 MiB, hitRatio 1
    EXPECT_EQ(m.points[2].modelRegionHitKind, L2ModelKind::Estimate);
    EXPECT_EQ(toJson(m).dump(), answer.dump());
}

TEST(L2PersistenceResults, KindsAbsentFollowTheModel) {
    json answer = toJson(sampleL2());
    for (json& point : answer["points"]) {
        point.erase("modelRegionHitKind");
        point.erase("modelHitRateKind");
    }
    const auto read = l2PersistenceMeasurementFromJson(answer);
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_EQ(read.value().points[1].modelRegionHitKind, L2ModelKind::Prediction);
    EXPECT_EQ(read.value().points[0].modelRegionHitKind, L2ModelKind::Estimate);
    EXPECT_EQ(read.value().points[1].modelHitRateKind, L2ModelKind::Estimate);
}

TEST(L2PersistenceResults, HostileAnswersAreRefusedByField) {
    const auto read = [](const std::string& text) {
        return l2PersistenceMeasurementFromJsonText(text);
    };
    const std::string good = toJson(sampleL2()).dump();
    ASSERT_EQ(refusal(read, good), "");
    const AnswerEdits<decltype(read)> edits{read, good};
    EXPECT_TRUE(names(edits.without("/points"), "/points"));
    EXPECT_TRUE(names(edits.with("/points", json::array()), "/points"));
    EXPECT_TRUE(names(edits.with("/points", "all"), "/points"));
    EXPECT_TRUE(names(edits.with("/device", false), "/device"));
    EXPECT_TRUE(names(edits.with("/l2Bytes", "50 MiB"), "/l2Bytes"));
    EXPECT_TRUE(names(edits.with("/l2Partitions", 2.5), "/l2Partitions"));
    EXPECT_TRUE(names(edits.with("/countersMeasured", 1), "/countersMeasured"));
    EXPECT_TRUE(names(edits.with("/setAsideBytes", nullptr), "/setAsideBytes"));
    EXPECT_TRUE(names(edits.with("/points/2", "point"), "/points/2"));
    EXPECT_TRUE(names(edits.with("/points/1/windowBytes", -1), "/points/1/windowBytes"));
    EXPECT_TRUE(names(edits.without("/points/1/windowBytes"), "/points/1/windowBytes"));
    EXPECT_TRUE(names(edits.without("/points/0/medianMs"), "/points/0/medianMs"));
    EXPECT_TRUE(names(edits.with("/points/0/medianMs", -0.5), "/points/0/medianMs"));
    EXPECT_TRUE(names(edits.with("/points/2/hitRatio", 2), "/points/2/hitRatio"));
    EXPECT_TRUE(names(edits.with("/points/2/hitRatio", 0), "/points/2/hitRatio"));
    EXPECT_TRUE(names(edits.with("/points/2/window", "yes"), "/points/2/window"));
    EXPECT_TRUE(
        names(edits.with("/points/1/modelRegionHitKind", "guess"), "/points/1/modelRegionHitKind"));
    EXPECT_TRUE(names(edits.with("/points/1/modelHitRateKind", 3), "/points/1/modelHitRateKind"));
    EXPECT_TRUE(names(edits.with("/points/0/counters", 3), "/points/0/counters"));
    EXPECT_TRUE(names(edits.with("/points/0/counters/dram__bytes_read.sum", "2 GB"),
                      "/points/0/counters/dram__bytes_read.sum"));
}

// The H100's recorded answer reads, and written again gives back what the probe wrote, but for
// the model's statement ("model"), which is today's wording, not the recorded one.
TEST(L2PersistenceResults, TheRecordedH100AnswerReadsAndWritesBackAsRecorded) {
    const json recordedAnswer = recorded("l2_persistence_h100.json");
    const auto read = l2PersistenceMeasurementFromJson(recordedAnswer);
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_EQ(read.value().points.size(), 43u);
    const json written = toJson(read.value());
    for (const auto& [key, value] : recordedAnswer.items()) {
        if (key != "model") {
            EXPECT_EQ(written.value(key, json()), value) << key;
        }
    }
}

// The request options: defaults when absent, values read, and every refusal an InvalidValue error
// naming the field's JSON pointer (the probe answers it as bad_request at that pointer).

TEST(TransferOptionsJson, BadOptionsNameTheField) {
    const auto error = [](const json& options) {
        auto parsed = TransfersExperiment::optionsFromJson(json{{"options", options}});
        return parsed ? std::string("accepted")
                      : parsed.error().where + ": " + parsed.error().message;
    };
    EXPECT_NE(error({{"modes", {"h2d_pinned", "sideways"}}}).find("/options/modes/1: unknown"),
              std::string::npos);
    EXPECT_NE(error({{"sizes", {4096, 1000001}}}).find("/options/sizes/1"), std::string::npos);
    EXPECT_NE(error({{"repetitions", 0}}).find("/options/repetitions"), std::string::npos);
    EXPECT_NE(error({{"step", 1}}).find("/options/step"), std::string::npos);
    EXPECT_NE(error({{"maxbytes", 1}}).find("no option \"maxbytes\""), std::string::npos);
    auto parsed = TransfersExperiment::optionsFromJson(
        json{{"options", {{"modes", {"sum_zerocopy", "h2d_pageable"}}, {"repetitions", 3}}}});
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    const TransferOptions& options = parsed.value();
    EXPECT_EQ(options.modes,
              (std::vector<TransferMode>{TransferMode::SumZeroCopy, TransferMode::H2dPageable}));
    EXPECT_EQ(options.repetitions, 3);
}

std::string errorWhere(const json& request) {
    auto parsed = StreamsExperiment::optionsFromJson(request);
    if (!parsed) {
        EXPECT_EQ(parsed.error().code, ErrorCode::InvalidValue);
        return parsed.error().where + ": " + parsed.error().message;
    }
    return "accepted";
}

TEST(StreamsOptions, DefaultsAndValues) {
    auto parsed = StreamsExperiment::optionsFromJson(json::object());
    ASSERT_TRUE(parsed.ok());
    const StreamsOptions defaults = parsed.value();
    EXPECT_EQ(defaults.bytes, 64 << 20);
    EXPECT_EQ(defaults.repetitions, 7);
    EXPECT_EQ(defaults.work, 0);
    EXPECT_EQ(streamsCounts(defaults), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
    parsed = StreamsExperiment::optionsFromJson(json::parse(
        R"({"options":{"bytes":1048576,"streams":[4,2,4],"repetitions":3,"work":10,"order":"by_stage"}})"));
    ASSERT_TRUE(parsed.ok());
    const StreamsOptions options = parsed.value();
    EXPECT_EQ(options.bytes, 1048576);
    EXPECT_EQ(options.order, StreamIssueOrder::ByStage);
    // One stream is always measured: it is the sequential baseline.
    EXPECT_EQ(streamsCounts(options), (std::vector<int>{1, 2, 4}));
}

TEST(StreamsOptions, BadOptionsNameTheField) {
    EXPECT_EQ(
        errorWhere(json::parse(R"({"options":{"bytes":1048577}})")).rfind("/options/bytes:", 0),
        0u);
    EXPECT_NE(errorWhere(json::parse(R"({"options":{"bytes":1024}})")).find("from 65536"),
              std::string::npos);
    EXPECT_EQ(
        errorWhere(json::parse(R"({"options":{"streams":[2,0]}})")).rfind("/options/streams/1:", 0),
        0u);
    EXPECT_EQ(
        errorWhere(json::parse(R"({"options":{"streams":[]}})")).rfind("/options/streams:", 0), 0u);
    EXPECT_EQ(errorWhere(json::parse(R"({"options":{"work":-1}})")).rfind("/options/work:", 0), 0u);
    EXPECT_EQ(
        errorWhere(json::parse(R"({"options":{"order":"sideways"}})")).rfind("/options/order:", 0),
        0u);
    EXPECT_NE(
        errorWhere(json::parse(R"({"options":{"stream":[2]}})")).find("takes no option \"stream\""),
        std::string::npos);
}

TEST(L2PersistenceOptions, BadOptionsAreNamedByPlace) {
    const auto where = [](const std::string& text) {
        auto parsed = L2PersistenceExperiment::optionsFromJson(json::parse(text));
        if (!parsed) {
            return parsed.error().where;
        }
        return std::string("ok");
    };
    EXPECT_EQ(where(R"({"options":{"windowBytes":[1048576]}})"), "ok");
    EXPECT_EQ(where(R"({"options":[]})"), "/options");
    EXPECT_EQ(where(R"({"options":{"window":1}})"), "/options/window");
    EXPECT_EQ(where(R"({"options":{"windowBytes":[1048576,1000]}})"), "/options/windowBytes/1");
    EXPECT_EQ(where(R"({"options":{"windowBytes":5}})"), "/options/windowBytes");
    EXPECT_EQ(where(R"({"options":{"hitRatios":[0.5,0]}})"), "/options/hitRatios/1");
    EXPECT_EQ(where(R"({"options":{"hitRatios":["all"]}})"), "/options/hitRatios/0");
    EXPECT_EQ(where(R"({"options":{"tuned":1}})"), "/options/tuned");
    EXPECT_EQ(where(R"({"options":{"streamPerRegion":0}})"), "/options/streamPerRegion");
    EXPECT_EQ(where(R"({"options":{"repetitions":1001}})"), "/options/repetitions");
    EXPECT_EQ(where(R"({"options":{"streamBytes":-1}})"), "/options/streamBytes");
    EXPECT_EQ(where(R"({"options":{"counters":"no"}})"), "/options/counters");
}

TEST(ExperimentOptions, AnUnknownOptionIsRefusedWithTheListOfOptions) {
    const json request = json::parse(R"({"options":{"bogus":1}})");
    const auto message = [](const auto& parsed) {
        return parsed ? std::string("accepted") : parsed.error().describe();
    };
    EXPECT_EQ(message(TransfersExperiment::optionsFromJson(request)),
              "/options/bogus: measure_transfers takes no option \"bogus\"; the options are "
              "minBytes, maxBytes, step, sizes, modes and repetitions");
    EXPECT_EQ(message(StreamsExperiment::optionsFromJson(request)),
              "/options/bogus: measure_streams takes no option \"bogus\"; the options are bytes, "
              "streams, repetitions, work and order");
    EXPECT_EQ(message(L2PersistenceExperiment::optionsFromJson(request)),
              "/options/bogus: measure_l2_persistence takes no option \"bogus\"; the options are "
              "windowBytes, hitRatios, tuned, setAsideBytes, streamBytes, streamPerRegion, "
              "repetitions and counters");
    // An empty options object reads as no options at all.
    const auto none = StreamsExperiment::optionsFromJson(json::object());
    const auto empty = StreamsExperiment::optionsFromJson(json::parse(R"({"options":{}})"));
    ASSERT_TRUE(none && empty);
    EXPECT_EQ(none->bytes, empty->bytes);
    EXPECT_EQ(none->repetitions, empty->repetitions);
    EXPECT_EQ(message(TransfersExperiment::optionsFromJson(json::parse(R"({"options":3})"))),
              "/options: \"options\" must be an object");
}

TEST(ExperimentCommandLineText, SizesAndListsAsTheProbeReadsThem) {
    EXPECT_EQ(parseOptionByteSize("4096"), 4096);
    EXPECT_EQ(parseOptionByteSize("64K"), 64 << 10);
    EXPECT_EQ(parseOptionByteSize("4kib"), 4 << 10);
    EXPECT_EQ(parseOptionByteSize("256M"), 256 << 20);
    EXPECT_EQ(parseOptionByteSize("1G"), 1LL << 30);
    EXPECT_EQ(parseOptionByteSize("12B"), 12);
    EXPECT_EQ(parseOptionByteSize(""), -1);
    EXPECT_EQ(parseOptionByteSize("G"), -1);
    EXPECT_EQ(parseOptionByteSize("4T"), -1);
    EXPECT_EQ(parseOptionByteSize("-4"), -1);
    // 15 digits in GiB would not fit in 64 bits: refused, not wrapped.
    EXPECT_EQ(parseOptionByteSize("999999999999999G"), -1);
    EXPECT_EQ(parseOptionByteSize("8589934591G"), 8589934591LL << 30);
    EXPECT_EQ(parseOptionByteSize("8589934592G"), -1);
    EXPECT_EQ(splitOptionList("a,b,,c"), (std::vector<std::string>{"a", "b", "", "c"}));
    EXPECT_EQ(fixedDecimals(2.0 / 3.0, 3), "0.667");
    EXPECT_EQ(padColumns("ab", 4), "ab  ");
    EXPECT_EQ(padColumns("ab", 4, true), "  ab");
    EXPECT_EQ(padColumns("\u2713", 2, true), " \u2713"); // one column, three bytes
}

} // namespace
} // namespace warpscope::experiments
