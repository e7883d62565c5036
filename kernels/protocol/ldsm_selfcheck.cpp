// The self-check's model checks for ldmatrix, stmatrix and TMA tile loads (ldsm_selfcheck.h).
#include "ldsm_selfcheck.h"

#include "warpscope/file_format.h"
#include "warpscope/matrix_access.h"
#include "warpscope/model.h"
#include "warpscope/protocol/pattern_measurement.h"

#include <algorithm>
#include <functional>

namespace warpscope::probe {

namespace {

using json = nlohmann::json;

/// A matrix pattern line: rows of `matrices` 8x8 matrices, row r at rowAddress(r).
std::string matrixLine(const std::string& name, const char* op, int matrices, bool transpose,
                       const std::function<int(int)>& rowAddress) {
    json addresses = json::array();
    for (int lane = 0; lane < kWarpSize; ++lane) {
        addresses.push_back(lane < 8 * matrices ? json(rowAddress(lane)) : json(nullptr));
    }
    return json{{"name", name},
                {"space", "shared"},
                {"op", op},
                {"matrices", matrices},
                {"transpose", transpose},
                {"width", 16},
                {"addresses", std::move(addresses)}}
        .dump();
}

/// The counters a matrix check compares: the replay's shared-memory four and the LDSM count.
std::vector<std::string> matrixCounterNames() {
    return {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", kLdsmInstructionsMetric};
}

bool hasComputeCapability9(const DeviceInfo& device) {
    return device.computeCapabilityMajor >= 9;
}

} // namespace

const char* toString(ModelCheck::Outcome outcome) {
    switch (outcome) {
    case ModelCheck::Outcome::Agrees:
        return "agrees";
    case ModelCheck::Outcome::Differs:
        return "differs";
    case ModelCheck::Outcome::Skipped:
        break;
    }
    return "skipped";
}

const std::vector<std::string>& selfcheckMatrixPatterns() {
    // A tile of 64 16-bit elements a row (128 bytes) puts the 8 rows of a matrix on the same
    // four banks: 8 wavefronts a matrix. Padding a row to 144 bytes or XOR-swizzling its 16-byte
    // chunk with the row (Swizzle<3,4,3>) spreads them over all 32 banks: 1 wavefront a matrix.
    const auto rowMajor = [](int lane) { return (lane % 8) * 128 + (lane / 8) * 16; };
    const auto padded = [](int lane) { return (lane % 8) * 144 + (lane / 8) * 16; };
    const auto swizzled = [](int lane) {
        const int row = lane % 8;
        return row * 128 + (((lane / 8) ^ row) & 7) * 16;
    };
    const auto contiguous = [](int lane) { return lane * 16; };
    static const std::vector<std::string> lines = {
        matrixLine("ldmatrix x1 contiguous", "ldmatrix", 1, false, contiguous),
        matrixLine("ldmatrix x2 row-major 128-byte rows", "ldmatrix", 2, false, rowMajor),
        matrixLine("ldmatrix x4 row-major 128-byte rows", "ldmatrix", 4, false, rowMajor),
        matrixLine("ldmatrix x4.trans padded rows", "ldmatrix", 4, true, padded),
        matrixLine("ldmatrix x4.trans swizzled rows", "ldmatrix", 4, true, swizzled),
        matrixLine("stmatrix x1.trans row-major 128-byte rows", "stmatrix", 1, true, rowMajor),
        matrixLine("stmatrix x2 contiguous", "stmatrix", 2, false, contiguous),
        matrixLine("stmatrix x4 swizzled rows", "stmatrix", 4, false, swizzled),
        matrixLine("stmatrix x4.trans row-major 128-byte rows", "stmatrix", 4, true, rowMajor),
    };
    return lines;
}

ProbeResult<std::vector<ModelCheck>> runModelChecks(Backend& backend, const DeviceInfo& device,
                                                    const ProgressCallback& progress,
                                                    const CancelCallback& cancelled) {
    std::vector<ModelCheck> checks;
    std::vector<SweepItem> items;
    std::vector<std::size_t> itemCheck; // the check each item answers
    for (const std::string& line : selfcheckMatrixPatterns()) {
        auto named = patternFromJsonText(line);
        auto access = named ? resolve(named->pattern) : Result<WarpAccess>(named.error());
        if (!access) {
            return ProbeError::internal("the self-check's matrix pattern " + line + ": " +
                                        access.error().describe());
        }
        ModelCheck check;
        check.name = json::parse(line).value("name", "");
        check.kind = opName(access.value().kind);
        for (const Metric& metric : modernMetrics(predictModern(access.value()))) {
            const auto names = matrixCounterNames();
            if (std::find(names.begin(), names.end(), metric.name) != names.end()) {
                check.model[metric.name] = metric.value;
            }
        }
        const bool store = access.value().kind.op == AccessOp::Store;
        if (store && !hasComputeCapability9(device)) {
            check.detail = "stmatrix needs compute capability 9.0; " + device.name + " has " +
                           std::to_string(device.computeCapabilityMajor) + "." +
                           std::to_string(device.computeCapabilityMinor);
        } else {
            named.value().title = check.name;
            items.push_back(SweepItem{std::move(named).value(), std::move(access).value()});
            itemCheck.push_back(checks.size());
        }
        checks.push_back(std::move(check));
    }
    if (!items.empty()) {
        MeasureOptions options;
        options.counters = true;
        options.latency = false;
        options.grid = false;
        options.repetitions = 1;
        auto swept = backend.sweep(items, options, nullptr, cancelled);
        if (auto* error = std::get_if<ProbeError>(&swept)) {
            return *error;
        }
        const auto& measurements = std::get<std::vector<Measurement>>(swept);
        for (std::size_t i = 0; i < measurements.size() && i < itemCheck.size(); ++i) {
            ModelCheck& check = checks[itemCheck[i]];
            const Measurement& measurement = measurements[i];
            if (!measurement.countersMeasured) {
                check.detail = "no counters: " + measurement.countersUnavailableReason;
                continue;
            }
            std::string differences;
            for (const auto& [counter, expected] : check.model) {
                const auto found = measurement.counters.find(counter);
                if (found != measurement.counters.end()) {
                    check.measured[counter] = found->second;
                }
                if (found == measurement.counters.end() || found->second != expected) {
                    differences += (differences.empty() ? "" : "; ") + counter + " model " +
                                   protocol::numberJson(expected).dump() + ", measured " +
                                   (found == measurement.counters.end()
                                        ? std::string("nothing")
                                        : protocol::numberJson(found->second).dump());
                }
            }
            check.outcome =
                differences.empty() ? ModelCheck::Outcome::Agrees : ModelCheck::Outcome::Differs;
            check.detail = differences;
        }
    }
    const int total = static_cast<int>(selfcheckTmaLoads().size());
    int done = 0;
    for (const TmaTileLoad& load : selfcheckTmaLoads()) {
        if (cancelled && cancelled()) {
            return ProbeError::cancelled("the self-check was cancelled");
        }
        ModelCheck check;
        check.name = std::string("tma ") + describeTmaLoad(load);
        check.kind = "tma";
        auto layout = layTmaTile(load);
        if (!layout) {
            return ProbeError::internal("the self-check's TMA load " + check.name + ": " +
                                        layout.error().describe());
        }
        if (!hasComputeCapability9(device)) {
            check.detail = "TMA tile loads need compute capability 9.0";
        } else {
            auto dumped = backend.dumpTmaTile(load);
            if (auto* error = std::get_if<ProbeError>(&dumped)) {
                if (error->fatal) {
                    return *error;
                }
                check.outcome = ModelCheck::Outcome::Differs;
                check.detail = error->message;
            } else {
                const TmaCheckResult result =
                    compareTmaLayout(layout.value(), std::get<TmaDump>(dumped));
                check.outcome =
                    result.agrees() ? ModelCheck::Outcome::Agrees : ModelCheck::Outcome::Differs;
                for (const std::string& text : result.differences) {
                    check.detail += (check.detail.empty() ? "" : "; ") + text;
                }
            }
        }
        checks.push_back(std::move(check));
        if (progress) {
            progress(++done, total);
        }
    }
    return checks;
}

json toJson(const std::vector<ModelCheck>& checks) {
    int passed = 0;
    int failed = 0;
    int skipped = 0;
    json list = json::array();
    for (const ModelCheck& check : checks) {
        passed += check.outcome == ModelCheck::Outcome::Agrees ? 1 : 0;
        failed += check.outcome == ModelCheck::Outcome::Differs ? 1 : 0;
        skipped += check.outcome == ModelCheck::Outcome::Skipped ? 1 : 0;
        json model = json::object();
        json measured = json::object();
        for (const auto& [name, value] : check.model) {
            model[name] = protocol::numberJson(value);
        }
        for (const auto& [name, value] : check.measured) {
            measured[name] = protocol::numberJson(value);
        }
        list.push_back(json{{"name", check.name},
                            {"kind", check.kind},
                            {"outcome", toString(check.outcome)},
                            {"detail", check.detail},
                            {"model", std::move(model)},
                            {"measured", std::move(measured)}});
    }
    return json{
        {"passed", passed}, {"failed", failed}, {"skipped", skipped}, {"checks", std::move(list)}};
}

} // namespace warpscope::probe
