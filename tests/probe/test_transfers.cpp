// measure_transfers without a GPU: the plan (sizes capped by free memory with a note, explicit
// sizes and managed memory refused before anything runs), the answer's JSON through serve() with
// the fake backend (progress lines, cancel), and the link's arithmetic. The options' errors are
// core's (tests/core/test_experiment_results.cpp).
#include "../core/byte_units_test_support.h"
#include "fake_backend.h"
#include "probe_protocol.h"
#include "servelines.h"
#include "warpscope/experiments/transfers.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace warpscope::probe;
using namespace warpscope::experiments;
using json = nlohmann::json;

using warpscope::test_units::kGiB;
using warpscope::test_units::kKiB;
using warpscope::test_units::kMiB;

using warpscope::probe::test::serveLines;

TEST(TransferPlan, DefaultRangeIsFourKibToOneGibByFours) {
    const TransferPlanResult planned =
        planTransfers(TransferOptions{}, TransferMemory{80 * kGiB, 128 * kGiB});
    ASSERT_TRUE(planned.plan) << planned.error;
    EXPECT_EQ(planned.plan->sizes,
              (std::vector<std::int64_t>{4 * kKiB, 16 * kKiB, 64 * kKiB, 256 * kKiB, kMiB, 4 * kMiB,
                                         16 * kMiB, 64 * kMiB, 256 * kMiB, kGiB}));
    EXPECT_EQ(planned.plan->modes.size(), 11u);
    EXPECT_TRUE(planned.plan->capNote.empty());
}

TEST(TransferPlan, RangeIsCappedByDeviceAndHostMemoryWithANote) {
    // 1 GiB of device memory: three arrays of 256 MiB fit in 90 % of it, of 1 GiB do not.
    TransferPlanResult planned = planTransfers(TransferOptions{}, TransferMemory{kGiB, 64 * kGiB});
    ASSERT_TRUE(planned.plan);
    EXPECT_EQ(planned.plan->sizes.back(), 256 * kMiB);
    EXPECT_NE(planned.plan->capNote.find("from 1 GiB up were left out"), std::string::npos)
        << planned.plan->capNote;
    EXPECT_NE(planned.plan->capNote.find("device has 1 GiB free"), std::string::npos);
    // 1 GiB of host memory available: three pinned arrays of 256 MiB need more than half.
    planned = planTransfers(TransferOptions{}, TransferMemory{80 * kGiB, kGiB});
    ASSERT_TRUE(planned.plan);
    EXPECT_EQ(planned.plan->sizes.back(), 64 * kMiB);
    EXPECT_NE(planned.plan->capNote.find("of host memory"), std::string::npos)
        << planned.plan->capNote;
}

TEST(TransferPlan, ManagedMemoryLargerThanTheDeviceIsRefusedBeforeAnythingRuns) {
    TransferOptions options;
    options.sizes = {64 * kGiB};
    options.modes = {TransferMode::ManagedFault};
    const TransferPlanResult planned = planTransfers(options, TransferMemory{80 * kGiB, 0});
    EXPECT_FALSE(planned.plan);
    EXPECT_TRUE(planned.outOfMemory);
    EXPECT_NE(planned.error.find("refused before anything ran: 64 GiB needs 192 GiB of device "
                                 "memory and the device has 80 GiB free"),
              std::string::npos)
        << planned.error;
    EXPECT_NE(planned.error.find("managed memory is never asked for more"), std::string::npos);
    // A copy of the same size needs one device buffer: it fits.
    options.modes = {TransferMode::H2dPinned};
    EXPECT_TRUE(planTransfers(options, TransferMemory{80 * kGiB, 0}).plan);
}

TEST(TransferLinkText, PcieGenerationAndWidthGiveTheLinkBandwidth) {
    EXPECT_NEAR(pcieLinkGBs(2, 16), 8.0, 1e-9); // the notes' PCIe Gen2 x16
    EXPECT_NEAR(pcieLinkGBs(5, 16), 63.015, 1e-3);
    EXPECT_EQ(pcieLinkGBs(0, 16), 0.0);
    TransferLink link;
    link.kind = "pcie";
    link.pcieGeneration = 1;
    link.pcieWidth = 16;
    link.pcieMaxGeneration = 5;
    link.pcieMaxWidth = 16;
    EXPECT_EQ(describeLink(link), "PCIe 5.0 x16 (63.0 GB/s per direction), at 1.0 x16 when asked "
                                  "(idle links slow down)");
    link.kind = "nvlink-c2c";
    EXPECT_NE(describeLink(link).find("NVLink-C2C"), std::string::npos);
}

