// The experiments' table (warpscope/experiments/experiments.h): one row per experiment, found by
// its key and its op, each op one the protocol's table marks as a cancellable, device-taking GPU
// op with progress, and the keys and session keys sessions and decks already hold.
#include <warpscope/experiments/experiments.h>
#include <warpscope/protocol/ops.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

namespace warpscope::experiments {
namespace {

TEST(Experiments, EveryRowIsFoundByItsKeyAndItsOpAndNamesDistinctThings) {
    std::set<std::string> keys;
    std::set<std::string> options;
    std::set<std::string> sessionKeys;
    for (const Experiment& row : experiments()) {
        EXPECT_TRUE(keys.insert(std::string(row.key)).second) << row.key << " twice";
        EXPECT_TRUE(options.insert(std::string(row.resultsOption)).second) << row.resultsOption;
        EXPECT_TRUE(sessionKeys.insert(std::string(row.sessionKey)).second) << row.sessionKey;
        ASSERT_NE(findExperiment(row.key), nullptr) << row.key;
        EXPECT_EQ(findExperiment(row.key), &row);
        EXPECT_EQ(findExperimentByOp(row.op), &row);
        EXPECT_EQ(&experiment(row.id), &row);
        EXPECT_FALSE(row.title.empty()) << row.key;
    }
    EXPECT_EQ(keys.size(), 3u);
    EXPECT_EQ(findExperiment("warp"), nullptr);
    EXPECT_EQ(findExperiment(""), nullptr);
    EXPECT_EQ(findExperiment("Transfers"), nullptr); // keys are exact
    EXPECT_EQ(findExperimentByOp(protocol::ProbeOp::Measure), nullptr);
}

TEST(Experiments, OpsAreCancellableGpuOpsThatTakeTheChosenDevice) {
    for (const Experiment& row : experiments()) {
        const protocol::OpInfo& op = protocol::opInfo(row.op);
        EXPECT_TRUE(op.needsGpu) << row.key;
        EXPECT_TRUE(op.takesDevice) << row.key;
        EXPECT_TRUE(op.cancellable) << row.key;
        EXPECT_TRUE(op.reportsProgress) << row.key;
    }
}

TEST(Experiments, KeysThatSessionsDecksAndScriptsAlreadyHoldStay) {
    // Sessions written before this table keep their results under these keys; decks and
    // scripts name these views and options.
    const Experiment& transfers = experiment(ExperimentId::Transfers);
    EXPECT_EQ(transfers.key, "transfers");
    EXPECT_EQ(transfers.resultsOption, "transfers");
    EXPECT_EQ(transfers.sessionKey, "transfers.results");
    EXPECT_EQ(transfers.op, protocol::ProbeOp::MeasureTransfers);
    const Experiment& streams = experiment(ExperimentId::Streams);
    EXPECT_EQ(streams.key, "streams");
    EXPECT_EQ(streams.sessionKey, "streams.results");
    EXPECT_EQ(streams.op, protocol::ProbeOp::MeasureStreams);
    const Experiment& l2 = experiment(ExperimentId::L2Persistence);
    EXPECT_EQ(l2.key, "l2-persistence");
    EXPECT_EQ(l2.resultsOption, "l2-persistence");
    EXPECT_EQ(l2.sessionKey, "l2persistence.results");
    EXPECT_EQ(l2.op, protocol::ProbeOp::MeasureL2Persistence);
    EXPECT_EQ(experimentKeyList(), "transfers, streams or l2-persistence");
}

TEST(Experiments, ExampleFilesExistInTheSourceTree) {
    for (const Experiment& row : experiments()) {
        // The source tree is two levels above tests/data.
        const std::filesystem::path file =
            std::filesystem::path(WARPSCOPE_TEST_DATA_DIR).parent_path().parent_path() /
            std::string(row.exampleFile);
        EXPECT_TRUE(std::filesystem::is_regular_file(file)) << file;
    }
}

} // namespace
} // namespace warpscope::experiments
