// PerInstructionModel: the recorded per-instruction rows of one kernel preset as a table
// (perinstructionmodel.h).
#include "panels/perinstructionmodel.h"

#include <QFile>
#include <QFont>
#include <QLocale>

#include <map>
#include <set>
#include <utility>

namespace warpscope::app {

namespace {

QString grouped(std::uint64_t value) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(value));
}

/// The kernel-level Nsight Compute counter a count of an access of `space` and `op` is compared
/// with (docs/metrics.md, "Per instruction").
QString hardwareMetric(const PerInstructionRow& row, AccessCount count) {
    if (row.space == "shared") {
        const QString op = row.op == "store" ? QStringLiteral("st") : QStringLiteral("ld");
        return count == AccessCount::Conflicts
                   ? QStringLiteral("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%1.sum")
                         .arg(op)
                   : QStringLiteral("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%1.sum").arg(op);
    }
    const QString op = row.op == "copy_async" ? QStringLiteral("ldgsts_cache_access")
                       : row.op == "store"    ? QStringLiteral("st")
                                              : QStringLiteral("ld");
    return QStringLiteral("l1tex__t_%1_pipe_lsu_mem_global_op_%2.sum")
        .arg(QString::fromLatin1(accessCountName(count)), op);
}

QString countWord(AccessCount count) {
    return QString::fromLatin1(accessCountName(count));
}

} // namespace

QStringList PerInstructionRecording::kernels() const {
    QStringList list;
    for (const PerInstructionRow& row : rows) {
        const QString kernel = QString::fromStdString(row.kernel);
        if (!list.contains(kernel)) {
            list << kernel;
        }
    }
    return list;
}

bool PerInstructionRecording::hasKernel(const QString& kernel) const {
    const std::string id = kernel.toStdString();
    for (const PerInstructionRow& row : rows) {
        if (row.kernel == id) {
            return true;
        }
    }
    return false;
}

PerInstructionRecording perInstructionRecordingFromText(const QByteArray& rowsJsonLines,
                                                        const QByteArray& environment) {
    PerInstructionRecording recording;
    auto rows = perInstructionRowsFromJsonLines(std::string_view(
        rowsJsonLines.constData(), static_cast<std::size_t>(rowsJsonLines.size())));
    if (!rows) {
        recording.error = QString::fromStdString(rows.error().describe());
    } else {
        recording.rows = std::move(rows.value());
    }
    // scripts/gpu/per_instruction.sh's env file: "2026-11-29T00:10Z", "NVIDIA H200, 580.159.04,
    // 1980 MHz", "Version 2025.3.1.0 (build …)", nvcc's build line.
    const QStringList lines = QString::fromUtf8(environment).split(QLatin1Char('\n'));
    if (!lines.isEmpty()) {
        recording.date = lines.at(0).trimmed().left(10);
    }
    if (lines.size() > 1) {
        const QStringList gpu = lines.at(1).split(QStringLiteral(", "));
        recording.gpu = gpu.value(0).trimmed();
        recording.driver = gpu.value(1).trimmed();
    }
    if (lines.size() > 2) {
        QString version = lines.at(2).trimmed();
        if (version.startsWith(QLatin1String("Version "))) {
            version = version.mid(8);
        }
        recording.ncuVersion = version.section(QLatin1Char(' '), 0, 0);
    }
    if (recording.gpu.isEmpty()) {
        recording.gpu = QStringLiteral("an unnamed GPU");
    }
    return recording;
}

const PerInstructionRecording& shippedPerInstructionRecording() {
    static const PerInstructionRecording recording = [] {
        QFile rows(QStringLiteral(":/measurements/per_instruction_h200.jsonl"));
        QFile environment(QStringLiteral(":/measurements/per_instruction_env.txt"));
        if (!rows.open(QIODevice::ReadOnly)) {
            PerInstructionRecording missing;
            missing.error = QStringLiteral("the app was built without its recorded "
                                           "per-instruction rows (%1)")
                                .arg(rows.fileName());
            return missing;
        }
        const QByteArray env =
            environment.open(QIODevice::ReadOnly) ? environment.readAll() : QByteArray();
        return perInstructionRecordingFromText(rows.readAll(), env);
    }();
    return recording;
}