TEST(TransferPoints, MedianSpreadAndBandwidth) {
    const TransferPoint point =
        transferPoint(TransferMode::BothPinned, 1000000, {3.0, 1.0, 2.0, 2.0});
    EXPECT_EQ(point.samples, 4);
    EXPECT_DOUBLE_EQ(point.medianMs, 2.0);
    EXPECT_DOUBLE_EQ(point.minMs, 1.0);
    EXPECT_DOUBLE_EQ(point.maxMs, 3.0);
    // Both directions count twice the size: 2 MB in 2 ms.
    EXPECT_DOUBLE_EQ(point.bandwidthGBs, 1.0);
}

TEST(MeasureTransfers, AnswersCurvesWithProgressThroughServe) {
    FakeBackend backend;
    const auto lines =
        serveLines(backend, R"({"id":1,"op":"measure_transfers","options":{"sizes":[4096,1048576],)"
                            R"("modes":["h2d_pinned","sum_zerocopy"],"repetitions":3}})"
                            "\n");
    ASSERT_EQ(lines.size(), 5u); // four progress lines, one answer
    EXPECT_EQ(lines[0]["progress"]["total"], 4);
    EXPECT_EQ(lines[3]["progress"]["done"], 4);
    const json& answer = lines[4];
    ASSERT_TRUE(answer["ok"].get<bool>()) << answer.dump();
    const json& result = answer["result"];
    EXPECT_EQ(result["device"], "warpscope fake GPU");
    EXPECT_EQ(result["link"]["description"], "PCIe 4.0 x16 (31.5 GB/s per direction)");
    ASSERT_EQ(result["curves"].size(), 2u);
    const json& zeroCopy = result["curves"][1];
    EXPECT_EQ(zeroCopy["mode"], "sum_zerocopy");
    EXPECT_EQ(zeroCopy["bytesFactor"], 2);
    ASSERT_EQ(zeroCopy["points"].size(), 2u);
    EXPECT_EQ(zeroCopy["points"][1]["bytes"], 1048576);
    EXPECT_EQ(zeroCopy["points"][1]["samples"], 3);
    // The fake's zero-copy link: 20 GB/s after 10 us.
    const double ms = 0.01 + 2.0 * 1048576 / 20e6;
    EXPECT_NEAR(zeroCopy["points"][1]["medianMs"].get<double>(), ms, 1e-12);
    EXPECT_NEAR(zeroCopy["points"][1]["bandwidthGBs"].get<double>(), 2.0 * 1048576 / (ms * 1e6),
                1e-9);
}

TEST(MeasureTransfers, RefusalsAreErrorsWithCodes) {
    FakeBackend backend; // 1 GiB of device memory
    const auto lines = serveLines(
        backend,
        R"({"id":1,"op":"measure_transfers","options":{"sizes":[1073741824],"modes":["managed_fault"]}})"
        "\n"
        R"({"id":2,"op":"measure_transfers","options":{"modes":["up"]}})"
        "\n"
        R"({"id":3,"op":"measure_transfers","sizes":[4096]})"
        "\n");
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0]["error"]["code"], "out_of_memory");
    EXPECT_NE(lines[0]["error"]["message"].get<std::string>().find("managed memory is never"),
              std::string::npos);
    EXPECT_EQ(lines[1]["error"]["code"], "bad_request");
    EXPECT_EQ(lines[1]["error"]["where"], "/options/modes/0");
    EXPECT_EQ(lines[2]["error"]["where"], "/sizes");
    EXPECT_EQ(backend.measureTransfersCalls.load(), 1);
}

TEST(MeasureTransfers, CancelStopsBetweenPoints) {
    FakeBackend backend;
    std::atomic<bool> cancel{false};
    int before = 0;
    backend.beforeItem = [&](int index) {
        before = index;
        if (index == 1) {
            cancel = true;
        }
    };
    TransferOptions options;
    options.sizes = {4096, 8192, 16384, 32768};
    options.modes = {TransferMode::H2dPinned};
    auto result = backend.measureTransfers(options, nullptr, [&] { return cancel.load(); });
    ASSERT_TRUE(std::holds_alternative<ProbeError>(result));
    EXPECT_EQ(std::get<ProbeError>(result).code, ProbeErrorCode::Cancelled);
    EXPECT_EQ(std::get<ProbeError>(result).message, "cancelled after 2 of 4 points");
    EXPECT_EQ(before, 1);
}

} // namespace
