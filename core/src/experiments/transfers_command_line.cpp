// `warpscope-probe transfers` (and `warpscope-probe experiment transfers`): the usage, the options
// read into a measure_transfers request and the answer as a table
// (TransfersExperiment::commandLine, transfers.h). docs/protocol.md ("transfers").
#include "warpscope/experiments/transfers.h"

#include "warpscope/format.h"

#include <nlohmann/json.hpp>

#include <exception>
#include <sstream>
#include <string>
#include <string_view>

namespace warpscope::experiments {

namespace {

constexpr std::string_view kTransfersUsage =
    R"(transfers  Measures host and device transfers as the course notes do: copies host to
           device, device to host and both at once (two streams), from pageable and from pinned
           host memory; the notes' sumArrays kernel over device memory, over zero-copy (mapped
           pinned) host memory, and with the copies around it; and over managed memory whose
           pages the kernel faults in from the host, or prefetched first. Sizes run from 4 KiB to
           1 GiB by factors of 4, capped by free device and host memory (a note says so);
           managed memory is never asked for more than the device has free. Prints the median
           of the timed repetitions, the spread and the bandwidth, and names the link.
  --min SIZE --max SIZE  the range (sizes as 4096, 64K, 256M, 1G)
  --step N               factor between sizes (default 4)
  --sizes S1,S2,...      exactly these sizes (refused if one does not fit)
  --modes M1,M2,...      h2d_pageable h2d_pinned d2h_pageable d2h_pinned both_pageable
                         both_pinned sum_device sum_zerocopy sum_copy managed_fault
                         managed_prefetch (default all)
  --repetitions N        at least N timed repetitions per point (default 7; pageable
                         copies 15), in 8 rounds over every point, each visit after an
                         untimed one; short points are repeated for 400 ms (at most 201)
  --json                 the measure_transfers answer as one JSON line
  Ctrl-C cancels between steps (a step: one point in one round).
)";

using json = nlohmann::json;

std::string readTransfersOption(const std::string& arg, const std::string& value, json& options) {
    if (arg == "--min" || arg == "--max") {
        const long long bytes = parseOptionByteSize(value);
        if (bytes < 0) {
            return arg + ": '" + value + "' is not a size (4096, 64K, 256M, 1G)";
        }
        options[arg == "--min" ? "minBytes" : "maxBytes"] = bytes;
    } else if (arg == "--sizes") {
        json sizes = json::array();
        for (const std::string& item : splitOptionList(value)) {
            const long long bytes = parseOptionByteSize(item);
            if (bytes < 0) {
                return "--sizes: '" + item + "' is not a size (4096, 64K, 256M, 1G)";
            }
            sizes.push_back(bytes);
        }
        options["sizes"] = sizes;
    } else if (arg == "--modes") {
        options["modes"] = splitOptionList(value);
    } else if (arg == "--step" || arg == "--repetitions") {
        const long long number = parseOptionByteSize(value);
        if (number < 0 || value.find_first_not_of("0123456789") != std::string::npos) {
            return arg + ": '" + value + "' is not a whole number";
        }
        options[arg == "--step" ? "step" : "repetitions"] = number;
    } else {
        return "transfers takes no option '" + arg + "'";
    }
    return {};
}

std::string reportTransfers(const json& answer) {
    std::ostringstream out;
    out << "device  " << answer.value("device", "") << "\n"
        << "link    " << answer["link"].value("description", "") << "\n"
        << "device memory copy bandwidth "
        << fixedDecimals(answer.value("deviceCopyBandwidthGBs", 0.0), 1)
        << " GB/s (read + written)\n"
        << "medians of at least " << answer.value("repetitions", 0)
        << " timed repetitions (short points: 400 ms of them, in 8 rounds) after untimed warm-ups; "
           "spread = (max - min) / median\n";
    if (!answer.value("hostPlacement", std::string()).empty()) {
        out << "host    " << answer.value("hostPlacement", std::string()) << "\n";
    }
    if (!answer.value("capped", std::string()).empty()) {
        out << "note    " << answer.value("capped", std::string()) << "\n";
    }
    for (const json& curve : answer["curves"]) {
        out << "\n"
            << curve.value("label", "") << " (" << curve.value("mode", "") << "): GB/s counts "
            << curve.value("counts", "") << "\n";
        out << padColumns("size", 10, true) << padColumns("median ms", 14, true)
            << padColumns("GB/s", 10, true) << padColumns("spread", 9, true) << "\n";
        for (const json& point : curve["points"]) {
            const double median = point.value("medianMs", 0.0);
            const double spread =
                median > 0.0
                    ? 100.0 * (point.value("maxMs", 0.0) - point.value("minMs", 0.0)) / median
                    : 0.0;
            out << padColumns(formatBytes(point.value("bytes", std::int64_t{0})), 10, true)
                << padColumns(fixedDecimals(median, 4), 14, true)
                << padColumns(fixedDecimals(point.value("bandwidthGBs", 0.0), 2), 10, true)
                << padColumns(fixedDecimals(spread, 1) + " %", 9, true) << "\n";
        }
    }
    return out.str();
}

} // namespace

ExperimentCommandLine TransfersExperiment::commandLine() {
    return ExperimentCommandLine{"host and device transfers (pageable, pinned,\n"
                                 "                                          zero-copy, managed)",
                                 kTransfersUsage,
                                 readTransfersOption,
                                 nullptr,
                                 reportTransfers,
                                 {"points", false}};
}

} // namespace warpscope::experiments
