// Constant memory in the app (issue 19): the warp view draws a constant load's rounds, one per
// distinct address, from the core's ConstantPrediction, with the notes' statement; the kernel
// presets open without a GPU; the kernel sweep carries the grid model's constant-cache requests.
#include "probefixture.h"
#include "windowfixture.h"

#include "document/kernelsweepdata.h"
#include "gpu/kernelmeasurement.h"
#include "views/kernelsweepview.h"
#include "views/sweepplot.h"
#include "views/warpview.h"

#include <warpscope/kernel_preset.h>
#include <warpscope/model.h>

#include <gtest/gtest.h>

#include <QApplication>
#include <QPushButton>
#include <QTest>

#include <bit>

namespace warpscope::app::test {
namespace {

void makeConstant(PatternDocument& document, const std::string& address) {
    Pattern pattern = document.pattern();
    pattern.kind.space = MemorySpace::Constant;
    pattern.kind.op = AccessOp::Load;
    pattern.kind.widthBytes = 4;
    pattern.kind.cache = CachePath::Default;
    pattern.source->addressExpression = address;
    pattern.source->activeExpression = "1";
    document.editPattern(pattern, QStringLiteral("constant"));
    QApplication::processEvents();
}

TEST_F(WindowTest, TheWarpViewNumbersTheConstantCachesRounds) {
    loadPreset("readsegment-offset-11");
    makeConstant(document(), "(lane % 4) * 4");
    ASSERT_FALSE(document().error()) << document().error()->describe();
    const ConstantPrediction& model = *document().evaluation()->modern.constant;
    ASSERT_EQ(model.distinctAddresses, 4);

    const WarpLayout& layout = window->warpView()->currentLayout();
    EXPECT_TRUE(layout.constant);
    EXPECT_FALSE(layout.global);
    const WarpContent content = window->warpView()->content();
    // One dashed box per round, each over its address, named R1..R4 with its lanes.
    ASSERT_EQ(content.transactions.size(), model.rounds.size());
    for (std::size_t i = 0; i < content.transactions.size(); ++i) {
        const auto& box = content.transactions[i];
        const auto index = static_cast<std::size_t>(layout.transactions[i].index);
        EXPECT_EQ(box.address, model.rounds[index].address);
        EXPECT_EQ(box.lanes, model.rounds[index].laneMask);
        EXPECT_TRUE(box.label.startsWith(QStringLiteral("R%1 ").arg(index + 1)))
            << qPrintable(box.label);
        EXPECT_TRUE(box.label.contains(QStringLiteral("8 lane"))) << qPrintable(box.label);
    }
    // The list names the rounds in turn, with the lanes each broadcasts to.
    int rounds = 0;
    for (std::size_t i = 0; i < layout.listRows.size(); ++i) {
        if (layout.listRows[i].kind != WarpLayout::ListKind::Transaction) {
            continue;
        }
        const auto& row = content.listRows[i];
        EXPECT_TRUE(row.text.startsWith(QStringLiteral("round %1:").arg(rounds + 1)))
            << qPrintable(row.text);
        EXPECT_TRUE(row.text.contains(QStringLiteral("broadcast to 8 lanes")));
        EXPECT_EQ(row.lanes, model.rounds[static_cast<std::size_t>(rounds)].laneMask);
        ++rounds;
    }
    EXPECT_EQ(rounds, 4);
    EXPECT_TRUE(content.transactionHeading.contains(QStringLiteral("in turn")));
    EXPECT_TRUE(content.summary.contains(QStringLiteral("4 distinct address")))
        << qPrintable(content.summary);
    EXPECT_TRUE(content.note.contains(QStringLiteral("one after another")));
    // The best-practice notes' statement, no GPU needed.
    EXPECT_TRUE(content.textbookSummary.contains(QStringLiteral("best-practice notes")));
    EXPECT_TRUE(content.title.contains(QStringLiteral("Constant load")));

    // One address for the whole warp: a single broadcast round.
    makeConstant(document(), "64");
    const WarpContent broadcast = window->warpView()->content();
    ASSERT_EQ(broadcast.transactions.size(), 1u);
    EXPECT_EQ(std::popcount(broadcast.transactions[0].lanes), 32);
    EXPECT_TRUE(broadcast.summary.contains(QStringLiteral("0 beyond a broadcast")))
        << qPrintable(broadcast.summary);
}

TEST_F(WindowTest, AConstantStoreOrAnAddressPast64KiBIsRefusedWithItsPlace) {
    loadPreset("readsegment-offset-11");
    makeConstant(document(), "lane * 4 + 65536");
    ASSERT_TRUE(document().error());
    EXPECT_NE(document().error()->message.find("64 KiB"), std::string::npos);
    Pattern pattern = document().pattern();
    pattern.source->addressExpression = "lane * 4";
    pattern.kind.op = AccessOp::Store;
    document().editPattern(pattern, QStringLiteral("store"));
    QApplication::processEvents();
    ASSERT_TRUE(document().error());
    EXPECT_NE(document().error()->message.find("read-only"), std::string::npos);
}

TEST_F(WindowTest, TheConstantPresetsOpenWithoutAGpu) {
    for (const char* id : {"kernel:constant-broadcast", "kernel:constant-divergent"}) {
        ASSERT_TRUE(window->loadPresetById(QString::fromLatin1(id))) << id;
        QApplication::processEvents();
        ASSERT_TRUE(document().evaluation()) << id;
        ASSERT_FALSE(document().error()) << document().error()->describe();
        ASSERT_EQ(document().pattern().kind.space, MemorySpace::Constant) << id;
        const auto& constant = document().evaluation()->modern.constant;
        ASSERT_TRUE(constant.has_value()) << id;
        EXPECT_EQ(constant->distinctAddresses, std::string(id).ends_with("broadcast") ? 1 : 32);
        EXPECT_FALSE(window->warpView()->content().transactions.empty()) << id;
    }
}

TEST(ConstantSweep, TheGridModelCountsEveryWarpsDistinctAddresses) {
    const KernelPreset* preset = findKernelPreset("constant-divergent");
    ASSERT_NE(preset, nullptr);
    const Kernel kernel = kernelAtPoint(preset->kernel, {{"n", 8192}});
    QString error;
    const auto plan = planKernelSweep(
        kernel, KernelSweepAxis{false, "distinct"},
        defaultKernelSweepValues(kernel, preset->sweeps, KernelSweepAxis{false, "distinct"}),
        &error);
    ASSERT_TRUE(plan.has_value()) << qPrintable(error);
    ASSERT_EQ(plan->points.size(), 32u);
    const KernelSweepData data = computeKernelSweep(kernel, *plan);
    EXPECT_TRUE(data.hasConstant);
    EXPECT_FALSE(data.hasShared);
    ASSERT_EQ(data.modelConstantAddresses.size(), 32);
    const double warps = 8192 / 32;
    for (int d = 1; d <= 32; ++d) {
        EXPECT_EQ(data.modelConstantAddresses[d - 1], warps * d) << d;
        EXPECT_EQ(data.modelSectors[d - 1], 0) << d;
    }
}

// The sweep tab on constant-divergent (n = 8192 so the model is quick): 32 points, the grid
// model's requests at each, then the (fake) GPU's time and measured requests at each.
TEST(ConstantSweep, TheSweepTabDrawsRequestsBesideTheTime) {
    REQUIRE_FAKE_PROBE();
    auto window = windowWithProbe(fakeProbe());
    ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:constant-divergent")));
    Pattern smaller = window->document()->pattern();
    for (Parameter& p : smaller.source->parameters) {
        if (p.name == "n") {
            p.value = 8192;
        }
    }
    window->document()->editPattern(smaller, QStringLiteral("smaller grid"));
    window->showView(MainWindow::View::Sweep);
    SweepPlot* sweep = window->sweepPlot();
    ASSERT_TRUE(sweep->kernelMode());
    KernelSweepView* view = sweep->kernelSweepView();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !view->isModelBusy(); }, 60000));
    ASSERT_TRUE(view->plan().has_value());
    EXPECT_EQ(view->plan()->points.size(), 32u);
    EXPECT_TRUE(view->data().hasConstant);
    ASSERT_EQ(view->data().modelConstantAddresses.size(), 32);
    EXPECT_EQ(view->data().modelConstantAddresses[31], 32.0 * 8192 / 32);
    if (SweepPlot::plotAvailable()) {
        EXPECT_EQ(view->modelPointCount(), 32);
    }
    window->runSweepOnGpu();
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->runButton()->isEnabled(); }, 60000));
    EXPECT_EQ(view->measuredPointCount(), 32);
    if (SweepPlot::plotAvailable()) {
        // Time bars (constant loads move no global bytes, so no bandwidth).
        EXPECT_EQ(view->bandwidthBarCount(), 32);
    }
    const KernelMeasurement* last = view->measurements().back();
    ASSERT_NE(last, nullptr);
    EXPECT_EQ(last->counters.at("warpscope__constant_extra_requests"), 31.0 * 8192 / 32);
}

} // namespace
} // namespace warpscope::app::test
