// warpscope-probe as a process, the way the app and scripts run it:
//   - the fake probe (the real command line over the scripted FakeBackend): exit statuses, the
//     human mode's output, stdout kept clean, cancel over a pipe, the fatal exit;
//   - the real probe on this machine: hello always works; without a GPU every GPU request gets a
//     clean no_driver / no_device answer and the probe goes on; with a GPU the self-check passes.
#include "probe_process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#ifndef WARPSCOPE_PROBE_PATH
#define WARPSCOPE_PROBE_PATH "" // the real probe was not built
#endif

namespace {

using warpscope::probe::testing::CommandResult;
using warpscope::probe::testing::ProbeProcess;
using warpscope::probe::testing::runCommand;
using json = nlohmann::json;
using namespace std::chrono_literals;

using warpscope::probe::testing::kFakeProbe;
const std::string kRealProbe = WARPSCOPE_PROBE_PATH;

std::vector<std::string> fakeScript(const std::string& script) {
    return {"WARPSCOPE_FAKE_PROBE=" + script};
}

const char* const kCoalesced =
    R"({"space":"global","op":"load","width":4,"source":{"address":"lane * 4"}})";

/// Sends one request and reads lines until its response (skipping progress lines).
json ask(ProbeProcess& probe, const std::string& line, std::chrono::milliseconds timeout = 30s) {
    return warpscope::probe::testing::askProbe(probe, line, timeout);
}

/// The last non-empty line of a text.
std::string lastLine(const std::string& text) {
    std::size_t end = text.find_last_not_of('\n');
    if (end == std::string::npos) {
        return "";
    }
    const std::size_t start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1,
                       end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// ---- The command line, over the fake backend ---------------------------------------------------

TEST(ProbeCommandLine, HelpAndVersionAnswerWithoutAGpu) {
    const CommandResult help = runCommand(kFakeProbe, {"--help"});
    EXPECT_EQ(help.exitStatus, 0);
    for (const char* part :
         {"run", "selfcheck", "info", "serve", "docs/protocol.md", "Exit status", "model-only"}) {
        EXPECT_NE(help.out.find(part), std::string::npos) << part;
    }
    const CommandResult version = runCommand(kFakeProbe, {"--version"});
    EXPECT_EQ(version.exitStatus, 0);
    EXPECT_NE(version.out.find("warpscope-probe "), std::string::npos) << version.out;
    EXPECT_NE(version.out.find("protocol 1"), std::string::npos) << version.out;
}

TEST(ProbeCommandLine, BadUsageExitsTwo) {
    for (const std::vector<std::string>& args : {std::vector<std::string>{"frobnicate"},
                                                 {"run"},
                                                 {"run", "lane*4", "--width", "3"},
                                                 {"run", "lane*4", "--bogus"},
                                                 {"selfcheck", "extra"},
                                                 {"run", "lane * * 4"},
                                                 {"run", "lane * 4 + 2"}}) {
        const CommandResult result = runCommand(kFakeProbe, args);
        EXPECT_EQ(result.exitStatus, 2) << args.front() << " " << result.err;
        EXPECT_FALSE(result.err.empty());
    }
}

TEST(ProbeCommandLine, L2PersistencePrintsATableAndRefusesBadOptions) {
    const CommandResult table = runCommand(kFakeProbe, {"l2-persistence", "--windows", "16M,64M",
                                                        "--hit-ratios", "1", "--repetitions", "2"});
    EXPECT_EQ(table.exitStatus, 0) << table.err;
    for (const char* part : {"set aside  30 MiB", "16 MiB", "64 MiB", "none", "1.000*", "0.469*",
                             "model kind", "prediction", "estimate"}) {
        EXPECT_NE(table.out.find(part), std::string::npos) << part << "\n" << table.out;
    }
    EXPECT_NE(table.err.find("measured 5 of 5 points"), std::string::npos) << table.err;
    const CommandResult answer = runCommand(
        kFakeProbe, {"l2-persistence", "--json", "--windows", "8M", "--no-tuned", "--no-counters"});
    EXPECT_EQ(answer.exitStatus, 0) << answer.err;
    EXPECT_NE(answer.out.find("\"countersMeasured\":false"), std::string::npos) << answer.out;
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"l2-persistence", "--hit-ratios", "2"},
          {"l2-persistence", "--windows", "1G"},
          {"l2-persistence", "--hit-ratios", "half"},
          {"l2-persistence", "--frob", "1"}}) {
        const CommandResult result = runCommand(kFakeProbe, args);
        EXPECT_EQ(result.exitStatus, 2) << args[1] << " " << result.err;
        EXPECT_FALSE(result.err.empty());
    }
}

