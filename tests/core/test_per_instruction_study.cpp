// The excess study (docs/models.md, "Shared wavefronts the hardware counts beyond the
// instructions'"): each conclusion stated there, checked against its raw data
// (tests/data/per_instruction_study_h200.jsonl and, for the repeat run, the presets'
// per_instruction_h200.jsonl; scripts/gpu/per_instruction.sh on the H200, 2026-11-29).
#include "warpscope/file_format.h"
#include "warpscope/per_instruction.h"

#include "per_instruction_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

using namespace warpscope;
using warpscope::per_instruction_test::recordedRows;

// A named namespace, not an anonymous one: the tests derive from the fixture, and GCC warns
// (-Wsubobject-linkage) when this file is compiled inside a unity batch.
namespace per_instruction_study_test {

class ExcessStudy : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        study =
            new std::vector<PerInstructionRow>(recordedRows("per_instruction_study_h200.jsonl"));
        presets = new std::vector<PerInstructionRow>(recordedRows("per_instruction_h200.jsonl"));
    }
    static void TearDownTestSuite() {
        delete study;
        delete presets;
    }

    static const PerInstructionRow& row(const std::vector<PerInstructionRow>& rows,
                                        const std::string& kernel, int access) {
        for (const PerInstructionRow& r : rows) {
            if (r.kernel == kernel && r.access == access) {
                return r;
            }
        }
        ADD_FAILURE() << "no row " << kernel << " access " << access;
        static const PerInstructionRow none;
        return none;
    }
    /// The hardware's shared wavefronts beyond the instructions' own, for one access.
    static std::int64_t excess(const std::string& kernel, int access,
                               const std::vector<PerInstructionRow>* rows = nullptr) {
        const PerInstructionRow& r = row(rows ? *rows : *study, kernel, access);
        return r.counts.empty() ? -1 : r.counts[0].hardwareExcess();
    }
    static double share(const std::string& kernel, int access) {
        const PerInstructionRow& r = row(*study, kernel, access);
        return r.counts.empty() ? -1.0
                                : static_cast<double>(r.counts[0].hardwareExcess()) /
                                      static_cast<double>(r.counts[0].instructionSumOfHardware);
    }

    static std::vector<PerInstructionRow>* study;
    static std::vector<PerInstructionRow>* presets;
};

std::vector<PerInstructionRow>* ExcessStudy::study = nullptr;
std::vector<PerInstructionRow>* ExcessStudy::presets = nullptr;

} // namespace per_instruction_study_test

using per_instruction_study_test::ExcessStudy;

TEST_F(ExcessStudy, TheModelEqualsEveryInstructionAndOnlyTheMergedLoadIsUnmatched) {
    ASSERT_EQ(study->size(), 75u);
    int unmapped = 0;
    for (const PerInstructionRow& r : *study) {
        if (r.mapping == "unmapped") {
            // Two identical shared loads with no store between: ptxas keeps one LDS.
            EXPECT_EQ(r.kernel, "warp-g4224-loadload");
            EXPECT_EQ(r.access, 2);
            ++unmapped;
            continue;
        }
        for (const AccessCountComparison& c : r.counts) {
            EXPECT_TRUE(c.modelEqualsInstruction()) << r.kernel << " access " << r.access;
        }
        if (r.space == "shared") {
            EXPECT_EQ(*r.sassPatchedWavefronts, r.counts[0].instructionSumOfHardware) << r.kernel;
            EXPECT_GE(r.counts[0].hardwareExcess(), 0) << r.kernel;
        } else {
            EXPECT_EQ(r.counts[0].hardwareExcess(), 0) << r.kernel; // global: never any
            EXPECT_EQ(r.counts[1].hardwareExcess(), 0) << r.kernel;
        }
    }
    EXPECT_EQ(unmapped, 1);
}

