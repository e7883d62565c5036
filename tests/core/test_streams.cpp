// The streams-and-overlap model (warpscope/streams.h): each row a stage split, an engine count
// and the schedule the notes' reasoning gives, worked out by hand.
#include "warpscope/streams.h"

#include <gtest/gtest.h>

namespace warpscope {
namespace {

TEST(StreamsModel, OneStreamIsTheSequentialSum) {
    const StreamStageTimes stages{2.0, 1.0, 3.0};
    for (int engines : {0, 1, 2, 3}) {
        const StreamPrediction p = predictStreams(stages, 1, engines);
        EXPECT_DOUBLE_EQ(p.totalMs, 6.0) << engines;
        EXPECT_DOUBLE_EQ(p.speedup, 1.0) << engines;
        ASSERT_EQ(p.spans.size(), 3u);
        EXPECT_DOUBLE_EQ(p.spans[1].startMs, 2.0);
        EXPECT_DOUBLE_EQ(p.spans[2].startMs, 3.0);
    }
}

TEST(StreamsModel, TwoEnginesPipelineThreeStages) {
    // Equal stages of 1 ms, 4 streams: chunks of 0.25 ms; a three-stage pipeline takes
    // (3 + 4 - 1) x 0.25 = 1.5 ms, a speed-up of 2.
    const StreamPrediction p = predictStreams({1.0, 1.0, 1.0}, 4, 2);
    EXPECT_DOUBLE_EQ(p.totalMs, 1.5);
    EXPECT_DOUBLE_EQ(p.speedup, 2.0);
    // Chunk 1's copy in runs while chunk 0's kernel does.
    EXPECT_DOUBLE_EQ(p.spans[3].startMs, 0.25); // stream 1, h2d
    EXPECT_DOUBLE_EQ(p.spans[1].startMs, 0.25); // stream 0, kernel
    // Three or more engines change nothing: one engine per direction is used.
    EXPECT_DOUBLE_EQ(predictStreams({1.0, 1.0, 1.0}, 4, 3).totalMs, 1.5);
    EXPECT_DOUBLE_EQ(streamSpeedupLimit({1.0, 1.0, 1.0}, 2), 3.0);
}

TEST(StreamsModel, TheSlowestStageBoundsThePipeline) {
    // Kernel 4 ms, copies 1 ms each, 2 engines, 8 streams: 0.125 + 8 x 0.5 + 0.125 = 4.25 ms.
    const StreamPrediction p = predictStreams({1.0, 4.0, 1.0}, 8, 2);
    EXPECT_DOUBLE_EQ(p.totalMs, 4.25);
    EXPECT_NEAR(streamSpeedupLimit({1.0, 4.0, 1.0}, 2), 1.5, 1e-12);
}

TEST(StreamsModel, OneEngineIssuedPerStreamDoesNotOverlap) {
    // One copy engine, first in first out: chunk 0's copy out is queued before chunk 1's copy in
    // and waits for chunk 0's kernel, so nothing overlaps (the blog's first version on a device
    // with one copy engine).
    const StreamPrediction p = predictStreams({1.0, 1.0, 1.0}, 4, 1, StreamIssueOrder::PerStream);
    EXPECT_DOUBLE_EQ(p.totalMs, 3.0);
    EXPECT_DOUBLE_EQ(p.speedup, 1.0);
}

TEST(StreamsModel, OneEngineIssuedByStageOverlapsKernelsWithCopies) {
    // All copies in (1 ms, 4 chunks), the kernels behind each (the last ends at 1.25 ms), then
    // the copies out on the same engine from 1 ms: the last ends at 2 ms, a speed-up of 1.5.
    const StreamPrediction p = predictStreams({1.0, 1.0, 1.0}, 4, 1, StreamIssueOrder::ByStage);
    EXPECT_DOUBLE_EQ(p.totalMs, 2.0);
    EXPECT_DOUBLE_EQ(streamSpeedupLimit({1.0, 1.0, 1.0}, 1), 1.5);
}

TEST(StreamsModel, NoEngineNoOverlap) {
    const StreamPrediction p = predictStreams({1.0, 2.0, 1.0}, 8, 0, StreamIssueOrder::ByStage);
    EXPECT_DOUBLE_EQ(p.totalMs, 4.0);
    EXPECT_DOUBLE_EQ(streamSpeedupLimit({1.0, 2.0, 1.0}, 0), 1.0);
}

TEST(StreamsModel, RowsAndNames) {
    EXPECT_EQ(streamRowNames(3).size(), 3u);
    EXPECT_EQ(streamRowNames(1).size(), 2u);
    EXPECT_EQ(streamRowOf(StreamOp::D2h, 2), 1);
    EXPECT_EQ(streamRowOf(StreamOp::D2h, 1), 0);
    EXPECT_EQ(streamRowOf(StreamOp::Kernel, 1), 1);
    EXPECT_EQ(streamRowOf(StreamOp::Kernel, 5), 2);
    EXPECT_EQ(streamOpFromName("kernel"), StreamOp::Kernel);
    EXPECT_FALSE(streamOpFromName("copy").has_value());
    EXPECT_EQ(streamIssueOrderFromName("by_stage"), StreamIssueOrder::ByStage);
    EXPECT_FALSE(streamIssueOrderFromName("sideways").has_value());
    EXPECT_NE(std::string(streamsNotesStatement()).find("asyncEngineCount"), std::string::npos);
}

} // namespace
} // namespace warpscope