TEST(ProbeCommandLine, SelfcheckEndsWithTheCountLine) {
    const CommandResult result = runCommand(kFakeProbe, {"selfcheck"}, fakeScript("model"));
    EXPECT_EQ(result.exitStatus, 0) << result.err;
    const std::string last = lastLine(result.out);
    EXPECT_NE(last.find(" passed, 0 failed"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("FAIL"), std::string::npos);
}

TEST(ProbeCommandLine, SelfcheckPrintsEachFailingRowAndExitsOne) {
    const CommandResult result = runCommand(kFakeProbe, {"selfcheck"}, fakeScript("mismatch"));
    EXPECT_EQ(result.exitStatus, 1);
    EXPECT_NE(result.out.find("FAIL"), std::string::npos);
    EXPECT_NE(result.out.find("g-load-w4-coalesced"), std::string::npos);
    EXPECT_NE(result.out.find("expected 4, measured 5"), std::string::npos) << result.out;
    EXPECT_NE(lastLine(result.out).find(" passed, 1 failed"), std::string::npos) << result.out;
}

TEST(ProbeCommandLine, WithoutAGpuSelfcheckRunAndInfoSayWhyAndExitFour) {
    for (const char* script : {"no_driver", "no_device"}) {
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"selfcheck"}, {"run", "lane * 4"}, {"info"}}) {
            const CommandResult result = runCommand(kFakeProbe, args, fakeScript(script));
            EXPECT_EQ(result.exitStatus, 4) << script << " " << args.front();
            EXPECT_NE(result.err.find(std::string(script) == "no_driver" ? "no NVIDIA driver"
                                                                         : "no CUDA device"),
                      std::string::npos)
                << result.err;
            EXPECT_NE(result.err.find("model-only"), std::string::npos) << result.err;
            EXPECT_EQ(result.out.find("passed"), std::string::npos) << result.out;
        }
    }
}

TEST(ProbeCommandLine, RunPrintsPredictedBesideMeasured) {
    const CommandResult result =
        runCommand(kFakeProbe, {"run", "(lane + 11) * 4", "--cache", "cg"}, fakeScript("model"));
    EXPECT_EQ(result.exitStatus, 0) << result.err;
    EXPECT_NE(result.out.find("predicted"), std::string::npos);
    EXPECT_NE(result.out.find("measured"), std::string::npos);
    EXPECT_NE(result.out.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), std::string::npos);
    EXPECT_NE(result.out.find("\u2713"), std::string::npos);
    EXPECT_EQ(result.out.find("\u2717"), std::string::npos);
    EXPECT_NE(result.out.find("cache cg"), std::string::npos);
    // 600 cycles at the fake's 2 GHz.
    EXPECT_NE(result.out.find("600 cycles (300.0 ns)"), std::string::npos) << result.out;
}

