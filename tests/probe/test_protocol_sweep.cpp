// The probe protocol in-process against the scripted FakeBackend: sweeps and their progress
// lines, cancel, kernel_source and the self-check over the embedded hardware table.
#include "protocol_test_support.h"

namespace {

using namespace protocol_test;

// ---- sweep and progress
// ---------------------------------------------------------------------------------

TEST(ProbeProtocol, SweepAnswersInOrderAfterProgressLines) {
    FakeBackend fake;
    const std::string patterns =
        "[" + stridedPattern(1) + "," + stridedPattern(2) + "," + stridedPattern(32) + "]";
    Served served = serveText(
        fake, request("s", "sweep", R"("options":{"latency":false},"patterns":)" + patterns));
    ASSERT_EQ(served.lines.size(), 4u) << served.text;
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(served.lines[static_cast<std::size_t>(i)]["id"], "s");
        EXPECT_EQ(served.lines[static_cast<std::size_t>(i)]["progress"]["done"], i + 1);
        EXPECT_EQ(served.lines[static_cast<std::size_t>(i)]["progress"]["total"], 3);
    }
    json& result = served.lines[3]["result"];
    ASSERT_EQ(result["measurements"].size(), 3u);
    const std::string sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    // Strides 1, 2 and 32 floats: 4, 8 and 32 sectors.
    EXPECT_EQ(result["measurements"][0]["counters"][sectors], 4);
    EXPECT_EQ(result["measurements"][1]["counters"][sectors], 8);
    EXPECT_EQ(result["measurements"][2]["counters"][sectors], 32);
    EXPECT_FALSE(result["measurements"][0].contains("latency"));
    EXPECT_EQ(fake.sweepCalls, 1);
}

TEST(ProbeProtocol, SweepProgressIsThrottledToAboutTwentyLinesASecond) {
    FakeBackend fake;
    fake.beforeItem = [](int) { std::this_thread::sleep_for(1ms); };
    std::string patterns = "[";
    const int count = 300;
    for (int i = 0; i < count; ++i) {
        patterns += (i ? "," : "") + stridedPattern(1 + i % 8);
    }
    patterns += "]";
    ServeOptions options;
    const auto start = std::chrono::steady_clock::now();
    Served served = serveText(fake, request(1, "sweep", "\"patterns\":" + patterns), options);
    const auto elapsedMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now() - start)
                               .count();
    int progressLines = 0;
    for (const json& line : served.lines) {
        progressLines += line.contains("progress") ? 1 : 0;
    }
    ASSERT_GE(served.lines.size(), 2u);
    // At most one line per 50 ms, plus the first and the last.
    EXPECT_LE(progressLines, elapsedMs / 50 + 2) << elapsedMs << " ms";
    EXPECT_LT(progressLines, count);
    json& last = served.lines[served.lines.size() - 2];
    EXPECT_EQ(last["progress"]["done"], count);
    EXPECT_EQ(last["progress"]["total"], count);
    EXPECT_EQ(served.lines.back()["result"]["measurements"].size(),
              static_cast<std::size_t>(count));
}

TEST(ProbeProtocol, ASweepWithOneBadPatternIsRefusedWhole) {
    FakeBackend fake;
    const std::string patterns =
        "[" + stridedPattern(1) +
        R"(,{"space":"global","op":"load","width":4,"cache":"sideways","addresses":[0]}])";
    Served served = serveText(fake, request(1, "sweep", "\"patterns\":" + patterns));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines[0]["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines[0]["error"]["where"].get<std::string>().rfind("/patterns/1", 0), 0u)
        << served.lines[0];
    EXPECT_EQ(fake.sweepCalls, 0);
}

TEST(ProbeProtocol, AnEmptySweepAnswersNoMeasurements) {
    FakeBackend fake;
    Served served = serveText(fake, request(1, "sweep", "\"patterns\":[]"));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines[0]["result"]["measurements"], json::array());
}

