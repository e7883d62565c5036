// The self-check's model checks (docs/protocol.md, "selfcheck"): a few ldmatrix and stmatrix
// patterns (x1, x2, x4, .trans, conflicting and conflict-free) measured on the GPU and compared
// with the modern model on every counter it predicts, and TMA tile loads in each swizzle mode
// compared chunk by chunk with core's layout model. Unlike the hardware-table rows, these compare
// with the model, not with a recorded measurement.
#pragma once

#include "probe_backend.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace warpscope::probe {

struct ModelCheck {
    enum class Outcome { Agrees, Differs, Skipped };
    std::string name; // "ldmatrix x4.trans swizzled", "tma 128B 64x16 2-byte at 384"
    std::string kind; // "ldmatrix", "stmatrix" or "tma"
    Outcome outcome = Outcome::Skipped;
    std::string detail;                     // the differences, or why it was skipped
    std::map<std::string, double> model;    // matrix checks: the model's counters
    std::map<std::string, double> measured; // and the GPU's
};

const char* toString(ModelCheck::Outcome outcome);

/// The matrix patterns the self-check measures, each as a `warpscope-cli predict` JSON line with a
/// "name".
const std::vector<std::string>& selfcheckMatrixPatterns();

/// Runs every matrix pattern (one sweep, counters only) and every TMA load of
/// selfcheckTmaLoads(). A device that lacks an instruction (stmatrix and TMA need compute
/// capability 9.0) gets Skipped rows saying so. Errors: the backend's fatal ones, and Cancelled.
ProbeResult<std::vector<ModelCheck>> runModelChecks(Backend& backend, const DeviceInfo& device,
                                                    const ProgressCallback& progress,
                                                    const CancelCallback& cancelled);

/// {"passed": N, "failed": N, "skipped": N, "checks": [{"name", "kind", "outcome", "detail",
/// "model", "measured"}]}
nlohmann::json toJson(const std::vector<ModelCheck>& checks);

} // namespace warpscope::probe
