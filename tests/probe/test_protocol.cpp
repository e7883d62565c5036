// The probe protocol in-process (probe_protocol.h, docs/protocol.md) against the scripted
// FakeBackend: every op, progress lines, cancel during a sweep, bad lines, the fatal path, and the
// self-check over the embedded hardware table.
#include "fake_backend.h"
#include "probe_protocol.h"

#include "warpscope/model.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <future>
#include <istream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace warpscope::probe;
using json = nlohmann::json;
using namespace std::chrono_literals;

// ---- Helpers
// -------------------------------------------------------------------------------------

struct Served {
    int status = -1;
    std::vector<json> lines;
    std::string text;
};

ServeOptions everyProgressLine() {
    ServeOptions options;
    options.probeVersion = "9.9.9-test";
    options.progressInterval = 0ms;
    return options;
}

Served serveText(Backend& backend, const std::string& input,
                 const ServeOptions& options = everyProgressLine()) {
    std::istringstream in(input);
    std::ostringstream out;
    Served served;
    served.status = serve(in, out, backend, options);
    served.text = out.str();
    std::istringstream lines(served.text);
    std::string line;
    while (std::getline(lines, line)) {
        served.lines.push_back(json::parse(line, nullptr, false));
    }
    return served;
}

std::string addressList(int stride, int width = 4) {
    std::string text = "[";
    for (int lane = 0; lane < 32; ++lane) {
        text += (lane ? "," : "") + std::to_string(lane * stride * width);
    }
    return text + "]";
}

/// A bare-form global load with lane addresses lane * stride * 4.
std::string stridedPattern(int stride) {
    return R"({"space":"global","op":"load","width":4,"cache":"default","addresses":)" +
           addressList(stride) + "}";
}

const char* const kExpressionPattern =
    R"({"space":"global","op":"load","width":4,"source":{"address":"lane * 4 + o * 4","parameters":[{"name":"o","value":11}]}})";

std::string request(const json& id, const std::string& op, const std::string& fields = "") {
    return R"({"id":)" + id.dump() + R"(,"op":")" + op + "\"" +
           (fields.empty() ? "" : "," + fields) + "}\n";
}

/// An input stream fed by the test while serve() reads it, as a live pipe would be.
class LiveInput : public std::streambuf {
public:
    void push(const std::string& text) {
        std::lock_guard lock(m_mutex);
        m_data += text;
        m_changed.notify_all();
    }
    void close() {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_changed.notify_all();
    }

protected:
    int_type underflow() override {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_position < m_data.size() || m_closed; });
        if (m_position >= m_data.size()) {
            return traits_type::eof();
        }
        m_current = m_data[m_position++];
        setg(&m_current, &m_current, &m_current + 1);
        return traits_type::to_int_type(m_current);
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::string m_data;
    std::size_t m_position = 0;
    bool m_closed = false;
    char m_current = 0;
};

/// An output stream whose lines the test can wait for while serve() runs.
class LiveOutput : public std::streambuf {
public:
    /// Waits until a complete line satisfies `match`; returns it (or null after the timeout).
    json waitFor(const std::function<bool(const json&)>& match,
                 std::chrono::milliseconds timeout = 10s) {
        std::unique_lock lock(m_mutex);
        json found;
        m_changed.wait_for(lock, timeout, [&] {
            for (const json& line : m_lines) {
                if (match(line)) {
                    found = line;
                    return true;
                }
            }
            return false;
        });
        return found;
    }
    std::vector<json> lines() {
        std::lock_guard lock(m_mutex);
        return m_lines;
    }

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) {
            return traits_type::not_eof(c);
        }
        std::lock_guard lock(m_mutex);
        if (c == '\n') {
            m_lines.push_back(json::parse(m_partial, nullptr, false));
            m_partial.clear();
            m_changed.notify_all();
        } else {
            m_partial.push_back(traits_type::to_char_type(c));
        }
        return c;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::string m_partial;
    std::vector<json> m_lines;
};

/// serve() on a thread over a live input; the input is closed and serve() awaited however the
/// test ends, so a failing assertion cannot leave it blocked.
class LiveServer {
public:
    explicit LiveServer(Backend& backend) : m_in(&input), m_out(&output) {
        m_status = std::async(std::launch::async, [this, &backend] {
            return serve(m_in, m_out, backend, everyProgressLine());
        });
    }
    ~LiveServer() {
        input.close();
        if (m_status.valid()) {
            m_status.wait();
        }
    }
    LiveServer(const LiveServer&) = delete;
    LiveServer& operator=(const LiveServer&) = delete;

    /// Ends the input and returns serve()'s status, or -1 when it does not return in 10 s.
    int finish() {
        input.close();
        if (m_status.wait_for(10s) != std::future_status::ready) {
            return -1;
        }
        return m_status.get();
    }

    LiveInput input;
    LiveOutput output;

private:
    std::istream m_in;
    std::ostream m_out;
    std::future<int> m_status;
};

std::function<bool(const json&)> responseTo(const json& id) {
    return [id](const json& line) {
        return line.is_object() && line.contains("ok") && line.value("id", json()) == id;
    };
}

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
                                          "kernel_source", "selfcheck", "shutdown"}));
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
    fake.failure = ProbeError{ProbeErrorCode::NoDriver, "libcuda.so.1 not found", false};
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

const std::string kCoalesced = stridedPattern(1);

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
    fake.failure = ProbeError{ProbeErrorCode::Internal, "bad byte \xff here", false};
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
        return ProbeResult<Measurement>(ProbeError{
            ProbeErrorCode::KernelFault, "an illegal memory access was encountered", true});
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

    fake.failure = ProbeError{ProbeErrorCode::CompileError, "NVRTC: error: expected ;", false};
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
    fake.failure = ProbeError{ProbeErrorCode::NoDevice, "no CUDA-capable device", false};
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
