// PerInstructionPanel: the metrics dock's collapsible "Per instruction" section. For the current
// kernel preset, per access and in total (PerInstructionModel): predicted, the instruction's own,
// the hardware's and their difference named. The counts the probe measured now (a kernel run with
// GPU > Per-Instruction Counts, in the KernelMeasurementStore at the current point) come first,
// labelled "measured now on <GPU>"; else the rows recorded on an H200 ship with the app and are
// labelled as recorded there, saying so when the connected GPU is another. For a kernel without
// rows, or a plain pattern, one line saying so.
#pragma once

#include <QWidget>

class QLabel;
class QTableView;
class QToolButton;

namespace warpscope::app {

class KernelMeasurementStore;
struct KernelMeasurement;
class PatternDocument;
class PerInstructionModel;
struct PerInstructionRecording;

class PerInstructionPanel : public QWidget {
    Q_OBJECT
public:
    explicit PerInstructionPanel(PatternDocument* document, QWidget* parent = nullptr);

    /// Use `recording` instead of the rows shipped with the app (tests).
    void setRecording(const PerInstructionRecording* recording);
    /// Where kernel measurements are recorded: one of the current preset at the current point
    /// that carries per-instruction counts is shown instead of the recording.
    void setKernelMeasurementStore(const KernelMeasurementStore* store);
    /// The GPU the probe measures on ("NVIDIA H200"; empty: none known yet), to say whether
    /// the recorded rows come from the same kind of GPU.
    void setConnectedGpu(const QString& name);

    PerInstructionModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    /// "Recorded on NVIDIA H200 …", or why there is nothing to show.
    QLabel* sourceLabel() const { return m_source; }
    QToolButton* toggle() const { return m_toggle; }
    /// Whether the section is open (its label and table shown).
    bool isExpanded() const;
    void setExpanded(bool expanded);

private:
    void refresh();
    /// The store's measurement of the current kernel preset at the current point, if any.
    const KernelMeasurement* currentMeasurement() const;

    PatternDocument* m_document;
    const PerInstructionRecording* m_recording;
    const KernelMeasurementStore* m_store = nullptr;
    QString m_connectedGpu;
    PerInstructionModel* m_model;
    QToolButton* m_toggle;
    QLabel* m_source;
    QTableView* m_table;
};

} // namespace warpscope::app
