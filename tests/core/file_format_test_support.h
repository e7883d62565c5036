// Helpers shared by the pattern and session files' tests (test_file_format*.cpp).
#pragma once

#include "warpscope/file_format.h"
#include "warpscope/kernel.h"
#include "warpscope/kernel_preset.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

namespace warpscope::file_format_test {

inline std::string dataPath(const std::string& name) {
    return std::string(WARPSCOPE_TEST_DATA_DIR) + "/files/" + name;
}

inline std::string addressList(int stride, int count = kWarpSize) {
    std::string text = "[";
    for (int lane = 0; lane < count; ++lane) {
        text += (lane ? "," : "") + std::to_string(lane * stride);
    }
    return text + "]";
}

/// A bare pattern object with one field replaced or added: `field` is the raw `"key": value` text.
inline std::string bareWith(const std::string& fields,
                            const std::string& addresses = addressList(4)) {
    return "{\"space\":\"global\",\"op\":\"load\",\"width\":4,\"cache\":\"default\"," + fields +
           (fields.empty() ? "" : ",") + "\"addresses\":" + addresses + "}";
}

} // namespace warpscope::file_format_test
