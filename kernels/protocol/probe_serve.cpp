// The probe protocol's server (docs/protocol.md): serve() with its reader thread, which queues
// requests and answers cancel at once, and the Server that answers each request on the backend of
// its device, with progress lines for the ops that report progress.
#include "probe_protocol_internal.h"

#include "experiment_table.h"
#include "kernel_codegen.h"
#include "kernel_request.h"

#include "warpscope/protocol/ops.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <string_view>
#include <thread>

namespace warpscope::probe {

namespace {

using namespace detail; // NOLINT: the request helpers shared by the protocol's files

// ---- The server -------------------------------------------------------------------------------

/// State shared by serve() and its reader thread; owned by both, since the reader may outlive
/// serve() after a fatal error (see probe_protocol.h).
struct Shared {
    std::istream& in;
    std::ostream& out;

    std::mutex mutex;
    std::condition_variable queueChanged; // new request, or room in the queue, or stopping
    std::condition_variable readerFinished;
    std::deque<Pending> queue;
    std::size_t queuedBytes = 0;
    bool stopping = false;   // serve() has returned or is returning: write nothing more
    bool readerDone = false; // the reader has left its loop
    bool running = false;    // a request is being answered
    json runningId;          // its id
    bool runningCancellable = false;
    std::atomic<bool> cancelRequested{false};

    std::mutex outMutex;

    Shared(std::istream& input, std::ostream& output) : in(input), out(output) {}

    /// Writes one protocol line unless serve() is done. Call without holding `mutex`.
    void write(const json& line) {
        const std::string text = dumpLine(line);
        std::lock_guard lock(outMutex);
        {
            std::lock_guard state(mutex);
            if (stopping) {
                return;
            }
        }
        out << text << '\n';
        out.flush();
    }
};

/// The reader thread: queues requests, answers cancel at once.
void readerLoop(const std::shared_ptr<Shared>& shared) {
    try {
        for (;;) {
            LineRead line = readLine(shared->in, kMaxRequestLineBytes);
            if (line.status == LineStatus::End) {
                break;
            }
            if (line.status == LineStatus::Line && isBlank(line.text)) {
                continue;
            }
            Pending pending = parseRequestLine(line);
            line = LineRead{};

            if (!pending.error && pending.op == "cancel") {
                json answer;
                if (auto bad = checkFields(pending.request, "cancel", {"target"})) {
                    answer = errorResponse(pending.id, *bad);
                } else if (!pending.request.contains("target") ||
                           !isValidId(pending.request["target"])) {
                    answer = errorResponse(
                        pending.id,
                        badRequest("cancel needs a \"target\": the id of the request to cancel",
                                   "/target"));
                } else {
                    const json& target = pending.request["target"];
                    std::string state = "not_found";
                    std::optional<Pending> dropped;
                    {
                        std::lock_guard lock(shared->mutex);
                        if (shared->running && shared->runningId == target) {
                            if (shared->runningCancellable) {
                                shared->cancelRequested = true;
                                state = "cancelling";
                            } else {
                                state = "not_cancellable";
                            }
                        } else {
                            auto it = std::find_if(
                                shared->queue.begin(), shared->queue.end(),
                                [&](const Pending& p) { return !p.endOfInput && p.id == target; });
                            if (it != shared->queue.end()) {
                                shared->queuedBytes -= it->bytes;
                                dropped = std::move(*it);
                                shared->queue.erase(it);
                                state = "dropped";
                                shared->queueChanged.notify_all();
                            }
                        }
                    }
                    if (dropped) {
                        shared->write(errorResponse(
                            dropped->id,
                            ProbeError::cancelled("cancelled before it started (request " +
                                                  dumpLine(pending.id) + ")")));
                    }
                    answer = okResponse(pending.id, {{"target", target}, {"state", state}});
                }
                shared->write(answer);
                continue;
            }

            const bool shutdown = !pending.error && pending.op == "shutdown";
            {
                std::unique_lock lock(shared->mutex);
                shared->queueChanged.wait(lock, [&] {
                    return shared->stopping || (shared->queue.size() < kMaxQueuedRequests &&
                                                shared->queuedBytes < kMaxQueuedBytes);
                });
                if (shared->stopping) {
                    break;
                }
                shared->queuedBytes += pending.bytes;
                shared->queue.push_back(std::move(pending));
                shared->queueChanged.notify_all();
            }
            if (shutdown) {
                break; // nothing after a shutdown is read: the caller may keep stdin open
            }
        }
    } catch (const std::exception&) {
        // Treated as the end of the input: serve() answers what it has and returns.
    }
    std::lock_guard lock(shared->mutex);
    Pending end;
    end.endOfInput = true;
    shared->queue.push_back(std::move(end));
    shared->readerDone = true;
    shared->queueChanged.notify_all();
    shared->readerFinished.notify_all();
}

class Server {
public:
    Server(std::shared_ptr<Shared> shared, Backend& backend, const ServeOptions& options)
        : m_shared(std::move(shared)), m_backend(backend), m_options(options) {}

