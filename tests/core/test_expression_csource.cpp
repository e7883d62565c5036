// The pattern language as C source for the generated kernels (Expression::toCSource): names through
// the callback, literals, 64-bit comparisons, explicit precedence, and no recursion on long input.
#include "expression_test_support.h"

// ---- C source for generated kernels ----------------------------------------------------------

namespace {

std::string cSourceOf(const std::string& text, const std::vector<std::string>& params = {}) {
    auto parsed = warpscope::Expression::parse(text, params);
    EXPECT_TRUE(parsed.ok()) << text;
    if (!parsed.ok()) {
        return {};
    }
    return parsed->toCSource([](std::string_view name) { return "v_" + std::string(name); });
}

} // namespace

TEST(ExpressionCSource, NamesGoThroughTheCallbackInTheirShortSpelling) {
    EXPECT_EQ(cSourceOf("threadIdx.x"), "v_tid.x");
    EXPECT_EQ(cSourceOf("tid.y + blockDim.x"), "((v_tid.y) + (v_bdim.x))");
    EXPECT_EQ(cSourceOf("offset * 4", {"offset"}), "((v_offset) * (4LL))");
    EXPECT_EQ(cSourceOf("min(lane, 3)"), "v_min(v_lane, 3LL)");
    EXPECT_EQ(cSourceOf("warpSize"), "v_warpSize");
}

TEST(ExpressionCSource, LiteralsBecomeDecimalLongLong) {
    EXPECT_EQ(cSourceOf("0x10"), "16LL");
    EXPECT_EQ(cSourceOf("0b101"), "5LL");
    EXPECT_EQ(cSourceOf("9223372036854775807"), "9223372036854775807LL");
}

TEST(ExpressionCSource, ComparisonsAndLogicStaySixtyFourBitsAndShortCircuit) {
    // C types a comparison as int; the language keeps 64 bits, so the result is cast back.
    EXPECT_EQ(cSourceOf("(lane < 3) << 40"), "(((((long long)((v_lane) < (3LL))))) << (40LL))");
    EXPECT_EQ(cSourceOf("!lane"), "((long long)!(v_lane))");
    // && stays C's && so the right side is not evaluated when the left is 0.
    EXPECT_EQ(cSourceOf("lane != 0 && 10 / lane"),
              "((long long)((((long long)((v_lane) != (0LL)))) && (((10LL) / (v_lane)))))");
    EXPECT_EQ(cSourceOf("lane ? 1 : 2 ? 3 : 4"), "((v_lane) ? (1LL) : (((2LL) ? (3LL) : (4LL))))");
}

TEST(ExpressionCSource, PrecedenceIsMadeExplicit) {
    EXPECT_EQ(cSourceOf("1 + 2 * 3"), "((1LL) + (((2LL) * (3LL))))");
    EXPECT_EQ(cSourceOf("8 - 4 - 2"), "((((8LL) - (4LL))) - (2LL))");
    EXPECT_EQ(cSourceOf("-(lane) + ~1"), "(((-((v_lane)))) + ((~(1LL))))");
    EXPECT_EQ(cSourceOf("a & b == c", {"a", "b", "c"}),
              "((v_a) & (((long long)((v_b) == (v_c)))))");
}

namespace {

/// Runs work on a thread with a 512 KiB stack (less than a main thread's 8 MiB), so code that
/// recurses once per token crashes here on every build type instead of only on some.
void onSmallStack(const std::function<void()>& work) {
    pthread_attr_t attributes;
    ASSERT_EQ(pthread_attr_init(&attributes), 0);
    ASSERT_EQ(pthread_attr_setstacksize(&attributes, 512 * 1024), 0);
    pthread_t thread;
    auto body = [](void* argument) -> void* {
        (*static_cast<const std::function<void()>*>(argument))();
        return nullptr;
    };
    ASSERT_EQ(pthread_create(&thread, &attributes, body,
                             const_cast<void*>(static_cast<const void*>(&work))),
              0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attributes);
}

} // namespace

TEST(ExpressionCSource, ThirtyThousandPrefixOperatorsNeitherRecurseNorCrash) {
    // The probe's kernel_source request once died (SIGSEGV) on this: the parser reads prefix
    // operators in a loop, the C source writer recursed once per operator.
    const std::string text = std::string(30000, '~') + "(gid*4)";
    std::string source;
    onSmallStack([&] { source = cSourceOf(text); });
    const std::string expected = [] {
        std::string s;
        for (int i = 0; i < 30000; ++i) {
            s += "(~(";
        }
        s += "(((v_gid) * (4LL)))";
        s += std::string(60000, ')');
        return s;
    }();
    EXPECT_EQ(source, expected);

    std::string mixed;
    onSmallStack([&] { mixed = cSourceOf("-!~+lane"); });
    EXPECT_EQ(mixed, "(-(((long long)!((~((+(v_lane))))))))");
}

TEST(ExpressionCSource, LongOperatorChainsAreWrittenInOnePass) {
    // 20,000 additions: left-associative, so the first sum is the innermost.
    std::string text = "lane";
    for (int i = 0; i < 20000; ++i) {
        text += "+1";
    }
    std::string source;
    onSmallStack([&] { source = cSourceOf(text); });
    EXPECT_EQ(source.rfind(std::string(40000, '('), 0), 0u);
    EXPECT_EQ(source.substr(40000, 16), "v_lane) + (1LL))");
    EXPECT_EQ(cSourceOf("1 < 2 < 3"), "((long long)((((long long)((1LL) < (2LL)))) < (3LL)))");
}