TEST_F(ExcessStudy, NoneInOneWaveWhenAGlobalLoadComesFirst) {
    for (const char* kernel :
         {"tiled-g1", "tiled-g132", "tiled-g264", "padded-g1", "padded-g132", "padded-g264"}) {
        EXPECT_EQ(excess(kernel, 1), 0) << kernel; // the store
        EXPECT_EQ(excess(kernel, 2), 0) << kernel; // the load
        EXPECT_EQ(row(*study, kernel, 2).counts[1].hardwareExcess(), 0) << kernel;
    }
    for (const char* kernel : {"warp-g132-global", "warp-g132-cg", "warp-g1056-global",
                               "warp-g1056-cg", "warp-g4224-global", "warp-g4224-cg"}) {
        EXPECT_EQ(excess(kernel, 2), 0) << kernel;  // the conflicting load
        EXPECT_LE(excess(kernel, 1), 17) << kernel; // the store: at most 17 of 4,224
    }
}

TEST_F(ExcessStudy, SharedOnlyLoadExcessGrowsWithWarpsPerSmButNotInProportion) {
    // One-warp blocks, no global access: 1, 8 and 32 resident warps per SM.
    EXPECT_EQ(excess("warp-g132", 1), 0);
    EXPECT_EQ(excess("warp-g1056", 1), 676);
    EXPECT_EQ(excess("warp-g4224", 1), 6898);
    EXPECT_NEAR(share("warp-g1056", 1), 0.0200, 0.0001);
    EXPECT_NEAR(share("warp-g4224", 1), 0.0510, 0.0001);
    // Excess per resident warp per SM: 84.5 at 8, 215.6 at 32. A rule proportional to the
    // warps per SM misses one of them by far more than 10 %.
    const double per8 = 676.0 / 8.0;
    const double per32 = 6898.0 / 32.0;
    EXPECT_GT(std::abs(per32 - per8) / per32, 0.10);
    // The store beside them has none.
    EXPECT_EQ(excess("warp-g4224", 0), 0);
}

TEST_F(ExcessStudy, StoreExcessFollowsL1CachedGlobalLoadsInManyWaves) {
    // 4,096 blocks of 1,024 threads: 15.5 waves on 132 SMs.
    EXPECT_EQ(excess("tiled-full", 1), 4844);
    EXPECT_EQ(excess("padded-full", 1), 7385);
    EXPECT_EQ(excess("transpose-tiled", 1, presets), 4640);
    EXPECT_EQ(excess("transpose-tiled-padded", 1, presets), 7272);
    for (const char* kernel : {"tiled-cg", "padded-cg"}) {
        EXPECT_EQ(excess(kernel, 1), 0) << kernel; // ld.global.cg: none
    }
    for (const char* kernel : {"tiled-sharedonly", "padded-sharedonly"}) {
        EXPECT_EQ(excess(kernel, 0), 0) << kernel; // no global load: none
    }
}

TEST_F(ExcessStudy, LoadExcessInManyWavesFollowsNoRuleWithin10Percent) {
    // Present with default loads, .cg loads and no global loads alike.
    for (const char* kernel : {"tiled-full", "tiled-cg", "padded-full", "padded-cg"}) {
        EXPECT_GT(excess(kernel, 2), 0) << kernel;
    }
    EXPECT_GT(excess("tiled-sharedonly", 1), 0);
    EXPECT_GT(excess("padded-sharedonly", 1), 0);
    // .cg against default: a tenth of it for the 32-way conflicting load, nearly all of it for
    // the conflict-free one; no one factor for the global traffic fits both.
    const double tiledRatio = static_cast<double>(excess("tiled-cg", 2)) / excess("tiled-full", 2);
    const double paddedRatio =
        static_cast<double>(excess("padded-cg", 2)) / excess("padded-full", 2);
    EXPECT_LT(tiledRatio, 0.10);
    EXPECT_GT(paddedRatio, 0.85);
    // The same kernel measured twice (the preset run and the study's tiled-full/padded-full):
    // 7 % and 11 % apart, so even a perfect rule could not be checked to 10 % on these.
    const double tiled = std::abs(excess("tiled-full", 2) - excess("transpose-tiled", 2, presets)) /
                         static_cast<double>(excess("tiled-full", 2));
    const double padded =
        std::abs(excess("padded-full", 2) - excess("transpose-tiled-padded", 2, presets)) /
        static_cast<double>(excess("padded-full", 2));
    EXPECT_GT(tiled, 0.05);
    EXPECT_GT(padded, 0.10);
}
