// The probe's one CUPTI loader (cuptiLibrary, kernels/cuda/cupti_counters.h): every user of
// CUPTI (the range profiler's functions, the SASS metrics, the activity records) gets the same
// library, opened once, or the same message saying why there is none. Needs no GPU: loading
// CUPTI touches no device.
#include "cupti_api.h"
#include "cupti_counters.h"

#include <gtest/gtest.h>

#include <string>

namespace warpscope::probe {
namespace {

TEST(CuptiLoader, EveryCallerGetsTheOneLibraryOrTheOneReason) {
    std::string firstWhy;
    std::string secondWhy = "not set";
    void* first = cuptiLibrary(firstWhy);
    void* second = cuptiLibrary(secondWhy);
    EXPECT_EQ(first, second);
    EXPECT_EQ(firstWhy, secondWhy);
    if (first == nullptr) {
        // The message says how to point the probe at CUPTI.
        EXPECT_NE(firstWhy.find("WARPSCOPE_CUPTI_LIBRARY"), std::string::npos) << firstWhy;
        GTEST_SKIP() << "CUPTI is not installed here: " << firstWhy;
    }
    EXPECT_TRUE(firstWhy.empty()) << firstWhy;
    // The range profiler's functions are resolved from that same library, not a second copy.
    std::string why;
    const CuptiApi* api = loadCupti(why);
    ASSERT_NE(api, nullptr) << why;
    EXPECT_EQ(api->library, first);
}

} // namespace
} // namespace warpscope::probe
