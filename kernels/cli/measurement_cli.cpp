// The measurement commands' shared pieces (measurement_cli.h).
#include "measurement_cli.h"

#include <atomic>
#include <csignal>
#include <iostream>
#include <utility>

namespace warpscope::probe {

namespace {

std::atomic<bool> g_cancelled{false};

extern "C" void onMeasurementInterrupt(int) {
    g_cancelled = true;
}

} // namespace

int commandFail(const std::string& message, int status) {
    std::cerr << "warpscope-probe: " << message << "\n";
    if (status == kExitBadInput) {
        std::cerr << "Run 'warpscope-probe --help' for the commands and options.\n";
    }
    return status;
}

std::variant<nlohmann::json, int> runMeasurementCommand(const MeasurementRequest& request,
                                                        const nlohmann::json& options,
                                                        const BackendFactory& makeBackend,
                                                        const ProgressCallback& progress) {
    auto backend = makeBackend();
    g_cancelled = false;
    auto previous = std::signal(SIGINT, onMeasurementInterrupt);
    auto result = request(nlohmann::json{{"options", options}}, *backend, progress,
                          [] { return g_cancelled.load(); });
    std::signal(SIGINT, previous);
    if (auto* error = std::get_if<RequestError>(&result)) {
        const ProbeErrorCode code = error->error.code;
        const std::string where = error->where.empty() ? "" : " (at " + error->where + ")";
        const std::string message =
            std::string(probeErrorCodeName(code)) + ": " + error->error.message + where;
        int status = kExitProbeError;
        if (code == ProbeErrorCode::NoDriver || code == ProbeErrorCode::NoDevice ||
            code == ProbeErrorCode::DriverTooOld) {
            status = kExitNoGpu;
        } else if (error->error.fatal) {
            status = kExitFatal;
        } else if (code == ProbeErrorCode::BadRequest || code == ProbeErrorCode::OutOfMemory) {
            status = kExitBadInput;
        }
        return std::variant<nlohmann::json, int>(std::in_place_index<1>,
                                                 commandFail(message, status));
    }
    return std::variant<nlohmann::json, int>(std::in_place_index<0>,
                                             std::move(std::get<nlohmann::json>(result)));
}

int runMeasurementCommandLine(const std::vector<std::string>& args,
                              const BackendFactory& makeBackend, const MeasurementRequest& request,
                              const ProgressCallback& progress, const MeasurementOption& option,
                              const std::function<void(const nlohmann::json&)>& print,
                              const MeasurementFlag& flag) {
    nlohmann::json options = nlohmann::json::object();
    bool asJson = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--json") {
            asJson = true;
            continue;
        }
        if (flag && flag(arg, options)) {
            continue;
        }
        if (i + 1 >= args.size()) {
            return commandFail(arg.rfind("--", 0) == 0 ? arg + " needs a value"
                                                       : "unexpected argument '" + arg + "'",
                               kExitBadInput);
        }
        if (const std::optional<int> status = option(arg, args[++i], options)) {
            return *status;
        }
    }
    auto outcome = runMeasurementCommand(request, options, makeBackend, progress);
    if (const int* status = std::get_if<int>(&outcome)) {
        return *status;
    }
    const nlohmann::json& answer = std::get<nlohmann::json>(outcome);
    if (asJson) {
        std::cout << answer.dump() << "\n";
    } else {
        print(answer);
    }
    return kExitOk;
}

} // namespace warpscope::probe
