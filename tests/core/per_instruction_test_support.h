// Helpers shared by the per-instruction tests (test_per_instruction*.cpp).
#pragma once

#include "warpscope/file_format.h"
#include "warpscope/per_instruction.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace warpscope::per_instruction_test {

/// The recorded rows of tests/data/NAME, or none (with a failure) when they do not read.
inline std::vector<PerInstructionRow> recordedRows(const std::string& name) {
    auto text = readTextFile(std::string(WARPSCOPE_TEST_DATA_DIR) + "/" + name);
    EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().describe());
    if (!text) {
        return {};
    }
    auto rows = perInstructionRowsFromJsonLines(text.value());
    EXPECT_TRUE(rows.ok()) << (rows.ok() ? "" : rows.error().describe());
    return rows ? rows.value() : std::vector<PerInstructionRow>{};
}

} // namespace warpscope::per_instruction_test
