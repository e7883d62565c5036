// MetricsPanel: two tables; the list is refilled from modernMetrics() and textbookMetrics().
#include "metricspanel.h"

#include "metricstablemodel.h"
#include "patterndocument.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace warpscope::app {

MetricsPanel::MetricsPanel(PatternDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_model(new MetricsTableModel(document, this)),
      m_stale(new QLabel(this)), m_summary(new QTableView(this)), m_list(new QTableWidget(this)) {
    setObjectName(QStringLiteral("metricsPanel"));
    auto* layout = new QVBoxLayout(this);
    m_stale->setWordWrap(true);
    m_stale->setText(tr("⚠ The pattern has an error: these are the last valid pattern's numbers."));
    m_stale->hide();
    m_summary->setObjectName(QStringLiteral("metricsSummary"));
    m_summary->setModel(m_model);
    m_summary->verticalHeader()->hide();
    m_summary->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_summary->horizontalHeader()->setSectionResizeMode(MetricsTableModel::MeasuredColumn,
                                                        QHeaderView::Stretch);
    m_summary->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_summary->setAlternatingRowColors(true);
    m_summary->setWordWrap(false);

    auto* listTitle = new QLabel(tr("Predicted metrics (Nsight Compute names; textbook__ names are "
                                    "warpscope's own, see docs/metrics.md)"),
                                 this);
    listTitle->setWordWrap(true);
    m_list->setObjectName(QStringLiteral("metricsList"));
    m_list->setColumnCount(3);
    m_list->setHorizontalHeaderLabels({tr("Metric"), tr("Predicted"), tr("Measured")});
    m_list->verticalHeader()->hide();
    m_list->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    // Fitted once per refresh (refreshList()), not ResizeToContents, which re-measures the
    // column on every item change.
    m_list->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Interactive);
    m_list->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Interactive);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setAlternatingRowColors(true);
    m_list->setWordWrap(false);

    layout->addWidget(m_stale);
    layout->addWidget(m_summary, 3);
    layout->addWidget(listTitle);
    layout->addWidget(m_list, 2);

    connect(m_document, &PatternDocument::evaluationChanged, this, &MetricsPanel::refreshList);
    connect(m_document, &PatternDocument::errorChanged, this,
            [this] { m_stale->setVisible(m_document->error().has_value()); });
    m_stale->setVisible(m_document->error().has_value());
    refreshList();
}

void MetricsPanel::refreshList() {
    const auto& evaluation = m_document->evaluation();
    if (!evaluation) {
        m_list->setRowCount(0);
        return;
    }
    std::vector<Metric> metrics = modernMetrics(evaluation->modern);
    for (Metric& metric : textbookMetrics(evaluation->textbook)) {
        metrics.push_back(std::move(metric));
    }
    // The same metrics as before (an edit of the same kind of access): change only the values
    // that changed instead of rebuilding every item.
    bool sameNames = m_list->rowCount() == static_cast<int>(metrics.size());
    for (std::size_t i = 0; sameNames && i < metrics.size(); ++i) {
        const QTableWidgetItem* name = m_list->item(static_cast<int>(i), 0);
        sameNames = name != nullptr && name->text() == QString::fromStdString(metrics[i].name);
    }
    if (sameNames) {
        for (std::size_t i = 0; i < metrics.size(); ++i) {
            QTableWidgetItem* value = m_list->item(static_cast<int>(i), 1);
            const QString text = QString::number(metrics[i].value, 'g', 6);
            if (value != nullptr && value->text() != text) {
                value->setText(text);
            }
        }
        m_list->resizeColumnToContents(1);
        return;
    }
    m_list->setRowCount(0);
    m_list->setRowCount(static_cast<int>(metrics.size()));
    const QColor muted = palette().color(QPalette::Disabled, QPalette::Text);
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const int row = static_cast<int>(i);
        auto* name = new QTableWidgetItem(QString::fromStdString(metrics[i].name));
        name->setToolTip(name->text());
        auto* value = new QTableWidgetItem(QString::number(metrics[i].value, 'g', 6));
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* measured = new QTableWidgetItem(MetricsTableModel::noMeasurementText());
        measured->setForeground(muted);
        QFont italic = measured->font();
        italic.setItalic(true);
        measured->setFont(italic);
        m_list->setItem(row, 0, name);
        m_list->setItem(row, 1, value);
        m_list->setItem(row, 2, measured);
    }
    m_list->resizeColumnToContents(1);
    m_list->resizeColumnToContents(2);
}

} // namespace warpscope::app
