// The metrics dock's per-instruction section with the rows recorded on the H200 that ship with
// the app (tests/data/per_instruction_h200.jsonl): a kernel whose three counts agree everywhere,
// the tiled transpose whose shared load's hardware counter counts more than its instruction (the
// difference named), a kernel with no recorded rows, the tooltip saying what was measured and
// how, and the lecture slide on reading ncu's conflict counts.
#include "lecturefixture.h"
#include "windowfixture.h"

#include "panels/perinstructionmodel.h"
#include "panels/perinstructionpanel.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QTableView>
#include <QToolButton>

namespace warpscope::app::test {
namespace {

using Model = PerInstructionModel;

class PerInstructionTest : public WindowTest {
protected:
    void SetUp() override {
        WindowTest::SetUp();
        m_panel = window->findChild<PerInstructionPanel*>(QStringLiteral("perInstructionPanel"));
        ASSERT_NE(m_panel, nullptr) << "the metrics dock has no per-instruction section";
    }
    PerInstructionPanel& panel() { return *m_panel; }
    void loadKernel(const char* id) {
        ASSERT_TRUE(window->loadPresetById(QStringLiteral("kernel:") + QString::fromLatin1(id)));
        QApplication::processEvents();
    }
    QString cell(int access, AccessCount count, int column) {
        const Model& model = *panel().model();
        const int row = model.rowOf(access, count);
        EXPECT_GE(row, 0) << "no row for access " << access << " " << accessCountName(count);
        return model.text(row, column);
    }

private:
    PerInstructionPanel* m_panel = nullptr;
};

TEST(PerInstructionRecording, ShipsWithTheAppAndNamesItsGpu) {
    const PerInstructionRecording& recording = shippedPerInstructionRecording();
    ASSERT_TRUE(recording.error.isEmpty()) << recording.error.toStdString();
    EXPECT_EQ(recording.kernels().size(), 37);
    EXPECT_EQ(recording.gpu, QStringLiteral("NVIDIA H200"));
    EXPECT_EQ(recording.driver, QStringLiteral("580.159.04"));
    EXPECT_EQ(recording.date, QStringLiteral("2026-11-29"));
    EXPECT_EQ(recording.ncuVersion, QStringLiteral("2025.3.1.0"));
}

TEST(PerInstructionRecording, ABrokenFileSaysWhichLine) {
    const PerInstructionRecording recording =
        perInstructionRecordingFromText("{\"kernel\": \"k\"}\nnot json\n", QByteArray());
    EXPECT_TRUE(recording.rows.empty());
    EXPECT_TRUE(recording.error.contains(QStringLiteral("line 1")))
        << recording.error.toStdString();
    EXPECT_EQ(recording.gpu, QStringLiteral("an unnamed GPU"));
}

TEST_F(PerInstructionTest, AKernelWhereAllAgreeShowsTicks) {
    loadKernel("sumarrays");
    PerInstructionPanel& section = panel();
    ASSERT_TRUE(section.model()->hasRows());
    EXPECT_TRUE(section.isExpanded());
    EXPECT_TRUE(section.table()->isVisible());
    EXPECT_TRUE(section.sourceLabel()->text().startsWith(QStringLiteral("Recorded on NVIDIA H200")))
        << section.sourceLabel()->text().toStdString();
    // 3 accesses x (requests, sectors), then the two totals.
    EXPECT_EQ(section.model()->rowCount(), 8);

    EXPECT_EQ(cell(0, AccessCount::Sectors, Model::AccessColumn), QStringLiteral("0 load A[i]"));
    EXPECT_EQ(cell(0, AccessCount::Sectors, Model::PredictedColumn), QStringLiteral("2,097,152"));
    EXPECT_EQ(cell(0, AccessCount::Sectors, Model::InstructionColumn),
              QStringLiteral("2,097,152 ✓"));
    // The two loads share one counter, which adds both up.
    EXPECT_EQ(cell(0, AccessCount::Sectors, Model::HardwareColumn), QStringLiteral("4,194,304"));
    EXPECT_EQ(cell(0, AccessCount::Sectors, Model::DifferenceColumn),
              QStringLiteral("equal to the sum of the 2 instructions' own counts"));
    EXPECT_EQ(cell(2, AccessCount::Requests, Model::DifferenceColumn),
              QStringLiteral("equal to the instruction's own count"));
    // The total counts the shared counter once.
    EXPECT_EQ(cell(-1, AccessCount::Sectors, Model::PredictedColumn), QStringLiteral("6,291,456"));
    EXPECT_EQ(cell(-1, AccessCount::Sectors, Model::InstructionColumn),
              QStringLiteral("6,291,456 ✓"));
    EXPECT_EQ(cell(-1, AccessCount::Sectors, Model::HardwareColumn), QStringLiteral("6,291,456"));
    for (int row = 0; row < section.model()->rowCount(); ++row) {
        EXPECT_TRUE(
            section.model()->text(row, Model::InstructionColumn).endsWith(QStringLiteral("✓")))
            << "row " << row;
        EXPECT_TRUE(
            section.model()->text(row, Model::DifferenceColumn).startsWith(QStringLiteral("equal")))
            << "row " << row;
    }
}

TEST_F(PerInstructionTest, TheTiledTransposeNamesTheHardwaresExtraConflicts) {
    loadKernel("transpose-tiled");
    ASSERT_TRUE(panel().model()->hasRows());
    // The shared load, tile[tid.x][tid.y]: a 32-way conflict in each of 131,072 warps.
    EXPECT_EQ(cell(2, AccessCount::Conflicts, Model::AccessColumn),
              QStringLiteral("2 load tile[tid.x][tid.y]"));
    EXPECT_EQ(cell(2, AccessCount::Conflicts, Model::PredictedColumn), QStringLiteral("4,063,232"));
    EXPECT_EQ(cell(2, AccessCount::Conflicts, Model::InstructionColumn),
              QStringLiteral("4,063,232 ✓"));
    EXPECT_EQ(cell(2, AccessCount::Conflicts, Model::HardwareColumn), QStringLiteral("4,088,499"));
    EXPECT_EQ(cell(2, AccessCount::Conflicts, Model::DifferenceColumn),
              QStringLiteral("25,267 extra conflicts not caused by this access's addresses"));
    EXPECT_EQ(cell(2, AccessCount::Wavefronts, Model::DifferenceColumn),
              QStringLiteral("25,267 extra wavefronts not caused by this access's addresses"));
    // The store into the tile is conflict-free; the hardware counts 4,771 conflicts anyway.
    EXPECT_EQ(cell(1, AccessCount::Conflicts, Model::InstructionColumn), QStringLiteral("0 ✓"));
    EXPECT_EQ(cell(1, AccessCount::Conflicts, Model::DifferenceColumn),
              QStringLiteral("4,771 extra conflicts not caused by this access's addresses"));
    // Global accesses agree.
    EXPECT_EQ(cell(0, AccessCount::Sectors, Model::DifferenceColumn),
              QStringLiteral("equal to the instruction's own count"));
    // In total: both shared counters (load and store), against both instructions.
    EXPECT_EQ(cell(-1, AccessCount::Conflicts, Model::InstructionColumn),
              QStringLiteral("4,063,232 ✓"));
    EXPECT_EQ(cell(-1, AccessCount::Conflicts, Model::HardwareColumn), QStringLiteral("4,093,270"));
    EXPECT_EQ(cell(-1, AccessCount::Conflicts, Model::DifferenceColumn),
              QStringLiteral("30,038 extra conflicts in the counter of these 2 accesses, not "
                             "caused by their addresses"));
    // The hardware cell names its counter.
    const Model& model = *panel().model();
    EXPECT_EQ(model
                  .data(model.index(model.rowOf(2, AccessCount::Conflicts), Model::HardwareColumn),
                        Qt::ToolTipRole)
                  .toString(),
              QStringLiteral("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"));
}

TEST_F(PerInstructionTest, AKernelWithoutRecordedRowsSaysHowToRecordOne) {
    loadKernel("transpose-tiled");
    ASSERT_TRUE(panel().model()->hasRows());
    loadKernel("constant-broadcast");
    EXPECT_FALSE(panel().model()->hasRows());
    EXPECT_EQ(panel().model()->rowCount(), 0);
    EXPECT_FALSE(panel().table()->isVisible());
    EXPECT_TRUE(panel().sourceLabel()->isVisible());
    EXPECT_EQ(panel().sourceLabel()->text(),
              QStringLiteral("No per-instruction measurement recorded for this kernel; "
                             "scripts/gpu/per_instruction.sh records one."));
    // A plain pattern is no kernel: the section is hidden, leaving the dock's room to the metrics.
    loadPreset("cached-aligned-coalesced");
    EXPECT_TRUE(panel().isHidden());
    loadKernel("transpose-tiled");
    EXPECT_FALSE(panel().isHidden());
}

TEST_F(PerInstructionTest, TheTooltipSaysWhatWasMeasuredAndHow) {
    loadKernel("transpose-tiled");
    const QString tip = panel().table()->toolTip();
    EXPECT_TRUE(tip.startsWith(
        QStringLiteral("Recorded on an NVIDIA H200 (driver 580.159.04, 2026-11-29), not "
                       "measured on this machine.")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Nsight Compute 2025.3.1.0's source counters")));
    EXPECT_TRUE(tip.contains(QStringLiteral("L1 Wavefronts Shared")));
    EXPECT_TRUE(tip.contains(QStringLiteral("scripts/gpu/per_instruction.sh")));
    EXPECT_EQ(panel().sourceLabel()->toolTip(), tip);
    const Model& model = *panel().model();
    EXPECT_EQ(model.data(model.index(0, Model::PredictedColumn), Qt::ToolTipRole).toString(), tip);
}

TEST_F(PerInstructionTest, CollapsingHidesTheTableAndAnEditIsNamed) {
    loadKernel("transpose-tiled");
    panel().toggle()->click();
    EXPECT_FALSE(panel().isExpanded());
    EXPECT_FALSE(panel().table()->isVisible());
    EXPECT_FALSE(panel().sourceLabel()->isVisible());
    panel().toggle()->click();
    EXPECT_TRUE(panel().table()->isVisible());
    EXPECT_FALSE(panel().sourceLabel()->text().contains(QStringLiteral("edited")));
    // The kernel edited: the recorded counts are still the preset's, and say so.
    ASSERT_FALSE(document().setLaunchField(0, QStringLiteral("64")).has_value());
    QApplication::processEvents();
    EXPECT_TRUE(panel().sourceLabel()->text().contains(
        QStringLiteral("The kernel has been edited since: these are the preset's counts.")))
        << panel().sourceLabel()->text().toStdString();
}

class ConflictCountsSlideTest : public LectureTest {};

TEST_F(ConflictCountsSlideTest, ShowsTheRecordedNumbersOfTheTiledTranspose) {
    int slide = -1;
    for (std::size_t i = 0; i < deck.slides.size(); ++i) {
        if (deck.slides[i].title == "Reading ncu's conflict counts") {
            slide = static_cast<int>(i);
        }
    }
    ASSERT_GE(slide, 0) << "the course deck has no slide \"Reading ncu's conflict counts\"";
    // At the end of the shared-memory part, after the tiled transpose's slides.
    EXPECT_EQ(deck.slides[static_cast<std::size_t>(slide - 1)].notesExperiment, "transpose-tiled");
    lecture->setSlide(slide);
    QApplication::processEvents();
    EXPECT_EQ(label("lectureTitle"), QStringLiteral("Reading ncu's conflict counts"));
    const QString caption = label("lectureCaption");
    for (const char* number : {"4,063,232", "4,088,499", "25,267", "H200"}) {
        EXPECT_TRUE(caption.contains(QString::fromLatin1(number)))
            << number << " is not in: " << caption.toStdString();
    }
    // The numbers are the recorded ones: the model equals the instruction, the hardware more.
    const PerInstructionRecording& recording = shippedPerInstructionRecording();
    bool found = false;
    for (const PerInstructionRow& row : recording.rows) {
        if (row.kernel != "transpose-tiled" || row.access != 2) {
            continue;
        }
        for (const AccessCountComparison& c : row.counts) {
            if (c.count == AccessCount::Conflicts) {
                found = true;
                EXPECT_EQ(c.predicted, 4063232u);
                EXPECT_EQ(c.instruction.value_or(0), 4063232u);
                EXPECT_EQ(c.hardware.value_or(0), 4088499u);
            }
        }
    }
    EXPECT_TRUE(found);
}

} // namespace
} // namespace warpscope::app::test
