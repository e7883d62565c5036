// The probe reads core's op table (warpscope/protocol/ops.h): hello lists its ops, an op whose row
// takes a device reads "device" (and names a missing one), an op whose row takes none refuses it.
// measure_kernel's options and answer are core's types too (warpscope/protocol/
// kernel_measurement.h): what the app writes the probe reads, what the probe writes core reads.
#include "fake_backend.h"
#include "kernel_request.h"
#include "probe_protocol.h"

#include "warpscope/experiments/experiments.h"
#include "warpscope/protocol/kernel_measurement.h"
#include "warpscope/protocol/ops.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace warpscope::probe;
using json = nlohmann::json;
namespace protocol = warpscope::protocol;

// Unlike servelines.h, expects nothing of how serve() ends and keeps unparsable lines as discarded.
std::vector<json> serveUnchecked(Backend& backend, const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out;
    ServeOptions options;
    options.progressInterval = std::chrono::milliseconds(0);
    serve(in, out, backend, options);
    std::vector<json> lines;
    std::istringstream text(out.str());
    for (std::string line; std::getline(text, line);) {
        lines.push_back(json::parse(line, nullptr, false));
    }
    return lines;
}

TEST(ProbeOpTable, HelloListsEveryOpOfTheTableInItsOrder) {
    FakeBackend fake;
    const auto lines = serveUnchecked(fake, R"({"id":1,"op":"hello"})"
                                            "\n");
    ASSERT_EQ(lines.size(), 1u);
    // The fixed ops in the table's order, then every experiment's op in core's order.
    std::vector<std::string> expected;
    for (const protocol::OpInfo& row : protocol::probeOps()) {
        if (row.op != protocol::ProbeOp::Experiment) {
            expected.emplace_back(row.name);
        }
    }
    for (const warpscope::experiments::Experiment& experiment :
         warpscope::experiments::experiments()) {
        expected.emplace_back(experiment.opName);
    }
    EXPECT_EQ(lines[0]["result"]["ops"].get<std::vector<std::string>>(), expected);
}

TEST(ProbeOpTable, TheDeviceFieldIsReadExactlyByTheOpsWhoseRowTakesOne) {
    for (const std::string_view name : protocol::opNames()) {
        const protocol::OpInfo& row = *protocol::findOp(name);
        FakeBackend fake; // one device: device 5 is not there
        const std::string op(name);
        const auto lines = serveUnchecked(fake, R"({"id":1,"op":")" + op +
                                                    R"(","device":5})"
                                                    "\n");
        ASSERT_FALSE(lines.empty()) << op;
        const json& answer = lines.back();
        ASSERT_EQ(answer.value("ok", true), false) << op << ": " << answer;
        EXPECT_EQ(answer["error"]["code"], "bad_request") << op;
        EXPECT_EQ(answer["error"]["where"], "/device") << op;
        const std::string message = answer["error"]["message"];
        if (row.takesDevice) {
            EXPECT_NE(message.find("there is no device 5"), std::string::npos)
                << op << ": " << message;
        } else {
            EXPECT_NE(message.find("takes no field \"device\""), std::string::npos)
                << op << ": " << message;
        }
    }
}

TEST(ProbeOpTable, AnUnknownOpIsAnsweredWithEveryOpOfTheTable) {
    FakeBackend fake;
    const auto lines = serveUnchecked(fake, R"({"id":1,"op":"launch"})"
                                            "\n");
    ASSERT_EQ(lines.size(), 1u);
    const std::string message = lines[0]["error"]["message"];
    EXPECT_NE(message.find(protocol::opNameList()), std::string::npos) << message;
}

TEST(ProbeKernelTypes, TheOptionsTheAppWritesAreTheOnesTheProbeReads) {
    for (const bool counters : {true, false}) {
        for (const bool cold : {true, false}) {
            for (const bool perInstruction : {true, false}) {
                protocol::KernelMeasureOptions written;
                written.counters = counters;
                written.cold = cold;
                written.perInstruction = perInstruction;
                written.repetitions = 7;
                auto read = parseKernelOptions(json{{"options", protocol::toRequestJson(written)}});
                ASSERT_TRUE(std::holds_alternative<KernelMeasureOptions>(read));
                const auto& options = std::get<KernelMeasureOptions>(read);
                EXPECT_EQ(options.counters, counters);
                EXPECT_EQ(options.cold, cold);
                EXPECT_EQ(options.perInstruction, perInstruction);
                EXPECT_EQ(options.repetitions, 7);
            }
        }
    }
}

TEST(ProbeKernelTypes, WhatTheProbeAnswersCoreReadsBack) {
    // A sweep of two points of a two-access kernel, per-instruction counts asked for.
    const json kernel = {
        {"grid", {4, 1, 1}},
        {"block", {256, 1, 1}},
        {"parameters", {{"n", 1024}, {"stride", 1}}},
        {"buffers", {{{"name", "A"}, {"bytes", 65536}}, {{"name", "B"}, {"bytes", 65536}}}},
        {"accesses",
         {{{"op", "load"}, {"width", 4}, {"buffer", "A"}, {"address", "gid * stride * 4"}},
          {{"op", "store"}, {"width", 4}, {"buffer", "B"}, {"address", "gid * 4"}}}}};
    const json request = {{"id", 1},
                          {"op", "measure_kernel"},
                          {"kernel", kernel},
                          {"sweep", {{{"stride", 1}}, {{"stride", 2}}}},
                          {"options", {{"warm", true}, {"per_instruction", true}}}};
    FakeBackend fake;
    const auto lines = serveUnchecked(fake, request.dump() + "\n");
    ASSERT_FALSE(lines.empty());
    const json& answer = lines.back();
    ASSERT_EQ(answer.value("ok", false), true) << answer;
    const json& measurements = answer["result"]["measurements"];
    ASSERT_EQ(measurements.size(), 2u);
    for (std::size_t i = 0; i < measurements.size(); ++i) {
        auto read = protocol::kernelMeasurementFromJsonText(measurements[i].dump());
        ASSERT_TRUE(read) << read.error().describe();
        const protocol::KernelMeasurement& m = read.value();
        EXPECT_EQ(m.parameters.at("stride"), static_cast<std::int64_t>(i + 1));
        EXPECT_EQ(m.threads, 1024);
        ASSERT_EQ(m.accesses.size(), 2u);
        EXPECT_EQ(m.accesses[0].op, "load");
        EXPECT_EQ(m.accesses[1].space, "global");
        // The stride-2 point touches twice the sectors of the stride-1 one.
        EXPECT_EQ(m.accesses[0].sectors, 128.0 * static_cast<double>(i + 1));
        EXPECT_FALSE(m.cold);
        ASSERT_TRUE(m.kernelMs);
        EXPECT_GT(m.kernelMs->median, 0.0);
        ASSERT_TRUE(m.perInstruction);
        EXPECT_TRUE(m.perInstruction->measured);
        EXPECT_EQ(m.perInstruction->rows.size(), 2u);
        // Written again by core, the probe's answer to the byte.
        EXPECT_EQ(protocol::toJson(m).dump(), measurements[i].dump());
    }
}

} // namespace
