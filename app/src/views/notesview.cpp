// NotesView: the notes' numbers beside this GPU's, as bars and a table. The table is filled here,
// the chart in notesview_chart.cpp.
#include "views/notesview.h"

#include "views/chartfigure.h"
#include "views/picturechart.h"

#include "gpu/kernelmeasurement.h"
#include "views/theme.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

namespace warpscope::app {

namespace {

QString cell(const std::optional<double>& value, int decimals) {
    if (!value) {
        return QStringLiteral("–");
    }
    return QLocale::c().toString(*value, 'f', decimals);
}

int decimalsFor(NotesQuantity quantity) {
    return quantity == NotesQuantity::Time ? 4 : (quantity == NotesQuantity::Bandwidth ? 1 : 2);
}

} // namespace

NotesView::NotesView(KernelMeasurementStore* store, QWidget* parent)
    : QWidget(parent), m_store(store) {
    setObjectName(QStringLiteral("notesView"));
    auto* layout = new QVBoxLayout(this);
    auto* controls = new QHBoxLayout;
    m_picker = new QComboBox(this);
    m_picker->setObjectName(QStringLiteral("notesExperimentPicker"));
    for (const NotesExperiment& experiment : notesExperiments()) {
        m_picker->addItem(experiment.title, QString::fromStdString(experiment.id));
    }
    m_run = new QPushButton(tr("Run on GPU (F5)"), this);
    m_run->setObjectName(QStringLiteral("notesRunButton"));
    m_run->setToolTip(tr("Measure every row of this table with the probe (measure_kernel, cold, "
                         "at the notes' sizes)"));
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setVisible(false);
    m_progress->setMaximumWidth(200);
    auto* tableLabel = new QLabel(tr("Table:"), this);
    tableLabel->setObjectName(QStringLiteral("notesTableLabel"));
    controls->addWidget(tableLabel);
    controls->addWidget(m_picker, 1);
    controls->addWidget(m_run);
    controls->addWidget(m_progress);
    layout->addLayout(controls);

    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    m_finding = new QLabel(this);
    m_finding->setObjectName(QStringLiteral("notesFinding"));
    m_finding->setWordWrap(true);
    m_finding->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("notesStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_title);
    layout->addWidget(m_finding);
    layout->addWidget(m_status);

    auto* splitter = new QSplitter(Qt::Vertical, this);
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    m_plot = new PictureChart(splitter);
    m_plot->setObjectName(QStringLiteral("notesChart"));
    m_plot->setMinimumHeight(220);
    splitter->addWidget(m_plot);
#else
    splitter->addWidget(new QLabel(tr("The bar chart is unavailable: this build did not find "
                                      "QCustomPlot. The table below has every number."),
                                   splitter));
#endif
    m_table = new QTableWidget(splitter);
    m_table->setObjectName(QStringLiteral("notesTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);

    connect(m_run, &QPushButton::clicked, this, &NotesView::runRequested);
    connect(m_picker, &QComboBox::currentIndexChanged, this, [this](int index) {
        const QString id = m_picker->itemData(index).toString();
        if (id.toStdString() != m_experimentId) {
            setExperiment(id.toStdString());
            emit experimentChosen(id);
        }
    });
    connect(m_store, &KernelMeasurementStore::changed, this, &NotesView::refresh);
    connect(m_table, &QTableWidget::currentCellChanged, this,
            [this](int row) { emit rowSelected(row); });
    if (!notesExperiments().empty()) {
        setExperiment(notesExperiments().front().id);
    }
}

bool NotesView::setExperiment(const std::string& id) {
    if (findNotesExperiment(id) == nullptr) {
        return false;
    }
    m_experimentId = id;
    const int index = m_picker->findData(QString::fromStdString(id));
    if (index >= 0 && index != m_picker->currentIndex()) {
        const QSignalBlocker blocker(m_picker);
        m_picker->setCurrentIndex(index);
    }
    refresh();
    return true;
}

void NotesView::setGpuStatus(const QString& text) {
    m_gpuStatus = text;
    refresh();
}

void NotesView::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_progress->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0);
    }
}

void NotesView::setProgress(int done, int total) {
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
}

void NotesView::refresh() {
    const NotesExperiment* experiment = findNotesExperiment(m_experimentId);
    if (experiment == nullptr) {
        return;
    }
    m_comparison = compareWithNotes(*experiment, *m_store);
    m_title->setText(QStringLiteral("%1 — %2").arg(experiment->title, experiment->source));
    m_finding->setText(m_comparison.finding);
    QStringList status;
    status << (m_comparison.notesRows > 0 ? tr("The notes' GPU: %1.").arg(m_comparison.notesGpu)
                                          : tr("The notes publish no number for this kernel."));
    if (m_comparison.measuredRows > 0) {
        const bool recorded =
            std::any_of(m_comparison.rows.begin(), m_comparison.rows.end(),
                        [](const NotesComparisonRow& row) { return row.recorded; });
        const QString gpus = !m_comparison.gpuColumns.isEmpty()
                                 ? m_comparison.gpuColumns.join(QStringLiteral(", "))
                             : m_comparison.measuredGpu.isEmpty() ? tr("unnamed GPU")
                                                                  : m_comparison.measuredGpu;
        // Recorded rows name the GPU they were recorded on, never "This GPU".
        status << (!m_comparison.gpuColumns.isEmpty() ? tr("GPUs: %1 (%2 of %3 rows%4).")
                   : recorded                         ? tr("Recorded on %1 (%2 of %3 rows%4).")
                                                      : tr("This GPU: %1 (%2 of %3 rows%4)."))
                      .arg(gpus)
                      .arg(m_comparison.measuredRows)
                      .arg(m_comparison.rows.size())
                      .arg(recorded && m_comparison.gpuColumns.isEmpty() ? QString()
                           : recorded                                    ? tr(", recorded earlier")
                                                                         : QString());
    } else {
        status << (m_gpuStatus.isEmpty() ? tr("This GPU: not measured yet; press Run (F5).")
                                         : m_gpuStatus);
    }
    m_status->setText(status.join(QLatin1Char(' ')));
    fillTable();
    fillChart();
}

void NotesView::fillTable() {
    const NotesExperiment* experiment = m_comparison.experiment;
    const QString unit = quantityUnit(experiment->quantity);
    const QStringList& gpus = m_comparison.gpuColumns;
    QStringList headers = {experiment->axisLabel, tr("notes (%1)").arg(unit)};
    if (gpus.isEmpty()) {
        headers << tr("this GPU (%1)").arg(unit) << tr("this GPU / notes") << tr("time (ms)")
                << tr("GB/s") << tr("% of copy");
    } else {
        // One column per GPU, named by it, for each number: the GPUs side by side.
        for (const QString& what : {QStringLiteral("(%1)").arg(unit), tr("/ notes"),
                                    tr("time (ms)"), tr("GB/s"), tr("% of copy")}) {
            for (const QString& gpu : gpus) {
                headers << QStringLiteral("%1\n%2").arg(gpu, what);
            }
        }
    }
    m_table->clear();
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(m_comparison.rows.size()));
    const int decimals = decimalsFor(experiment->quantity);
    const auto ratioText = [](const std::optional<double>& notes,
                              const std::optional<double>& measured) {
        if (notes && measured && *notes != 0) {
            return QStringLiteral("%1×").arg(cell(*measured / *notes, 2));
        }
        return QStringLiteral("–");
    };
    for (int r = 0; r < static_cast<int>(m_comparison.rows.size()); ++r) {
        const NotesComparisonRow& row = m_comparison.rows[static_cast<std::size_t>(r)];
        QStringList texts = {row.label, cell(row.notes, decimals)};
        if (gpus.isEmpty()) {
            texts << cell(row.measured, decimals) << ratioText(row.notes, row.measured)
                  << cell(row.kernelMs, 4) << cell(row.bandwidthGBs, 1)
                  << cell(row.shareOfCopyPct, 1);
        } else {
            // Each number for every GPU in turn, as the headers are.
            const std::vector<NotesGpuValues>& perGpu =
                m_comparison.perGpu[static_cast<std::size_t>(r)];
            for (int what = 0; what < 5; ++what) {
                for (const NotesGpuValues& gpu : perGpu) {
                    switch (what) {
                    case 0:
                        texts << cell(gpu.measured, decimals);
                        break;
                    case 1:
                        texts << ratioText(row.notes, gpu.measured);
                        break;
                    case 2:
                        texts << cell(gpu.kernelMs, 4);
                        break;
                    case 3:
                        texts << cell(gpu.bandwidthGBs, 1);
                        break;
                    default:
                        texts << cell(gpu.shareOfCopyPct, 1);
                        break;
                    }
                }
            }
        }
        for (int c = 0; c < static_cast<int>(texts.size()); ++c) {
            auto* item = new QTableWidgetItem(texts[c]);
            if (c > 0) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    emit rowSelected(m_table->currentRow());
}

void NotesView::setPresentation(bool presentation) {
    for (QWidget* control : {static_cast<QWidget*>(m_picker), static_cast<QWidget*>(m_run),
                             static_cast<QWidget*>(m_table)}) {
        control->setVisible(!presentation);
    }
    if (auto* label = findChild<QLabel*>(QStringLiteral("notesTableLabel"))) {
        label->setVisible(!presentation);
    }
    if (presentation) {
        m_progress->setVisible(false);
    }
}

void NotesView::setRevealedSeries(int count) {
    if (count == m_revealedSeries) {
        return;
    }
    m_revealedSeries = count;
    // The finding compares the two series: it waits for this GPU's bars.
    m_finding->setVisible(count < 0 || count >= 2);
    fillChart();
}

void NotesView::render(QPainter& painter, QSize size) {
    renderFigure(painter, size, false);
}

void NotesView::renderFigure(QPainter& painter, QSize size, bool vectorChart) {
    const ViewColors colors = ViewColors::fromPalette(palette());
    painter.fillRect(QRect(QPoint(0, 0), size), colors.background);
    painter.setPen(colors.text);
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    const int margin = 12;
    QRect text(margin, margin, size.width() - 2 * margin, size.height());
    QRect used;
    painter.drawText(text, Qt::TextWordWrap, m_title->text(), &used);
    text.setTop(used.bottom() + 4);
    font.setBold(false);
    painter.setFont(font);
    painter.drawText(text, Qt::TextWordWrap,
                     m_finding->text() + QLatin1Char('\n') + m_status->text(), &used);
    const int top = used.bottom() + 8;
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    // SVG and PDF keep the bars as vectors: exportFigure paints through a QCPPainter.
    drawChartInFigure(painter, m_plot, top, size.width(), std::max(100, size.height() - top),
                      vectorChart);
#else
    Q_UNUSED(vectorChart);
    painter.drawText(QRect(margin, top, size.width() - 2 * margin, size.height() - top),
                     Qt::TextWordWrap, tr("(the chart needs QCustomPlot)"));
#endif
}

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
constexpr bool kNotesVectorChart = true;
#else
constexpr bool kNotesVectorChart = false;
#endif

bool NotesView::exportFigure(const QString& path, QSize size, QString* error) {
    return writeChartFigure(
        path, size, m_title->text(), [this](QPainter& painter, QSize at) { render(painter, at); },
        [this](QPainter& painter, QSize at) { renderFigure(painter, at, kNotesVectorChart); },
        error);
}

void NotesView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        fillChart();
    } else if (event->type() == QEvent::FontChange && testAttribute(Qt::WA_SetFont)) {
        // A font set on the view (a lecture slide's, sized for a projector): the chart's ticks,
        // axis titles and legend take it. The plot's own stayed the application's small type.
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
        const QFont chartFont = font();
        m_plot->setFont(chartFont); // the chart's texts take the ticks' (addChartText)
        for (QCPAxisRect* rect : m_plot->axisRects()) {
            for (QCPAxis* axis : rect->axes()) {
                axis->setTickLabelFont(chartFont);
                axis->setLabelFont(chartFont);
            }
        }
        m_plot->legend->setFont(chartFont);
        for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
            if (QCPAbstractLegendItem* item = m_plot->legend->item(i)) {
                item->setFont(chartFont);
            }
        }
#endif
        fillChart();
    }
}

} // namespace warpscope::app
