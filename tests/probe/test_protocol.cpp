// The probe protocol in-process (probe_protocol.h, docs/protocol.md) against the scripted
// FakeBackend: error codes, hello, bad lines, measure and the fatal path (test_protocol_sweep.cpp:
// sweeps, progress, cancel, kernel_source, self-check; test_protocol_kernel.cpp: measure_kernel and
// devices).
#include "protocol_test_support.h"

namespace {

using namespace protocol_test;

// ---- Error codes
// ---------------------------------------------------------------------------------

TEST(ProbeErrorCodes, HaveTheStableNamesOfTheProtocol) {
    // docs/protocol.md, "Error codes": the names are part of the protocol.
    const std::vector<std::pair<ProbeErrorCode, std::string>> expected = {
        {ProbeErrorCode::BadRequest, "bad_request"},
        {ProbeErrorCode::PatternRefused, "pattern_refused"},
        {ProbeErrorCode::NoDriver, "no_driver"},
        {ProbeErrorCode::NoDevice, "no_device"},
        {ProbeErrorCode::DriverTooOld, "driver_too_old"},
        {ProbeErrorCode::CountersNotPermitted, "counters_not_permitted"},
        {ProbeErrorCode::CountersBusy, "counters_busy"},
        {ProbeErrorCode::CountersUnavailable, "counters_unavailable"},
        {ProbeErrorCode::CompileError, "compile_error"},
        {ProbeErrorCode::KernelFault, "kernel_fault"},
        {ProbeErrorCode::Timeout, "timeout"},
        {ProbeErrorCode::Cancelled, "cancelled"},
        {ProbeErrorCode::Internal, "internal"},
        {ProbeErrorCode::OutOfMemory, "out_of_memory"},
    };
    for (const auto& [code, name] : expected) {
        EXPECT_EQ(probeErrorCodeName(code), name);
        ASSERT_TRUE(probeErrorCodeFromName(name).has_value()) << name;
        EXPECT_EQ(*probeErrorCodeFromName(name), code) << name;
    }
    EXPECT_FALSE(probeErrorCodeFromName("no_gpu").has_value());
    EXPECT_FALSE(probeErrorCodeFromName("").has_value());
}

// ---- hello, device_info, shutdown, end of input
// --------------------------------------------------

TEST(ProbeProtocol, HelloNamesTheProtocolVersionAndTheBuild) {
    FakeBackend fake;
    Served served = serveText(fake, request(1, "hello"));
    EXPECT_EQ(served.status, kServeExitOk);
    ASSERT_EQ(served.lines.size(), 1u) << served.text;
    json& hello = served.lines[0];
    EXPECT_EQ(hello["id"], 1);
    EXPECT_EQ(hello["ok"], true);
    EXPECT_EQ(hello["result"]["protocol"], kProtocolVersion);
    EXPECT_EQ(hello["result"]["protocol"], 1);
    EXPECT_EQ(hello["result"]["version"], "9.9.9-test");
    EXPECT_EQ(hello["result"]["build"]["backend"], "fake");
    EXPECT_EQ(hello["result"]["build"]["cupti"], false);
    EXPECT_EQ(hello["result"]["maxRequestBytes"], kMaxRequestLineBytes);
    std::set<std::string> ops;
    for (const json& op : hello["result"]["ops"]) {
        ops.insert(op.get<std::string>());
    }
    EXPECT_EQ(ops, (std::set<std::string>{"hello", "device_info", "measure", "sweep", "cancel",
                                          "kernel_source", "selfcheck", "shutdown",
                                          "measure_kernel", "measure_transfers",
                                          "measure_l2_persistence", "measure_streams"}));
}

TEST(ProbeProtocol, StringIdsAreEchoedAsGiven) {
    FakeBackend fake;
    Served served = serveText(fake, request("job-7", "hello"));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines[0]["id"], "job-7");
}

TEST(ProbeProtocol, DeviceInfoAnswersTheBackendsFacts) {
    FakeBackend fake;
    fake.device.name = "Test GPU";
    fake.device.computeCapabilityMajor = 8;
    fake.device.computeCapabilityMinor = 6;
    fake.device.smCount = 84;
    Served served = serveText(fake, request(2, "device_info"));
    ASSERT_EQ(served.lines.size(), 1u);
    json& result = served.lines[0]["result"];
    EXPECT_EQ(result["name"], "Test GPU");
    EXPECT_EQ(result["computeCapability"], "8.6");
    EXPECT_EQ(result["smCount"], 84);
    EXPECT_EQ(result["theoreticalBandwidthGBs"], 64.0);
    EXPECT_EQ(result["countersAvailable"], true);
}

