// SweepPlot: controls, sweep through the core, and the QCustomPlot graphs (or a table without it).
#include "views/sweepplot.h"

#include "document/patterndocument.h"
#include "views/chartfigure.h"
#include "views/kernelsweepview.h"
#include "views/theme.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

namespace warpscope::app {

namespace {

int clampedToInt(std::int64_t value) {
    return static_cast<int>(std::clamp<std::int64_t>(value, std::numeric_limits<int>::min(),
                                                     std::numeric_limits<int>::max()));
}

/// The first sweep covers the declared range, at most 64 values of it, so the curve's period is
/// visible (the user can widen it).
std::int64_t defaultSweepEnd(const Parameter& p) {
    const std::int64_t end = p.maximum > p.minimum ? p.maximum : p.minimum + 64;
    return std::min(end, p.minimum + 64);
}

} // namespace

bool SweepPlot::plotAvailable() {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    return true;
#else
    return false;
#endif
}

SweepPlot::SweepPlot(PatternDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_parameter(new QComboBox(this)),
      m_from(new QSpinBox(this)), m_to(new QSpinBox(this)), m_status(new QLabel(this)) {
    setObjectName(QStringLiteral("sweepPlot"));
    redrawOnPaletteChange(this, [this] { replot(); });
    // Two pages: the current access's sweep, and (attachKernelSweep) a whole kernel's.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);
    m_patternPage = new QWidget(m_stack);
    m_stack->addWidget(m_patternPage);
    auto* layout = new QVBoxLayout(m_patternPage);
    auto* controls = new QHBoxLayout;
    m_parameter->setObjectName(QStringLiteral("sweepParameter"));
    m_from->setRange(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    m_to->setRange(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    auto* parameterLabel = new QLabel(tr("Sweep parameter (&x axis):"), this);
    parameterLabel->setBuddy(m_parameter);
    controls->addWidget(parameterLabel);
    controls->addWidget(m_parameter);
    controls->addWidget(new QLabel(tr("from"), this));
    controls->addWidget(m_from);
    controls->addWidget(new QLabel(tr("to"), this));
    controls->addWidget(m_to);
    controls->addStretch(1);
    m_runGpu = new QPushButton(tr("Run Sweep on &GPU"), this);
    m_runGpu->setObjectName(QStringLiteral("sweepRunGpu"));
    m_runGpu->setToolTip(tr("Measure every point of this sweep with warpscope-probe (Shift+F5)"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("sweepGpuProgress"));
    m_progress->setMaximumWidth(220);
    m_progress->setFormat(tr("%v / %m on the GPU"));
    m_progress->hide();
    m_cancelGpu = new QPushButton(tr("Cancel"), this);
    m_cancelGpu->setObjectName(QStringLiteral("sweepCancelGpu"));
    m_cancelGpu->hide();
    controls->addWidget(m_runGpu);
    controls->addWidget(m_progress);
    controls->addWidget(m_cancelGpu);
    connect(m_runGpu, &QPushButton::clicked, this, [this] {
        const std::vector<NamedPattern> patterns = sweepPatterns();
        if (patterns.empty()) {
            m_status->setText(tr("Nothing to run on the GPU: this sweep has no valid point."));
            return;
        }
        m_requestKey = sweepKey();
        emit gpuSweepRequested(patterns);
    });
    connect(m_cancelGpu, &QPushButton::clicked, this, &SweepPlot::gpuSweepCancelRequested);
    layout->addLayout(controls);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("sweepCustomPlot"));
    m_plot->setMinimumHeight(240);
    // Two stacked plots sharing the x axis: counts on top, efficiency below (global memory).
    m_countRect = m_plot->axisRect();
    m_efficiencyRect = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(1, 0, m_efficiencyRect);
    m_plot->plotLayout()->setRowStretchFactor(0, 3);
    m_plot->plotLayout()->setRowStretchFactor(1, 2);
    auto* margins = new QCPMarginGroup(m_plot);
    m_countRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_efficiencyRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    for (QCPAxisRect* rect : {m_countRect, m_efficiencyRect}) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setLayer(QStringLiteral("axes"));
            axis->grid()->setLayer(QStringLiteral("grid"));
        }
    }
    connect(
        m_countRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
        m_efficiencyRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(m_efficiencyRect->axis(QCPAxis::atBottom),
            qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            m_countRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    m_plot->legend->setVisible(true);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    layout->addWidget(m_plot, 1);
#else
    m_table = addSweepTableInsteadOfPlot(this, layout);
#endif

    connect(m_parameter, &QComboBox::currentIndexChanged, this, [this] {
        if (m_syncing) {
            return;
        }
        // A new parameter: start from its declared range.
        const auto& source = m_document->pattern().source;
        const int index = m_parameter->currentIndex();
        if (source && index >= 0 && index < static_cast<int>(source->parameters.size())) {
            const Parameter& p = source->parameters[static_cast<std::size_t>(index)];
            m_syncing = true;
            m_from->setValue(clampedToInt(p.minimum));
            m_to->setValue(clampedToInt(defaultSweepEnd(p)));
            m_syncing = false;
        }
        refresh();
    });
    connect(m_from, &QSpinBox::valueChanged, this, [this] {
        if (!m_syncing) {
            refresh();
        }
    });
    connect(m_to, &QSpinBox::valueChanged, this, [this] {
        if (!m_syncing) {
            refresh();
        }
    });
    connect(m_document, &PatternDocument::evaluationChanged, this, [this] {
        syncParameters();
        if (isVisible()) {
            refresh();
        } else {
            m_stale = true; // no work for a hidden tab while sliders are dragged
        }
    });
    connect(m_document, &PatternDocument::modelChanged, this, &SweepPlot::replot);
    syncParameters();
    refresh();
}

int SweepPlot::graphCount() const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    return m_plot->graphCount();
#else
    return 0;
#endif
}

KernelSweepView* SweepPlot::attachKernelSweep(const KernelMeasurementStore* store) {
    if (m_kernelView == nullptr) {
        m_kernelView = new KernelSweepView(store, m_stack);
        m_stack->addWidget(m_kernelView);
        connect(m_document, &PatternDocument::evaluationChanged, this, [this] {
            const auto& evaluation = m_document->evaluation();
            if (m_kernelView->hasKernel() && evaluation && evaluation->pattern.source) {
                m_kernelView->setParameterValues(evaluation->pattern.source->parameters);
            }
        });
    }
    return m_kernelView;
}

void SweepPlot::setKernelPreset(const QString& presetId) {
    if (m_kernelView == nullptr) {
        return;
    }
    const bool kernel = !presetId.isEmpty() && m_kernelView->setKernelPreset(presetId);
    if (kernel) {
        const auto& evaluation = m_document->evaluation();
        if (evaluation && evaluation->pattern.source) {
            m_kernelView->setParameterValues(evaluation->pattern.source->parameters);
        }
    }
    m_stack->setCurrentWidget(kernel ? static_cast<QWidget*>(m_kernelView) : m_patternPage);
}

bool SweepPlot::kernelMode() const {
    return m_kernelView != nullptr && m_stack->currentWidget() == m_kernelView;
}

QPushButton* SweepPlot::gpuRunButton() const {
    return kernelMode() ? m_kernelView->runButton() : m_runGpu;
}

void SweepPlot::syncParameters() {
    const auto& evaluation = m_document->evaluation();
    QStringList names;
    std::vector<Parameter> parameters;
    if (evaluation && evaluation->pattern.source) {
        parameters = evaluation->pattern.source->parameters;
        for (const Parameter& p : parameters) {
            names << QString::fromStdString(p.name);
        }
    }
    if (names == m_parameterNames) {
        return;
    }
    m_syncing = true;
    m_parameterNames = names;
    m_parameter->clear();
    m_parameter->addItems(names);
    m_parameter->setEnabled(!names.isEmpty());
    m_from->setEnabled(!names.isEmpty());
    m_to->setEnabled(!names.isEmpty());
    if (!parameters.empty()) {
        m_parameter->setCurrentIndex(0);
        const Parameter& p = parameters.front();
        m_from->setValue(clampedToInt(p.minimum));
        m_to->setValue(clampedToInt(defaultSweepEnd(p)));
    }
    m_syncing = false;
}

void SweepPlot::refresh() {
    m_stale = false;
    if (!m_gpuKey.empty() && m_gpuKey != sweepKey()) {
        // Another sweep now: the GPU's points belonged to the old one.
        m_gpuKey.clear();
        m_gpuX.clear();
        m_gpuCount.clear();
        m_gpuLatencyNs.clear();
    }
    const auto& evaluation = m_document->evaluation();
    if (!evaluation || !evaluation->pattern.source || m_parameter->currentIndex() < 0) {
        m_data = SweepData{};
        m_status->setText(evaluation && !evaluation->pattern.source
                              ? tr("An explicit pattern has no parameter to sweep.")
                              : tr("This pattern declares no parameter to sweep."));
    } else {
        // Sweep the last valid pattern, so a typo elsewhere does not blank the plot.
        m_data = computeSweep(evaluation->pattern, evaluation->textbookOptions,
                              m_parameter->currentIndex(), m_from->value(), m_to->value());
        QString status = tr("%n value(s) of %1", "", static_cast<int>(m_data.values.size()))
                             .arg(m_data.parameter);
        if (m_data.invalidCount > 0) {
            status += tr("; %n value(s) skipped because the pattern is invalid there (first: %1)",
                         "", m_data.invalidCount)
                          .arg(m_data.firstInvalid);
        }
        m_status->setText(status);
    }
    replot();
}

std::string SweepPlot::sweepKey() const {
    const auto& evaluation = m_document->evaluation();
    const int index = m_parameter->currentIndex();
    if (!evaluation || !evaluation->pattern.source || index < 0 ||
        index >= static_cast<int>(evaluation->pattern.source->parameters.size())) {
        return {};
    }
    Pattern pattern = evaluation->pattern;
    pattern.source->parameters[static_cast<std::size_t>(index)].value = 0;
    return patternToJsonText(NamedPattern{{}, {}, pattern}) + "#" + std::to_string(index) + ":" +
           std::to_string(m_from->value()) + ".." + std::to_string(m_to->value());
}

std::vector<NamedPattern> SweepPlot::sweepPatterns() const {
    std::vector<NamedPattern> patterns;
    const auto& evaluation = m_document->evaluation();
    const int index = m_parameter->currentIndex();
    if (!evaluation || !evaluation->pattern.source || index < 0 ||
        index >= static_cast<int>(evaluation->pattern.source->parameters.size())) {
        return patterns;
    }
    for (double value : m_data.values) {
        patterns.push_back(
            NamedPattern{QStringLiteral("%1 = %2").arg(m_data.parameter).arg(value).toStdString(),
                         {},
                         sweepPoint(evaluation->pattern, index, static_cast<std::int64_t>(value))});
    }
    return patterns;
}

void SweepPlot::setGpuRunning(bool running) {
    m_runGpu->setEnabled(!running);
    m_progress->setVisible(running);
    m_cancelGpu->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0); // busy until the first progress line
    }
}

void SweepPlot::setGpuProgress(int done, int total) {
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
}

void SweepPlot::setGpuMeasurements(const std::vector<ProbeMeasurement>& measurements) {
    setGpuRunning(false);
    m_gpuX.clear();
    m_gpuCount.clear();
    m_gpuLatencyNs.clear();
    if (m_requestKey != sweepKey()) {
        m_status->setText(tr("The GPU sweep finished, but the sweep changed while it ran; run it "
                             "again to see it."));
        return;
    }
    const auto& evaluation = m_document->evaluation();
    if (!evaluation) {
        return;
    }
    const AccessKind& kind = evaluation->pattern.kind;
    // Sectors over the model's sectors, wavefronts over its wavefronts.
    const AccessCounters counters = nsightCountersFor(kind);
    const std::string& counter = usesSectors(kind.space) ? counters.second : counters.first;
    const std::size_t n = std::min<std::size_t>(measurements.size(), m_data.values.size());
    int differ = 0;
    const QVector<double>& predicted =
        usesSectors(kind.space) ? m_data.modernSectors : m_data.modernWavefronts;
    for (std::size_t i = 0; i < n; ++i) {
        const ProbeMeasurement& m = measurements[i];
        if (const auto value = m.counter(counter)) {
            m_gpuX.push_back(m_data.values[static_cast<qsizetype>(i)]);
            m_gpuCount.push_back(*value);
            differ += *value != predicted[static_cast<qsizetype>(i)] ? 1 : 0;
        }
        if (m.warmNs) {
            m_gpuLatencyNs.push_back(*m.warmNs);
        } else {
            m_gpuLatencyNs.push_back(std::numeric_limits<double>::quiet_NaN());
        }
    }
    m_gpuKey = m_requestKey;
    const QString gpu = measurements.empty() ? QString() : measurements.front().gpuName;
    if (m_gpuX.isEmpty()) {
        m_status->setText(
            tr("%1 measured %n point(s) without counters (%2).", "", static_cast<int>(n))
                .arg(gpu, n > 0 ? measurements.front().countersUnavailableReason : QString()));
    } else if (differ > 0) {
        m_status->setText(tr("⚠ %1 measured %n point(s); %2 differ from the modern model.", "",
                             static_cast<int>(n))
                              .arg(gpu)
                              .arg(differ));
    } else {
        m_status->setText(tr("✓ %1 measured %n point(s); every one agrees with the modern model.",
                             "", static_cast<int>(n))
                              .arg(gpu));
    }
    replot();
}

void SweepPlot::setGpuStopped(const QString& why) {
    setGpuRunning(false);
    m_status->setText(why);
}

void SweepPlot::showEvent(QShowEvent* event) {
    if (m_stale) {
        m_stale = false;
        refresh();
    }
    QWidget::showEvent(event);
}

void SweepPlot::replot() {
    const ViewColors colors = ViewColors::fromPalette(palette());
    const bool modernFirst = m_document->model() == ModelChoice::Modern;
    struct Series {
        QString name;
        const QVector<double>* values;
        int colorIndex;
        Qt::PenStyle style;
        bool rightAxis;
        bool modern;
    };
    std::vector<Series> series;
    if (m_data.global) {
        series = {{tr("Modern: sectors"), &m_data.modernSectors, 4, Qt::SolidLine, false, true},
                  {tr("Textbook: transactions"), &m_data.textbookTransactions, 0, Qt::DashLine,
                   false, false},
                  {tr("Modern: efficiency %"), &m_data.modernEfficiencyPercent, 2, Qt::SolidLine,
                   true, true},
                  {tr("Textbook: efficiency %"), &m_data.textbookEfficiencyPercent, 5,
                   Qt::DashDotLine, true, false}};
    } else {
        series = {
            {tr("Modern: wavefronts"), &m_data.modernWavefronts, 4, Qt::SolidLine, false, true},
            {tr("Modern: bank conflicts"), &m_data.modernBankConflicts, 2, Qt::DotLine, false,
             true},
            {tr("Textbook: conflict degree (n-way)"), &m_data.textbookConflictDegree, 0,
             Qt::DashLine, false, false}};
    }
    // Only the series with a value at every point: a constant load has no wavefronts or bank
    // conflicts, and QCustomPlot (like the table) wants as many values as keys.
    std::erase_if(series,
                  [this](const Series& s) { return s.values->size() != m_data.values.size(); });
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    m_plot->clearGraphs();
    m_plot->clearItems();
    const QColor text = colors.text;
    m_plot->setBackground(colors.background);
    for (QCPAxisRect* rect : {m_countRect, m_efficiencyRect}) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(text));
            axis->setTickPen(QPen(text));
            axis->setSubTickPen(QPen(text));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(colors.grid, 0.5, Qt::DotLine));
        }
    }
    m_plot->legend->setBrush(colors.background);
    m_plot->legend->setTextColor(text);
    m_plot->legend->setBorderPen(QPen(colors.grid));
    const QString xLabel = m_data.parameter.isEmpty() ? tr("parameter") : m_data.parameter;
    m_countRect->axis(QCPAxis::atBottom)->setLabel(m_data.global ? QString() : xLabel);
    m_efficiencyRect->axis(QCPAxis::atBottom)->setLabel(xLabel);
    m_countRect->axis(QCPAxis::atLeft)
        ->setLabel(m_data.global ? tr("sectors / transactions") : tr("wavefronts / conflicts"));
    m_efficiencyRect->axis(QCPAxis::atLeft)->setLabel(tr("efficiency %"));
    m_efficiencyRect->setVisible(m_data.global);
    if (m_plot->plotLayout()->rowCount() > 1) {
        m_plot->plotLayout()->setRowStretchFactor(1, m_data.global ? 2 : 0.001);
    }
    // Each series differs by line style (and, when the points are few enough to see, point shape)
    // as well as by colour.
    const QCPScatterStyle::ScatterShape shapes[] = {
        QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond};
    const int points = static_cast<int>(m_data.values.size());
    double maxCount = 1;
    int shape = 0;
    for (const Series& s : series) {
        QCPAxisRect* rect = s.rightAxis ? m_efficiencyRect : m_countRect;
        QCPGraph* graph =
            m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setName(s.name);
        const bool primary = s.modern == modernFirst;
        graph->setPen(QPen(colors.group(s.colorIndex), primary ? 2.5 : 1.8, s.style));
        graph->setLineStyle(QCPGraph::lsStepCenter);
        const QCPScatterStyle::ScatterShape pointShape = shapes[shape++ % 4];
        if (points <= 100) {
            graph->setScatterStyle(QCPScatterStyle(pointShape, 6));
        }
        graph->setData(m_data.values, *s.values, true);
        if (!s.rightAxis) {
            for (double v : *s.values) {
                maxCount = std::max(maxCount, v);
            }
        }
    }
    QCPAxis* timeAxis = m_countRect->axis(QCPAxis::atRight);
    timeAxis->setVisible(!m_gpuX.isEmpty());
    if (!m_gpuX.isEmpty()) {
        const QString quantity = m_data.global ? tr("sectors") : tr("wavefronts");
        QCPGraph* measured = m_plot->addGraph(m_countRect->axis(QCPAxis::atBottom),
                                              m_countRect->axis(QCPAxis::atLeft));
        measured->setName(tr("GPU: %1 (measured)").arg(quantity));
        measured->setLineStyle(QCPGraph::lsNone);
        measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, colors.text, 9));
        measured->setData(m_gpuX, m_gpuCount, true);
        for (double v : m_gpuCount) {
            maxCount = std::max(maxCount, v);
        }
        QVector<double> latencyX;
        QVector<double> latency;
        for (qsizetype i = 0; i < m_gpuLatencyNs.size() && i < m_gpuX.size(); ++i) {
            if (!std::isnan(m_gpuLatencyNs[i])) {
                latencyX.push_back(m_gpuX[i]);
                latency.push_back(m_gpuLatencyNs[i]);
            }
        }
        if (!latency.isEmpty()) {
            QCPGraph* time = m_plot->addGraph(m_countRect->axis(QCPAxis::atBottom), timeAxis);
            time->setName(tr("GPU: warm latency, ns (right axis)"));
            time->setPen(QPen(colors.group(6), 1.5, Qt::SolidLine));
            time->setLineStyle(QCPGraph::lsLine);
            time->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colors.group(6), 5));
            time->setData(latencyX, latency, true);
            const double top = *std::max_element(latency.begin(), latency.end());
            timeAxis->setRange(0, top * 1.25 + 1);
            timeAxis->setLabel(tr("warm latency (ns)"));
            timeAxis->setTickLabels(true);
        }
    }
    if (!m_data.values.isEmpty()) {
        m_countRect->axis(QCPAxis::atBottom)
            ->setRange(m_data.values.front() - 0.5, m_data.values.back() + 0.5);
    }
    m_countRect->axis(QCPAxis::atLeft)->setRange(0, maxCount * 1.25 + 0.5);
    m_efficiencyRect->axis(QCPAxis::atLeft)->setRange(0, 110);
    // The current value of the swept parameter, as a vertical line in both plots.
    const auto& evaluation = m_document->evaluation();
    const int index = m_parameter->currentIndex();
    if (evaluation && evaluation->pattern.source && index >= 0 &&
        index < static_cast<int>(evaluation->pattern.source->parameters.size())) {
        const double current = static_cast<double>(
            evaluation->pattern.source->parameters[static_cast<std::size_t>(index)].value);
        for (QCPAxisRect* rect : {m_countRect, m_efficiencyRect}) {
            auto* line = new QCPItemStraightLine(m_plot);
            line->setClipAxisRect(rect);
            for (QCPItemPosition* position : {line->point1, line->point2}) {
                position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            }
            line->point1->setCoords(current, 0);
            line->point2->setCoords(current, 1);
            line->setPen(QPen(colors.highlight, 1.5, Qt::DashDotDotLine));
        }
        auto* label = addChartText(m_plot);
        label->setClipAxisRect(m_countRect);
        label->position->setAxes(m_countRect->axis(QCPAxis::atBottom),
                                 m_countRect->axis(QCPAxis::atLeft));
        label->position->setCoords(current, maxCount * 1.2 + 0.4);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setText(tr(" now: %1 = %2").arg(m_data.parameter).arg(current));
        label->setColor(text);
    }
    m_plot->replot();
#else
    m_table->clear();
    QStringList headers{m_data.parameter};
    for (const Series& s : series) {
        headers << s.name;
    }
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(m_data.values.size()));
    for (int r = 0; r < static_cast<int>(m_data.values.size()); ++r) {
        m_table->setItem(r, 0, new QTableWidgetItem(QString::number(m_data.values[r])));
        for (std::size_t c = 0; c < series.size(); ++c) {
            m_table->setItem(r, static_cast<int>(c) + 1,
                             new QTableWidgetItem(QString::number((*series[c].values)[r], 'g', 4)));
        }
    }
    Q_UNUSED(colors);
    Q_UNUSED(modernFirst);
#endif
}

} // namespace warpscope::app
