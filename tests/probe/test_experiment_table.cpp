// The probe's experiments (kernels/protocol/experiment_table.h) against core's tables
// (warpscope/experiments/experiments.h, warpscope/protocol/ops.h): every op core declares is
// answered (by serve's own cases or by an experiment), every experiment has a runner on every
// backend and a command line, and each experiment's runner is the one of the backend the request
// is for.
#include "experiment_commands.h"
#include "experiment_table.h"
#include "fake_backend.h"
#include "servelines.h"

#include "warpscope/experiments/experiments.h"
#include "warpscope/protocol/ops.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <tuple>

namespace warpscope::probe {
namespace {

using json = nlohmann::json;
using test::serveLines;

TEST(ExperimentTable, EveryExperimentIsAnOpAndACommandOfItsOwn) {
    ASSERT_FALSE(experiments::experiments().empty());
    for (const experiments::Experiment& row : experiments::experiments()) {
        const protocol::OpInfo* info = protocol::findOp(row.opName);
        ASSERT_NE(info, nullptr) << row.opName;
        EXPECT_EQ(info->op, protocol::ProbeOp::Experiment) << row.opName;
        // The command line's name is the key, never the op.
        EXPECT_EQ(experiments::findExperiment(row.key), &row) << row.key;
        EXPECT_EQ(experiments::findExperiment(row.opName), nullptr) << row.opName;
    }
    EXPECT_EQ(experimentCommandList(), "transfers, streams and l2-persistence");
}

// The other way round: an op core declares that neither serve's own cases nor an experiment
// answer is answered `internal: op "..." not dispatched`. Every op hello lists is sent (with a
// field no op takes, so that nothing is measured) and none may come back undispatched.
TEST(ExperimentTable, EveryOpOfCoresTableIsAnswered) {
    FakeBackend backend;
    std::string input;
    int id = 0;
    for (const std::string_view name : protocol::opNames()) {
        if (name == "shutdown" || name == "cancel") {
            continue; // shutdown ends the input; cancel is answered by the reader at once
        }
        input += json{{"id", ++id}, {"op", name}, {"notAField", 1}}.dump() + "\n";
    }
    const auto lines = serveLines(backend, input);
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(id));
    for (const json& line : lines) {
        const std::string message =
            line.contains("error") ? line["error"].value("message", "") : "";
        EXPECT_EQ(message.find("not dispatched"), std::string::npos) << line.dump();
    }
    EXPECT_EQ(backend.measureTransfersCalls.load(), 0);
    EXPECT_EQ(backend.measureStreamsCalls.load(), 0);
    EXPECT_EQ(backend.measureL2PersistenceCalls.load(), 0);
}

TEST(ExperimentTable, EveryExperimentHasItsCommandLine) {
    const std::string usages = experimentUsages();
    const std::string synopses = experimentSynopses();
    for (const experiments::Experiment& row : experiments::experiments()) {
        const experiments::ExperimentCommandLine& command = row.commandLine;
        EXPECT_EQ(std::string(command.usage).rfind(std::string(row.key), 0), 0u)
            << row.key << ": its usage starts with its name";
        EXPECT_NE(command.readOption, nullptr) << row.key;
        EXPECT_NE(command.report, nullptr) << row.key;
        EXPECT_NE(usages.find(command.usage), std::string::npos) << row.key;
        EXPECT_NE(synopses.find("warpscope-probe " + std::string(row.key) + " [options]"),
                  std::string::npos)
            << row.key;
    }
}

TEST(ExperimentTable, TheFakeBackendRunsEveryExperimentOnEveryDevice) {
    FakeBackend backend;
    backend.deviceCount = 2;
    Backend* second = backend.forDevice(1);
    ASSERT_NE(second, nullptr);
    for (const experiments::Experiment& row : experiments::experiments()) {
        EXPECT_TRUE(backend.experimentRunners().has(row.key)) << row.key;
        EXPECT_TRUE(second->experimentRunners().has(row.key)) << row.key;
    }
    EXPECT_FALSE(backend.experimentRunners().has("measure_transfers")); // by key, not op
}

// A new experiment runs on the fake backend before it has a fake of its own: its options are read
// by its traits and its recorded example is the answer.
TEST(ExperimentTable, AnExperimentWithoutAFakeOfItsOwnAnswersItsRecordedExample) {
    const experiments::Experiment& streams = experiments::experiment("streams");
    const ErasedExperimentRunner runner = FakeBackend::recordedAnswerRunner(streams);
    int steps = 0;
    ExperimentAnswer answer = runner(
        json{{"options", {{"bytes", 1 << 20}}}}, [&](int, int) { ++steps; }, nullptr);
    ASSERT_TRUE(std::holds_alternative<json>(answer));
    EXPECT_EQ(std::get<json>(answer).value("device", ""), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(std::get<json>(answer).value("asyncEngineCount", 0), 3);
    EXPECT_EQ(steps, 1);
    answer = runner(json{{"options", {{"streams", {2, 0}}}}}, nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<ExperimentFailure>(answer));
    EXPECT_EQ(std::get<ExperimentFailure>(answer).error.code, ProbeErrorCode::BadRequest);
    EXPECT_EQ(std::get<ExperimentFailure>(answer).where, "/options/streams/1");
    // A row whose example file is not there: Internal, naming the experiment.
    experiments::Experiment missing = streams;
    missing.exampleFile = "tests/data/no_such_example.json";
    answer = FakeBackend::recordedAnswerRunner(missing)(json::object(), nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<ExperimentFailure>(answer));
    EXPECT_EQ(std::get<ExperimentFailure>(answer).error.code, ProbeErrorCode::Internal);
    EXPECT_NE(std::get<ExperimentFailure>(answer).error.message.find("experiment streams"),
              std::string::npos);
}

/// A backend that adds no experiment runner (and measures nothing else either).
class NoExperimentsBackend : public Backend {
public:
    ProbeResult<DeviceInfo> deviceInfo() override { return FakeBackend::defaultDevice(); }
    ProbeResult<Measurement> measure(const NamedPattern&, const WarpAccess&,
                                     const MeasureOptions&) override {
        return ProbeError::internal("not measured");
    }
    ProbeResult<std::vector<Measurement>> sweep(const std::vector<SweepItem>&,
                                                const MeasureOptions&, const ProgressCallback&,
                                                const CancelCallback&) override {
        return ProbeError::internal("not measured");
    }
    ProbeResult<std::string> kernelSource(const NamedPattern&) override {
        return ProbeError::internal("not generated");
    }
};

TEST(ExperimentTable, ABackendWithoutTheRunnerAnswersInternalNamingTheExperiment) {
    NoExperimentsBackend backend;
    for (const experiments::Experiment& row : experiments::experiments()) {
        auto result =
            answerExperiment(row, json{{"options", json::object()}}, backend, nullptr, nullptr);
        ASSERT_TRUE(std::holds_alternative<RequestError>(result)) << row.key;
        const RequestError& error = std::get<RequestError>(result);
        EXPECT_EQ(error.error.code, ProbeErrorCode::Internal);
        EXPECT_EQ(error.error.message,
                  "this probe backend cannot measure the experiment " + std::string(row.key));
    }
    // A field the op does not take is the request's fault whatever the backend.
    auto bad = answerExperiment(experiments::experiment("streams"), json{{"bytes", 1}}, backend,
                                nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<RequestError>(bad));
    EXPECT_EQ(std::get<RequestError>(bad).error.code, ProbeErrorCode::BadRequest);
    EXPECT_EQ(std::get<RequestError>(bad).where, "/bytes");
}

TEST(ExperimentTable, AnOptionRefusedByCoreIsABadRequestAtItsPointer) {
    FakeBackend backend;
    for (const auto& [key, options, where] :
         {std::tuple<const char*, json, const char*>{
              "streams", {{"bytes", "many"}}, "/options/bytes"},
          {"transfers", {{"modes", {"h2d_pinned", "sideways"}}}, "/options/modes/1"},
          {"l2-persistence", {{"hitRatios", {0.5, 0}}}, "/options/hitRatios/1"}}) {
        auto result = answerExperiment(experiments::experiment(key), json{{"options", options}},
                                       backend, nullptr, nullptr);
        ASSERT_TRUE(std::holds_alternative<RequestError>(result)) << key;
        const RequestError& error = std::get<RequestError>(result);
        EXPECT_EQ(error.error.code, ProbeErrorCode::BadRequest) << key;
        EXPECT_EQ(error.where, where) << key;
        EXPECT_FALSE(error.error.fatal) << key;
    }
    EXPECT_EQ(backend.measureTransfersCalls.load(), 0);
    EXPECT_EQ(backend.measureStreamsCalls.load(), 0);
    EXPECT_EQ(backend.measureL2PersistenceCalls.load(), 0);
}

TEST(ExperimentTable, AnExperimentRunsTheRunnerOfTheBackendItIsGiven) {
    FakeBackend backend;
    backend.deviceCount = 2;
    Backend* second = backend.forDevice(1);
    ASSERT_NE(second, nullptr);
    auto result =
        answerExperiment(experiments::experiment("transfers"),
                         json{{"options", {{"sizes", {4096}}, {"modes", {"h2d_pinned"}}}}}, *second,
                         nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<json>(result));
    EXPECT_EQ(std::get<json>(result).value("device", ""), "warpscope fake GPU 1");
    EXPECT_EQ(backend.measureTransfersCalls.load(), 0); // device 0 was not asked
    EXPECT_EQ(static_cast<FakeBackend*>(second)->measureTransfersCalls.load(), 1);
}

} // namespace
} // namespace warpscope::probe
