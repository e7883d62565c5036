// PerInstructionPanel: the metrics dock's collapsible "Per instruction" section. For the current
// kernel preset, the counts recorded on a GPU per access and in total (PerInstructionModel):
// predicted, the instruction's own, the hardware's and their difference named, labelled with the
// GPU they were recorded on and, in a tooltip, how they were measured. For a kernel without
// recorded rows, or a plain pattern, one line saying so.
#pragma once

#include <QWidget>

class QLabel;
class QTableView;
class QToolButton;

namespace warpscope::app {

class PatternDocument;
class PerInstructionModel;
struct PerInstructionRecording;

class PerInstructionPanel : public QWidget {
    Q_OBJECT
public:
    explicit PerInstructionPanel(PatternDocument* document, QWidget* parent = nullptr);

    /// Use `recording` instead of the rows shipped with the app (tests).
    void setRecording(const PerInstructionRecording* recording);

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

    PatternDocument* m_document;
    const PerInstructionRecording* m_recording;
    PerInstructionModel* m_model;
    QToolButton* m_toggle;
    QLabel* m_source;
    QTableView* m_table;
};

} // namespace warpscope::app