TEST(ProbeCommandLine, RunKernelPrintsTheGridModelBesideTheCountersAndTheBandwidth) {
    const CommandResult result = runCommand(
        kFakeProbe, {"run-kernel", "readoffset", "--param", "offset=11"}, fakeScript("model"));
    EXPECT_EQ(result.exitStatus, 0) << result.err;
    EXPECT_NE(result.out.find("offset=11"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), std::string::npos);
    EXPECT_NE(result.out.find("dram__bytes_read.sum"), std::string::npos);
    EXPECT_NE(result.out.find("\u2713"), std::string::npos);
    EXPECT_EQ(result.out.find("\u2717"), std::string::npos);
    EXPECT_NE(result.out.find("cold: L2 flushed before each launch"), std::string::npos);
    EXPECT_NE(result.out.find("Effective bandwidth"), std::string::npos);
}

TEST(ProbeCommandLine, RunKernelSweepsAsJsonLines) {
    const CommandResult result =
        runCommand(kFakeProbe,
                   {"run-kernel", "transpose-naivecol-cg", "--json", "--no-counters", "--sweep",
                    "bx=32,8", "--sweep", "by=32,32", "--repetitions", "3"},
                   fakeScript("model"));
    EXPECT_EQ(result.exitStatus, 0) << result.err;
    std::vector<json> lines;
    std::istringstream in(result.out);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(json::parse(line, nullptr, false));
    }
    ASSERT_EQ(lines.size(), 2u) << result.out;
    EXPECT_EQ(lines[0]["parameters"]["bx"], 32);
    EXPECT_EQ(lines[1]["parameters"]["bx"], 8);
    EXPECT_EQ(lines[1]["block"], json::array({8, 32, 1}));
    EXPECT_EQ(lines[1]["timing"]["kernelMs"]["samples"], 3);
    EXPECT_EQ(lines[1]["countersMeasured"], false);
    EXPECT_EQ(lines[1]["memoryInstructions"], json::array({"LDG 4", "STG 4"}));
    EXPECT_TRUE(lines[1].contains("device"));
}

TEST(ProbeCommandLine, RunKernelFlushSaysWhichColdStateEachAnswerHad) {
    auto answer = [](const std::string& flush) {
        std::vector<std::string> args = {"run-kernel", "transpose-unroll4row", "--json",
                                         "--repetitions", "2"};
        if (!flush.empty()) {
            args.insert(args.end(), {"--flush", flush});
        }
        const CommandResult result = runCommand(kFakeProbe, args, fakeScript("model"));
        EXPECT_EQ(result.exitStatus, 0) << result.err;
        return json::parse(result.out, nullptr, false);
    };
    const json clean = answer("");
    EXPECT_EQ(clean["l2Flush"], "clean") << clean.dump();
    EXPECT_EQ(clean["countersCold"], true);
    EXPECT_EQ(clean["timing"]["cold"], true);
    const json dirty = answer("dirty");
    EXPECT_EQ(dirty["l2Flush"], "dirty") << dirty.dump();
    EXPECT_EQ(dirty["countersCold"], true);
    EXPECT_EQ(dirty["timing"]["cold"], true);
    EXPECT_NE(dirty["timing"]["label"].get<std::string>().find("dirty"), std::string::npos);
    const json none = answer("none");
    EXPECT_EQ(none["l2Flush"], "none") << none.dump();
    EXPECT_EQ(none["countersCold"], false);
    EXPECT_EQ(none["timing"]["cold"], false);
    EXPECT_EQ(none["timing"]["label"].get<std::string>().rfind("warm", 0), 0u);
    const CommandResult bad =
        runCommand(kFakeProbe, {"run-kernel", "transpose-unroll4row", "--flush", "invalidate"},
                   fakeScript("model"));
    EXPECT_EQ(bad.exitStatus, 2);
    EXPECT_NE(bad.err.find("--flush takes clean, dirty or none, not 'invalidate'"),
              std::string::npos)
        << bad.err;
}

