// The probe protocol, version 1: JSON lines on stdin and stdout between warpscope-probe and its
// caller (the app, a script, `ssh gpu-host warpscope-probe`). serve() reads requests, runs them on
// a Backend and writes one response per request, with progress lines for sweeps. Everything here
// is plain C++ and testable in-process with a fake backend. docs/protocol.md is the reference;
// the vocabulary (ops, error codes, answer types) is core's, in warpscope/protocol/. The code is
// split by concern: probe_requests.cpp reads requests, probe_serve.cpp answers them,
// probe_protocol.cpp holds the JSON forms, probe_selfcheck.cpp the self-check.
#pragma once

#include "ldsm_selfcheck.h"
#include "probe_backend.h"
#include "warpscope/file_format.h"
#include "warpscope/pattern.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace warpscope::probe {

/// Bumped when a request or a response changes in a way an old caller would misread.
inline constexpr int kProtocolVersion = 1;

/// Request lines longer than this are answered with bad_request and skipped, never buffered whole.
inline constexpr std::size_t kMaxRequestLineBytes = 4u * 1024u * 1024u;

/// Exit statuses of serve() (and of `warpscope-probe serve`).
inline constexpr int kServeExitOk = 0;    // end of input, or a shutdown request
inline constexpr int kServeExitFatal = 3; // a fatal (sticky) GPU error: start a fresh probe

using protocol::cyclesToNs;
using protocol::probeErrorCodeFromName;
using protocol::toJson;

struct ServeOptions {
    /// Reported by hello.
    std::string probeVersion = "unknown";
    /// At most one progress line per interval per request (the last one, done == total, is
    /// always written). Tests set zero to see every line.
    std::chrono::milliseconds progressInterval{50};
};

/// Runs the protocol until the input ends or a shutdown request is answered (returns
/// kServeExitOk), or until a fatal ProbeError has been answered (returns kServeExitFatal). Input
/// is read on a second thread so that a cancel can reach a running sweep. Requests received
/// before the end of the input are all answered. `out` only ever receives whole protocol lines,
/// each flushed.
///
/// When serve() returns because of a fatal error while the input has not ended, the reader thread
/// may still be blocked reading `in`; it is then detached, so `in` must outlive the process
/// (std::cin does). A finite stream (a test's std::istringstream) is always read to its end and
/// joined.
int serve(std::istream& in, std::ostream& out, Backend& backend, const ServeOptions& options = {});

// ---- Building blocks, shared by serve() and the human mode of warpscope-probe -----------------

/// An error as a response carries it: the ProbeError plus, for a pattern the core refused, where
/// it is. Sent as {"code", "message", "where"?, "column"?, "coreCode"?} (docs/protocol.md).
struct RequestError {
    ProbeError error;
    /// JSON pointer into the request ("/patterns/3/width"), followed for the core's non-pointer
    /// places by their name ("/pattern (lane 7)"); empty when not about one place.
    std::string where;
    int column = 0;       // 1-based column in an expression; 0 when not about one
    std::string coreCode; // errorCodeName() of the core's error, when the core refused

    RequestError() = default;
    RequestError(ProbeError e) : error(std::move(e)) {} // NOLINT: a plain error converts
};

template <class T> using RequestResult = std::variant<T, RequestError>;

/// BadRequest about the request's field at `where` (a JSON pointer, "/options/bytes").
RequestError badRequestAt(std::string message, std::string where);

/// A pattern from a request, parsed (bare or file form) and resolved.
struct ResolvedPattern {
    NamedPattern named;
    WarpAccess access;
};

/// Parses and resolves a pattern object found at `pointer` in a request. Errors: BadRequest for a
/// malformed pattern or an expression that cannot be evaluated; PatternRefused for one that would
/// fault (a negative or misaligned address), and for an async copy (measured as a kernel only). The
/// message is the core's, with its place.
RequestResult<ResolvedPattern> resolvePatternJson(const nlohmann::json& pattern,
                                                  const std::string& pointer);

/// The same for a pattern already parsed by the core (the human mode's presets and expressions).
RequestResult<ResolvedPattern> resolveNamedPattern(const NamedPattern& named,
                                                   const std::string& pointer = "");

/// The modern model's metrics for an access (name -> value), as `predicted` in responses.
std::map<std::string, double> predictedMetrics(const WarpAccess& access);

nlohmann::json toJson(const BuildInfo& info);
/// A measurement with the prediction for the same access beside it.
nlohmann::json toJson(const Measurement& measurement, const WarpAccess& access);
nlohmann::json toJson(const RequestError& error);

// ---- Self-check against the measured hardware table --------------------------------------------

/// The text of tests/data/hardware_table_h100.jsonl, compiled into the probe.
std::string_view embeddedHardwareTable();

struct CounterMismatch {
    std::string counter;
    double expected = 0.0;
    std::optional<double> measured; // nullopt: the backend did not report this counter
};

struct SelfcheckFailure {
    int row = 0; // 1-based index among the table's pattern rows
    std::string name;
    std::vector<CounterMismatch> mismatches;
};

struct SelfcheckReport {
    int passed = 0;
    int failed = 0;
    std::string tableGpu; // the GPU the table was measured on
    std::string tableDriver;
    std::string tableNcu;
    DeviceInfo device; // the GPU the check ran on
    std::vector<SelfcheckFailure> failures;
    /// ldmatrix, stmatrix and TMA checked against the model (ldsm_selfcheck.h), after the table.
    std::vector<ModelCheck> modelChecks;
};

/// Runs every pattern row of a hardware table (the JSON lines format of tests/data) as one sweep
/// with counters only, and compares each counter with the table exactly. Every counter of
/// nsightCounterNames() must be reported; other counters in both the row and the measurement are
/// compared as well. Errors: the backend's (no_driver, ...); CountersUnavailable when the
/// backend measured no counters (with its reason); Internal for a table that cannot be read.
ProbeResult<SelfcheckReport> runSelfcheck(Backend& backend, std::string_view tableText,
                                          const ProgressCallback& progress,
                                          const CancelCallback& cancelled);

nlohmann::json toJson(const SelfcheckReport& report);

} // namespace warpscope::probe