TEST(ProbeProtocol, NoDriverIsAnErrorAnswerAndTheProbeGoesOn) {
    FakeBackend fake;
    fake.failure = ProbeError::noDriver("libcuda.so.1 not found");
    Served served = serveText(fake, request(1, "device_info") +
                                        request(2, "measure", "\"pattern\":" + stridedPattern(1)) +
                                        request(3, "hello"));
    EXPECT_EQ(served.status, kServeExitOk);
    ASSERT_EQ(served.lines.size(), 3u) << served.text;
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(served.lines[i]["id"], i + 1);
        EXPECT_EQ(served.lines[i]["ok"], false);
        EXPECT_EQ(served.lines[i]["error"]["code"], "no_driver");
        EXPECT_EQ(served.lines[i]["error"]["message"], "libcuda.so.1 not found");
        EXPECT_FALSE(served.lines[i]["error"].contains("fatal"));
    }
    EXPECT_EQ(served.lines[2]["ok"], true);
}

TEST(ProbeProtocol, ShutdownIsAnsweredAndNothingAfterItIsRead) {
    FakeBackend fake;
    Served served =
        serveText(fake, request(1, "hello") + request(2, "shutdown") + request(3, "hello"));
    EXPECT_EQ(served.status, kServeExitOk);
    ASSERT_EQ(served.lines.size(), 2u) << served.text;
    EXPECT_EQ(served.lines[1]["id"], 2);
    EXPECT_EQ(served.lines[1]["ok"], true);
}

TEST(ProbeProtocol, EndOfInputAnswersEverythingReceivedThenReturnsZero) {
    FakeBackend fake;
    // The last line has no newline: it is still a request.
    Served served = serveText(fake, request(1, "hello") + R"({"id":2,"op":"hello"})");
    EXPECT_EQ(served.status, kServeExitOk);
    ASSERT_EQ(served.lines.size(), 2u) << served.text;
    EXPECT_EQ(served.lines[1]["id"], 2);

    Served empty = serveText(fake, "");
    EXPECT_EQ(empty.status, kServeExitOk);
    EXPECT_TRUE(empty.text.empty());
}

TEST(ProbeProtocol, BlankLinesAreIgnoredAndCrLfIsAccepted) {
    FakeBackend fake;
    Served served = serveText(fake, "\n   \n{\"id\":1,\"op\":\"hello\"}\r\n\r\n");
    ASSERT_EQ(served.lines.size(), 1u) << served.text;
    EXPECT_EQ(served.lines[0]["ok"], true);
}

// ---- Bad lines
// -------------------------------------------------------------------------------------

struct BadLine {
    const char* what;
    std::string line;
    json expectedId;
    const char* expectedWhere; // "" when none is expected
    const char* messagePart;
};

class ProbeProtocolBadLine : public ::testing::TestWithParam<BadLine> {};