TEST(ProbeCommandLine, RunKernelRefusesBadKernelsAndOptionsWithExitTwo) {
    // Thread 32 would load byte 128 of a 128-byte buffer.
    const CommandResult outside = runCommand(
        kFakeProbe,
        {"run-kernel", R"({"grid":[2,1,1],"block":[32,1,1],"buffers":[{"name":"a","bytes":128}],)"
                       R"("accesses":[{"op":"load","space":"global","width":4,"buffer":"a",)"
                       R"("address":"gid*4"}]})"},
        fakeScript("model"));
    EXPECT_EQ(outside.exitStatus, 2);
    EXPECT_NE(outside.err.find("pattern_refused"), std::string::npos) << outside.err;
    EXPECT_NE(outside.err.find("past the end of 'a'"), std::string::npos) << outside.err;
    EXPECT_NE(outside.err.find("block (1, 0, 0), thread (0, 0, 0)"), std::string::npos);
    const CommandResult huge = runCommand(
        kFakeProbe,
        {"run-kernel", R"({"grid":[1,1,1],"block":[32,1,1],"buffers":[{"name":"big",)"
                       R"("bytes":4294967296}],"accesses":[{"op":"load","space":"global",)"
                       R"("width":4,"buffer":"big","address":"gid*4"}]})"},
        fakeScript("model"));
    EXPECT_EQ(huge.exitStatus, 2);
    EXPECT_NE(huge.err.find("out_of_memory"), std::string::npos) << huge.err;
    EXPECT_NE(huge.err.find("big 4294967296 bytes"), std::string::npos) << huge.err;
    EXPECT_EQ(runCommand(kFakeProbe, {"run-kernel", "no-such-kernel"}).exitStatus, 2);
    EXPECT_EQ(runCommand(kFakeProbe, {"run-kernel", "readoffset", "--param", "nope=1"}).exitStatus,
              2);
    EXPECT_EQ(runCommand(kFakeProbe,
                         {"run-kernel", "readoffset", "--sweep", "offset=0,1", "--sweep", "n=1"})
                  .exitStatus,
              2);
}

TEST(ProbeCommandLine, RunKernelSourceNeedsNoGpu) {
    const CommandResult result = runCommand(
        kFakeProbe, {"run-kernel", "transpose-tiled-padded", "--source"}, fakeScript("no_driver"));
    EXPECT_EQ(result.exitStatus, 0) << result.err;
    EXPECT_NE(result.out.find("st.shared.u32"), std::string::npos);
    EXPECT_NE(result.out.find("__syncthreads()"), std::string::npos);
}

TEST(ProbeCommandLine, InfoDescribesTheDevice) {
    const CommandResult result = runCommand(kFakeProbe, {"info"}, fakeScript("model"));
    EXPECT_EQ(result.exitStatus, 0);
    EXPECT_NE(result.out.find("warpscope fake GPU"), std::string::npos);
    EXPECT_NE(result.out.find("Compute capability"), std::string::npos);
    EXPECT_NE(result.out.find("64.0 GB/s"), std::string::npos) << result.out;
}

// ---- serve, over the fake backend --------------------------------------------------------------