    /// Answers requests until the end of input, a shutdown or a fatal error.
    int run() {
        for (;;) {
            Pending pending;
            {
                std::unique_lock lock(m_shared->mutex);
                m_shared->queueChanged.wait(lock, [&] { return !m_shared->queue.empty(); });
                pending = std::move(m_shared->queue.front());
                m_shared->queue.pop_front();
                m_shared->queuedBytes -= pending.bytes;
                m_shared->queueChanged.notify_all();
                if (!pending.endOfInput && !pending.error) {
                    m_shared->running = true;
                    m_shared->runningId = pending.id;
                    const protocol::OpInfo* row = protocol::findOp(pending.op);
                    m_shared->runningCancellable = row != nullptr && row->cancellable;
                    m_shared->cancelRequested = false;
                }
            }
            if (pending.endOfInput) {
                return kServeExitOk;
            }
            if (pending.error) {
                m_shared->write(errorResponse(pending.id, *pending.error));
                continue;
            }
            Outcome outcome;
            try {
                outcome = dispatch(pending);
            } catch (const std::exception& exception) {
                outcome.response = errorResponse(
                    pending.id,
                    ProbeError::internal(std::string("unexpected failure: ") + exception.what()));
            }
            {
                std::lock_guard lock(m_shared->mutex);
                m_shared->running = false;
                m_shared->runningId = nullptr;
            }
            m_shared->write(outcome.response);
            if (outcome.fatal) {
                return kServeExitFatal;
            }
            if (pending.op == "shutdown") {
                return kServeExitOk;
            }
            bool waiting = false;
            {
                std::lock_guard lock(m_shared->mutex);
                waiting = m_shared->queue.empty();
            }
            if (waiting) {
                // Nothing asked: set up the next measurement on the device last measured on.
                m_target->idle();
            }
        }
    }

private:
    struct Outcome {
        json response;
        bool fatal = false;
    };

    Outcome fail(const json& id, const RequestError& error) {
        return Outcome{errorResponse(id, error), error.error.fatal};
    }

    Outcome dispatch(const Pending& pending) {
        const json& request = pending.request;
        const json& id = pending.id;
        const std::string& op = pending.op;
        if (op == "hello" || op == "selfcheck" || op == "shutdown") {
            if (auto bad = checkFields(request, op, {})) {
                return fail(id, *bad);
            }
        }
        if (op == "device_info") {
            if (auto bad = checkFields(request, op, {})) {
                return fail(id, *bad);
            }
        }
        // The device the request is for: "device" (an index), device 0 when absent.
        auto target = targetDevice(request);
        if (auto* error = std::get_if<RequestError>(&target)) {
            return fail(id, *error);
        }
        m_target = std::get<Backend*>(target);
        if (op == "hello") {
            return {okResponse(id, hello())};
        }
        if (op == "shutdown") {
            return {okResponse(id, json::object())};
        }
        if (op == "device_info") {
            return deviceInfo(id);
        }
        if (op == "measure") {
            return measure(id, request);
        }
        if (op == "sweep") {
            return sweep(id, request);
        }
        if (op == "kernel_source") {
            return kernelSource(id, request);
        }
        if (op == "measure_kernel") {
            return measureKernel(id, request);
        }
        if (op == "selfcheck") {
            return selfcheck(id);
        }
        // Every experiment's op through core's table and the backend's runner
        // (experiment_table.h).
        if (const experiments::Experiment* row = experiments::findExperimentByOpName(op)) {
            return experiment(id, request, *row);
        }
        return fail(id, ProbeError::internal("op \"" + op + "\" not dispatched"));
    }