TEST(ProbeProtocol, ABackendAnsweringTheWrongNumberOfMeasurementsIsAnInternalError) {
    class ShortBackend : public FakeBackend {
    public:
        ProbeResult<std::vector<Measurement>> sweep(const std::vector<SweepItem>&,
                                                    const MeasureOptions&, const ProgressCallback&,
                                                    const CancelCallback&) override {
            return std::vector<Measurement>(1);
        }
    } fake;
    Served served = serveText(
        fake, request(1, "sweep", "\"patterns\":[" + kCoalesced + "," + kCoalesced + "]"));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines[0]["error"]["code"], "internal");
}

// ---- cancel
// ---------------------------------------------------------------------------------------------

TEST(ProbeProtocol, CancelStopsARunningSweep) {
    FakeBackend fake;
    std::promise<void> started;
    std::atomic<bool> signalled{false};
    fake.beforeItem = [&](int index) {
        if (index == 0 && !signalled.exchange(true)) {
            started.set_value();
        }
        std::this_thread::sleep_for(5ms);
    };
    std::string patterns = "[";
    const int count = 1000; // 5 s if nothing cancels it
    for (int i = 0; i < count; ++i) {
        patterns += (i ? "," : "") + stridedPattern(1);
    }
    patterns += "]";

    LiveServer server(fake);
    LiveInput& input = server.input;
    LiveOutput& output = server.output;
    input.push(request(7, "sweep", "\"patterns\":" + patterns));
    ASSERT_EQ(started.get_future().wait_for(10s), std::future_status::ready);
    input.push(R"({"id":8,"op":"cancel","target":7})"
               "\n");
    json cancelAnswer = output.waitFor(responseTo(8));
    json sweepAnswer = output.waitFor(responseTo(7));
    EXPECT_EQ(server.finish(), kServeExitOk);

    EXPECT_EQ(cancelAnswer["ok"], true);
    EXPECT_EQ(cancelAnswer["result"]["target"], 7);
    EXPECT_EQ(cancelAnswer["result"]["state"], "cancelling");
    EXPECT_EQ(sweepAnswer["ok"], false);
    EXPECT_EQ(sweepAnswer["error"]["code"], "cancelled");
    EXPECT_LT(fake.sweepItemsDone.load(), count);
}

TEST(ProbeProtocol, CancelDropsAWaitingRequestAndAnswersItCancelled) {
    FakeBackend fake;
    std::promise<void> started;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> signalled{false};
    fake.beforeItem = [&](int) {
        if (!signalled.exchange(true)) {
            started.set_value();
            released.wait_for(10s);
        }
    };
    LiveServer server(fake);
    LiveInput& input = server.input;
    LiveOutput& output = server.output;
    input.push(request(1, "sweep", "\"patterns\":[" + kCoalesced + "]"));
    ASSERT_EQ(started.get_future().wait_for(10s), std::future_status::ready);
    input.push(request("m", "measure", "\"pattern\":" + kCoalesced));
    input.push(R"({"id":2,"op":"cancel","target":"m"})"
               "\n");
    input.push(R"({"id":3,"op":"cancel","target":"nobody"})"
               "\n");
    json dropped = output.waitFor(responseTo("m"));
    json cancelAnswer = output.waitFor(responseTo(2));
    json unknown = output.waitFor(responseTo(3));
    release.set_value();
    json sweepAnswer = output.waitFor(responseTo(1));
    EXPECT_EQ(server.finish(), kServeExitOk);

    EXPECT_EQ(dropped["error"]["code"], "cancelled");
    EXPECT_EQ(cancelAnswer["result"]["state"], "dropped");
    EXPECT_EQ(unknown["result"]["state"], "not_found");
    EXPECT_EQ(sweepAnswer["ok"], true); // the running sweep was not the target
    EXPECT_EQ(fake.measureCalls, 0);
}