TEST_P(ProbeProtocolBadLine, IsAnsweredWithBadRequestAndTheProbeGoesOn) {
    const BadLine& bad = GetParam();
    FakeBackend fake;
    Served served = serveText(fake, bad.line + "\n" + request(99, "hello"));
    EXPECT_EQ(served.status, kServeExitOk);
    ASSERT_EQ(served.lines.size(), 2u) << bad.what << "\n" << served.text;
    json& answer = served.lines[0];
    EXPECT_EQ(answer["id"], bad.expectedId) << bad.what;
    EXPECT_EQ(answer["ok"], false) << bad.what;
    EXPECT_EQ(answer["error"]["code"], "bad_request") << bad.what;
    EXPECT_NE(answer["error"]["message"].get<std::string>().find(bad.messagePart),
              std::string::npos)
        << bad.what << ": " << answer["error"]["message"];
    if (*bad.expectedWhere != '\0') {
        EXPECT_EQ(answer["error"].value("where", ""), bad.expectedWhere) << bad.what;
    }
    EXPECT_EQ(served.lines[1]["id"], 99) << bad.what;
    EXPECT_EQ(served.lines[1]["ok"], true) << bad.what;
    EXPECT_EQ(fake.measureCalls, 0);
    EXPECT_EQ(fake.sweepCalls, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Lines, ProbeProtocolBadLine,
    ::testing::Values(
        BadLine{"not JSON", "{\"id\":1,", nullptr, "", "not valid JSON"},
        BadLine{"not an object", "[1,2,3]", nullptr, "", "must be a JSON object"},
        BadLine{"no id", R"({"op":"hello"})", nullptr, "/id", "no \"id\""},
        BadLine{"id of another type", R"({"id":1.5,"op":"hello"})", nullptr, "/id",
                "integer or a string"},
        BadLine{"id null", R"({"id":null,"op":"hello"})", nullptr, "/id", "integer or a string"},
        BadLine{"no op", R"({"id":4})", 4, "/op", "no \"op\""},
        BadLine{"unknown op", R"({"id":5,"op":"launch_missiles"})", 5, "/op", "unknown op"},
        BadLine{"invalid UTF-8", "{\"id\":6,\"op\":\"hel\xff\"}", nullptr, "", "not valid JSON"},
        BadLine{"nested too deep", std::string(100, '[') + std::string(100, ']'), nullptr, "",
                "nested more than"},
        BadLine{"unknown field", R"({"id":7,"op":"hello","verbose":true})", 7, "/verbose",
                "takes no field"},
        BadLine{"unknown field of an experiment", R"({"id":7,"op":"measure_streams","bogus":1})", 7,
                "/bogus", "the op \"measure_streams\" takes no field \"bogus\""},
        BadLine{"unknown field of another experiment",
                R"({"id":7,"op":"measure_transfers","x":[]})", 7, "/x",
                "the op \"measure_transfers\" takes no field \"x\""},
        BadLine{"measure without a pattern", R"({"id":8,"op":"measure"})", 8, "/pattern",
                "no \"pattern\""},
        BadLine{"pattern not an object", R"({"id":9,"op":"measure","pattern":[1]})", 9, "/pattern",
                "must be a JSON object"},
        BadLine{
            "width 3 (file_format.h rules)",
            R"({"id":10,"op":"measure","pattern":{"space":"global","op":"load","width":3,"addresses":[0]}})",
            10, "", "width"},
        BadLine{"unknown option",
                R"({"id":11,"op":"measure","options":{"countrs":true},"pattern":)" + kCoalesced +
                    "}",
                11, "/options/countrs", "unknown option"},
        BadLine{"repetitions 0",
                R"({"id":12,"op":"measure","options":{"repetitions":0},"pattern":)" + kCoalesced +
                    "}",
                12, "/options/repetitions", "from 1 to"},
        BadLine{"option of the wrong type",
                R"({"id":13,"op":"measure","options":{"latency":"yes"},"pattern":)" + kCoalesced +
                    "}",
                13, "/options/latency", "true or false"},
        BadLine{"grid without an expression",
                R"({"id":14,"op":"measure","options":{"grid":true},"pattern":)" + kCoalesced + "}",
                14, "/options/grid", "address expression"},
        BadLine{
            "counterNames naming a counter a measurement does not read",
            R"({"id":18,"op":"measure","options":{"counterNames":["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","dram__bytes_read.sum"]},"pattern":)" +
                kCoalesced + "}",
            18, "/options/counterNames/1", "not one of the counters"},
        BadLine{"counterNames empty",
                R"({"id":19,"op":"measure","options":{"counterNames":[]},"pattern":)" + kCoalesced +
                    "}",
                19, "/options/counterNames", "non-empty array"},
        BadLine{
            "counterNames naming one twice",
            R"({"id":20,"op":"sweep","options":{"counterNames":["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum","l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]},"patterns":[]})",
            20, "/options/counterNames/1", "named twice"},
        BadLine{"sweep without patterns", R"({"id":15,"op":"sweep"})", 15, "/patterns",
                "no \"patterns\""},
        BadLine{"cancel without a target", R"({"id":16,"op":"cancel"})", 16, "/target", "target"},
        BadLine{"kernel_source of listed addresses",
                R"({"id":17,"op":"kernel_source","pattern":)" + kCoalesced + "}", 17, "/pattern",
                "address expression"}),
    [](const ::testing::TestParamInfo<BadLine>& row) {
        std::string name;
        for (const char* c = row.param.what; *c != '\0'; ++c) {
            name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
        }
        return name;
    });

