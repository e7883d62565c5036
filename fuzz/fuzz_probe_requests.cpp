// libFuzzer target for the probe's request side (kernels/protocol/probe_protocol.cpp): whatever
// arrives on warpscope-probe's stdin is read line by line by serve() and answered over the fake
// backend (plain C++, no CUDA), never with a crash, a hang, a leak or undefined behaviour. Every
// line written back is one JSON object with an id and either "ok" or "progress", and serve() ends
// normally at the end of the input. Seeds: fuzz/corpus/probe-requests/ (one request per line).
#include "fake_backend.h"
#include "fuzz_check.h"
#include "probe_protocol.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::ostringstream out;
    warpscope::probe::FakeBackend backend;
    warpscope::probe::ServeOptions options;
    options.probeVersion = "fuzz";
    options.progressInterval = std::chrono::milliseconds(0);
    const int status = warpscope::probe::serve(in, out, backend, options);
    check(status == warpscope::probe::kServeExitOk);

    std::istringstream lines(out.str());
    std::string line;
    while (std::getline(lines, line)) {
        const nlohmann::json answer = nlohmann::json::parse(line, nullptr, false);
        check(!answer.is_discarded() && answer.is_object());
        check(answer.contains("id"));
        check(answer.contains("ok") || answer.contains("progress"));
        if (answer.contains("ok") && answer["ok"] == false) {
            check(answer.contains("error") && answer["error"].contains("code"));
        }
    }
    return 0;
}
