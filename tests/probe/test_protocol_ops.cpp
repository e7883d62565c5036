// The probe reads core's op table (warpscope/protocol/ops.h): hello lists its ops, an op whose row
// takes a device reads "device" (and names a missing one), an op whose row takes none refuses it.
#include "fake_backend.h"
#include "probe_protocol.h"

#include "warpscope/protocol/ops.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
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
    std::vector<std::string> expected;
    for (const protocol::OpInfo& row : protocol::probeOps()) {
        expected.emplace_back(row.name);
    }
    EXPECT_EQ(lines[0]["result"]["ops"].get<std::vector<std::string>>(), expected);
}

TEST(ProbeOpTable, TheDeviceFieldIsReadExactlyByTheOpsWhoseRowTakesOne) {
    for (const protocol::OpInfo& row : protocol::probeOps()) {
        FakeBackend fake; // one device: device 5 is not there
        const std::string op(row.name);
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

} // namespace