    /// An experiment's request on the request's device, with progress lines and cancel.
    Outcome experiment(const json& id, const json& request, const experiments::Experiment& row) {
        ProgressWriter progress(id, m_options.progressInterval,
                                [this](const json& line) { m_shared->write(line); });
        auto result = answerExperiment(
            row, request, *m_target, [&](int done, int total) { progress(done, total); },
            [this] { return m_shared->cancelRequested.load(); });
        if (auto* error = std::get_if<RequestError>(&result)) {
            return fail(id, *error);
        }
        return {okResponse(id, std::get<json>(std::move(result)))};
    }

    /// The backend of the request's "device" (absent: device 0), or why there is none.
    RequestResult<Backend*> targetDevice(const json& request) {
        const auto found = request.find("device");
        if (found == request.end()) {
            return &m_backend;
        }
        if (!found->is_number_integer() || found->get<std::int64_t>() < 0 ||
            found->get<std::int64_t>() > 1024) {
            return badRequest("\"device\" must be a device index (0, 1, ...); found " +
                                  describeJsonType(*found),
                              "/device");
        }
        const int index = static_cast<int>(found->get<std::int64_t>());
        if (Backend* backend = m_backend.forDevice(index)) {
            return backend;
        }
        std::string seen;
        auto devices = m_backend.listDevices();
        if (auto* list = std::get_if<std::vector<DeviceInfo>>(&devices)) {
            for (const DeviceInfo& d : *list) {
                seen += (seen.empty() ? "" : ", ") + std::to_string(d.index) + ": " + d.name;
            }
            seen = "this probe sees " + std::to_string(list->size()) + " device" +
                   (list->size() == 1 ? "" : "s") + " (" + seen + ")";
        } else {
            seen = "this probe sees no device";
        }
        return badRequest("there is no device " + std::to_string(index) + "; " + seen, "/device");
    }

    Outcome deviceInfo(const json& id) {
        auto info = m_target->deviceInfo();
        if (auto* error = std::get_if<ProbeError>(&info)) {
            return fail(id, *error);
        }
        protocol::DeviceInfoAnswer answer{std::get<DeviceInfo>(info), {}};
        // Every device, so that a caller can offer the others (additive: older callers ignore).
        auto list = m_backend.listDevices();
        if (auto* all = std::get_if<std::vector<DeviceInfo>>(&list)) {
            answer.devices = *all;
        }
        json result = toJson(answer);
        return {okResponse(id, std::move(result))};
    }

    json hello() const {
        json ops = json::array();
        for (const std::string_view name : protocol::opNames()) {
            ops.push_back(std::string(name));
        }
        return json{
            {"protocol", kProtocolVersion},
            {"probe", "warpscope-probe"},
            {"version", m_options.probeVersion},
            {"build", toJson(m_backend.buildInfo())},
            {"ops", std::move(ops)},
            {"measureOptions", {"counters", "counterNames", "latency", "grid", "repetitions"}},
            {"maxRequestBytes", kMaxRequestLineBytes}};
    }

    Outcome measure(const json& id, const json& request) {
        if (auto bad = checkFields(request, "measure", {"pattern", "options"})) {
            return fail(id, *bad);
        }
        auto pattern = patternField(request);
        if (auto* error = std::get_if<RequestError>(&pattern)) {
            return fail(id, *error);
        }
        auto options = parseOptions(request);
        if (auto* error = std::get_if<RequestError>(&options)) {
            return fail(id, *error);
        }
        const auto& resolved = std::get<ResolvedPattern>(pattern);
        const auto& measureOptions = std::get<MeasureOptions>(options);
        if (measureOptions.grid && !resolved.named.pattern.source) {
            return fail(id, gridNeedsExpression("/options/grid"));
        }
        auto measured = m_target->measure(resolved.named, resolved.access, measureOptions);
        if (auto* error = std::get_if<ProbeError>(&measured)) {
            return fail(id, *error);
        }
        return {okResponse(id, toJson(std::get<Measurement>(measured), resolved.access))};
    }