TEST(ProbeServe, AnswersOverPipesAndExitsZeroAtEndOfInput) {
    ProbeProcess probe(kFakeProbe, {});
    ASSERT_TRUE(probe.started());
    json hello = ask(probe, R"({"id":1,"op":"hello"})");
    EXPECT_EQ(hello["result"]["protocol"], 1);
    json measured =
        ask(probe, std::string(R"({"id":2,"op":"measure","pattern":)") + kCoalesced + "}");
    EXPECT_EQ(measured["result"]["counters"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 4);
    probe.closeStdin();
    EXPECT_EQ(probe.waitExit(10s), 0);
}

TEST(ProbeServe, StdoutCarriesOnlyProtocolLinesEvenWhenALibraryPrints) {
    ProbeProcess probe(kFakeProbe, {"serve"}, fakeScript("noisy"));
    json info = ask(probe, R"({"id":1,"op":"device_info"})");
    EXPECT_EQ(info["ok"], true);
    probe.closeStdin();
    EXPECT_EQ(probe.waitExit(10s), 0);
    EXPECT_TRUE(probe.pendingStdout().empty()) << probe.pendingStdout();
    EXPECT_NE(probe.stderrText().find("noise from a library"), std::string::npos);
}

TEST(ProbeServe, CancelReachesARunningSweepOverThePipe) {
    ProbeProcess probe(kFakeProbe, {}, fakeScript("slow"));
    std::string patterns = "[";
    for (int i = 0; i < 500; ++i) { // 10 s if nothing cancels it
        patterns += (i ? "," : "") + std::string(kCoalesced);
    }
    patterns += "]";
    ASSERT_TRUE(probe.writeLine(R"({"id":"sweep-1","op":"sweep","patterns":)" + patterns + "}"));
    const auto progress = probe.readLine(10s);
    ASSERT_TRUE(progress.has_value());
    EXPECT_NE(progress->find("\"progress\""), std::string::npos) << *progress;
    ASSERT_TRUE(probe.writeLine(R"({"id":"c","op":"cancel","target":"sweep-1"})"));
    std::optional<json> cancelAnswer;
    std::optional<json> sweepAnswer;
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while ((!cancelAnswer || !sweepAnswer) && std::chrono::steady_clock::now() < deadline) {
        const auto line = probe.readLine(10s);
        if (!line) {
            break;
        }
        json value = json::parse(*line, nullptr, false);
        if (value.contains("ok")) {
            (value["id"] == "c" ? cancelAnswer : sweepAnswer) = value;
        }
    }
    ASSERT_TRUE(cancelAnswer && sweepAnswer);
    EXPECT_EQ((*cancelAnswer)["result"]["state"], "cancelling");
    EXPECT_EQ((*sweepAnswer)["error"]["code"], "cancelled");
    probe.closeStdin();
    EXPECT_EQ(probe.waitExit(10s), 0);
}

TEST(ProbeServe, AFatalErrorIsAnsweredAndTheProbeExitsThreeWithStdinStillOpen) {
    ProbeProcess probe(kFakeProbe, {}, fakeScript("fatal"));
    json answer =
        ask(probe, std::string(R"({"id":1,"op":"measure","pattern":)") + kCoalesced + "}");
    EXPECT_EQ(answer["error"]["code"], "kernel_fault");
    EXPECT_EQ(answer["error"]["fatal"], true);
    // stdin stays open: the probe must leave on its own.
    EXPECT_EQ(probe.waitExit(10s), 3);
}

// ---- The real warpscope-probe on this machine ---------------------------------------------------

class RealProbe : public ::testing::Test {
protected:
    void SetUp() override {
        if (kRealProbe.empty()) {
            GTEST_SKIP() << "warpscope-probe was not built (no CUDA backend in this build)";
        }
    }

    /// device_info's answer, to tell a machine with a GPU from one without.
    static json deviceInfo(ProbeProcess& probe) {
        return ask(probe, R"({"id":"info","op":"device_info"})", 60s);
    }

    static bool isNoGpuAnswer(const json& answer) {
        if (!answer.is_object() || answer.value("ok", true) || !answer.contains("error") ||
            !answer["error"].is_object()) {
            return false;
        }
        const std::string code = answer["error"].value("code", "");
        return code == "no_driver" || code == "no_device";
    }
};

TEST_F(RealProbe, HelloWorksOnEveryMachine) {
    ProbeProcess probe(kRealProbe, {});
    json hello = ask(probe, R"({"id":1,"op":"hello"})");
    ASSERT_EQ(hello["ok"], true) << hello << probe.stderrText();
    EXPECT_EQ(hello["result"]["protocol"], 1);
    EXPECT_EQ(hello["result"]["build"]["backend"], "cuda");
    probe.closeStdin();
    EXPECT_EQ(probe.waitExit(30s), 0);
}

TEST_F(RealProbe, WithoutAGpuEveryGpuRequestGetsACleanNoDeviceAnswer) {
    ProbeProcess probe(kRealProbe, {});
    json info = deviceInfo(probe);
    ASSERT_TRUE(info.is_object()) << "no answer to device_info: " << probe.stderrText();
    if (info["ok"] == true) {
        GTEST_SKIP() << "a CUDA device is present (" << info["result"]["name"]
                     << "): the no-GPU answers are not tested here";
    }
    ASSERT_TRUE(isNoGpuAnswer(info)) << info;
    EXPECT_FALSE(info["error"].value("message", "").empty());
    const std::vector<std::string> requests = {
        std::string(R"({"id":2,"op":"measure","pattern":)") + kCoalesced + "}",
        std::string(R"({"id":3,"op":"sweep","patterns":[)") + kCoalesced + "," + kCoalesced + "]}",
        R"({"id":4,"op":"selfcheck"})",
        R"({"id":5,"op":"device_info"})",
    };
    for (const std::string& line : requests) {
        json answer = ask(probe, line, 60s);
        EXPECT_TRUE(isNoGpuAnswer(answer)) << line << " -> " << answer;
    }
    // Still answering.
    EXPECT_EQ(ask(probe, R"({"id":6,"op":"hello"})")["ok"], true);
    json source =
        ask(probe, std::string(R"({"id":7,"op":"kernel_source","pattern":)") + kCoalesced + "}");
    if (isNoGpuAnswer(source)) {
        std::cout << "[ NOTE     ] kernel_source answered " << source["error"]["code"]
                  << " without a GPU (the backend compiles generated kernels only with a driver): "
                  << source["error"]["message"] << "\n";
    } else {
        EXPECT_EQ(source["ok"], true) << source;
        EXPECT_FALSE(source["result"].value("source", "").empty());
    }
    probe.closeStdin();
    EXPECT_EQ(probe.waitExit(30s), 0);
}

TEST_F(RealProbe, SelfcheckWithoutAGpuExitsNonZeroWithAMessage) {
    ProbeProcess check(kRealProbe, {"info"});
    const auto infoStatus = check.waitExit(60s);
    if (infoStatus == 0) {
        GTEST_SKIP() << "a CUDA device is present: see SelfcheckPassesOnThisGpu";
    }
    const CommandResult result = runCommand(kRealProbe, {"selfcheck"});
    EXPECT_EQ(result.exitStatus, 4) << result.err;
    EXPECT_FALSE(result.err.empty());
    EXPECT_EQ(result.out.find("passed"), std::string::npos);
}

TEST_F(RealProbe, EndOfInputExitsZero) {
    const CommandResult result = runCommand(kRealProbe, {"serve"}, {}, 30s);
    EXPECT_EQ(result.exitStatus, 0) << result.err;
    EXPECT_TRUE(result.out.empty()) << result.out;
}

// Needs a GPU: runs the committed hardware table on it.
TEST_F(RealProbe, SelfcheckPassesOnThisGpu) {
    ProbeProcess probe(kRealProbe, {});
    json info = deviceInfo(probe);
    ASSERT_TRUE(info.is_object()) << "no answer to device_info: " << probe.stderrText();
    // Skipped only where there is no GPU; any other device_info error is a failure.
    if (info["ok"] != true) {
        const std::string code = info["error"].value("code", "");
        if (code != "no_driver" && code != "no_device") {
            FAIL() << "device_info failed: " << info;
        }
        GTEST_SKIP() << "no CUDA device: " << code << ": " << info["error"].value("message", "");
    }
    json check = ask(probe, R"({"id":"check","op":"selfcheck"})", 300s);
    ASSERT_EQ(check["ok"], true) << check;
    EXPECT_EQ(check["result"]["failed"], 0) << check["result"]["failures"].dump(2);
    EXPECT_GT(check["result"]["passed"].get<int>(), 0);
    probe.closeStdin();
    EXPECT_EQ(probe.waitExit(60s), 0);
}

} // namespace
