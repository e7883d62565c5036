// measure_kernel's request and response (docs/protocol.md, "measure_kernel"): the kernel and its
// sweep points resolved and checked by the core's grid model before anything runs, the options,
// and the JSON of a kernel measurement. Plain C++, shared by serve() and `warpscope-probe
// run-kernel`.
#pragma once

#include "probe_backend.h"
#include "probe_protocol.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <string>
#include <vector>

namespace warpscope::probe {

/// The options object of measure_kernel: counters, warm, repetitions.
RequestResult<KernelMeasureOptions> parseKernelOptions(const nlohmann::json& request);

/// The kernels a request asks for: `kernel` (a kernel object, pointer "/kernel") alone, or once
/// per point of `sweep` (an array of objects: parameter name -> value, and optionally "grid" and
/// "block" as [x, y, z]), each resolved and run through the grid model. Errors: BadRequest for a
/// kernel that cannot be read or resolved, or a sweep point naming an unknown parameter
/// (`where` points at it); PatternRefused when the grid model finds an address outside its
/// buffer, negative or misaligned (the message names the access, thread and address; nothing
/// runs); Cancelled when `cancelled` becomes true.
RequestResult<std::vector<KernelItem>> prepareKernelItems(const nlohmann::json& kernel,
                                                          const nlohmann::json* sweep,
                                                          const std::atomic<bool>* cancelled);

/// The most sweep points one measure_kernel takes.
inline constexpr int kMaxKernelSweepPoints = 4096;

/// The backend's `measurement` of `item` completed with what ran (kernel, parameters, launch) and
/// the grid model's prediction (predicted, accesses, buffers): the whole answer.
KernelMeasurement describeKernelRun(KernelMeasurement measurement, const KernelItem& item);

/// One kernel's answer (describeKernelRun's, as core's protocol writes it).
nlohmann::json toJson(const KernelMeasurement& measurement, const KernelItem& item);

/// Adds warpscope__constant_extra_requests = idc__requests.sum -
/// smsp__inst_executed_op_ldc_pred_on_any.sum to measured counters that hold both (kernels with a
/// constant access): every LDC instruction of a warp costs one IDC request for its first address
/// (the kernel's parameter loads included), and one more per further distinct address, so the
/// difference is what the grid model's warpscope__constant_extra_requests predicts.
void addConstantExtraRequests(std::map<std::string, double>& counters);

/// The grid model's totals as name -> value (the `predicted` object).
std::map<std::string, double> predictedKernelMetrics(const GridPrediction& prediction);

} // namespace warpscope::probe
