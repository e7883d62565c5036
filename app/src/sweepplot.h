// SweepPlot, the "Sweep" tab: pick a parameter and a range, and see both models' sectors or
// transactions (left axis) and efficiency (right axis) against it — for shared memory, wavefronts,
// bank conflicts and the textbook conflict degree. Drawn with QCustomPlot when the build found it;
// without it the tab says so and shows the numbers as a table instead.
#pragma once

#include "sweepdata.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;
class QCustomPlot;
class QCPAxisRect;

namespace warpscope::app {

class PatternDocument;

class SweepPlot : public QWidget {
    Q_OBJECT
public:
    explicit SweepPlot(PatternDocument* document, QWidget* parent = nullptr);

    /// Whether this build draws plots (QCustomPlot found at configure time).
    static bool plotAvailable();

    const SweepData& data() const { return m_data; }
    QComboBox* parameterBox() const { return m_parameter; }
    QSpinBox* fromBox() const { return m_from; }
    QSpinBox* toBox() const { return m_to; }
    /// Number of graphs drawn (0 without QCustomPlot).
    int graphCount() const;

    /// Recompute the sweep and redraw.
    void refresh();

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void syncParameters();
    void replot();

    PatternDocument* m_document;
    QComboBox* m_parameter;
    QSpinBox* m_from;
    QSpinBox* m_to;
    QLabel* m_status;
    QCustomPlot* m_plot = nullptr;
    QCPAxisRect* m_countRect = nullptr;
    QCPAxisRect* m_efficiencyRect = nullptr;
    QTableWidget* m_table = nullptr;
    SweepData m_data;
    QStringList m_parameterNames;
    bool m_syncing = false;
    /// Set when the pattern changed while the tab was hidden: refreshed when it is shown.
    bool m_stale = false;
};

} // namespace warpscope::app
