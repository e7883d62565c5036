// Helpers shared by the kernel model's tests (test_kernel*.cpp).
#pragma once

#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <string>

namespace warpscope::kernel_test {

// The issue's example line: a transpose reading columns and storing rows.
inline constexpr const char* kIssueExample = R"({"grid": [128, 128, 1], "block": [16, 16, 1],
 "parameters": {"nx": 2048, "ny": 2048},
 "buffers": [{"name": "in", "bytes": 16777216}, {"name": "out", "bytes": 16777216}],
 "accesses": [
  {"op": "load", "space": "global", "width": 4, "buffer": "in", "cache": "default",
   "address": "((bid.x * bdim.x + tid.x) * ny + (bid.y * bdim.y + tid.y)) * 4",
   "active": "(bid.x * bdim.x + tid.x) < nx && (bid.y * bdim.y + tid.y) < ny"},
  {"op": "store", "space": "global", "width": 4, "buffer": "out", "cache": "default",
   "address": "((bid.y * bdim.y + tid.y) * nx + (bid.x * bdim.x + tid.x)) * 4",
   "active": "(bid.x * bdim.x + tid.x) < nx && (bid.y * bdim.y + tid.y) < ny"}]})";

/// True in a build under AddressSanitizer (the asan and fuzz presets). There the two checks that
/// walk every preset's full-size grid (KernelPresets, KernelCheckRecorded) take a smaller problem
/// or a sample: the sanitizers look for memory errors in the model's code, which the same code
/// paths show at any size, at two to three times the dev build's cost (docs/testing.md, "How long
/// CI takes"). The dev suite checks every row at its size.
constexpr bool sanitizedBuild() {
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

/// The kernel with the same blocks over a smaller problem: a 256 x 256 matrix (nx, ny) or 2^16
/// elements (n); the other parameters as they are.
inline Kernel smallerProblem(Kernel kernel) {
    for (Parameter& p : kernel.parameters) {
        if (p.name == "nx" || p.name == "ny") {
            p.value = 256;
        }
        if (p.name == "n") {
            p.value = 1 << 16;
        }
    }
    return kernel;
}

inline double metric(const GridPrediction& prediction, const std::string& name) {
    for (const Metric& m : prediction.metrics) {
        if (m.name == name) {
            return m.value;
        }
    }
    ADD_FAILURE() << "no metric " << name;
    return -1.0;
}

inline ResolvedKernel resolvedOrFail(const Kernel& kernel) {
    auto resolved = resolveKernel(kernel);
    EXPECT_TRUE(resolved.ok()) << (resolved.ok() ? "" : resolved.error().describe());
    return resolved.ok() ? resolved.value() : ResolvedKernel{};
}

inline Kernel kernelOrFail(std::string_view text) {
    auto kernel = kernelFromJsonText(text);
    EXPECT_TRUE(kernel.ok()) << (kernel.ok() ? "" : kernel.error().describe());
    return kernel.ok() ? kernel.value() : Kernel{};
}

inline GridPrediction gridOrFail(const Kernel& kernel) {
    const ResolvedKernel resolved = resolvedOrFail(kernel);
    auto prediction = predictGrid(resolved);
    EXPECT_TRUE(prediction.ok()) << (prediction.ok() ? "" : prediction.error().describe());
    return prediction.ok() ? prediction.value() : GridPrediction{};
}

inline Kernel simpleKernel(const std::string& address, const std::string& bytes = "4096") {
    Kernel kernel;
    kernel.buffers = {KernelBuffer{"data", bytes}};
    kernel.launch.grid = {"4", "1", "1"};
    kernel.launch.block = {"32", "1", "1"};
    KernelAccess access;
    access.buffer = "data";
    access.addressExpression = address;
    kernel.accesses = {access};
    return kernel;
}

} // namespace warpscope::kernel_test
