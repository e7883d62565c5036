// MetricsPanel, the contents of the "Metrics" dock: the side-by-side summary of both models and
// the full list of predicted metrics under Nsight Compute's names (so a user can check warpscope
// against ncu directly), each with its measured value or the lack of one.
#pragma once

#include <QWidget>

class QLabel;
class QTableView;
class QTableWidget;

namespace warpscope::app {

class MetricsTableModel;
class PatternDocument;

class MetricsPanel : public QWidget {
    Q_OBJECT
public:
    explicit MetricsPanel(PatternDocument* document, QWidget* parent = nullptr);

    MetricsTableModel* summaryModel() const { return m_model; }
    QTableWidget* metricList() const { return m_list; }

private:
    void refreshList();

    PatternDocument* m_document;
    MetricsTableModel* m_model;
    QLabel* m_stale;
    QTableView* m_summary;
    QTableWidget* m_list;
};

} // namespace warpscope::app