TEST(ProbeProtocol, ARunningMeasureCannotBeCancelled) {
    FakeBackend fake;
    std::promise<void> started;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    fake.answer = [&](const SweepItem& item, const MeasureOptions& options) {
        started.set_value();
        released.wait_for(10s);
        return ProbeResult<Measurement>(FakeBackend::modelMeasurement(item.access, options));
    };
    LiveServer server(fake);
    LiveInput& input = server.input;
    LiveOutput& output = server.output;
    input.push(request(1, "measure", "\"pattern\":" + kCoalesced));
    ASSERT_EQ(started.get_future().wait_for(10s), std::future_status::ready);
    input.push(R"({"id":2,"op":"cancel","target":1})"
               "\n");
    json cancelAnswer = output.waitFor(responseTo(2));
    release.set_value();
    json measureAnswer = output.waitFor(responseTo(1));
    EXPECT_EQ(server.finish(), kServeExitOk);
    EXPECT_EQ(cancelAnswer["result"]["state"], "not_cancellable");
    EXPECT_EQ(measureAnswer["ok"], true);
}

/// A fake backend that counts how often the server tells it that nothing is waiting.
class IdleCountingBackend : public FakeBackend {
public:
    std::atomic<int> idleCalls{0};
    void idle() override { ++idleCalls; }
};

bool waitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) {
            return false;
        }
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

TEST(ProbeProtocol, TheBackendIsToldOnceEveryRequestIsAnswered) {
    // The CUDA backend starts its costliest counter pass in idle(): never between requests
    // already waiting, once after the last of them.
    IdleCountingBackend fake;
    std::promise<void> started;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> signalled{false};
    std::mutex mutex;
    std::vector<int> idleAtAnswer;
    fake.answer = [&](const SweepItem& item, const MeasureOptions& options) {
        {
            std::lock_guard lock(mutex);
            idleAtAnswer.push_back(fake.idleCalls.load());
        }
        if (!signalled.exchange(true)) {
            started.set_value();
            released.wait_for(10s);
        }
        return ProbeResult<Measurement>(FakeBackend::modelMeasurement(item.access, options));
    };
    LiveServer server(fake);
    LiveInput& input = server.input;
    LiveOutput& output = server.output;
    input.push(request(1, "measure", "\"pattern\":" + kCoalesced));
    ASSERT_EQ(started.get_future().wait_for(10s), std::future_status::ready);
    input.push(request(2, "measure", "\"pattern\":" + kCoalesced));
    input.push(request(3, "hello"));
    // The reader answers a cancel at once, after queueing the lines before it.
    input.push(R"({"id":4,"op":"cancel","target":"nobody"})"
               "\n");
    EXPECT_EQ(output.waitFor(responseTo(4))["result"]["state"], "not_found");
    release.set_value();
    EXPECT_EQ(output.waitFor(responseTo(3))["ok"], true);
    EXPECT_TRUE(waitUntil([&] { return fake.idleCalls.load() >= 1; }));
    input.push(request(5, "hello"));
    EXPECT_EQ(output.waitFor(responseTo(5))["ok"], true);
    EXPECT_TRUE(waitUntil([&] { return fake.idleCalls.load() >= 2; }));
    EXPECT_EQ(server.finish(), kServeExitOk);

    EXPECT_EQ(idleAtAnswer, (std::vector<int>{0, 0}));
    EXPECT_EQ(fake.idleCalls.load(), 2);
}

// ---- kernel_source
// ----------------------------------------------------------------------------------------

TEST(ProbeProtocol, KernelSourceAnswersTheBackendsSource) {
    FakeBackend fake;
    Served served = serveText(
        fake, request(1, "kernel_source", "\"pattern\":" + std::string(kExpressionPattern)));
    ASSERT_EQ(served.lines.size(), 1u);
    const std::string source = served.lines[0]["result"]["source"];
    EXPECT_NE(source.find("warpscope fake kernel"), std::string::npos);
    EXPECT_NE(source.find("lane * 4 + o * 4"), std::string::npos);

    fake.failure = ProbeError::compileError("NVRTC: error: expected ;");
    Served failed = serveText(
        fake, request(2, "kernel_source", "\"pattern\":" + std::string(kExpressionPattern)));
    ASSERT_EQ(failed.lines.size(), 1u);
    EXPECT_EQ(failed.lines[0]["error"]["code"], "compile_error");
}

