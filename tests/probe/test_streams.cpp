// measure_streams without a GPU: the chunks and stream counts, the answer through serve() with the
// fake backend (progress lines, timeline, the model's prediction beside the measured speed-up,
// which the fake makes differ), refusals and cancel. The options are core's
// (tests/core/test_experiment_results.cpp).
#include "fake_backend.h"
#include "probe_protocol.h"
#include "servelines.h"
#include "warpscope/experiments/streams.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace warpscope::probe;
using namespace warpscope::experiments;
using warpscope::StreamIssueOrder;
using json = nlohmann::json;

using warpscope::probe::test::serveLines;

TEST(StreamsChunks, CoverTheArrayExactly) {
    const std::int64_t elements = 1000003;
    for (int n : {1, 3, 7, 8}) {
        std::int64_t next = 0;
        for (int i = 0; i < n; ++i) {
            const StreamsChunk chunk = streamsChunk(elements, n, i);
            EXPECT_EQ(chunk.first, next);
            EXPECT_GE(chunk.count, elements / n);
            EXPECT_LE(chunk.count, elements / n + 1);
            next = chunk.first + chunk.count;
        }
        EXPECT_EQ(next, elements) << n;
    }
}

TEST(MeasureStreams, AnswersRunsTimelinesAndPredictionThroughServe) {
    FakeBackend backend;
    const auto lines = serveLines(
        backend, R"({"id":1,"op":"measure_streams","options":{"bytes":16777216,"streams":[2,4],)"
                 R"("repetitions":3}})"
                 "\n");
    ASSERT_EQ(lines.size(), 4u); // three progress lines (1, 2 and 4 streams), one answer
    EXPECT_EQ(lines[0]["progress"]["total"], 3);
    const json& answer = lines[3];
    ASSERT_TRUE(answer["ok"].get<bool>()) << answer.dump();
    const json& result = answer["result"];
    EXPECT_EQ(result["asyncEngineCount"], 2);
    EXPECT_EQ(result["timelineSource"], "cupti_activity");
    ASSERT_EQ(result["runs"].size(), 3u);
    const json& four = result["runs"][2];
    EXPECT_EQ(four["streams"], 4);
    ASSERT_EQ(four["timeline"].size(), 12u);
    EXPECT_EQ(four["timeline"][0]["op"], "h2d");
    EXPECT_EQ(four["timeline"][0]["bytes"], 16777216 / 4);
    // Stage times: 16 MiB at 25 GB/s, plus the fake's 10 us.
    const double copyMs = 16777216 / 25e6;
    EXPECT_NEAR(result["stages"]["h2dMs"].get<double>(), copyMs + 0.01, 1e-12);
    // The model's pipeline over the stages (equal, 2 engines): (3 + 4 - 1) / 4 of one stage.
    const double stage = copyMs + 0.01;
    EXPECT_NEAR(four["predictedMs"].get<double>(), 6.0 * stage / 4.0, 1e-9);
    EXPECT_NEAR(four["predictedSpeedup"].get<double>(), 2.0, 1e-9);
    // The fake pays 10 us per operation that the model leaves out: measured below predicted.
    const double measured = four["speedup"].get<double>();
    EXPECT_LT(measured, 2.0 - 1e-3);
    EXPECT_NEAR(measured, 3.0 * stage / four["totalMs"].get<double>(), 1e-9);
    EXPECT_EQ(result["runs"][0]["speedup"], 1.0);
}

TEST(MeasureStreams, OneCopyEngineIssuedPerStreamDoesNotSpeedUp) {
    FakeBackend backend;
    backend.streamsEngines = 1;
    StreamsOptions options;
    options.streams = {4};
    auto measured = backend.measureStreams(options, nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<StreamsMeasurement>(measured));
    const json result = toJson(std::get<StreamsMeasurement>(measured));
    EXPECT_NEAR(result["runs"][1]["predictedSpeedup"].get<double>(), 1.0, 1e-9);
    EXPECT_LE(result["runs"][1]["speedup"].get<double>(), 1.0);
    EXPECT_NE(result["model"].get<std::string>().find("one copy engine"), std::string::npos);
}

TEST(MeasureStreams, RefusalsAreErrorsWithCodes) {
    FakeBackend backend; // 1 GiB of device memory
    const auto lines =
        serveLines(backend, R"({"id":1,"op":"measure_streams","options":{"bytes":1073741824}})"
                            "\n"
                            R"({"id":2,"op":"measure_streams","streams":[2]})"
                            "\n"
                            R"({"id":3,"op":"measure_streams","options":{"order":1}})"
                            "\n");
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0]["error"]["code"], "out_of_memory");
    EXPECT_NE(lines[0]["error"]["message"].get<std::string>().find("two arrays of 1 GiB"),
              std::string::npos);
    EXPECT_EQ(lines[1]["error"]["code"], "bad_request");
    EXPECT_EQ(lines[1]["error"]["where"], "/streams");
    EXPECT_EQ(lines[2]["error"]["where"], "/options/order");
    EXPECT_EQ(backend.measureStreamsCalls.load(), 1);
}

TEST(MeasureStreams, CancelStopsBetweenStreamCounts) {
    FakeBackend backend;
    std::atomic<bool> cancel{false};
    backend.beforeItem = [&](int index) {
        if (index == 1) {
            cancel = true;
        }
    };
    auto result = backend.measureStreams(StreamsOptions{}, nullptr, [&] { return cancel.load(); });
    ASSERT_TRUE(std::holds_alternative<ProbeError>(result));
    EXPECT_EQ(std::get<ProbeError>(result).code, ProbeErrorCode::Cancelled);
    EXPECT_EQ(std::get<ProbeError>(result).message, "cancelled after 2 of 8 stream counts");
}

TEST(MeasureStreams, HelloListsTheOp) {
    FakeBackend backend;
    const auto lines = serveLines(backend, R"({"id":1,"op":"hello"})"
                                           "\n");
    ASSERT_EQ(lines.size(), 1u);
    const json& ops = lines[0]["result"]["ops"];
    EXPECT_NE(std::find(ops.begin(), ops.end(), "measure_streams"), ops.end()) << ops.dump();
}

} // namespace
