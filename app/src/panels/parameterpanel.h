// ParameterPanel: one slider and one spin box per declared parameter of the pattern, generated
// from the parameters' names and ranges. Rebuilt only when the declarations change, so dragging a
// slider never recreates the widget under the mouse.
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

    QGridLayout* m_grid;
    QLabel* m_empty;
    std::vector<Row> m_rows;
    std::vector<Parameter> m_declared; // names and ranges the widgets were built for
    bool m_updating = false;
};

} // namespace warpscope::app
