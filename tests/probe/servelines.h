// What the probe's experiment tests share: requests served in-process, the answers read back.
#pragma once

#include "probe_protocol.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

namespace warpscope::probe::test {

/// Serves `input` (request lines) on `backend` with every progress line written, expects serve()
/// to end normally, and returns each line it wrote, parsed.
inline std::vector<nlohmann::json> serveLines(Backend& backend, const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out;
    ServeOptions options;
    options.progressInterval = std::chrono::milliseconds(0);
    EXPECT_EQ(serve(in, out, backend, options), kServeExitOk);
    std::vector<nlohmann::json> lines;
    std::istringstream text(out.str());
    std::string line;
    while (std::getline(text, line)) {
        lines.push_back(nlohmann::json::parse(line));
    }
    return lines;
}

} // namespace warpscope::probe::test
