// The probe protocol in-process (probe_protocol.h, docs/protocol.md) against the scripted
// FakeBackend: every op, progress lines, cancel during a sweep, bad lines, the fatal path, and the
// self-check over the embedded hardware table.
#include "fake_backend.h"
#include "kernel_codegen.h"
#include "kernel_request.h"
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

// ---- measure_kernel
// ------------------------------------------------------------------------------

/// The notes' readOffset at a small size: C[i] = A[i + offset] + B[i + offset] for i + offset < n.
std::string readOffsetKernel(std::int64_t n = 4096, std::int64_t offset = 0,
                             std::int64_t bufferBytes = -1) {
    const std::int64_t bytes = bufferBytes >= 0 ? bufferBytes : n * 4;
    const std::string active = "gid + offset < n";
    json kernel = {{"grid", {n / 256, 1, 1}},
                   {"block", {256, 1, 1}},
                   {"parameters", {{"n", n}, {"offset", offset}}},
                   {"buffers",
                    {{{"name", "A"}, {"bytes", bytes}},
                     {{"name", "B"}, {"bytes", bytes}},
                     {{"name", "C"}, {"bytes", bytes}}}},
                   {"accesses",
                    {{{"op", "load"},
                      {"space", "global"},
                      {"width", 4},
                      {"buffer", "A"},
                      {"cache", "default"},
                      {"address", "(gid + offset) * 4"},
                      {"active", active}},
                     {{"op", "load"},
                      {"space", "global"},
                      {"width", 4},
                      {"buffer", "B"},
                      {"cache", "default"},
                      {"address", "(gid + offset) * 4"},
                      {"active", active}},
                     {{"op", "store"},
                      {"space", "global"},
                      {"width", 4},
                      {"buffer", "C"},
                      {"cache", "default"},
                      {"address", "gid * 4"},
                      {"active", active}}}}};
    return kernel.dump();
}

/// The notes' shared-memory tiled transpose of an n x n float matrix, TILE = 32, with or without
/// the [TILE][TILE + 1] padding.
std::string tiledTransposeKernel(std::int64_t n = 256, bool padded = true) {
    const std::string pitch = padded ? "33" : "32";
    json kernel = {
        {"grid", {n / 32, n / 32, 1}},
        {"block", {32, 32, 1}},
        {"parameters", {{"n", n}}},
        {"buffers",
         {{{"name", "in"}, {"bytes", n * n * 4}}, {{"name", "out"}, {"bytes", n * n * 4}}}},
        {"accesses",
         {{{"op", "load"},
           {"space", "global"},
           {"width", 4},
           {"buffer", "in"},
           {"cache", "default"},
           {"address", "((bid.y * 32 + tid.y) * n + bid.x * 32 + tid.x) * 4"}},
          {{"op", "store"},
           {"space", "shared"},
           {"width", 4},
           {"address", "(tid.y * " + pitch + " + tid.x) * 4"}},
          {{"op", "load"},
           {"space", "shared"},
           {"width", 4},
           {"address", "(tid.x * " + pitch + " + tid.y) * 4"}},
          {{"op", "store"},
           {"space", "global"},
           {"width", 4},
           {"buffer", "out"},
           {"cache", "default"},
           {"address", "((bid.x * 32 + tid.y) * n + bid.y * 32 + tid.x) * 4"}}}}};
    return kernel.dump();
}

