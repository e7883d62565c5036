// The probe's experiment table (kernels/protocol/experiment_table.h) against core's op table
// (warpscope/protocol/ops.h) and the command line's rows (kernels/cli/experiment_commands.h):
// every row is an op that exists, every op that exists is answered (by serve's own cases or by a
// row), every row has its command line and every backend runs the rows through its runners.
#include "experiment_commands.h"
#include "experiment_table.h"
#include "fake_backend.h"
#include "servelines.h"

#include "warpscope/protocol/ops.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace warpscope::probe {
namespace {

using json = nlohmann::json;
using test::serveLines;

TEST(ExperimentTable, EveryRowIsAnOpOfCoresTableOnceInItsOrder) {
    ASSERT_FALSE(experimentRows().empty());
    std::set<protocol::ProbeOp> ops;
    std::set<std::string> commands;
    std::size_t lastIndex = 0;
    for (const ExperimentRow& row : experimentRows()) {
        const protocol::OpInfo& info = protocol::opInfo(row.op);
        // The op exists under its wire name.
        EXPECT_EQ(protocol::findOp(info.name), &info) << info.name;
        EXPECT_TRUE(ops.insert(row.op).second) << info.name << " has two rows";
        EXPECT_TRUE(commands.insert(std::string(row.command)).second)
            << row.command << " names two rows";
        EXPECT_EQ(findExperiment(row.op), &row) << info.name;
        EXPECT_EQ(findExperimentCommand(row.command), &row) << row.command;
        // An experiment runs on the request's device, reports progress and can be cancelled:
        // serve() gives every row all three, so core's table must say so for the app.
        EXPECT_TRUE(info.needsGpu) << info.name;
        EXPECT_TRUE(info.takesDevice) << info.name;
        EXPECT_TRUE(info.cancellable) << info.name;
        EXPECT_TRUE(info.reportsProgress) << info.name;
        // In the order of core's table, as hello lists the ops.
        const auto all = protocol::probeOps();
        std::size_t index = 0;
        while (index < all.size() && all[index].op != row.op) {
            ++index;
        }
        ASSERT_LT(index, all.size()) << info.name << " is not in probeOps()";
        EXPECT_GE(index, lastIndex) << info.name << " is out of core's order";
        lastIndex = index;
        EXPECT_FALSE(row.what.empty()) << info.name;
        EXPECT_TRUE(row.answer) << info.name;
    }
    EXPECT_EQ(findExperiment(protocol::ProbeOp::MeasureKernel), nullptr);
    EXPECT_EQ(findExperimentCommand("measure_transfers"), nullptr); // the op is not the command
    EXPECT_EQ(experimentCommandList(), "transfers, l2-persistence and streams");
}

// The other way round: an op core declares that neither serve's own cases nor a row answer is
// answered `internal: op "..." not dispatched`. Every op of core's table is sent (with a field
// no op takes, so that nothing is measured) and none may come back undispatched.
TEST(ExperimentTable, EveryOpOfCoresTableIsAnswered) {
    FakeBackend backend;
    std::string input;
    int id = 0;
    for (const protocol::OpInfo& info : protocol::probeOps()) {
        if (info.op == protocol::ProbeOp::Shutdown || info.op == protocol::ProbeOp::Cancel) {
            continue; // shutdown ends the input; cancel is answered by the reader at once
        }
        input += json{{"id", ++id}, {"op", info.name}, {"notAField", 1}}.dump() + "\n";
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

TEST(ExperimentTable, EveryRowHasItsCommandLineAndEveryCommandLineItsRow) {
    for (const ExperimentRow& row : experimentRows()) {
        const ExperimentCommand* command = findExperimentCommandLine(row.op);
        ASSERT_NE(command, nullptr) << row.command << " has no command line";
        EXPECT_NE(std::string(command->usage).rfind(std::string(row.command), 0), std::string::npos)
            << row.command << ": its usage starts with its name";
        EXPECT_TRUE(command->option) << row.command;
        EXPECT_TRUE(command->print) << row.command;
        EXPECT_TRUE(command->progress) << row.command;
    }
    std::set<protocol::ProbeOp> seen;
    for (const ExperimentCommand& command : experimentCommands()) {
        EXPECT_NE(findExperiment(command.op), nullptr)
            << protocol::opInfo(command.op).name << " has a command line but no row";
        EXPECT_TRUE(seen.insert(command.op).second) << protocol::opInfo(command.op).name;
    }
}

TEST(ExperimentTable, TheFakeBackendRunsEveryRowOnEveryDevice) {
    FakeBackend backend;
    backend.deviceCount = 2;
    for (const ExperimentRow& row : experimentRows()) {
        EXPECT_TRUE(backend.experimentRunners().has(row.op)) << row.command;
        Backend* second = backend.forDevice(1);
        ASSERT_NE(second, nullptr);
        EXPECT_TRUE(second->experimentRunners().has(row.op)) << row.command;
    }
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
    for (const ExperimentRow& row : experimentRows()) {
        auto result = row.answer(json{{"options", json::object()}}, backend, nullptr, nullptr);
        ASSERT_TRUE(std::holds_alternative<RequestError>(result)) << row.command;
        const RequestError& error = std::get<RequestError>(result);
        EXPECT_EQ(error.error.code, ProbeErrorCode::Internal);
        EXPECT_EQ(error.error.message,
                  "this probe backend cannot measure " + std::string(row.what));
    }
    // Options are read first: a bad option is the request's fault whatever the backend.
    auto bad = findExperiment(protocol::ProbeOp::MeasureStreams)
                   ->answer(json{{"options", {{"bytes", "many"}}}}, backend, nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<RequestError>(bad));
    EXPECT_EQ(std::get<RequestError>(bad).error.code, ProbeErrorCode::BadRequest);
}

TEST(ExperimentTable, ARowRunsTheRunnerOfTheBackendItIsGiven) {
    FakeBackend backend;
    backend.deviceCount = 2;
    Backend* second = backend.forDevice(1);
    ASSERT_NE(second, nullptr);
    const ExperimentRow* row = findExperiment(protocol::ProbeOp::MeasureTransfers);
    ASSERT_NE(row, nullptr);
    auto result = row->answer(json{{"options", {{"sizes", {4096}}, {"modes", {"h2d_pinned"}}}}},
                              *second, nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<json>(result));
    EXPECT_EQ(std::get<json>(result).value("device", ""), "warpscope fake GPU 1");
    EXPECT_EQ(backend.measureTransfersCalls.load(), 0); // device 0 was not asked
    EXPECT_EQ(static_cast<FakeBackend*>(second)->measureTransfersCalls.load(), 1);
}

} // namespace
} // namespace warpscope::probe
