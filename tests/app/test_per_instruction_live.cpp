// The per-instruction section with counts the probe measured (measure_kernel's per_instruction):
// a fake probe's answer for the tiled transpose whose instructions count what the model predicts,
// beside the hardware counters the H200 answered for the same kernel
// (tests/data/per_instruction_live_h200.jsonl), so the two differ; the label saying where and
// when; the recorded H200 rows labelled as recorded there, saying so when the probe's GPU is
// another; a measurement that asked and got nothing says why; the GPU menu's option sets the
// runners' protocol field and is remembered.
#include "windowfixture.h"

#include "gpu/kernelmeasurement.h"
#include "gpu/kernelsweeprunner.h"
#include "gpu/notesrunner.h"
#include "panels/perinstructionmodel.h"
#include "panels/perinstructionpanel.h"
#include "shell/perinstructionoption.h"

#include <warpscope/kernel_preset.h>
#include <warpscope/per_instruction_live.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QAction>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMenu>
#include <QSettings>

namespace warpscope::app::test {
namespace {

using Model = PerInstructionModel;

/// The H200's recorded answer for kernel preset `id` (its counters are the hardware's).
nlohmann::json recordedH200Answer(const char* id) {
    QFile file(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/per_instruction_live_h200.jsonl"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (line.isEmpty()) {
            continue;
        }
        nlohmann::json object = nlohmann::json::parse(line.toStdString());
        if (object.at("id") == id) {
            return object.at("answer");
        }
    }
    ADD_FAILURE() << "no recorded answer for " << id;
    return {};
}

/// A fake probe's answer: the H200's answer for `id` whose per-instruction rows are rebuilt with
/// instructions that count exactly what the grid model predicts (as
/// kernels/protocol/fake_backend.cpp answers), so the H200's hardware counters differ from them
/// where the hardware counts more.
QJsonObject fakeAnswer(const char* id) {
    nlohmann::json answer = recordedH200Answer(id);
    const KernelPreset* preset = findKernelPreset(id);
    EXPECT_NE(preset, nullptr);
    auto resolved = resolveKernel(preset->kernel);
    auto prediction = predictGrid(resolved.value());
    std::vector<SassInstructionCounts> instructions;
    for (std::size_t a = 0; a < prediction.value().accesses.size(); ++a) {
        const AccessKind& kind = resolved.value().accesses[a].access.kind;
        const GridAccessPrediction& p = prediction.value().accesses[a];
        SassInstructionCounts i;
        i.pcOffset = static_cast<std::uint32_t>(0x100 + 0x10 * a);
        i.kind = sassOpKindOf(kind);
        const bool global = kind.space == MemorySpace::Global;
        i.executed = static_cast<std::uint64_t>(global ? p.requests : prediction.value().warps);
        i.sectors = global ? static_cast<std::uint64_t>(p.sectors) : 0;
        i.wavefronts = global ? 0 : static_cast<std::uint64_t>(p.wavefronts);
        i.conflicts = global ? 0 : static_cast<std::uint64_t>(p.bankConflicts);
        instructions.push_back(i);
    }
    std::map<std::string, double> counters;
    for (const auto& [name, value] : answer.at("counters").items()) {
        counters[name] = value.get<double>();
    }
    answer["perInstruction"] = {
        {"measured", true},
        {"source", "the test's fake probe"},
        {"unavailableReason", ""},
        {"ms", 1.9},
        {"rows",
         livePerInstructionJson(resolved.value(), prediction.value(), counters, instructions)}};
    return QJsonDocument::fromJson(QByteArray::fromStdString(answer.dump())).object();
}

GpuInfo h200() {
    GpuInfo gpu;
    gpu.name = QStringLiteral("NVIDIA H200");
    gpu.driverVersion = QStringLiteral("13.0");
    return gpu;
}

class PerInstructionLiveTest : public WindowTest {
protected:
    void SetUp() override {
        WindowTest::SetUp();
        m_panel = window->findChild<PerInstructionPanel*>(QStringLiteral("perInstructionPanel"));
        ASSERT_NE(m_panel, nullptr);
    }
    PerInstructionPanel& panel() { return *m_panel; }
    void loadKernel(const char* id) {
        ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:") + QString::fromLatin1(id)));
        QApplication::processEvents();
    }
    QString cell(int access, AccessCount count, int column) {
        const int row = panel().model()->rowOf(access, count);
        EXPECT_GE(row, 0) << "no row for access " << access;
        return panel().model()->text(row, column);
    }
    void putMeasurement(const char* id, const QJsonObject& answer, bool recorded = false) {
        auto read = KernelMeasurement::fromProbeResult(
            answer, h200(), QDateTime(QDate(2026, 11, 29), QTime(4, 22)));
        ASSERT_TRUE(read) << read.error().describe();
        KernelMeasurement m = std::move(read).value();
        m.recorded = recorded;
        window->kernelMeasurements()->put(QString::fromLatin1(id), m);
        QApplication::processEvents();
    }

private:
    PerInstructionPanel* m_panel = nullptr;
};

TEST_F(PerInstructionLiveTest, CountsMeasuredNowReplaceTheRecordedOnesAndNameTheDifference) {
    loadKernel("transpose-tiled");
    ASSERT_FALSE(panel().model()->isLive());
    putMeasurement("transpose-tiled", fakeAnswer("transpose-tiled"));
    ASSERT_TRUE(panel().model()->isLive());
    EXPECT_TRUE(panel().sourceLabel()->text().startsWith(
        QStringLiteral("Measured now on NVIDIA H200 (driver 13.0, 2026-11-29 04:22)")))
        << panel().sourceLabel()->text().toStdString();
    EXPECT_TRUE(panel().sourceLabel()->toolTip().contains(QStringLiteral("the test's fake probe")));
    // The shared load: the instruction counts the model's conflicts; the H200's counter of
    // the same answer counts 4,086,852, 23,620 more.
    EXPECT_EQ(cell(2, AccessCount::Conflicts, Model::PredictedColumn), QStringLiteral("4,063,232"));
    EXPECT_EQ(cell(2, AccessCount::Conflicts, Model::InstructionColumn),
              QStringLiteral("4,063,232 ✓"));
    EXPECT_EQ(cell(2, AccessCount::Conflicts, Model::HardwareColumn), QStringLiteral("4,086,852"));
    EXPECT_EQ(cell(2, AccessCount::Conflicts, Model::DifferenceColumn),
              QStringLiteral("23,620 extra conflicts not caused by this access's addresses"));
    // The shared store: no conflicts of its own, 6,336 in the hardware counter.
    EXPECT_EQ(cell(1, AccessCount::Conflicts, Model::InstructionColumn), QStringLiteral("0 ✓"));
    EXPECT_EQ(cell(1, AccessCount::Conflicts, Model::HardwareColumn), QStringLiteral("6,336"));
    // The global load agrees three ways.
    EXPECT_EQ(cell(0, AccessCount::Sectors, Model::InstructionColumn), QStringLiteral("524,288 ✓"));
    EXPECT_EQ(cell(0, AccessCount::Sectors, Model::DifferenceColumn),
              QStringLiteral("equal to the instruction's own count"));

    // Another kernel goes back to the recorded rows, labelled as recorded.
    loadKernel("sumarrays");
    EXPECT_FALSE(panel().model()->isLive());
    EXPECT_TRUE(
        panel().sourceLabel()->text().startsWith(QStringLiteral("Recorded on NVIDIA H200")));
}

TEST_F(PerInstructionLiveTest, ARecordedMeasurementIsNotCalledMeasuredNow) {
    loadKernel("transpose-tiled");
    putMeasurement("transpose-tiled", fakeAnswer("transpose-tiled"), true);
    ASSERT_TRUE(panel().model()->isLive());
    EXPECT_TRUE(panel().sourceLabel()->text().startsWith(
        QStringLiteral("Measured on NVIDIA H200 (driver 13.0, 2026-11-29 04:22), read from a "
                       "recorded answer")))
        << panel().sourceLabel()->text().toStdString();
}

TEST_F(PerInstructionLiveTest, AskedForAndNotMeasuredSaysWhyAndKeepsTheRecordedRows) {
    loadKernel("transpose-tiled");
    QJsonObject answer = fakeAnswer("transpose-tiled");
    answer.insert(QStringLiteral("perInstruction"),
                  QJsonObject{{QStringLiteral("measured"), false},
                              {QStringLiteral("unavailableReason"),
                               QStringLiteral("this CUPTI has no SASS Metrics API")},
                              {QStringLiteral("rows"), QJsonArray()}});
    putMeasurement("transpose-tiled", answer);
    EXPECT_FALSE(panel().model()->isLive());
    EXPECT_TRUE(panel().model()->hasRows());
    EXPECT_TRUE(panel().sourceLabel()->text().startsWith(
        QStringLiteral("Per-instruction counts were not measured on NVIDIA H200: this CUPTI has "
                       "no SASS Metrics API. Recorded on NVIDIA H200")))
        << panel().sourceLabel()->text().toStdString();
}

TEST_F(PerInstructionLiveTest, TheRecordedRowsSayWhetherTheProbesGpuIsAnH200) {
    loadKernel("sumarrays");
    panel().setConnectedGpu(QStringLiteral("NVIDIA A100-SXM4-80GB"));
    const QString other = panel().sourceLabel()->text();
    EXPECT_TRUE(other.startsWith(QStringLiteral("Recorded on NVIDIA H200")));
    EXPECT_TRUE(other.contains(QStringLiteral("not on this machine's NVIDIA A100-SXM4-80GB: its "
                                              "counts can differ")))
        << other.toStdString();
    panel().setConnectedGpu(QStringLiteral("NVIDIA H200"));
    EXPECT_TRUE(
        panel().sourceLabel()->text().contains(QStringLiteral("the same GPU as this machine's")));
    panel().setConnectedGpu(QString());
    EXPECT_TRUE(
        panel().sourceLabel()->text().endsWith(QStringLiteral("; not measured on this machine.")));
}

TEST_F(PerInstructionLiveTest, TheGpuMenuOptionSetsTheRunnersField) {
    auto* action = window->findChild<QAction*>(QStringLiteral("perInstructionAction"));
    ASSERT_NE(action, nullptr);
    ASSERT_TRUE(action->isCheckable());
    EXPECT_FALSE(action->isChecked()) << "off unless asked for: it costs one more launch";
    auto* sweep = window->findChild<KernelSweepRunner*>(QStringLiteral("kernelSweepRunner"));
    ASSERT_NE(sweep, nullptr);
    ASSERT_NE(window->notesRunner(), nullptr);
    EXPECT_FALSE(sweep->options().perInstruction);
    action->setChecked(true);
    EXPECT_TRUE(sweep->options().perInstruction);
    EXPECT_TRUE(window->notesRunner()->options().perInstruction);
    action->setChecked(false);
    EXPECT_FALSE(sweep->options().perInstruction);
}

TEST(PerInstructionOption, IsRememberedInTheSettings) {
    QSettings().remove(QLatin1String(kPerInstructionSetting));
    QWidget window;
    QMenu menu;
    QAction* first = addPerInstructionOption(&menu, &window, true);
    EXPECT_FALSE(first->isChecked());
    first->setChecked(true);
    QMenu again;
    EXPECT_TRUE(addPerInstructionOption(&again, &window, true)->isChecked());
    QMenu ignoring;
    EXPECT_FALSE(addPerInstructionOption(&ignoring, &window, false)->isChecked())
        << "a window without settings starts with it off";
    QSettings().remove(QLatin1String(kPerInstructionSetting));
}

} // namespace
} // namespace warpscope::app::test