// Constant memory (issue 19): a constant pattern is a kernel, never replayed; a constant kernel's
// answer carries the constant cache's counters and the extra requests the model predicts.
TEST(ProbeMeasureKernel, ConstantPatternsAreKernelsAndTheirCountersMeetTheModel) {
    FakeBackend fake;
    const Served served = serveText(
        fake,
        request(
            1, "measure",
            R"("pattern":{"space":"constant","op":"load","width":4,"source":{"address":"lane * 4"}})") +
            request(
                2, "measure_kernel",
                R"("kernel":{"grid":[4,1,1],"block":[64,1,1],"buffers":[{"name":"c","bytes":128}],)"
                R"("accesses":[{"op":"load","space":"constant","width":4,"buffer":"c",)"
                R"("address":"(lane % 4) * 4"}]})"));
    ASSERT_GE(served.lines.size(), 2u) << served.text;
    EXPECT_EQ(served.lines.front()["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines.front()["error"]["where"], "/pattern/space");
    EXPECT_EQ(fake.measureCalls, 0);
    const json& result = served.lines.back()["result"];
    ASSERT_EQ(served.lines.back()["ok"], true) << served.text;
    // 8 warps, 4 distinct addresses each: 32 requests, 24 beyond one per warp.
    EXPECT_EQ(result["predicted"]["warpscope__constant_addresses"], 32);
    EXPECT_EQ(result["predicted"]["warpscope__constant_extra_requests"], 24);
    EXPECT_EQ(result["counters"]["warpscope__constant_extra_requests"], 24);
    EXPECT_EQ(result["accesses"][0]["constantAddresses"], 32);
    EXPECT_EQ(result["memoryInstructions"][0], "LDC 4");
}

TEST(ProbeMeasureKernel, AnswersThePredictionTheCountersAndTheBandwidth) {
    FakeBackend fake;
    const Served served =
        serveText(fake, request(1, "measure_kernel", "\"kernel\":" + readOffsetKernel()));
    // One progress line (one kernel done), then the answer.
    ASSERT_EQ(served.lines.size(), 2u) << served.text;
    EXPECT_EQ(served.lines.front()["progress"]["done"], 1);
    const json& answer = served.lines.back();
    ASSERT_EQ(answer["ok"], true) << served.text;
    const json& result = answer["result"];
    // 4096 threads, 128 warps, each warp one request of 4 sectors per access.
    EXPECT_EQ(result["predicted"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 256);
    EXPECT_EQ(result["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 1024);
    EXPECT_EQ(result["predicted"]["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"], 128);
    EXPECT_EQ(result["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"], 512);
    EXPECT_EQ(result["counters"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 1024);
    EXPECT_EQ(result["countersMeasured"], true);
    EXPECT_EQ(result["threads"], 4096);
    EXPECT_EQ(result["parameters"]["offset"], 0);
    EXPECT_EQ(result["grid"], json::array({16, 1, 1}));
    EXPECT_EQ(result["block"], json::array({256, 1, 1}));
    EXPECT_EQ(result["deviceBytes"], 3 * 4096 * 4);
    EXPECT_EQ(result["bytesRequested"], 3 * 4096 * 4);
    EXPECT_EQ(result["timing"]["cold"], true);
    EXPECT_NE(result["timing"]["label"].get<std::string>().find("cold"), std::string::npos);
    EXPECT_EQ(result["timing"]["kernelMs"]["samples"], 21);
    EXPECT_EQ(result["timing"]["samplesMs"].size(), 21u);
    // The fake runs at its copy bandwidth, 50 GB/s of a theoretical 64.
    EXPECT_NEAR(result["effectiveBandwidthGBs"].get<double>(), 50.0, 1e-6);
    EXPECT_NEAR(result["shareOfCopyBandwidthPct"].get<double>(), 100.0, 1e-6);
    EXPECT_NEAR(result["shareOfTheoreticalBandwidthPct"].get<double>(), 100.0 * 50 / 64, 1e-6);
    ASSERT_EQ(result["accesses"].size(), 3u);
    EXPECT_EQ(result["accesses"][2]["op"], "store");
    ASSERT_EQ(result["buffers"].size(), 3u);
    EXPECT_EQ(result["buffers"][0]["name"], "A");
    EXPECT_EQ(result["buffers"][0]["sectorsRead"], 4096 * 4 / 32);
    EXPECT_EQ(fake.measureKernelCalls.load(), 1);
}

// Issue 19: a kernel with local accesses and a texture read carries those counters, predicted
// and (from the fake, which measures what it predicts) measured; a plain kernel carries neither.
TEST(ProbeMeasureKernel, LocalAndTextureKernelsCarryTheirCounters) {
    FakeBackend fake;
    const json kernel = json::parse(R"({"buffers": [{"name": "in", "bytes": 65536}],
        "grid": [2, 1, 1], "block": [64, 1, 1], "accesses": [
        {"op": "store", "space": "local", "width": 4, "address": "lane * 4"},
        {"op": "load", "space": "texture", "width": 4, "buffer": "in", "row_bytes": 128,
         "address": "(lane % 8) * 4 + (lane / 8) * 128"}]})");
    const Served served =
        serveText(fake, request(1, "measure_kernel", "\"kernel\":" + kernel.dump()));
    ASSERT_EQ(served.lines.back()["ok"], true) << served.text;
    const json& result = served.lines.back()["result"];
    // 4 warps: lane l's word l is l x 128 + l x 4, 32 sectors each.
    EXPECT_EQ(result["predicted"]["l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"], 4);
    EXPECT_EQ(result["predicted"]["l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"], 128);
    EXPECT_EQ(result["counters"]["l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"], 128);
    // 8 x 4 texels: 8 quads of one sector each; as global loads 4 sectors.
    EXPECT_EQ(result["predicted"]["l1tex__t_requests_pipe_tex_mem_texture.sum"], 32);
    EXPECT_EQ(result["predicted"]["l1tex__t_sectors_pipe_tex_mem_texture.sum"], 32);
    EXPECT_EQ(result["predicted"]["warpscope__texture_global_equivalent_sectors"], 16);
    EXPECT_EQ(result["counters"]["l1tex__t_sectors_pipe_tex_mem_texture.sum"], 32);
    EXPECT_EQ(result["memoryInstructions"], json::array({"STL 4", "TEX 4", "STG 4 (sink)"}));

    const Served plain =
        serveText(fake, request(2, "measure_kernel", "\"kernel\":" + readOffsetKernel()));
    const json& counters = plain.lines.back()["result"]["counters"];
    EXPECT_FALSE(counters.contains("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"));
    EXPECT_FALSE(counters.contains("l1tex__t_sectors_pipe_tex_mem_texture.sum"));
}

TEST(ProbeMeasureKernel, WarmAndRepetitionsAreOptionsAndTheAnswerSaysWarm) {
    FakeBackend fake;
    const Served served = serveText(
        fake, request(1, "measure_kernel",
                      "\"kernel\":" + readOffsetKernel() +
                          R"(,"options":{"warm":true,"counters":false,"repetitions":5})"));
    ASSERT_EQ(served.lines.size(), 2u);
    const json& result = served.lines.back()["result"];
    EXPECT_EQ(result["timing"]["cold"], false);
    EXPECT_NE(result["timing"]["label"].get<std::string>().find("warm"), std::string::npos);
    EXPECT_EQ(result["timing"]["kernelMs"]["samples"], 5);
    EXPECT_EQ(result["countersMeasured"], false);
    EXPECT_FALSE(fake.lastKernelOptions.cold);
    EXPECT_FALSE(fake.lastKernelOptions.counters);
    EXPECT_EQ(fake.lastKernelOptions.repetitions, 5);
}

TEST(ProbeMeasureKernel, BadOptionsAndMissingKernelAreBadRequestsThatNameTheField) {
    FakeBackend fake;
    const Served served = serveText(
        fake,
        request(1, "measure_kernel",
                "\"kernel\":" + readOffsetKernel() + R"(,"options":{"warm":1})") +
            request(2, "measure_kernel", R"("options":{})") +
            request(3, "measure_kernel",
                    "\"kernel\":" + readOffsetKernel() + R"(,"options":{"repetitions":0})") +
            request(4, "measure_kernel", "\"kernel\":" + readOffsetKernel() + R"(,"sweeps":[])") +
            request(5, "measure_kernel", R"("kernel":{"grid":[1,1,1]})"));
    ASSERT_EQ(served.lines.size(), 5u) << served.text;
    EXPECT_EQ(served.lines[0]["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines[0]["error"]["where"], "/options/warm");
    EXPECT_EQ(served.lines[1]["error"]["where"], "/kernel");
    EXPECT_EQ(served.lines[2]["error"]["where"], "/options/repetitions");
    EXPECT_EQ(served.lines[3]["error"]["where"], "/sweeps");
    EXPECT_EQ(served.lines[4]["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines[4]["error"]["where"].get<std::string>().rfind("/kernel", 0), 0u)
        << served.lines[4];
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, AKernelReadingPastItsBufferIsRefusedNamingTheOffenderAndNeverRuns) {
    FakeBackend fake;
    // offset 1: thread 4095 loads A at byte 16384, one element past the 16384-byte buffer
    // (the active expression gid + offset < n is what the notes' kernel guards with; this one
    // guards nothing).
    json kernel = json::parse(readOffsetKernel(4096, 1));
    kernel["accesses"][0]["active"] = "1";
    const Served served =
        serveText(fake, request(1, "measure_kernel", "\"kernel\":" + kernel.dump()));
    ASSERT_EQ(served.lines.size(), 1u);
    const json& error = served.lines.front()["error"];
    EXPECT_EQ(error["code"], "pattern_refused") << error;
    const std::string message = error["message"].get<std::string>();
    EXPECT_NE(message.find("16384"), std::string::npos) << message; // the address
    // Thread 4095 is thread 255 of block 15 (blocks of 256).
    EXPECT_NE(message.find("block (15, 0, 0)"), std::string::npos) << message;
    EXPECT_NE(message.find("thread (255, 0, 0)"), std::string::npos) << message;
    EXPECT_NE(message.find("accesses/0"), std::string::npos) << message; // the access
    EXPECT_NE(message.find("not launched"), std::string::npos) << message;
    EXPECT_EQ(error["where"].get<std::string>().rfind("/kernel", 0), 0u) << error;
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, AMisalignedKernelIsRefused) {
    FakeBackend fake;
    json kernel = json::parse(readOffsetKernel());
    kernel["accesses"][2]["address"] = "gid * 4 + 2";
    kernel["accesses"][2]["active"] = "gid + 1 < n";
    const Served served =
        serveText(fake, request(1, "measure_kernel", "\"kernel\":" + kernel.dump()));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines.front()["error"]["code"], "pattern_refused") << served.text;
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, BuffersLargerThanTheGpuAreRefusedNamingThemAndTheirSizes) {
    FakeBackend fake;                                // 1 GiB of device memory
    const std::int64_t huge = std::int64_t{3} << 29; // 1.5 GiB each
    const Served served = serveText(
        fake, request(1, "measure_kernel", "\"kernel\":" + readOffsetKernel(4096, 0, huge)));
    ASSERT_EQ(served.lines.size(), 1u);
    const json& error = served.lines.front()["error"];
    EXPECT_EQ(error["code"], "out_of_memory") << error;
    const std::string message = error["message"].get<std::string>();
    EXPECT_NE(message.find("A 1610612736 bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("C 1610612736 bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("1073741824"), std::string::npos) << message; // what the GPU has
}

TEST(ProbeMeasureKernel, ASweepAnswersOnePointEachInOrderAfterProgress) {
    FakeBackend fake;
    const Served served = serveText(
        fake, request(1, "measure_kernel",
                      "\"kernel\":" + readOffsetKernel() +
                          R"(,"sweep":[{"offset":0},{"offset":11},{"offset":128,"block":[128]}])"));
    ASSERT_GE(served.lines.size(), 2u) << served.text;
    const json& answer = served.lines.back();
    ASSERT_EQ(answer["ok"], true) << served.text;
    const json& list = answer["result"]["measurements"];
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[0]["parameters"]["offset"], 0);
    EXPECT_EQ(list[1]["parameters"]["offset"], 11);
    EXPECT_EQ(list[2]["block"], json::array({128, 1, 1}));
    // Offset 11 leaves the last 11 threads inactive: fewer bytes requested, more sectors.
    EXPECT_EQ(list[1]["bytesRequested"], 3 * (4096 - 11) * 4);
    EXPECT_GT(list[1]["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"].get<int>(),
              list[0]["predicted"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"].get<int>());
    int progressLines = 0;
    for (const json& line : served.lines) {
        progressLines += line.contains("progress") ? 1 : 0;
    }
    EXPECT_EQ(progressLines, 3);
    EXPECT_EQ(served.lines[served.lines.size() - 2]["progress"]["done"], 3);
}

TEST(ProbeMeasureKernel, ASweepPointNamingAnUnknownParameterIsRefusedWhole) {
    FakeBackend fake;
    const Served served = serveText(fake, request(1, "measure_kernel",
                                                  "\"kernel\":" + readOffsetKernel() +
                                                      R"(,"sweep":[{"offset":0},{"ofset":1}])"));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines.front()["error"]["code"], "bad_request");
    EXPECT_EQ(served.lines.front()["error"]["where"], "/sweep/1/ofset");
    EXPECT_NE(served.lines.front()["error"]["message"].get<std::string>().find("offset"),
              std::string::npos);
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, ASweepWhosePointReadsOutOfBoundsIsRefusedBeforeAnythingRuns) {
    FakeBackend fake;
    json kernel = json::parse(readOffsetKernel());
    kernel["accesses"][1]["active"] = "1";
    const Served served = serveText(
        fake, request(1, "measure_kernel",
                      "\"kernel\":" + kernel.dump() + R"(,"sweep":[{"offset":0},{"offset":3}])"));
    ASSERT_EQ(served.lines.size(), 1u);
    EXPECT_EQ(served.lines.front()["error"]["code"], "pattern_refused");
    EXPECT_EQ(served.lines.front()["error"]["where"].get<std::string>().rfind("/sweep/1", 0), 0u)
        << served.lines.front();
    EXPECT_EQ(fake.measureKernelCalls.load(), 0);
}

TEST(ProbeMeasureKernel, CancelStopsARunningKernelSweep) {
    FakeBackend fake;
    std::promise<void> started;
    std::atomic<bool> signalled{false};
    std::atomic<int> ran{0};
    fake.beforeItem = [&](int index) {
        if (index == 0 && !signalled.exchange(true)) {
            started.set_value();
        }
        ++ran;
        std::this_thread::sleep_for(5ms);
    };
    std::string sweep = "[";
    const int count = 1000; // 5 s if nothing cancels it
    for (int i = 0; i < count; ++i) {
        sweep += (i ? ",{\"offset\":" : "{\"offset\":") + std::to_string(i % 64) + "}";
    }
    sweep += "]";
    LiveServer server(fake);
    server.input.push(
        request(7, "measure_kernel", "\"kernel\":" + readOffsetKernel() + ",\"sweep\":" + sweep));
    ASSERT_EQ(started.get_future().wait_for(30s), std::future_status::ready);
    server.input.push(R"({"id":8,"op":"cancel","target":7})"
                      "\n");
    json cancelAnswer = server.output.waitFor(responseTo(8));
    json answer = server.output.waitFor(responseTo(7));
    EXPECT_EQ(server.finish(), kServeExitOk);
    EXPECT_EQ(cancelAnswer["result"]["state"], "cancelling");
    EXPECT_EQ(answer["ok"], false);
    EXPECT_EQ(answer["error"]["code"], "cancelled");
    EXPECT_LT(ran.load(), count);
}

TEST(ProbeMeasureKernel, HelloListsTheOp) {
    FakeBackend fake;
    const Served served = serveText(fake, request(1, "hello"));
    const json& ops = served.lines.front()["result"]["ops"];
    EXPECT_NE(std::find(ops.begin(), ops.end(), "measure_kernel"), ops.end());
}

TEST(ProbeMeasureKernel, KernelSourceOfAKernelListsOneMemoryInstructionPerAccessInOrder) {
    FakeBackend fake;
    const Served served =
        serveText(fake, request(1, "kernel_source", "\"kernel\":" + tiledTransposeKernel()));
    ASSERT_EQ(served.lines.size(), 1u);
    const json& result = served.lines.front()["result"];
    ASSERT_TRUE(result.contains("source")) << served.text;
    EXPECT_EQ(result["memoryInstructions"], json::array({"LDG 4", "STS 4", "LDS 4", "STG 4"}));
    EXPECT_EQ(result["sharedBytesPerBlock"], (31 * 33 + 31 + 1) * 4);
    const std::string source = result["source"].get<std::string>();
    const auto ldg = source.find("ld.global.u32");
    const auto sts = source.find("st.shared.u32");
    const auto sync = source.find("__syncthreads()");
    const auto lds = source.find("ld.shared.u32");
    const auto stg = source.find("st.global.u32");
    ASSERT_NE(ldg, std::string::npos);
    EXPECT_LT(ldg, sts);
    EXPECT_LT(sts, sync);
    EXPECT_LT(sync, lds);
    EXPECT_LT(lds, stg);
    EXPECT_EQ(source.find("ws_sink[0]"), std::string::npos); // it ends with a store
}

TEST(ProbeKernelCodegen, EveryAccessIsOneAsmStatementWithItsCachePathAndWidth) {
    auto kernel = warpscope::kernelFromJsonText(readOffsetKernel());
    ASSERT_TRUE(kernel.ok());
    kernel.value().accesses[0].kind.cache = warpscope::CachePath::CacheGlobal;
    kernel.value().accesses[1].kind.cache = warpscope::CachePath::NonCoherent;
    auto resolved = warpscope::resolveKernel(kernel.value());
    ASSERT_TRUE(resolved.ok()) << resolved.error().describe();
    const GeneratedKernel generated = generateKernelSource(resolved.value());
    const std::string& s = generated.source;
    std::size_t asmCount = 0;
    for (std::size_t at = s.find("asm volatile"); at != std::string::npos;
         at = s.find("asm volatile", at + 1)) {
        ++asmCount;
    }
    EXPECT_EQ(asmCount, 3u);
    EXPECT_LT(s.find("ld.global.cg.u32"), s.find("ld.global.nc.u32"));
    EXPECT_LT(s.find("ld.global.nc.u32"), s.find("st.global.u32"));
    // The active expression guards each access, with the kernel's parameters as arguments.
    EXPECT_NE(s.find("(ws_gid) + (ws_offset)"), std::string::npos) << s;
    EXPECT_NE(s.find("< (ws_n)"), std::string::npos) << s;
    EXPECT_NE(s.find("i64 ws_n, i64 ws_offset"), std::string::npos) << s;
    EXPECT_FALSE(generated.hasSink);
    EXPECT_EQ(generated.bufferArguments, 3);
    EXPECT_EQ(generated.parameterArguments, 2);
}

TEST(ProbeKernelCodegen, TrailingLoadsFeedAGuardedSinkSoTheyAreKept) {
    json kernel = json::parse(readOffsetKernel());
    kernel["accesses"].erase(2);
    auto parsed = warpscope::kernelFromJsonText(kernel.dump());
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    auto resolved = warpscope::resolveKernel(parsed.value());
    ASSERT_TRUE(resolved.ok());
    const GeneratedKernel generated = generateKernelSource(resolved.value());
    EXPECT_TRUE(generated.hasSink);
    EXPECT_EQ(generated.expectedMemoryInstructions.back(), "STG 4 (sink)");
    EXPECT_NE(generated.source.find("ws_acc == ws_sentinel"), std::string::npos);
}

TEST(ProbeKernelCodegen, WideAccessesUseVectorRegisters) {
    json kernel = json::parse(readOffsetKernel());
    kernel["accesses"][0]["width"] = 16;
    kernel["accesses"][0]["address"] = "(gid + offset) * 16";
    kernel["accesses"][0]["active"] = "(gid + offset) * 4 < n";
    kernel["accesses"][2]["width"] = 8;
    kernel["accesses"][2]["address"] = "gid * 8";
    kernel["accesses"][2]["active"] = "gid * 2 < n";
    auto parsed = warpscope::kernelFromJsonText(kernel.dump());
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    auto resolved = warpscope::resolveKernel(parsed.value());
    ASSERT_TRUE(resolved.ok());
    const GeneratedKernel generated = generateKernelSource(resolved.value());
    EXPECT_NE(generated.source.find("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"), std::string::npos);
    EXPECT_NE(generated.source.find("st.global.v2.u32 [%0], {%1, %2};"), std::string::npos);
    EXPECT_EQ(generated.expectedMemoryInstructions,
              (std::vector<std::string>{"LDG 16", "LDG 4", "STG 8"}));
}

// Issue 19: a local array whose address goes into the PTX (each access with its own term that is
// 0 at run time, so ptxas forwards nothing), and a texture read through an object argument.
TEST(ProbeKernelCodegen, LocalArraysAndTextureReads) {
    auto parsed = warpscope::kernelFromJsonText(
        R"({"buffers": [{"name": "in", "bytes": 65536}, {"name": "out", "bytes": 4096}],
            "grid": [4, 1, 1], "block": [256, 1, 1], "parameters": {"k": 3},
            "accesses": [
             {"op": "store", "space": "local", "width": 4, "address": "(lane % 8) * 4"},
             {"op": "load", "space": "local", "width": 1, "address": "k"},
             {"op": "load", "space": "texture", "width": 4, "buffer": "in", "row_bytes": 1024,
              "address": "gid * 16"},
             {"op": "store", "space": "global", "width": 4, "buffer": "out",
              "address": "gid * 4"}]})");
    ASSERT_TRUE(parsed.ok()) << parsed.error().describe();
    auto resolved = warpscope::resolveKernel(parsed.value());
    ASSERT_TRUE(resolved.ok()) << resolved.error().describe();
    auto grid = warpscope::predictGrid(resolved.value());
    ASSERT_TRUE(grid.ok());
    EXPECT_EQ(grid->localBytesPerThread, 32);
    const GeneratedKernel generated =
        generateKernelSource(resolved.value(), grid->localBytesPerThread);
    const std::string& s = generated.source;
    EXPECT_NE(s.find("unsigned char ws_local[32];"), std::string::npos) << s;
    EXPECT_NE(s.find("__cvta_generic_to_local(ws_local)"), std::string::npos);
    EXPECT_NE(s.find("st.local.u32 [%0], %1;"), std::string::npos);
    EXPECT_NE(s.find("ld.local.u8 %0, [%1];"), std::string::npos);
    EXPECT_NE(s.find("(ws_sentinel == 1u ? 4ull : 0ull)"), std::string::npos);
    EXPECT_NE(s.find("(ws_sentinel == 2u ? 4ull : 0ull)"), std::string::npos);
    EXPECT_NE(s.find("tex.2d.v4.u32.f32"), std::string::npos);
    EXPECT_NE(s.find("i64 ws_k, unsigned long long ws_tex_2, unsigned* ws_sink"), std::string::npos)
        << s;
    EXPECT_NE(s.find("(ws_a % 1024) / 4"), std::string::npos);
    EXPECT_EQ(generated.textureAccesses, (std::vector<int>{2}));
    EXPECT_EQ(generated.expectedMemoryInstructions,
              (std::vector<std::string>{"STL 4", "LDL 1", "TEX 4", "STG 4"}));

    // Without local accesses there is no array.
    auto plain = warpscope::kernelFromJsonText(readOffsetKernel());
    ASSERT_TRUE(plain.ok());
    auto plainResolved = warpscope::resolveKernel(plain.value());
    ASSERT_TRUE(plainResolved.ok());
    EXPECT_EQ(generateKernelSource(plainResolved.value()).source.find("ws_local"),
              std::string::npos);
}

} // namespace

// ---- Every device: device_info lists them, "device" picks one (additive: absent is device 0)

namespace {

TEST(ProbeDevices, DeviceInfoListsEveryDeviceWithItsIdentity) {
    FakeBackend fake;
    fake.deviceCount = 2;
    const Served served =
        serveText(fake, request(1, "device_info") + request(2, "device_info", R"("device":1)"));
    ASSERT_EQ(served.lines.size(), 2u) << served.text;
    const json& first = served.lines[0]["result"];
    EXPECT_EQ(first["index"], 0);
    EXPECT_EQ(first["name"], "warpscope fake GPU");
    ASSERT_EQ(first["devices"].size(), 2u);
    for (const char* field :
         {"index", "name", "uuid", "computeCapability", "globalMemoryBytes", "busId", "link"}) {
        EXPECT_TRUE(first["devices"][1].contains(field)) << field;
    }
    EXPECT_EQ(first["devices"][1]["name"], "warpscope fake GPU 1");
    EXPECT_NE(first["devices"][0]["uuid"], first["devices"][1]["uuid"]);
    EXPECT_NE(first["devices"][0]["busId"], first["devices"][1]["busId"]);
    const json& second = served.lines[1]["result"];
    EXPECT_EQ(second["index"], 1);
    EXPECT_EQ(second["name"], "warpscope fake GPU 1");
    EXPECT_EQ(second["uuid"], first["devices"][1]["uuid"]);
    EXPECT_NEAR(second["measuredCopyBandwidthGBs"].get<double>(), 25.0, 1e-9);
}

TEST(ProbeDevices, MeasureKernelRunsOnTheDeviceAsked) {
    FakeBackend fake;
    fake.deviceCount = 2;
    const std::string kernel = "\"kernel\":" + readOffsetKernel();
    const Served served = serveText(
        fake, request(1, "measure_kernel", kernel) +
                  request(2, "measure_kernel", kernel + R"(,"device":1)") +
                  request(3, "measure", "\"pattern\":" + stridedPattern(1) + R"(,"device":1)"));
    std::vector<json> answers;
    for (const json& line : served.lines) {
        if (line.contains("ok")) {
            answers.push_back(line);
        }
    }
    ASSERT_EQ(answers.size(), 3u) << served.text;
    EXPECT_NEAR(answers[0]["result"]["effectiveBandwidthGBs"].get<double>(), 50.0, 1e-6);
    // Device 1 of the fake has half the copy bandwidth: the same kernel takes twice as long.
    EXPECT_NEAR(answers[1]["result"]["effectiveBandwidthGBs"].get<double>(), 25.0, 1e-6);
    EXPECT_EQ(answers[2]["ok"], true) << answers[2].dump();
    EXPECT_EQ(fake.measureKernelCalls.load(), 1); // the second ran on device 1's backend
}

TEST(ProbeDevices, AnUnknownOrMalformedDeviceIsABadRequestNamingTheDevices) {
    FakeBackend fake;
    fake.deviceCount = 2;
    const Served served = serveText(
        fake, request(1, "measure", "\"pattern\":" + stridedPattern(1) + R"(,"device":5)") +
                  request(2, "device_info", R"("device":"one")") +
                  request(3, "device_info", R"("device":-1)"));
    ASSERT_EQ(served.lines.size(), 3u) << served.text;
    const json& unknown = served.lines[0]["error"];
    EXPECT_EQ(unknown["code"], "bad_request");
    EXPECT_EQ(unknown["where"], "/device");
    const std::string message = unknown["message"].get<std::string>();
    EXPECT_NE(message.find("no device 5"), std::string::npos) << message;
    EXPECT_NE(message.find("2 devices (0: warpscope fake GPU, 1: warpscope fake GPU 1)"),
              std::string::npos)
        << message;
    EXPECT_EQ(served.lines[1]["error"]["where"], "/device");
    EXPECT_EQ(served.lines[2]["error"]["where"], "/device");
    EXPECT_EQ(fake.measureCalls.load(), 0);
}

TEST(ProbeDevices, TheExperimentsRunOnTheDeviceAsked) {
    FakeBackend fake;
    fake.deviceCount = 2;
    const Served served = serveText(
        fake,
        request(1, "measure_transfers",
                R"("options":{"sizes":[4096],"modes":["h2d_pinned"],"repetitions":3},"device":1)") +
            request(2, "measure_streams",
                    R"("options":{"bytes":16777216,"streams":[2]},"device":1)") +
            request(3, "measure_l2_persistence",
                    R"("options":{"windowBytes":[2097152]},"device":1)") +
            request(4, "measure_streams",
                    R"("options":{"bytes":16777216,"streams":[2]},"device":5)"));
    std::vector<json> answers;
    for (const json& line : served.lines) {
        if (line.contains("ok")) {
            answers.push_back(line);
        }
    }
    ASSERT_EQ(answers.size(), 4u) << served.text;
    EXPECT_EQ(answers[0]["result"]["device"], "warpscope fake GPU 1") << answers[0].dump();
    EXPECT_EQ(answers[1]["result"]["device"], "warpscope fake GPU 1") << answers[1].dump();
    EXPECT_EQ(answers[2]["ok"], true) << answers[2].dump();
    EXPECT_EQ(answers[3]["error"]["where"], "/device") << answers[3].dump();
    // None of them ran on device 0's backend.
    EXPECT_EQ(fake.measureL2PersistenceCalls.load(), 0);
}

TEST(ProbeDevices, OneDeviceByDefaultAndDeviceZeroIsItself) {
    FakeBackend fake;
    const Served served = serveText(
        fake, request(1, "device_info", R"("device":0)") +
                  request(2, "measure", "\"pattern\":" + stridedPattern(1) + R"(,"device":1)"));
    ASSERT_EQ(served.lines.size(), 2u) << served.text;
    EXPECT_EQ(served.lines[0]["result"]["devices"].size(), 1u);
    EXPECT_EQ(served.lines[1]["error"]["code"], "bad_request");
}

} // namespace