QString perInstructionToolTip(const PerInstructionRecording& recording) {
    return QStringLiteral(
               "Recorded on an %1 (driver %2, %3), not measured on this machine.\n"
               "Predicted: the grid model's count of each access over the whole launch.\n"
               "Instruction: the access's own SASS instruction, from Nsight Compute %4's source "
               "counters (--section SourceCounters, --page source): L1 Wavefronts Shared and "
               "its Excessive part, L2 Theoretical Sectors Global, Instructions Executed.\n"
               "Hardware: the kernel-level l1tex__ counter of the same launch, which adds up "
               "every access of one space and operation, and counts shared wavefronts the "
               "instructions' addresses do not cause (docs/models.md).\n"
               "Recorded by scripts/gpu/per_instruction.sh.")
        .arg(recording.gpu,
             recording.driver.isEmpty() ? QStringLiteral("unknown") : recording.driver,
             recording.date.isEmpty() ? QStringLiteral("undated") : recording.date,
             recording.ncuVersion.isEmpty() ? QStringLiteral("(version unknown)")
                                            : recording.ncuVersion);
}

QString recordedPerInstructionLabel(const PerInstructionRecording& recording,
                                    const QString& connectedGpu) {
    const QString where =
        QStringLiteral("Recorded on %1 (driver %2, %3) for the preset as shipped, "
                       "with Nsight Compute's source counters")
            .arg(recording.gpu, recording.driver, recording.date);
    if (connectedGpu.isEmpty()) {
        return where + QStringLiteral("; not measured on this machine.");
    }
    if (connectedGpu == recording.gpu) {
        return where + QStringLiteral(", the same GPU as this machine's; not measured now (GPU ▸ "
                                      "Per-Instruction Counts, then run the kernel, measures "
                                      "them here).");
    }
    return where +
           QStringLiteral(", not on this machine's %1: its counts can differ. GPU ▸ "
                          "Per-Instruction Counts, then run the kernel, measures them here.")
               .arg(connectedGpu);
}

QString livePerInstructionLabel(const KernelMeasurement& measurement) {
    // A session's or a file's answer was measured, but not now.
    return (measurement.recorded
                ? QStringLiteral("Measured on %1 (driver %2, %3), read from a recorded answer, "
                                 "with CUPTI's SASS metrics: each access's own instruction beside "
                                 "the kernel's hardware counters.")
                : QStringLiteral("Measured now on %1 (driver %2, %3) with CUPTI's SASS metrics: "
                                 "each access's own instruction beside the kernel's hardware "
                                 "counters."))
        .arg(measurement.gpuName.isEmpty() ? QStringLiteral("an unnamed GPU") : measurement.gpuName,
             measurement.driverVersion.isEmpty() ? QStringLiteral("unknown")
                                                 : measurement.driverVersion,
             measurement.measuredAt.isValid()
                 ? measurement.measuredAt.toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                 : QStringLiteral("undated"));
}

QString livePerInstructionToolTip(const KernelMeasurement& measurement) {
    return QStringLiteral(
               "Measured on %1 by the probe, at this point of the kernel.\n"
               "Predicted: the grid model's count of each access over the whole launch.\n"
               "Instruction: the access's own SASS instruction over one more launch of the "
               "same kernel, counted by %2: smsp__sass_inst_executed (a global access's "
               "requests are its warp executions where it moved any sector), "
               "smsp__sass_sectors_mem_global, "
               "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared "
               "and its bank conflicts. Accesses are matched to instructions in program order "
               "by opcode kind.\n"
               "Hardware: the kernel-level l1tex__ counter of the counted launch, which adds up "
               "every access of one space and operation, and counts shared wavefronts the "
               "instructions' addresses do not cause (docs/models.md).")
        .arg(measurement.gpuName.isEmpty() ? QStringLiteral("an unnamed GPU") : measurement.gpuName,
             measurement.perInstructionSource().isEmpty() ? QStringLiteral("CUPTI's SASS metrics")
                                                          : measurement.perInstructionSource());
}

QString noPerInstructionRowsMessage(bool isKernel) {
    return isKernel ? QStringLiteral("No per-instruction measurement recorded for this kernel; "
                                     "scripts/gpu/per_instruction.sh records one.")
                    : QStringLiteral("No per-instruction measurement recorded for a single "
                                     "pattern: pick a whole kernel in the preset list (its "
                                     "\"Kernels\" headings) to see one.");
}

PerInstructionModel::PerInstructionModel(QObject* parent)
    : QAbstractTableModel(parent), m_recording(&shippedPerInstructionRecording()) {}

void PerInstructionModel::setRecording(const PerInstructionRecording* recording) {
    m_recording = recording;
    rebuild();
}

void PerInstructionModel::setKernel(const QString& kernel) {
    if (kernel == m_kernel) {
        return;
    }
    m_kernel = kernel;
    rebuild();
}

void PerInstructionModel::setLiveRows(std::vector<PerInstructionRow> rows, const QString& toolTip) {
    m_liveRows = std::move(rows);
    m_liveToolTip = toolTip;
    rebuild();
}

