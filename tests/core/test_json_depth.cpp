// JsonDepthScanner and the command lines' text helpers, the pieces core shares with the file
// reader, the probe's request reader, warpscope-cli and warpscope-probe.
#include "warpscope/command_line_text.h"
#include "warpscope/json_depth.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace warpscope {
namespace {

struct DepthRow {
    const char* name;
    std::string text;
    std::size_t limit;
    bool deeper;
};

std::string depthRowName(const ::testing::TestParamInfo<DepthRow>& row) {
    return row.param.name;
}

class JsonDepth : public ::testing::TestWithParam<DepthRow> {};

TEST_P(JsonDepth, CountsOnlyBracketsOutsideStrings) {
    const DepthRow& row = GetParam();
    EXPECT_EQ(jsonNestedDeeperThan(row.text, row.limit), row.deeper) << row.text;
}

INSTANTIATE_TEST_SUITE_P(
    Rows, JsonDepth,
    ::testing::Values(DepthRow{"at_the_limit", "[[[]]]", 3, false},
                      DepthRow{"one_past_the_limit", "[[[[]]]]", 3, true},
                      DepthRow{"siblings_do_not_add_up", "[[],[],[],[]]", 2, false},
                      DepthRow{"objects_count_too", R"({"a":{"b":{"c":[1]}}})", 3, true},
                      DepthRow{"brackets_in_a_string", R"({"t":"[[[[[[[["})", 1, false},
                      DepthRow{"escaped_quote_keeps_the_string_open", R"(["\"[[[["])", 1, false},
                      DepthRow{"escaped_backslash_closes_it", R"(["\\",[[]]])", 2, true},
                      DepthRow{"unbalanced_closers_do_not_go_below_zero", "]]]][[", 1, true},
                      DepthRow{"utf8_in_a_string", "[\"caf\xC3\xA9 [[\",[]]", 1, true}),
    depthRowName);

TEST(CommandLineText, ErrorAndUsageLinesNameTheProgram) {
    std::ostringstream out;
    writeUsageError(out, "warpscope-cli", "the option --width needs a value");
    EXPECT_EQ(out.str(), "warpscope-cli: the option --width needs a value\n"
                         "Run 'warpscope-cli --help' for the commands and options.\n");
}

TEST(CommandLineText, DescribesTheAccessKind) {
    EXPECT_EQ(describeAccessKind(
                  AccessKind{MemorySpace::Global, AccessOp::Load, 4, CachePath::CacheGlobal}),
              "global load, 4-byte elements, cache cg");
    EXPECT_EQ(describeAccessKind(AccessKind{MemorySpace::Shared, AccessOp::Store, 8}),
              "shared store, 8-byte elements");
}

TEST(CommandLineText, CaretPaddingKeepsTabsAndCountsCharactersNotBytes) {
    EXPECT_EQ(caretPadding("lane * 4", 6), std::string(5, ' '));
    EXPECT_EQ(caretPadding("\tx", 2), "\t");
    EXPECT_EQ(caretPadding("\xC3\xA9x", 3), " "); // é is two bytes, one column
    EXPECT_EQ(caretPadding("abc", 0), "");
    EXPECT_EQ(caretPadding("ab", 10), "  "); // past the end: the text's width
}

} // namespace
} // namespace warpscope
