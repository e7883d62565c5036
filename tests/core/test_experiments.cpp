// The experiments' table (warpscope/experiments/experiments.h): one row per experiment's traits,
// found by its key and its request op, each op answered by the protocol's one Experiment row (a
// cancellable, device-taking GPU op with progress), each with a command line, and the keys, ops
// and session keys that sessions, decks and scripts already hold.
#include <warpscope/experiments/experiments.h>
#include <warpscope/experiments/l2_persistence.h>
#include <warpscope/experiments/streams.h>
#include <warpscope/experiments/transfers.h>
#include <warpscope/protocol/ops.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

namespace warpscope::experiments {
namespace {

using json = nlohmann::json;

TEST(Experiments, EveryRowIsFoundByItsKeyAndItsOpNameAndNamesDistinctThings) {
    std::set<std::string> keys;
    std::set<std::string> opNames;
    std::set<std::string> options;
    std::set<std::string> sessionKeys;
    for (const Experiment& row : experiments()) {
        EXPECT_TRUE(keys.insert(std::string(row.key)).second) << row.key << " twice";
        EXPECT_TRUE(opNames.insert(std::string(row.opName)).second) << row.opName << " twice";
        EXPECT_TRUE(options.insert(std::string(row.resultsOption)).second) << row.resultsOption;
        EXPECT_TRUE(sessionKeys.insert(std::string(row.sessionKey)).second) << row.sessionKey;
        ASSERT_NE(findExperiment(row.key), nullptr) << row.key;
        EXPECT_EQ(findExperiment(row.key), &row);
        EXPECT_EQ(&experiment(row.key), &row);
        EXPECT_EQ(findExperimentByOpName(row.opName), &row);
        EXPECT_FALSE(row.title.empty()) << row.key;
        // An op of its own: no fixed op of the protocol has the experiment's name.
        EXPECT_EQ(row.opName.rfind("measure_", 0), 0u) << row.opName;
        EXPECT_NE(row.opName, "measure_kernel");
    }
    EXPECT_EQ(keys.size(), 3u);
    EXPECT_EQ(findExperiment("warp"), nullptr);
    EXPECT_EQ(findExperiment(""), nullptr);
    EXPECT_EQ(findExperiment("Transfers"), nullptr); // keys are exact
    EXPECT_EQ(findExperimentByOpName("measure"), nullptr);
    EXPECT_EQ(findExperimentByOpName("transfers"), nullptr); // the key is not the op
}

/// The row of `Traits`: found by the traits' key, with the traits' command line.
template <class Traits> void expectRowOfTraits() {
    const Experiment* row = findExperiment(Traits::key);
    ASSERT_NE(row, nullptr) << Traits::key << " has traits but no row in experiments.cpp";
    EXPECT_EQ(row->key, Traits::key);
    const ExperimentCommandLine commandLine = Traits::commandLine();
    EXPECT_EQ(row->commandLine.readOption, commandLine.readOption) << Traits::key;
    EXPECT_EQ(row->commandLine.report, commandLine.report) << Traits::key;
    EXPECT_EQ(row->commandLine.usage, commandLine.usage) << Traits::key;
    // No options: the defaults; options that are no object: refused at their pointer.
    EXPECT_TRUE(Traits::optionsFromJson(json::object()).ok()) << Traits::key;
    const auto refused = Traits::optionsFromJson(json{{"options", json::array()}});
    ASSERT_FALSE(refused.ok()) << Traits::key;
    EXPECT_EQ(refused.error().where, "/options") << Traits::key;
    EXPECT_EQ(refused.error().code, ErrorCode::InvalidValue);
    // The answer's writer and reader are the traits' (test_experiment_results.cpp runs them).
    static_assert(std::is_same_v<decltype(Traits::measurementFromJsonText(std::string_view())),
                                 Result<typename Traits::Measurement>>);
    static_assert(
        std::is_same_v<decltype(Traits::toJson(typename Traits::Measurement{})), nlohmann::json>);
}

TEST(Experiments, EveryExperimentsTraitsHaveTheirRow) {
    expectRowOfTraits<TransfersExperiment>();
    expectRowOfTraits<StreamsExperiment>();
    expectRowOfTraits<L2PersistenceExperiment>();
    // One row per traits: a row added without its traits' header here fails this count.
    EXPECT_EQ(experiments().size(), 3u);
}

TEST(Experiments, EveryRowHasACommandLine) {
    for (const Experiment& row : experiments()) {
        const ExperimentCommandLine& command = row.commandLine;
        EXPECT_FALSE(command.synopsis.empty()) << row.key;
        // The usage paragraph starts with the command's name, as --help lists it.
        EXPECT_EQ(command.usage.substr(0, row.key.size()), row.key);
        EXPECT_EQ(command.usage.back(), '\n') << row.key;
        ASSERT_NE(command.readOption, nullptr) << row.key;
        ASSERT_NE(command.report, nullptr) << row.key;
        EXPECT_FALSE(command.progress.unit.empty()) << row.key;
        json options = json::object();
        const std::string refusal = command.readOption("--no-such-option", "1", options);
        EXPECT_EQ(refusal, std::string(row.key) + " takes no option '--no-such-option'");
        EXPECT_EQ(options, json::object());
    }
}

TEST(Experiments, OpsAreCancellableGpuOpsThatTakeTheChosenDevice) {
    for (const Experiment& row : experiments()) {
        const protocol::OpInfo* op = protocol::findOp(row.opName);
        ASSERT_NE(op, nullptr) << row.opName;
        EXPECT_EQ(op->op, protocol::ProbeOp::Experiment) << row.key;
        EXPECT_TRUE(op->needsGpu) << row.key;
        EXPECT_TRUE(op->takesDevice) << row.key;
        EXPECT_TRUE(op->cancellable) << row.key;
        EXPECT_TRUE(op->reportsProgress) << row.key;
    }
}

TEST(Experiments, KeysThatSessionsDecksAndScriptsAlreadyHoldStay) {
    // Sessions written before this table keep their results under these keys; decks and
    // scripts name these views and options; the app and older probes send these ops.
    const Experiment& transfers = experiment("transfers");
    EXPECT_EQ(transfers.key, TransfersExperiment::key);
    EXPECT_EQ(transfers.resultsOption, "transfers");
    EXPECT_EQ(transfers.sessionKey, "transfers.results");
    EXPECT_EQ(transfers.opName, "measure_transfers");
    const Experiment& streams = experiment("streams");
    EXPECT_EQ(streams.key, StreamsExperiment::key);
    EXPECT_EQ(streams.sessionKey, "streams.results");
    EXPECT_EQ(streams.opName, "measure_streams");
    const Experiment& l2 = experiment("l2-persistence");
    EXPECT_EQ(l2.key, L2PersistenceExperiment::key);
    EXPECT_EQ(l2.resultsOption, "l2-persistence");
    EXPECT_EQ(l2.sessionKey, "l2persistence.results");
    EXPECT_EQ(l2.opName, "measure_l2_persistence");
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