TEST(ProbeProtocol, ALineLongerThanFourMiBIsRefusedWithoutStoppingTheProbe) {
    FakeBackend fake;
    std::string huge = R"({"id":1,"op":"hello","pad":")";
    huge += std::string(kMaxRequestLineBytes + 10, 'x');
    huge += "\"}\n";
    Served served = serveText(fake, huge + request(2, "hello"));
    ASSERT_EQ(served.lines.size(), 2u);
    EXPECT_TRUE(served.lines[0]["id"].is_null());
    EXPECT_EQ(served.lines[0]["error"]["code"], "bad_request");
    EXPECT_NE(served.lines[0]["error"]["message"].get<std::string>().find("4 MiB"),
              std::string::npos);
    EXPECT_EQ(served.lines[1]["id"], 2);
    EXPECT_EQ(served.lines[1]["ok"], true);
}

TEST(ProbeProtocol, ALineOfExactlyFourMiBIsRead) {
    FakeBackend fake;
    std::string line = R"({"id":1,"op":"hello","pad":")";
    const std::string end = "\"}";
    line += std::string(kMaxRequestLineBytes - line.size() - end.size(), 'x') + end;
    ASSERT_EQ(line.size(), kMaxRequestLineBytes);
    Served served = serveText(fake, line + "\n");
    ASSERT_EQ(served.lines.size(), 1u);
    // Read whole, so the answer is about the field, not the length.
    EXPECT_EQ(served.lines[0]["id"], 1);
    EXPECT_EQ(served.lines[0]["error"]["where"], "/pad");
}

// ---- measure
// ---------------------------------------------------------------------------------------

