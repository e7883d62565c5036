// swizzle(x, B, M, S) in the pattern language (CuTe's Swizzle<B,M,S>: bits [M, M+B) XORed with
// bits [M+S, M+S+B)), its argument checks, and the property the TMA's 128B mode is used for.
#include "warpscope/expression.h"
#include "warpscope/model.h"
#include "warpscope/swizzle.h"
#include "warpscope/tma_layout.h"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>

namespace warpscope {
namespace {

std::int64_t evaluate(const std::string& text, std::int64_t lane = 0) {
    auto expression = Expression::parse(text, {"c"});
    EXPECT_TRUE(expression.ok()) << text << ": "
                                 << (expression ? "" : expression.error().describe());
    if (!expression) {
        return -1;
    }
    ThreadEnvironment env;
    env.lane = lane;
    env.tid.x = lane;
    auto value = expression->evaluate(env, {5});
    EXPECT_TRUE(value.ok()) << text;
    return value ? value.value() : -1;
}

struct ValueCase {
    const char* text;
    std::int64_t expected;
    const char* why;
};

TEST(Swizzle, ValuesFollowCuTesDefinition) {
    const ValueCase cases[] = {
        // Swizzle<3,4,3> on a byte offset: the 16-byte chunk (bits 4-6) XOR the 128-byte row
        // (bits 7-9).
        {"swizzle(0x380, 3, 4, 3)", 0x3F0, "row 7, chunk 0 -> chunk 7"},
        {"swizzle(0x3F0, 3, 4, 3)", 0x380, "an XOR swizzle is its own inverse"},
        {"swizzle(0x1A5, 3, 4, 3)", 0x1A5 ^ 0x30, "row 3, chunk 2 -> chunk 1; byte 5 kept"},
        {"swizzle(0x400, 3, 4, 3)", 0x400, "bit 10 is above the bits read"},
        {"swizzle(144, 1, 4, 3)", 128, "32B mode: bit 4 XOR bit 7"},
        {"swizzle(0x1B0, 2, 4, 3)", 0x180, "64B mode: bits 4-5 XOR bits 7-8"},
        {"swizzle(12345, 0, 4, 3)", 12345, "B = 0 is the identity"},
        {"swizzle(0b1100000, 2, 0, 5)", 0b1100011, "M = 0: bits 0-1 XOR bits 5-6"},
        {"swizzle(-1, 3, 4, 3)", -1 ^ 0x70, "negative values shift arithmetically, as in C"},
        {"swizzle(c * 128, 1 + 2, 2 * 2, 3)", 5 * 128 + 5 * 16, "constant expressions as B M S"},
        {"swizzle(swizzle(0x2D0, 3, 4, 3), 3, 4, 3)", 0x2D0, "nested"},
    };
    for (const ValueCase& c : cases) {
        EXPECT_EQ(evaluate(c.text), c.expected) << c.text << " (" << c.why << ")";
    }
}

TEST(Swizzle, LaneValuesAgreeWithTheFormulaOnBothEvaluators) {
    const std::string text = "swizzle(lane * 128 + c * 16, 3, 4, 3) + 1";
    auto expression = Expression::parse(text, {"c"});
    ASSERT_TRUE(expression.ok());
    std::array<std::int64_t, 32> lanes{};
    std::array<std::int64_t, 32> values{};
    for (int i = 0; i < 32; ++i) {
        lanes[static_cast<std::size_t>(i)] = i;
    }
    WarpEnvironment env;
    env.lane = lanes.data();
    env.tidX = lanes.data();
    env.gid = lanes.data();
    const std::int64_t c = 5;
    EXPECT_EQ(expression->evaluateWarp(env, &c, 1, values.data()), 0u);
    const Swizzle swizzle{3, 4, 3};
    for (int lane = 0; lane < 32; ++lane) {
        const std::int64_t x = lane * 128 + c * 16;
        const std::int64_t expected = (x ^ ((x >> 3) & (7 << 4))) + 1;
        EXPECT_EQ(values[static_cast<std::size_t>(lane)], expected) << lane;
        EXPECT_EQ(swizzle.apply(x) + 1, expected) << lane;
        EXPECT_EQ(evaluate(text, lane), expected) << lane;
    }
    EXPECT_FALSE(expression->isUniform());
}

struct ErrorCase {
    const char* text;
    int column;
    const char* says;
};

TEST(Swizzle, BadArgumentsPointAtTheirColumn) {
    const ErrorCase cases[] = {
        {"swizzle(lane, c, 4, 3)", 15, "B (the number of bits XORed) must be a constant"},
        {"swizzle(lane, 3, lane, 3)", 18, "M (the lowest bit XORed) must be a constant"},
        {"swizzle(lane, 3, 4, c + 1)", 21, "S (how far above them the bits XORed in lie) must"},
        {"swizzle(lane, -1, 4, 3)", 15, "B, the number of bits XORed, must be 0 or more"},
        {"swizzle(lane, 3, -4, 3)", 18, "M, the lowest bit XORed, must be 0 or more"},
        {"swizzle(lane, 3, 4, -3)", 21, "negative shifts are not supported"},
        {"swizzle(lane, 3, 4, 2)", 21, "S must be at least B"},
        {"swizzle(lane, 20, 30, 20)", 23, "B + M + S must be at most 63"},
        {"swizzle(lane, 1, 4, 9223372036854775807)", 21, "must be at most 63"},
        {"swizzle(lane, 3, 4)", 1, "swizzle() takes 4 arguments, not 3"},
        {"swizzle(lane, 3, 4, 3, 1)", 1, "swizzle() takes 4 arguments"},
        {"swizzle + 1", 1, "write swizzle(x, B, M, S)"},
        {"swizle(lane, 3, 4, 3)", 1, "did you mean 'swizzle'?"},
    };
    for (const ErrorCase& c : cases) {
        auto expression = Expression::parse(c.text, {"c"});
        ASSERT_FALSE(expression.ok()) << c.text;
        EXPECT_EQ(expression.error().column, c.column) << c.text;
        EXPECT_NE(expression.error().message.find(c.says), std::string::npos)
            << c.text << ": " << expression.error().message;
    }
}

TEST(Swizzle, IsABuiltinFunctionNotAParameterName) {
    EXPECT_FALSE(isValidParameterName("swizzle"));
    const auto& names = builtinNames();
    EXPECT_NE(std::find(names.begin(), names.end(), "swizzle"), names.end());
}

TEST(Swizzle, CheckNamesTheArgumentAtFault) {
    EXPECT_FALSE(checkSwizzle(3, 4, 3));
    EXPECT_FALSE(checkSwizzle(0, 0, 0));
    EXPECT_FALSE(checkSwizzle(1, 61, 1));
    EXPECT_EQ(checkSwizzle(-1, 4, 3)->argument, 1);
    EXPECT_EQ(checkSwizzle(3, -1, 3)->argument, 2);
    EXPECT_EQ(checkSwizzle(3, 4, 2)->argument, 3);
    EXPECT_EQ(checkSwizzle(1, 62, 1)->argument, 3);
}

TEST(Swizzle, CSourceIsALambdaWithTheSameMeaning) {
    auto expression = Expression::parse("swizzle(lane * 16, 3, 4, 3)");
    ASSERT_TRUE(expression.ok());
    const std::string source =
        expression->toCSource([](std::string_view name) { return "v_" + std::string(name); });
    EXPECT_EQ(source, "[](long long ws_x, long long ws_b, long long ws_m, long long ws_s) { return "
                      "ws_x ^ ((ws_x >> ws_s) & (((1LL << ws_b) - 1LL) << ws_m)); }(((v_lane) * "
                      "(16LL)), 3LL, 4LL, 3LL)");
}

TEST(Swizzle, TmaModesAreSwizzle143And243And343) {
    EXPECT_EQ(Swizzle::forSpanBytes(32).apply(0x90), 0x80);
    EXPECT_EQ(Swizzle::forSpanBytes(64).apply(0x180), 0x1B0);
    EXPECT_EQ(Swizzle::forSpanBytes(128).apply(0x380), 0x3F0);
    EXPECT_EQ(Swizzle::forSpanBytes(0).apply(0x380), 0x380);
}

// The reason for the 128B mode: an 8 x 128-byte tile (8 rows of 64 halves, a GEMM operand tile)
// read down a column of 16-byte chunks, as ldmatrix reads it, meets 8 bank groups of 4 banks;
// unswizzled, all 8 rows of a column share one bank group (8-way).
TEST(Swizzle, Mode128BPutsEachColumnsEightChunksInEightBankGroups) {
    TmaTileLoad load;
    load.elementBytes = 2;
    load.boxInnerElements = 64;
    load.boxRows = 8;
    load.swizzle = TmaSwizzle::Span128;
    auto swizzled = layTmaTile(load);
    load.swizzle = TmaSwizzle::None;
    auto plain = layTmaTile(load);
    ASSERT_TRUE(swizzled.ok());
    ASSERT_TRUE(plain.ok());
    for (int column = 0; column < 8; ++column) {
        std::set<int> groups;
        std::set<int> plainGroups;
        for (int row = 0; row < 8; ++row) {
            const int bank = swizzled->bank(row, column * 16);
            EXPECT_EQ(bank % 4, 0);
            groups.insert(bank / 4);
            plainGroups.insert(plain->bank(row, column * 16) / 4);
            // The expression language's swizzle gives the same address.
            EXPECT_EQ(
                swizzled->sharedAddress(row, column * 16),
                evaluate("swizzle(" + std::to_string(row * 128 + column * 16) + ", 3, 4, 3)"));
        }
        EXPECT_EQ(groups.size(), 8u) << "column " << column;
        EXPECT_EQ(plainGroups.size(), 1u) << "column " << column;
    }
}

// docs/pattern-language.md's example: a 32 x 32 float tile written and read through
// swizzle(row * 128 + column * 4, 5, 2, 5); reading column c (lane = row) is conflict-free,
// where the same read of the plain tile is 32-way.
TEST(Swizzle, TransposeReadOfASwizzledTileHasNoBankConflict) {
    auto predict = [](const std::string& text) {
        auto expression = Expression::parse(text, {"c"});
        EXPECT_TRUE(expression.ok()) << text;
        WarpAccess access;
        access.kind.space = MemorySpace::Shared;
        access.kind.op = AccessOp::Load;
        access.kind.widthBytes = 4;
        for (int lane = 0; lane < 32; ++lane) {
            ThreadEnvironment env;
            env.lane = lane;
            env.tid.x = lane;
            access.addresses[static_cast<std::size_t>(lane)] =
                expression->evaluate(env, {7}).value();
        }
        return predictModern(access).shared.value();
    };
    const SharedPrediction swizzled = predict("swizzle(lane * 128 + c * 4, 5, 2, 5)");
    EXPECT_EQ(swizzled.wavefronts, 1);
    EXPECT_EQ(swizzled.bankConflicts, 0);
    const SharedPrediction plain = predict("lane * 128 + c * 4");
    EXPECT_EQ(plain.wavefronts, 32);
    EXPECT_EQ(plain.bankConflicts, 31);
}

} // namespace
} // namespace warpscope
