// The probe against hostile kernels (issue 30), as a process over the fake backend: a launch of
// 2^31 x 1024 threads or a grid of `1 << 30` is refused by kernel_source and measure_kernel
// within 2 s with the grid model's budget, and the probe answers the next request; a kernel name
// that is not an identifier is refused, and a label cannot open a preprocessor line in the
// generated source. The human mode (run-kernel) refuses the same kernels and a FIFO argument.
#include "probe_process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

using warpscope::probe::testing::CommandResult;
using warpscope::probe::testing::ProbeProcess;
using warpscope::probe::testing::runCommand;
using json = nlohmann::json;
using namespace std::chrono_literals;

using warpscope::probe::testing::kFakeProbe;

json kernelWith(const json& grid, const std::string& name = "k", const std::string& label = "") {
    json access = {{"op", "store"},
                   {"space", "global"},
                   {"width", 4},
                   {"buffer", "data"},
                   {"address", "lane * 4"}};
    if (!label.empty()) {
        access["label"] = label;
    }
    return json{{"name", name},
                {"grid", grid},
                {"block", json::array({1024, 1, 1})},
                {"buffers", json::array({json{{"name", "data"}, {"bytes", 4096}}})},
                {"accesses", json::array({access})}};
}

/// Sends one request and reads lines until its response (skipping progress lines).
json ask(ProbeProcess& probe, const json& request, std::chrono::milliseconds timeout = 20s) {
    return warpscope::probe::testing::askProbe(probe, request.dump(), timeout);
}

TEST(ProbeHostile, HugeLaunchesAreRefusedWithinTwoSecondsAndTheProbeAnswersOn) {
    ProbeProcess probe(kFakeProbe, {}, {"WARPSCOPE_FAKE_PROBE=model"});
    ASSERT_TRUE(probe.started());
    int id = 0;
    for (const json& grid : {json::array({2147483647, 1, 1}), json::array({"1 << 30", 1, 1})}) {
        for (const char* op : {"kernel_source", "measure_kernel"}) {
            const auto start = std::chrono::steady_clock::now();
            const json answer =
                ask(probe, {{"id", ++id}, {"op", op}, {"kernel", kernelWith(grid)}});
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            ASSERT_TRUE(answer.is_object()) << op << ": no answer";
            EXPECT_EQ(answer["ok"], false) << answer.dump();
            const std::string message = answer["error"].value("message", "");
            EXPECT_NE(message.find("thread-accesses"), std::string::npos) << message;
            EXPECT_NE(message.find("limit of 4294967296"), std::string::npos) << message;
            EXPECT_LT(seconds, 2.0) << op;
            const json hello = ask(probe, {{"id", ++id}, {"op", "hello"}}, 5s);
            EXPECT_EQ(hello["ok"], true) << op << " left the probe unable to answer";
        }
    }
    probe.closeStdin();
    EXPECT_EQ(probe.waitExit(10s), 0);
}

TEST(ProbeHostile, NamesAndLabelsCannotInjectIntoTheGeneratedSource) {
    ProbeProcess probe(kFakeProbe, {}, {"WARPSCOPE_FAKE_PROBE=model"});
    ASSERT_TRUE(probe.started());
    const json grid = json::array({1, 1, 1});
    const json named = ask(probe, {{"id", 1},
                                   {"op", "kernel_source"},
                                   {"kernel", kernelWith(grid, "#include \"/etc/hostname\"")}});
    EXPECT_EQ(named["ok"], false) << named.dump();
    EXPECT_EQ(named["error"]["code"], "bad_request") << named.dump();
    EXPECT_NE(named["error"].value("message", "").find("cannot be a kernel name"),
              std::string::npos)
        << named.dump();

    // The guard: a label that ends its comment line and starts a preprocessor line
    // which would move every store 2^40 bytes past what the grid model checked.
    const std::string guard = "store\n#define ws_a (ws_a + (1LL << 40)) \\\n*/ ?"
                              "?/";
    const json labelled =
        ask(probe, {{"id", 2}, {"op", "kernel_source"}, {"kernel", kernelWith(grid, "k", guard)}});
    ASSERT_EQ(labelled["ok"], true) << labelled.dump();
    const std::string source = labelled["result"]["source"];
    std::istringstream lines(source);
    for (std::string line; std::getline(lines, line);) {
        const auto first = line.find_first_not_of(" \t");
        EXPECT_FALSE(first != std::string::npos && line[first] == '#') << line;
        if (line.find("#define") != std::string::npos) { // the label's text, inside a comment
            EXPECT_EQ(line.compare(first, 2, "//"), 0) << line;
        }
        if (line.find("store") != std::string::npos && line.find("//") != std::string::npos) {
            EXPECT_NE(line.back(), '\\') << line; // no comment continues onto the next line
            EXPECT_EQ(line.find("*/"), std::string::npos) << line;
            EXPECT_EQ(line.find("?"
                                "?/"),
                      std::string::npos)
                << line; // no trigraph
        }
    }
    probe.closeStdin();
    EXPECT_EQ(probe.waitExit(10s), 0);
}

TEST(ProbeHostile, RunKernelRefusesHugeLaunchesAndSpecialFiles) {
    const std::string huge = kernelWith(json::array({2147483647, 1, 1})).dump();
    const auto start = std::chrono::steady_clock::now();
    const CommandResult refused =
        runCommand(kFakeProbe, {"run-kernel", huge}, {"WARPSCOPE_FAKE_PROBE=model"}, 20s);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
    ASSERT_TRUE(refused.exitStatus.has_value()) << "run-kernel did not finish";
    EXPECT_NE(*refused.exitStatus, 0);
    EXPECT_NE(refused.err.find("thread-accesses"), std::string::npos) << refused.err;

    char pattern[] = "/tmp/warpscope-probe-hostile-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    const std::string fifo = std::string(pattern) + "/kernel.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& path : {fifo, std::string("/dev/zero")}) {
        const CommandResult special =
            runCommand(kFakeProbe, {"run-kernel", path}, {"WARPSCOPE_FAKE_PROBE=model"}, 20s);
        ASSERT_TRUE(special.exitStatus.has_value()) << path << ": run-kernel did not finish";
        EXPECT_NE(*special.exitStatus, 0) << path;
        EXPECT_NE(special.err.find("not a regular file"), std::string::npos)
            << path << ": " << special.err;
    }
    std::filesystem::remove_all(pattern);
}

} // namespace
