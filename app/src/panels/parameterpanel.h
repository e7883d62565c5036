// ParameterPanel: one slider and one spin box per declared parameter of the pattern, generated
// from the parameters' names and ranges. Rebuilt only when the declarations change, so dragging a
// slider never recreates the widget under the mouse. While a slider is dragged, its moves are
// merged: the newest value is edited once the event loop has delivered the moves already queued,
// so one model evaluation and one repaint serve each displayed frame and nothing queues behind the
// hand.
#pragma once

#include <warpscope/pattern.h>

#include <QWidget>

#include <vector>

class QGridLayout;
class QLabel;
class QSlider;
class QSpinBox;

namespace warpscope::app {

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(QWidget* parent = nullptr);

    /// Show these parameters; keeps the widgets when only the values differ.
    void setParameters(const std::vector<Parameter>& parameters);
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    QSlider* slider(int index) const;
    QSpinBox* spinBox(int index) const;

signals:
    /// The user moved parameter `index` to `value`.
    void valueEdited(int index, std::int64_t value);

private:
    struct Row {
        QLabel* name = nullptr;
        QSlider* slider = nullptr;
        QSpinBox* spin = nullptr;
        QLabel* range = nullptr;
    };
    void rebuild(const std::vector<Parameter>& parameters);
    /// A dragged slider's newest value: edited by the next applyPendingDrag() (posted once).
    void queueDragValue(int index, int value);
    void applyPendingDrag();

    QGridLayout* m_grid;
    QLabel* m_empty;
    std::vector<Row> m_rows;
    std::vector<Parameter> m_declared; // names and ranges the widgets were built for
    bool m_updating = false;
    int m_pendingIndex = -1; // the dragged slider whose newest value is not edited yet
    int m_pendingValue = 0;
    bool m_applyPosted = false;
};

} // namespace warpscope::app