void PerInstructionModel::rebuild() {
    beginResetModel();
    m_lines.clear();
    const std::string id = m_kernel.toStdString();
    // Per count: the model's and instructions' sums, and each hardware counter once (accesses of
    // one space and operation share it).
    std::vector<AccessCount> order;
    std::map<AccessCount, AccessCountComparison> totals;
    std::map<AccessCount, bool> instructionMissing;
    std::map<AccessCount, bool> hardwareMissing;
    std::set<std::pair<int, QString>> countedCounters;
    const bool live = !m_liveRows.empty();
    for (const PerInstructionRow& row : live ? m_liveRows
                                        : m_recording != nullptr
                                            ? m_recording->rows
                                            : std::vector<PerInstructionRow>{}) {
        if (!live && row.kernel != id) {
            continue;
        }
        for (const AccessCountComparison& comparison : row.counts) {
            Line line;
            line.access = row.access;
            line.accessText =
                QStringLiteral("%1 %2").arg(row.access).arg(QString::fromStdString(row.label));
            line.hardwareMetric = hardwareMetric(row, comparison.count);
            line.comparison = comparison;
            m_lines.push_back(line);

            if (!totals.contains(comparison.count)) {
                order.push_back(comparison.count);
                AccessCountComparison total;
                total.count = comparison.count;
                total.instruction = 0;
                total.hardware = 0;
                total.accessesInHardware = 0;
                totals[comparison.count] = total;
            }
            AccessCountComparison& total = totals[comparison.count];
            total.predicted += comparison.predicted;
            total.accessesInHardware += 1;
            if (comparison.instruction) {
                *total.instruction += *comparison.instruction;
                total.instructionSumOfHardware += *comparison.instruction;
            } else {
                instructionMissing[comparison.count] = true;
            }
            if (!comparison.hardware) {
                hardwareMissing[comparison.count] = true;
            } else if (countedCounters
                           .insert({static_cast<int>(comparison.count), line.hardwareMetric})
                           .second) {
                *total.hardware += *comparison.hardware;
            }
        }
    }
    for (AccessCount count : order) {
        Line line;
        line.access = -1;
        line.accessText = QStringLiteral("Total");
        line.comparison = totals[count];
        if (instructionMissing[count]) {
            line.comparison.instruction.reset();
        }
        if (hardwareMissing[count]) {
            line.comparison.hardware.reset();
        }
        m_lines.push_back(line);
    }
    endResetModel();
}

QString PerInstructionModel::text(int row, int column) const {
    if (row < 0 || row >= static_cast<int>(m_lines.size())) {
        return {};
    }
    const Line& line = m_lines[static_cast<std::size_t>(row)];
    const AccessCountComparison& c = line.comparison;
    switch (column) {
    case AccessColumn:
        return line.accessText;
    case CountColumn:
        return countWord(c.count);
    case PredictedColumn:
        return grouped(c.predicted);
    case InstructionColumn:
        if (!c.instruction) {
            return QStringLiteral("—");
        }
        return c.modelEqualsInstruction() ? QStringLiteral("%1 ✓").arg(grouped(*c.instruction))
                                          : grouped(*c.instruction);
    case HardwareColumn:
        return c.hardware ? grouped(*c.hardware) : QStringLiteral("—");
    case DifferenceColumn:
        return QString::fromStdString(excessExplanation(c));
    default:
        return {};
    }
}

int PerInstructionModel::rowOf(int access, AccessCount count) const {
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        if (m_lines[i].access == access && m_lines[i].comparison.count == count) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int PerInstructionModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_lines.size());
}

int PerInstructionModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PerInstructionModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const Line& line = m_lines[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return text(index.row(), index.column());
    case Qt::TextAlignmentRole:
        if (index.column() >= PredictedColumn && index.column() <= HardwareColumn) {
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    case Qt::FontRole:
        if (line.access < 0) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == HardwareColumn && !line.hardwareMetric.isEmpty()) {
            return line.comparison.accessesInHardware > 1
                       ? QStringLiteral("%1, which adds up %2 accesses of this kernel")
                             .arg(line.hardwareMetric)
                             .arg(line.comparison.accessesInHardware)
                       : line.hardwareMetric;
        }
        if (isLive()) {
            return m_liveToolTip;
        }
        return m_recording != nullptr ? perInstructionToolTip(*m_recording) : QVariant();
    default:
        return {};
    }
}

QVariant PerInstructionModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case AccessColumn:
        return QStringLiteral("Access");
    case CountColumn:
        return QStringLiteral("Count");
    case PredictedColumn:
        return QStringLiteral("Predicted");
    case InstructionColumn:
        return QStringLiteral("Instruction");
    case HardwareColumn:
        return QStringLiteral("Hardware");
    case DifferenceColumn:
        return QStringLiteral("Hardware − instructions");
    default:
        return {};
    }
}

} // namespace warpscope::app