TEST(ProbeProtocol, MeasureAnswersCountersWithThePredictionBesideThem) {
    FakeBackend fake;
    Served served =
        serveText(fake, request(3, "measure",
                                R"("options":{"repetitions":5,"grid":false},"pattern":)" +
                                    stridedPattern(2)));
    ASSERT_EQ(served.lines.size(), 1u) << served.text;
    json& result = served.lines[0]["result"];
    ASSERT_EQ(served.lines[0]["ok"], true) << served.text;
    // Stride 2 over 4-byte elements: 256 bytes, 8 sectors in one request (docs/models.md).
    const std::string sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    EXPECT_EQ(result["predicted"][sectors], 8);
    EXPECT_EQ(result["counters"][sectors], 8);
    EXPECT_EQ(result["countersMeasured"], true);
    EXPECT_EQ(result["predicted"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 1);
    EXPECT_TRUE(result["predicted"].contains("warpscope__efficiency_pct"));
    // 600 cycles at 2 GHz (the fake's clock) are 300 ns.
    EXPECT_EQ(result["latency"]["coldCycles"]["median"], 600.0);
    EXPECT_EQ(result["latency"]["coldCycles"]["samples"], 5);
    EXPECT_DOUBLE_EQ(result["latency"]["coldNs"].get<double>(), 300.0);
    EXPECT_DOUBLE_EQ(result["latency"]["warmNs"].get<double>(), 20.0);
    EXPECT_FALSE(result.contains("grid"));
    EXPECT_EQ(fake.measureCalls, 1);
    EXPECT_EQ(fake.lastOptions.repetitions, 5);
    EXPECT_TRUE(fake.lastOptions.counters);
    EXPECT_FALSE(fake.lastOptions.grid);
}

TEST(ProbeProtocol, MeasureAndSweepNamingCountersAnswerOnlyThose) {
    FakeBackend fake;
    const std::string requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
    const std::string sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    // Named in the other order: the backend gets them in nsightCounterNames()'s order.
    const std::string named = R"("counterNames":[")" + sectors + R"(",")" + requests + R"("])";
    Served served =
        serveText(fake, request(3, "measure",
                                R"("options":{)" + named + R"(},"pattern":)" + stridedPattern(2)) +
                            request(4, "sweep",
                                    R"("options":{"latency":false,)" + named + R"(},"patterns":[)" +
                                        stridedPattern(1) + "]") +
                            request(5, "measure", R"("pattern":)" + stridedPattern(2)));
    ASSERT_EQ(served.lines.size(), 4u) << served.text; // the sweep's progress line too
    const json& measured = served.lines[0]["result"]["counters"];
    EXPECT_EQ(measured.size(), 2u) << measured.dump();
    EXPECT_EQ(measured[requests], 1);
    EXPECT_EQ(measured[sectors], 8);
    const json& swept = served.lines[2]["result"]["measurements"][0]["counters"];
    EXPECT_EQ(swept.size(), 2u) << swept.dump();
    EXPECT_EQ(swept[sectors], 4);
    // Without the option, every counter, as before.
    EXPECT_EQ(served.lines[3]["result"]["counters"].size(), warpscope::nsightCounterNames().size());
    EXPECT_TRUE(fake.lastOptions.counterNames.empty());
}

TEST(ProbeProtocol, MeasureTakesTheFileFormAndTheExpressionForm) {
    FakeBackend fake;
    const std::string fileForm =
        R"({"format":"warpscope-pattern","version":1,"space":"shared","op":"store","width":4,"addresses":)" +
        addressList(32) + "}";
    Served served =
        serveText(fake, request(1, "measure", "\"pattern\":" + fileForm) +
                            request(2, "measure",
                                    R"("options":{"grid":true,"latency":false},"pattern":)" +
                                        std::string(kExpressionPattern)));
    ASSERT_EQ(served.lines.size(), 2u) << served.text;
    // lane * 128 in shared memory: every lane in bank 0, 32 wavefronts, 31 conflicts.
    EXPECT_EQ(served.lines[0]["result"]["predicted"]
                          ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"],
              32);
    EXPECT_EQ(served.lines[0]["result"]["counters"]
                          ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"],
              31);
    // Offset by 11 floats: 5 sectors (seed 002, figure 4-11 in the modern counting).
    EXPECT_EQ(
        served.lines[1]["result"]["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
        5);
    EXPECT_FALSE(served.lines[1]["result"].contains("latency"));
    EXPECT_TRUE(fake.lastOptions.grid);
}

TEST(ProbeProtocol, PatternsThatWouldFaultAreRefusedAndNeverMeasured) {
    FakeBackend fake;
    std::string misaligned = stridedPattern(1);
    misaligned.replace(misaligned.find("[0,"), 3, "[2,"); // lane 0 at byte 2 of a 4-byte element
    Served served = serveText(
        fake,
        request(1, "measure", "\"pattern\":" + misaligned) +
            request(
                2, "measure",
                R"("pattern":{"space":"global","op":"load","width":4,"source":{"address":"(lane - 1) * 4"}})") +
            request(
                3, "measure",
                R"("pattern":{"space":"global","op":"load","width":4,"source":{"address":"lane * * 4"}})"));
    ASSERT_EQ(served.lines.size(), 3u) << served.text;
    EXPECT_EQ(served.lines[0]["error"]["code"], "pattern_refused");
    EXPECT_EQ(served.lines[0]["error"]["coreCode"], "misaligned");
    EXPECT_EQ(served.lines[0]["error"]["where"], "/pattern (lane 0)");
    EXPECT_NE(served.lines[0]["error"]["message"].get<std::string>().find("lane 0"),
              std::string::npos);
    EXPECT_EQ(served.lines[1]["error"]["code"], "pattern_refused");
    EXPECT_EQ(served.lines[1]["error"]["coreCode"], "negative_address");
    EXPECT_NE(served.lines[1]["error"]["where"].get<std::string>().find("lane 0"),
              std::string::npos);
    // A syntax error is a bad request, with the column of the second '*'.
    EXPECT_EQ(served.lines[2]["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines[2]["error"]["column"], 8);
    EXPECT_EQ(fake.measureCalls, 0);
}

// An async copy is measured as a kernel: the one-warp replay has no shared side, so measure
// refuses it, naming the op, and measure_kernel runs it (here on the fake backend).
TEST(ProbeProtocol, AnAsyncCopyIsMeasuredAsAKernelNotReplayed) {
    FakeBackend fake;
    Served served = serveText(
        fake,
        request(
            1, "measure",
            R"("pattern":{"space":"global","op":"copy_async","width":16,"source":{"address":"lane * 16","shared_address":"lane * 16"}})") +
            request(
                2, "measure_kernel",
                R"("kernel":{"grid":[2,1,1],"block":[64,1,1],"buffers":[{"name":"a","bytes":2048}],"accesses":[{"op":"copy_async","space":"global","width":16,"buffer":"a","address":"gid * 16","shared_address":"tid.x * 16"}]})"));
    // The refusal, then measure_kernel's progress line and its answer.
    ASSERT_EQ(served.lines.size(), 3u) << served.text;
    EXPECT_EQ(served.lines[0]["error"]["code"], "pattern_refused") << served.text;
    EXPECT_EQ(served.lines[0]["error"]["where"], "/pattern/op");
    EXPECT_EQ(fake.measureCalls, 0);
    const auto& result = served.lines.back()["result"];
    ASSERT_TRUE(result.is_object()) << served.text;
    const auto& predicted = result["predicted"];
    // 128 threads, 4 warps: one request of 16 sectors each; 4 wavefronts each on the shared side.
    EXPECT_EQ(predicted["l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum"], 4)
        << predicted;
    EXPECT_EQ(predicted["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 64);
    EXPECT_EQ(predicted["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"], 16);
    EXPECT_EQ(result["memoryInstructions"][0], "LDGSTS 16");
}

TEST(ProbeProtocol, MeasurementJsonHasGridNumbersAndNullNanosecondsWithoutAClock) {
    Measurement measurement;
    measurement.latencyColdCycles = Stats{500.0, 490.0, 510.0, 3};
    measurement.gridKernelMs = Stats{0.5, 0.4, 0.6, 3};
    measurement.gridBytesRequested = 1e9;
    measurement.gridEffectiveBandwidthGBs = 2000.0;
    warpscope::WarpAccess access;
    access.kind.space = warpscope::MemorySpace::Global;
    for (int lane = 0; lane < 32; ++lane) {
        access.addresses[static_cast<std::size_t>(lane)] = lane * 4;
    }
    json value = toJson(measurement, access);
    EXPECT_TRUE(value["latency"]["coldNs"].is_null());
    EXPECT_FALSE(value["latency"].contains("warmCycles"));
    EXPECT_EQ(value["grid"]["kernelMs"]["median"], 0.5);
    EXPECT_EQ(value["grid"]["effectiveBandwidthGBs"], 2000.0);
    EXPECT_EQ(value["countersMeasured"], false);
    EXPECT_EQ(value["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 4);
}

TEST(ProbeProtocol, ABackendThatThrowsIsAnInternalErrorNotACrash) {
    FakeBackend fake;
    fake.answer = [](const SweepItem&, const MeasureOptions&) -> ProbeResult<Measurement> {
        throw std::runtime_error("boom");
    };
    Served served =
        serveText(fake, request(1, "measure", "\"pattern\":" + kCoalesced) + request(2, "hello"));
    ASSERT_EQ(served.lines.size(), 2u);
    EXPECT_EQ(served.lines[0]["error"]["code"], "internal");
    EXPECT_NE(served.lines[0]["error"]["message"].get<std::string>().find("boom"),
              std::string::npos);
    EXPECT_EQ(served.lines[1]["ok"], true);
}

TEST(ProbeProtocol, BackendMessagesThatAreNotUtf8StillMakeValidLines) {
    FakeBackend fake;
    fake.failure = ProbeError::internal("bad byte \xff here");
    Served served = serveText(fake, request(1, "device_info"));
    ASSERT_EQ(served.lines.size(), 1u) << served.text;
    EXPECT_FALSE(served.lines[0].is_discarded());
    EXPECT_EQ(served.lines[0]["error"]["code"], "internal");
}

// ---- The fatal path
// ----------------------------------------------------------------------------------

TEST(ProbeProtocol, AFatalErrorIsAnsweredThenServeReturnsThree) {
    FakeBackend fake;
    fake.answer = [](const SweepItem&, const MeasureOptions&) {
        return ProbeResult<Measurement>(
            ProbeError::kernelFault("an illegal memory access was encountered"));
    };
    Served served =
        serveText(fake, request(1, "hello") + request(2, "measure", "\"pattern\":" + kCoalesced) +
                            request(3, "hello"));
    EXPECT_EQ(served.status, kServeExitFatal);
    EXPECT_EQ(served.status, 3);
    ASSERT_EQ(served.lines.size(), 2u) << served.text; // request 3 is left for a fresh probe
    EXPECT_EQ(served.lines[1]["id"], 2);
    EXPECT_EQ(served.lines[1]["error"]["code"], "kernel_fault");
    EXPECT_EQ(served.lines[1]["error"]["fatal"], true);
}

} // namespace
