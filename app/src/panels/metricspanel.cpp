// MetricsPanel: two tables; the list is refilled from modernMetrics() and textbookMetrics().
#include "panels/metricspanel.h"

#include "document/kernelprediction.h"
#include "document/patterndocument.h"
#include "gpu/kernelmeasurement.h"
#include "gpu/probemeasurement.h"
#include "panels/kernelmetrics.h"
#include "panels/metricstablemodel.h"
#include "views/theme.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace warpscope::app {

MetricsPanel::MetricsPanel(PatternDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_model(new MetricsTableModel(document, this)),
      m_stale(new QLabel(this)), m_measurement(new QLabel(this)), m_summary(new QTableView(this)),
      m_list(new QTableWidget(this)) {
    setObjectName(QStringLiteral("metricsPanel"));
    auto* layout = new QVBoxLayout(this);
    m_stale->setWordWrap(true);
    m_stale->setText(tr("⚠ The pattern has an error: these are the last valid pattern's numbers."));
    m_stale->hide();
    m_measurement->setObjectName(QStringLiteral("measurementLabel"));
    m_measurement->setWordWrap(true);
    m_measurement->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setObjectName(QStringLiteral("metricsSummary"));
    m_summary->setModel(m_model);
    m_summary->verticalHeader()->hide();
    // Fitted when the model has refreshed (fitSummaryColumns()), not ResizeToContents, which
    // re-measures every cell after each changed one: a drag changes several numbers per frame.
    // Every column as wide as its text, the last one too (a stretched column shrinks with the
    // dock and cuts its text off with no scroll bar to say so); a narrow dock scrolls.
    m_summary->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_summary->horizontalHeader()->setStretchLastSection(false);
    connect(m_model, &MetricsTableModel::refreshed, this, &MetricsPanel::fitSummaryColumns);
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
    // Fitted once per refresh (refreshList()), not ResizeToContents, which re-measures the
    // column on every item change; the names too, whole (a narrow dock scrolls rather than
    // eliding "l1tex__t_re…").
    m_list->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_list->horizontalHeader()->setStretchLastSection(false);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setAlternatingRowColors(true);
    m_list->setWordWrap(false);

    layout->addWidget(m_stale);
    layout->addWidget(m_measurement);
    layout->addWidget(m_summary, 3);
    layout->addWidget(listTitle);
    layout->addWidget(m_list, 2);
    m_kernel = new KernelMetricsSection(this);
    layout->addWidget(m_kernel, 2);

    connect(m_document, &PatternDocument::evaluationChanged, this, &MetricsPanel::refreshList);
    connect(m_document, &PatternDocument::errorChanged, this,
            [this] { m_stale->setVisible(m_document->error().has_value()); });
    m_stale->setVisible(m_document->error().has_value());
    connect(m_document, &PatternDocument::evaluationChanged, this,
            &MetricsPanel::refreshMeasurement);
    // Another entry, kernel or preset: the section follows it (a measurement chosen for another
    // kernel is not shown against this one).
    connect(m_document, &PatternDocument::patternChanged, this,
            &MetricsPanel::followKernelMeasurement);
    connect(KernelPrediction::of(m_document), &KernelPrediction::changed, this, [this] {
        if (m_kernelShown == KernelShown::Prediction || m_kernelShown == KernelShown::Nothing) {
            showKernelPrediction();
        }
    });
    refreshList();
    refreshMeasurement();
    fitSummaryColumns();
}

void MetricsPanel::fitSummaryColumns() {
    // What ResizeToContents computes (the header's and the cells' size hints), once per change.
    QHeaderView* header = m_summary->horizontalHeader();
    for (int column = 0; column < MetricsTableModel::ColumnCount; ++column) {
        m_summary->resizeColumnToContents(column); // larger of the cells' and header's hints
        const int width = std::clamp(header->sectionSize(column), header->minimumSectionSize(),
                                     header->maximumSectionSize());
        if (width != header->sectionSize(column)) {
            header->resizeSection(column, width);
        }
    }
}

void MetricsPanel::setMeasurementStore(MeasurementStore* store) {
    m_store = store;
    m_model->setMeasurementStore(store);
    connect(store, &MeasurementStore::changed, this, [this] {
        refreshList();
        refreshMeasurement();
    });
    refreshList();
    refreshMeasurement();
}

void MetricsPanel::setKernelMeasurementStore(KernelMeasurementStore* store) {
    m_model->setKernelMeasurementStore(store); // first: the label reads the model's rows
    m_kernelStore = store;
    connect(store, &KernelMeasurementStore::changed, this, [this] {
        m_kernelFollowed = nullptr;           // a point measured again keeps its place in the store
        m_kernelShown = KernelShown::Nothing; // the chosen point's records are looked up again
        refreshList();
        refreshMeasurement();
    });
    refreshList();
    refreshMeasurement();
}

void MetricsPanel::followKernelMeasurement() {
    const KernelMeasurement* shown = m_model->kernelMeasurement();
    if (shown != nullptr) {
        // The open access's own kernel measurement at the current point.
        if (shown != m_kernelFollowed || m_kernelShown != KernelShown::Followed) {
            m_kernel->setMeasurement(QString::fromStdString(m_document->current().title), shown);
        }
        m_kernelFollowed = shown;
        m_kernelShown = KernelShown::Followed;
        return;
    }
    m_kernelFollowed = nullptr;
    if (m_kernelStore != nullptr && !m_chosenPresetId.isEmpty() &&
        m_chosenOwners.contains(m_document->presetId())) {
        if (m_kernelShown != KernelShown::Chosen) {
            const auto chosen = m_kernelStore->findAll(m_chosenPresetId, m_chosenPoint);
            if (!chosen.empty()) {
                m_kernel->setMeasurements(m_chosenTitle, chosen);
                m_kernelShown = KernelShown::Chosen;
                return;
            }
        } else {
            return;
        }
    }
    if (m_kernelShown != KernelShown::Prediction) {
        showKernelPrediction();
    }
}

void MetricsPanel::showKernelMeasurements(const QStringList& owners, const QString& title,
                                          const QString& presetId, const KernelPoint& point) {
    m_chosenOwners = owners;
    m_chosenTitle = title;
    m_chosenPresetId = presetId;
    m_chosenPoint = point;
    m_kernelShown = KernelShown::Nothing; // shown again, whichever it is
    followKernelMeasurement();
}

void MetricsPanel::showKernelPrediction() {
    const KernelPrediction* prediction = KernelPrediction::of(m_document);
    const auto& result = prediction->result();
    QString title = QString::fromStdString(m_document->current().title);
    if (title.isEmpty() && result) {
        title = QString::fromStdString(result->kernel.name);
    }
    if (title.isEmpty()) {
        title = tr("untitled");
    }
    // While a walk is under way, the last one's numbers stay up (a slider drag does not blink)
    // only when they are of the same kernel being edited; another kernel's are never shown.
    const KernelPredictionResult* shown = result ? &*result : nullptr;
    if (shown != nullptr && prediction->isBusy()) {
        const auto& open = m_document->kernel();
        const auto& pattern = m_document->pattern();
        const bool sameKernel = open ? open->name == shown->kernel.name &&
                                           open->accesses.size() == shown->kernel.accesses.size()
                                     : shown->kernel.accesses.size() == 1 && pattern.source &&
                                           shown->kernel.accesses.front().kind == pattern.kind &&
                                           shown->kernel.accesses.front().addressExpression ==
                                               pattern.source->addressExpression;
        if (!sameKernel) {
            shown = nullptr;
        }
    }
    m_kernel->setPrediction(title, shown, prediction->isBusy());
    m_kernelShown = KernelShown::Prediction;
}

void MetricsPanel::setGpuText(const QString& text) {
    m_gpuText = text;
    refreshMeasurement();
}

void MetricsPanel::refreshMeasurement() {
    const auto& evaluation = m_document->evaluation();
    const ProbeMeasurement* m =
        m_store != nullptr && evaluation ? m_store->find(evaluation->pattern) : nullptr;
    QStringList lines;
    if (!m_gpuText.isEmpty()) {
        lines << m_gpuText.toHtmlEscaped();
    }
    const KernelMeasurement* kernel = m == nullptr ? m_model->kernelMeasurement() : nullptr;
    if (kernel != nullptr) {
        const QString gpu = kernel->gpuName.isEmpty() ? tr("a GPU") : kernel->gpuName;
        QString origin = (kernel->recorded ? tr("<b>Recorded</b> as a whole kernel on %1")
                                           : tr("<b>Measured</b> as a whole kernel on %1"))
                             .arg(gpu.toHtmlEscaped());
        if (!kernel->driverVersion.isEmpty()) {
            origin += tr(" · driver %1").arg(kernel->driverVersion.toHtmlEscaped());
        }
        if (kernel->measuredAt.isValid()) {
            origin += QStringLiteral(" · ") +
                      kernel->measuredAt.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
        }
        lines
            << origin +
                   QStringLiteral(" (%1)").arg(kernelPointText(kernel->parameters)).toHtmlEscaped();
        const int differ = m_model->mismatchCount();
        if (!kernel->countersMeasured) {
            lines << tr("Counters not measured: %1")
                         .arg(QString::fromStdString(kernel->countersUnavailableReason)
                                  .toHtmlEscaped());
        } else if (differ > 0) {
            lines << QStringLiteral("<span style=\"color:%1\"><b>⚠ %2</b></span>")
                         .arg(ViewColors::fromPalette(palette()).warning.name(),
                              tr("%n whole-kernel counter(s) differ from the grid model", nullptr,
                                 differ));
        } else {
            lines << tr("✓ The GPU's whole-kernel counters agree with the grid model (the "
                        "Kernel rows).");
        }
    } else if (m == nullptr && evaluation &&
               MetricsTableModel::measuredAsKernel(evaluation->access.kind)) {
        lines << tr("The probe measures this access as a whole kernel: Run Sweep on GPU "
                    "(Shift+F5) on the Sweep tab; none is recorded at this point yet.");
    }
    if (m != nullptr) {
        const QString origin =
            m->recorded ? tr("<b>Recorded</b> on %1 (read from the session; no GPU needed to show "
                             "it)")
                              .arg(m->provenance().toHtmlEscaped())
                        : tr("<b>Measured</b> on %1").arg(m->provenance().toHtmlEscaped());
        lines << origin;
        const int differ = m_model->mismatchCount();
        if (!m->countersMeasured) {
            lines << tr("Counters not measured: %1")
                         .arg(m->countersUnavailableReason.toHtmlEscaped());
        } else if (differ > 0) {
            lines << QStringLiteral("<span style=\"color:%1\"><b>⚠ %2</b></span>")
                         .arg(ViewColors::fromPalette(palette()).warning.name(),
                              tr("%n measured value(s) differ from the modern model", nullptr,
                                 differ));
        } else {
            lines << tr("✓ The GPU's counters agree with the modern model.");
        }
    }
    m_measurement->setText(lines.join(QStringLiteral("<br>")));
    m_measurement->setVisible(!lines.isEmpty());
    followKernelMeasurement();
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
    const ProbeMeasurement* measurement =
        m_store != nullptr ? m_store->find(evaluation->pattern) : nullptr;
    const QColor muted = palette().color(QPalette::Disabled, QPalette::Text);
    const QColor warning = ViewColors::fromPalette(palette()).warning;
    // Measured as a whole kernel: these per-warp metrics have no measured value of their own,
    // the kernel's counters are in the table's Kernel rows and the kernel section.
    const bool kernelMeasured = measurement == nullptr && m_model->kernelMeasurement() != nullptr;
    auto setMeasured = [&](QTableWidgetItem* item, const Metric& metric) {
        std::optional<double> value;
        if (measurement != nullptr) {
            value = measurement->counter(metric.name);
        }
        QFont font = item->font();
        item->setToolTip(kernelMeasured ? tr("Measured as a whole kernel: see the Kernel rows "
                                             "above and the kernel section below")
                                        : QString());
        if (!value) {
            item->setText(measurement != nullptr || kernelMeasured
                              ? QStringLiteral("—")
                              : MetricsTableModel::noMeasurementText());
            item->setForeground(muted);
            font.setItalic(measurement == nullptr && !kernelMeasured);
            font.setBold(false);
        } else {
            const bool same = *value == metric.value;
            item->setText(QString::number(*value, 'g', 6) +
                          (same ? QStringLiteral(" ✓") : QStringLiteral(" ≠")));
            item->setForeground(same ? palette().color(QPalette::Text) : warning);
            font.setItalic(false);
            font.setBold(!same);
        }
        item->setFont(font);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    };
    if (sameNames) {
        for (std::size_t i = 0; i < metrics.size(); ++i) {
            QTableWidgetItem* value = m_list->item(static_cast<int>(i), 1);
            const QString text = QString::number(metrics[i].value, 'g', 6);
            if (value != nullptr && value->text() != text) {
                value->setText(text);
            }
            if (QTableWidgetItem* measured = m_list->item(static_cast<int>(i), 2)) {
                setMeasured(measured, metrics[i]);
            }
        }
        m_list->resizeColumnToContents(1);
        m_list->resizeColumnToContents(2);
        return;
    }
    m_list->setRowCount(0);
    m_list->setRowCount(static_cast<int>(metrics.size()));
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const int row = static_cast<int>(i);
        auto* name = new QTableWidgetItem(QString::fromStdString(metrics[i].name));
        name->setToolTip(name->text());
        auto* value = new QTableWidgetItem(QString::number(metrics[i].value, 'g', 6));
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* measured = new QTableWidgetItem();
        setMeasured(measured, metrics[i]);
        m_list->setItem(row, 0, name);
        m_list->setItem(row, 1, value);
        m_list->setItem(row, 2, measured);
    }
    m_list->resizeColumnToContents(0);
    m_list->resizeColumnToContents(1);
    m_list->resizeColumnToContents(2);
}

int MetricsPanel::preferredWidth() const {
    auto tableWidth = [](const QTableView* table) {
        int width = 2 * table->frameWidth() + table->verticalScrollBar()->sizeHint().width();
        const QHeaderView* header = table->horizontalHeader();
        for (int column = 0; column < header->count(); ++column) {
            if (!header->isSectionHidden(column)) {
                width += std::max(
                    header->sectionSize(column),
                    std::max(
                        static_cast<const QAbstractItemView*>(table)->sizeHintForColumn(column),
                        header->sectionSizeHint(column)));
            }
        }
        return width;
    };
    const QMargins margins = layout()->contentsMargins();
    return std::max(tableWidth(m_summary), tableWidth(m_list)) + margins.left() + margins.right();
}

} // namespace warpscope::app