    Outcome sweep(const json& id, const json& request) {
        if (auto bad = checkFields(request, "sweep", {"patterns", "options"})) {
            return fail(id, *bad);
        }
        const auto patterns = request.find("patterns");
        if (patterns == request.end() || !patterns->is_array()) {
            return fail(id, badRequest(patterns == request.end()
                                           ? "the request has no \"patterns\""
                                           : "\"patterns\" must be an array; found " +
                                                 describeJsonType(*patterns),
                                       "/patterns"));
        }
        if (patterns->size() > static_cast<std::size_t>(kMaxSweepPatterns)) {
            return fail(id,
                        badRequest("a sweep takes at most " + std::to_string(kMaxSweepPatterns) +
                                       " patterns; found " + std::to_string(patterns->size()),
                                   "/patterns"));
        }
        auto options = parseOptions(request);
        if (auto* error = std::get_if<RequestError>(&options)) {
            return fail(id, *error);
        }
        const auto& measureOptions = std::get<MeasureOptions>(options);
        std::vector<SweepItem> items;
        std::vector<WarpAccess> accesses;
        items.reserve(patterns->size());
        for (std::size_t i = 0; i < patterns->size(); ++i) {
            const std::string pointer = "/patterns/" + std::to_string(i);
            auto resolved = resolvePatternJson((*patterns)[i], pointer);
            if (auto* error = std::get_if<RequestError>(&resolved)) {
                return fail(id, *error);
            }
            auto& value = std::get<ResolvedPattern>(resolved);
            if (measureOptions.grid && !value.named.pattern.source) {
                return fail(id, gridNeedsExpression(pointer));
            }
            items.push_back(SweepItem{std::move(value.named), value.access});
        }
        json measurements = json::array();
        if (!items.empty()) {
            ProgressWriter progress(id, m_options.progressInterval,
                                    [this](const json& line) { m_shared->write(line); });
            auto measured = m_target->sweep(
                items, measureOptions, [&](int done, int total) { progress(done, total); },
                [this] { return m_shared->cancelRequested.load(); });
            if (auto* error = std::get_if<ProbeError>(&measured)) {
                return fail(id, *error);
            }
            const auto& list = std::get<std::vector<Measurement>>(measured);
            if (list.size() != items.size()) {
                return fail(id, ProbeError::internal("the backend answered " +
                                                     std::to_string(list.size()) +
                                                     " measurements for " +
                                                     std::to_string(items.size()) + " patterns"));
            }
            for (std::size_t i = 0; i < list.size(); ++i) {
                measurements.push_back(toJson(list[i], items[i].access));
            }
        }
        return {okResponse(id, json{{"measurements", std::move(measurements)}})};
    }

    Outcome measureKernel(const json& id, const json& request) {
        if (auto bad = checkFields(request, "measure_kernel", {"kernel", "sweep", "options"})) {
            return fail(id, *bad);
        }
        const auto kernel = request.find("kernel");
        if (kernel == request.end()) {
            return fail(id, badRequest("the request has no \"kernel\"", "/kernel"));
        }
        auto options = parseKernelOptions(request);
        if (auto* error = std::get_if<RequestError>(&options)) {
            return fail(id, *error);
        }
        const auto sweep = request.find("sweep");
        // Every kernel is resolved and its every address checked before the first one runs.
        auto items = prepareKernelItems(*kernel, sweep == request.end() ? nullptr : &*sweep,
                                        &m_shared->cancelRequested);
        if (auto* error = std::get_if<RequestError>(&items)) {
            return fail(id, *error);
        }
        const auto& list = std::get<std::vector<KernelItem>>(items);
        json measurements = json::array();
        if (!list.empty()) {
            ProgressWriter progress(id, m_options.progressInterval,
                                    [this](const json& line) { m_shared->write(line); });
            auto measured = m_target->measureKernels(
                list, std::get<KernelMeasureOptions>(options),
                [&](int done, int total) { progress(done, total); },
                [this] { return m_shared->cancelRequested.load(); });
            if (auto* error = std::get_if<ProbeError>(&measured)) {
                RequestError failed(*error);
                return fail(id, failed);
            }
            const auto& results = std::get<std::vector<KernelMeasurement>>(measured);
            if (results.size() != list.size()) {
                return fail(id, ProbeError::internal("the backend answered " +
                                                     std::to_string(results.size()) +
                                                     " measurements for " +
                                                     std::to_string(list.size()) + " kernels"));
            }
            for (std::size_t i = 0; i < results.size(); ++i) {
                measurements.push_back(toJson(results[i], list[i]));
            }
        }
        if (sweep == request.end()) {
            return {okResponse(id, measurements.front())};
        }
        return {okResponse(id, json{{"measurements", std::move(measurements)}})};
    }