// ---- selfcheck
// ------------------------------------------------------------------------------------------

std::size_t tablePatternRows() {
    std::size_t rows = 0;
    std::istringstream table{std::string(embeddedHardwareTable())};
    std::string line;
    while (std::getline(table, line)) {
        rows += line.find("\"measured\"") != std::string::npos ? 1 : 0;
    }
    return rows;
}

TEST(ProbeSelfcheck, TheEmbeddedTableIsTheCommittedFile) {
    std::ifstream file(WARPSCOPE_TEST_DATA_DIR "/hardware_table_h100.jsonl", std::ios::binary);
    ASSERT_TRUE(file) << "cannot read the hardware table";
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_EQ(std::string(embeddedHardwareTable()), text.str());
    EXPECT_GE(tablePatternRows(), 80u);
}

TEST(ProbeSelfcheck, AGpuThatCountsLikeTheTablePassesEveryRow) {
    // The fake counts what the modern model predicts, and the model matches every row of the
    // table (tests/core/test_hardware_table.cpp), so every row must pass.
    FakeBackend fake;
    Served served = serveText(fake, request(1, "selfcheck"));
    ASSERT_FALSE(served.lines.empty());
    json& answer = served.lines.back();
    ASSERT_EQ(answer["ok"], true) << answer;
    const auto rows = static_cast<int>(tablePatternRows());
    EXPECT_EQ(answer["result"]["passed"], rows);
    EXPECT_EQ(answer["result"]["failed"], 0);
    EXPECT_EQ(answer["result"]["total"], rows);
    EXPECT_EQ(answer["result"]["failures"], json::array());
    EXPECT_NE(answer["result"]["table"]["gpu"].get<std::string>().find("H100"), std::string::npos);
    EXPECT_EQ(answer["result"]["device"], "warpscope fake GPU");
    // Progress lines as in a sweep, ending with done == total.
    ASSERT_GE(served.lines.size(), 2u);
    json& lastProgress = served.lines[served.lines.size() - 2];
    EXPECT_EQ(lastProgress["progress"]["done"], rows);
    EXPECT_EQ(lastProgress["progress"]["total"], rows);
    // Counters only: the check does not spend time on latency.
    EXPECT_TRUE(fake.lastOptions.counters);
    EXPECT_FALSE(fake.lastOptions.latency);
    EXPECT_FALSE(fake.lastOptions.grid);
}

