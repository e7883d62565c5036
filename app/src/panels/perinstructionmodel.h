// PerInstructionModel: one kernel preset's per-instruction truth as recorded on a GPU (issue 32),
// or as the probe measured it now (setLiveRows),
// per access and in total: the grid model's prediction, the access's own SASS instruction as
// Nsight Compute's source counters count it (✓ where equal), the kernel-level hardware counter,
// and the difference named by core's excessExplanation. The rows ship with the app
// (resources/app/app.qrc: tests/data/per_instruction_h200.jsonl and the environment it was
// recorded in); scripts/gpu/per_instruction.sh records them.
#pragma once

#include "gpu/kernelmeasurement.h"

#include <warpscope/per_instruction.h>

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace warpscope::app {

/// The recorded per-instruction rows and where they were measured.
struct PerInstructionRecording {
    std::vector<PerInstructionRow> rows;
    QString gpu;        // "NVIDIA H200"
    QString driver;     // "580.159.04"
    QString date;       // "2026-11-29"
    QString ncuVersion; // "2025.3.1.0"
    /// Why the rows could not be read (empty when they were).
    QString error;

    /// The kernel presets with rows, in file order.
    QStringList kernels() const;
    bool hasKernel(const QString& kernel) const;
};

/// Reads the rows (JSON lines of scripts/gpu/per_instruction.sh) and the environment file written
/// beside them (its lines: the date, "GPU, driver, clock", Nsight Compute's and nvcc's versions).
PerInstructionRecording perInstructionRecordingFromText(const QByteArray& rowsJsonLines,
                                                        const QByteArray& environment);

/// The recording that ships with the app (Qt resources, :/measurements/), read once.
const PerInstructionRecording& shippedPerInstructionRecording();

/// What was measured and how, for the table's tooltip: "Recorded on an NVIDIA H200 (driver …,
/// 2026-11-29) with Nsight Compute 2025.3.1.0's source counters, …".
QString perInstructionToolTip(const PerInstructionRecording& recording);

/// The label of the recorded rows: where and when they were recorded, and, when the probe's GPU
/// is known (`connectedGpu`), whether it is the kind they were recorded on: "Recorded on an
/// NVIDIA H200 …, not on this machine's NVIDIA A100 …".
QString recordedPerInstructionLabel(const PerInstructionRecording& recording,
                                    const QString& connectedGpu);

/// The label and tooltip of counts measured now (a measurement with perInstructionRows):
/// "Measured now on NVIDIA H200 (driver …, 14:02) with CUPTI's SASS metrics …".
QString livePerInstructionLabel(const KernelMeasurement& measurement);
QString livePerInstructionToolTip(const KernelMeasurement& measurement);

/// The message shown for a kernel (or a plain pattern) with no recorded rows.
QString noPerInstructionRowsMessage(bool isKernel);

class PerInstructionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        AccessColumn,
        CountColumn,
        PredictedColumn,
        InstructionColumn,
        HardwareColumn,
        DifferenceColumn,
        ColumnCount
    };

    explicit PerInstructionModel(QObject* parent = nullptr);

    /// The recording the rows come from (the shipped one unless a test gives its own).
    void setRecording(const PerInstructionRecording* recording);
    /// Show kernel preset `kernel`'s rows; none when the recording has none of it.
    void setKernel(const QString& kernel);
    /// Show `rows` (one measured kernel's, a measure_kernel answer's "perInstruction") instead
    /// of the recording's, with `toolTip` saying how they were measured; an empty vector goes
    /// back to the recording.
    void setLiveRows(std::vector<PerInstructionRow> rows, const QString& toolTip);
    bool isLive() const { return !m_liveRows.empty(); }
    QString kernel() const { return m_kernel; }
    bool hasRows() const { return !m_lines.empty(); }

    /// The text of `column` in `row` (as data() shows it).
    QString text(int row, int column) const;
    /// The row of access `access`'s `count`, or of the total when `access` is -1; -1 if none.
    int rowOf(int access, AccessCount count) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Line {
        int access = -1; // -1: the total
        QString accessText;
        QString hardwareMetric;
        AccessCountComparison comparison;
    };
    void rebuild();

    const PerInstructionRecording* m_recording;
    QString m_kernel;
    std::vector<PerInstructionRow> m_liveRows;
    QString m_liveToolTip;
    std::vector<Line> m_lines;
};

} // namespace warpscope::app