    Outcome kernelSource(const json& id, const json& request) {
        if (auto bad = checkFields(request, "kernel_source", {"pattern", "kernel"})) {
            return fail(id, *bad);
        }
        if (const auto kernel = request.find("kernel"); kernel != request.end()) {
            // A whole kernel's source is generated here, without the GPU: what measure_kernel
            // compiles for it.
            if (request.contains("pattern")) {
                return fail(id, badRequest("kernel_source takes a \"pattern\" or a \"kernel\", "
                                           "not both",
                                           "/kernel"));
            }
            auto items = prepareKernelItems(*kernel, nullptr, &m_shared->cancelRequested);
            if (auto* error = std::get_if<RequestError>(&items)) {
                return fail(id, *error);
            }
            const auto& item = std::get<std::vector<KernelItem>>(items).front();
            const GeneratedKernel generated =
                generateKernelSource(item.kernel, item.prediction.localBytesPerThread);
            json expected = json::array();
            for (const std::string& instruction : generated.expectedMemoryInstructions) {
                expected.push_back(instruction);
            }
            return {
                okResponse(id, json{{"source", generated.source},
                                    {"entryPoint", generated.entryPoint},
                                    {"sharedBytesPerBlock", item.prediction.sharedBytesPerBlock},
                                    {"memoryInstructions", std::move(expected)}})};
        }
        auto pattern = patternField(request);
        if (auto* error = std::get_if<RequestError>(&pattern)) {
            return fail(id, *error);
        }
        const auto& resolved = std::get<ResolvedPattern>(pattern);
        if (!resolved.named.pattern.source) {
            return fail(id, badRequest("kernel_source needs a pattern written as an address "
                                       "expression (with a \"source\"): grid kernels are "
                                       "generated from the expression",
                                       "/pattern"));
        }
        auto source = m_target->kernelSource(resolved.named);
        if (auto* error = std::get_if<ProbeError>(&source)) {
            return fail(id, *error);
        }
        return {okResponse(id, json{{"source", std::get<std::string>(source)}})};
    }

    Outcome selfcheck(const json& id) {
        ProgressWriter progress(id, m_options.progressInterval,
                                [this](const json& line) { m_shared->write(line); });
        auto report = runSelfcheck(
            m_backend, embeddedHardwareTable(), [&](int done, int total) { progress(done, total); },
            [this] { return m_shared->cancelRequested.load(); });
        if (auto* error = std::get_if<ProbeError>(&report)) {
            return fail(id, *error);
        }
        return {okResponse(id, toJson(std::get<SelfcheckReport>(report)))};
    }

    std::shared_ptr<Shared> m_shared;
    Backend& m_backend;
    Backend* m_target = &m_backend; // the device of the request being answered
    const ServeOptions& m_options;
};

} // namespace

int serve(std::istream& in, std::ostream& out, Backend& backend, const ServeOptions& options) {
    auto shared = std::make_shared<Shared>(in, out);
    std::thread reader([shared] { readerLoop(shared); });
    Server server(shared, backend, options);
    const int status = server.run();
    {
        std::unique_lock lock(shared->mutex);
        shared->stopping = true;
        shared->queueChanged.notify_all();
        if (status == kServeExitOk) {
            // End of input or shutdown: the reader has left its loop already.
            shared->readerFinished.wait(lock, [&] { return shared->readerDone; });
        } else {
            // A finite stream is read to its end at once; a live one (stdin) may never end.
            shared->readerFinished.wait_for(lock, std::chrono::milliseconds(200),
                                            [&] { return shared->readerDone; });
        }
    }
    bool done = false;
    {
        std::lock_guard lock(shared->mutex);
        done = shared->readerDone;
    }
    if (done) {
        reader.join();
    } else {
        reader.detach();
    }
    return status;
}

} // namespace warpscope::probe