TEST(ProbeSelfcheck, ACounterOffByOneFailsItsRowAndNamesIt) {
    FakeBackend fake;
    fake.answer = [](const SweepItem& item, const MeasureOptions& options) {
        Measurement measurement = FakeBackend::modelMeasurement(item.access, options);
        if (item.pattern.title == "g-load-w4-coalesced") {
            measurement.counters["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] += 1;
        }
        if (item.pattern.title == "g-load-w1-offset1") {
            measurement.counters.erase("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
        }
        return ProbeResult<Measurement>(measurement);
    };
    auto result = runSelfcheck(fake, embeddedHardwareTable(), nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<SelfcheckReport>(result));
    const auto& report = std::get<SelfcheckReport>(result);
    EXPECT_EQ(report.failed, 2);
    EXPECT_EQ(report.passed, static_cast<int>(tablePatternRows()) - 2);
    ASSERT_EQ(report.failures.size(), 2u);
    std::map<std::string, SelfcheckFailure> byName;
    for (const auto& failure : report.failures) {
        byName[failure.name] = failure;
    }
    ASSERT_EQ(byName.count("g-load-w4-coalesced"), 1u);
    const auto& sectors = byName["g-load-w4-coalesced"].mismatches;
    ASSERT_EQ(sectors.size(), 1u);
    EXPECT_EQ(sectors[0].counter, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    EXPECT_EQ(sectors[0].expected, 4.0);
    EXPECT_EQ(sectors[0].measured, 5.0);
    ASSERT_EQ(byName.count("g-load-w1-offset1"), 1u);
    const auto& missing = byName["g-load-w1-offset1"].mismatches;
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_FALSE(missing[0].measured.has_value());

    json value = toJson(report);
    EXPECT_EQ(value["failed"], 2);
    EXPECT_EQ(value["failures"].size(), 2u);
}

TEST(ProbeSelfcheck, ExtraCountersTheBackendReportsAreComparedToo) {
    FakeBackend fake;
    fake.answer = [](const SweepItem& item, const MeasureOptions& options) {
        Measurement measurement = FakeBackend::modelMeasurement(item.access, options);
        // The table has this counter (1 for every single-instruction global load).
        measurement.counters["smsp__inst_executed_op_global_ld.sum"] = 7;
        return ProbeResult<Measurement>(measurement);
    };
    auto result = runSelfcheck(fake, embeddedHardwareTable(), nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<SelfcheckReport>(result));
    EXPECT_GT(std::get<SelfcheckReport>(result).failed, 0);
}

TEST(ProbeSelfcheck, WithoutCountersItIsAnErrorThatSaysWhy) {
    FakeBackend fake;
    fake.device.countersAvailable = false;
    fake.device.countersUnavailableReason = "profiling is restricted to administrators";
    Served served = serveText(fake, request(1, "selfcheck"));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines[0]["error"]["code"], "counters_unavailable");
    EXPECT_NE(served.lines[0]["error"]["message"].get<std::string>().find("administrators"),
              std::string::npos);
    EXPECT_EQ(fake.sweepCalls, 0);

    FakeBackend measuresNone;
    measuresNone.answer = [](const SweepItem& item, const MeasureOptions&) {
        Measurement measurement = FakeBackend::modelMeasurement(item.access, MeasureOptions{false});
        measurement.countersUnavailableReason = "CUPTI refused";
        return ProbeResult<Measurement>(measurement);
    };
    auto result = runSelfcheck(measuresNone, embeddedHardwareTable(), nullptr, nullptr);
    ASSERT_TRUE(std::holds_alternative<ProbeError>(result));
    EXPECT_EQ(std::get<ProbeError>(result).code, ProbeErrorCode::CountersUnavailable);
    EXPECT_NE(std::get<ProbeError>(result).message.find("CUPTI refused"), std::string::npos);
}

TEST(ProbeSelfcheck, NoDeviceIsTheBackendsError) {
    FakeBackend fake;
    fake.failure = ProbeError::noDevice("no CUDA-capable device");
    Served served = serveText(fake, request(1, "selfcheck") + request(2, "hello"));
    ASSERT_EQ(served.lines.size(), 2u);
    EXPECT_EQ(served.lines[0]["error"]["code"], "no_device");
    EXPECT_EQ(served.lines[1]["ok"], true);
}

TEST(ProbeSelfcheck, ATableThatCannotBeReadIsAnInternalError) {
    FakeBackend fake;
    const std::vector<std::string> tables = {
        "",
        "not json\n",
        R"({"format":"something-else"})"
        "\n",
        R"({"format":"warpscope-hardware-table"})"
        "\n"
        R"({"name":"x","space":"global"})"
        "\n",
    };
    for (const std::string& table : tables) {
        auto result = runSelfcheck(fake, table, nullptr, nullptr);
        ASSERT_TRUE(std::holds_alternative<ProbeError>(result)) << table;
        EXPECT_EQ(std::get<ProbeError>(result).code, ProbeErrorCode::Internal) << table;
    }
    EXPECT_EQ(fake.sweepCalls, 0);
}

} // namespace
