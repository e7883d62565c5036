// KernelSweepView: controls, the grid model off the GUI thread, and the two-axis chart.
#include "views/kernelsweepview.h"

#include "gpu/kernelmeasurement.h"
#include "views/chartfigure.h"
#include "views/theme.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

namespace warpscope::app {

namespace {

const char* const kSectorsLoad = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char* const kSectorsStore = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";

/// The measured global sectors (loads and stores) of a kernel measurement with counters.
std::optional<double> measuredSectors(const KernelMeasurement& m) {
    if (!m.countersMeasured) {
        return std::nullopt;
    }
    const auto ld = m.counters.find(kSectorsLoad);
    const auto st = m.counters.find(kSectorsStore);
    if (ld == m.counters.end() && st == m.counters.end()) {
        return std::nullopt;
    }
    return (ld != m.counters.end() ? ld->second : 0.0) +
           (st != m.counters.end() ? st->second : 0.0);
}

/// Measured constant-cache requests for the distinct addresses of the kernel's constant loads:
/// idc__requests.sum - LDC instructions (the extra requests, which leaves out the parameter loads'
/// one each) plus the warp instructions of the constant loads, as the model counts them.
std::optional<double> measuredConstantAddresses(const KernelMeasurement& m) {
    const auto extra = m.counters.find("warpscope__constant_extra_requests");
    const auto requests = m.predicted.find("warpscope__constant_requests");
    if (!m.countersMeasured || extra == m.counters.end() || requests == m.predicted.end()) {
        return std::nullopt;
    }
    return extra->second + requests->second;
}

} // namespace

KernelSweepView::KernelSweepView(const KernelMeasurementStore* store, QWidget* parent)
    : QWidget(parent), m_store(store), m_title(new QLabel(this)), m_axis(new QComboBox(this)),
      m_values(new QLineEdit(this)), m_run(new QPushButton(tr("Run Sweep on &GPU"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_progress(new QProgressBar(this)),
      m_status(new QLabel(this)), m_gpuStatus(new QLabel(this)), m_pool(new QThreadPool(this)),
      m_cancelModel(std::make_shared<std::atomic<bool>>(false)) {
    setObjectName(QStringLiteral("kernelSweepView"));
    redrawOnPaletteChange(this, [this] { replot(); });
    m_pool->setMaxThreadCount(1);
    auto* layout = new QVBoxLayout(this);
    m_title->setObjectName(QStringLiteral("kernelSweepTitle"));
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    auto* controls = new QHBoxLayout;
    m_axis->setObjectName(QStringLiteral("kernelSweepAxis"));
    auto* axisLabel = new QLabel(tr("S&weep (x axis):"), this);
    axisLabel->setBuddy(m_axis);
    controls->addWidget(axisLabel);
    controls->addWidget(m_axis);
    auto* valuesLabel = new QLabel(tr("&values:"), this);
    valuesLabel->setBuddy(m_values);
    m_values->setObjectName(QStringLiteral("kernelSweepValues"));
    m_values->setToolTip(tr("The values to sweep, separated by commas: numbers for a parameter "
                            "(0, 11, 128), block shapes for the block (32x32, 32x16, 8x8)"));
    controls->addWidget(valuesLabel);
    controls->addWidget(m_values, 1);
    m_run->setObjectName(QStringLiteral("kernelSweepRun"));
    m_run->setToolTip(tr("Measure the whole kernel at every point with warpscope-probe, as one "
                         "batch (Shift+F5)"));
    m_progress->setObjectName(QStringLiteral("kernelSweepProgress"));
    m_progress->setMaximumWidth(220);
    m_progress->setFormat(tr("%v / %m kernels on the GPU"));
    m_progress->hide();
    m_cancel->setObjectName(QStringLiteral("kernelSweepCancel"));
    m_cancel->hide();
    controls->addWidget(m_run);
    controls->addWidget(m_progress);
    controls->addWidget(m_cancel);
    layout->addLayout(controls);
    m_status->setObjectName(QStringLiteral("kernelSweepStatus"));
    m_status->setWordWrap(true);
    m_gpuStatus->setObjectName(QStringLiteral("kernelSweepGpuStatus"));
    m_gpuStatus->setWordWrap(true);
    m_gpuStatus->setTextFormat(Qt::PlainText); // the GPU name the probe reports
    m_gpuStatus->setText(tr("This GPU: not measured yet; press Run Sweep on GPU."));
    layout->addWidget(m_status);
    layout->addWidget(m_gpuStatus);
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("kernelSweepPlot"));
    m_plot->setMinimumHeight(240);
    layout->addWidget(m_plot, 1);
#else
    m_table = addSweepTableInsteadOfPlot(this, layout);
#endif

    connect(m_axis, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_syncing || index < 0 || index >= static_cast<int>(m_axes.size())) {
            return;
        }
        const KernelPreset* preset = findKernelPreset(m_presetId.toStdString());
        m_syncing = true;
        m_values->setText(defaultKernelSweepValues(
            m_kernel, preset != nullptr ? preset->sweeps : std::vector<KernelSweep>{},
            m_axes[static_cast<std::size_t>(index)]));
        m_syncing = false;
        replan();
    });
    connect(m_values, &QLineEdit::editingFinished, this, [this] {
        if (!m_syncing) {
            replan();
        }
    });
    connect(m_run, &QPushButton::clicked, this, [this] {
        replan();
        if (!m_plan) {
            return; // the status says why
        }
        emit runRequested();
    });
    connect(m_cancel, &QPushButton::clicked, this, &KernelSweepView::cancelRequested);
    connect(m_store, &KernelMeasurementStore::changed, this, &KernelSweepView::replot);
}

KernelSweepView::~KernelSweepView() {
    m_cancelModel->store(true);
    m_pool->waitForDone();
}

bool KernelSweepView::setKernelPreset(const QString& presetId) {
    const KernelPreset* preset = findKernelPreset(presetId.toStdString());
    if (preset == nullptr) {
        m_presetId.clear();
        return false;
    }
    if (presetId == m_presetId) {
        return true;
    }
    m_presetId = presetId;
    m_presetKernel = preset->kernel;
    m_kernel = preset->kernel;
    const bool constant =
        std::any_of(m_kernel.accesses.begin(), m_kernel.accesses.end(),
                    [](const auto& a) { return a.kind.space == MemorySpace::Constant; });
    m_title->setText((constant ? tr("<b>%1</b>, the whole kernel (%2): the grid model's "
                                    "constant-cache requests (each warp's distinct addresses, "
                                    "served one after another), and this GPU's kernel time")
                               : tr("<b>%1</b>, the whole kernel (%2): the grid model's sectors "
                                    "over the whole grid, and this GPU's effective bandwidth"))
                         .arg(QString::fromStdString(preset->title).toHtmlEscaped(),
                              QString::fromStdString(preset->source).toHtmlEscaped()));
    fillAxes();
    return true;
}

void KernelSweepView::fillAxes() {
    m_axes = kernelSweepAxes(m_kernel);
    m_syncing = true;
    m_axis->clear();
    for (const KernelSweepAxis& axis : m_axes) {
        m_axis->addItem(axisName(axis));
    }
    m_syncing = false;
    // The preset's own sweep first: the block shape when the preset sweeps every parameter the
    // block names (Table 4-11's bx and by), else its first swept parameter, else the first axis.
    int start = 0;
    const KernelPreset* preset = findKernelPreset(m_presetId.toStdString());
    if (preset != nullptr && !preset->sweeps.empty()) {
        const auto swept = [&](const std::string& name) {
            return std::any_of(preset->sweeps.begin(), preset->sweeps.end(),
                               [&](const KernelSweep& s) { return s.parameter == name; });
        };
        const std::vector<std::string> block = blockShapeParameters(m_kernel);
        const bool blockSwept =
            !block.empty() && std::all_of(block.begin(), block.end(), [&](const std::string& name) {
                return name.empty() || swept(name);
            });
        for (int i = 0; i < static_cast<int>(m_axes.size()); ++i) {
            const KernelSweepAxis& axis = m_axes[static_cast<std::size_t>(i)];
            if (axis.blockShape
                    ? blockSwept
                    : !blockSwept && axis.parameter == preset->sweeps.front().parameter) {
                start = i;
                break;
            }
        }
    }
    if (m_axis->currentIndex() == start) {
        emit m_axis->currentIndexChanged(start);
    } else {
        m_axis->setCurrentIndex(start);
    }
}

void KernelSweepView::setParameterValues(const std::vector<Parameter>& parameters) {
    if (!hasKernel()) {
        return;
    }
    Kernel kernel = m_presetKernel;
    for (Parameter& p : kernel.parameters) {
        for (const Parameter& q : parameters) {
            if (q.name == p.name) {
                p.value = q.value;
                p.minimum = std::min(p.minimum, q.value);
                p.maximum = std::max(p.maximum, q.value);
            }
        }
    }
    if (kernel == m_kernel) {
        return;
    }
    m_kernel = std::move(kernel);
    replan();
}

void KernelSweepView::setSweep(const KernelSweepAxis& axis, const QString& values) {
    const auto it = std::find(m_axes.begin(), m_axes.end(), axis);
    if (it == m_axes.end()) {
        return;
    }
    m_syncing = true;
    m_axis->setCurrentIndex(static_cast<int>(it - m_axes.begin()));
    m_values->setText(values);
    m_syncing = false;
    replan();
}

KernelSweepAxis KernelSweepView::axis() const {
    const int index = m_axis->currentIndex();
    return index >= 0 && index < static_cast<int>(m_axes.size())
               ? m_axes[static_cast<std::size_t>(index)]
               : KernelSweepAxis{};
}

QString KernelSweepView::valuesText() const {
    return m_values->text();
}

void KernelSweepView::replan() {
    if (!hasKernel()) {
        return;
    }
    QString error;
    m_plan = planKernelSweep(m_kernel, axis(), m_values->text(), &error);
    if (!m_plan) {
        m_status->setText(tr("⚠ %1").arg(error));
        m_data = KernelSweepData{};
        ++m_modelJob;
        m_modelDone = m_modelJob;
        replot();
        return;
    }
    if (!isVisible() && window()->isVisible()) {
        m_stale = true; // another tab is shown: computed when this one is
        return;
    }
    startModel();
}

void KernelSweepView::startModel() {
    m_stale = false;
    m_cancelModel->store(true);
    m_cancelModel = std::make_shared<std::atomic<bool>>(false);
    const int job = ++m_modelJob;
    m_status->setText(tr("Computing the grid model at %n point(s)…", "",
                         static_cast<int>(m_plan->points.size())));
    QPointer<KernelSweepView> self(this);
    m_pool->start([self, job, kernel = m_kernel, plan = *m_plan, cancel = m_cancelModel] {
        KernelSweepData data = computeKernelSweep(kernel, plan, cancel.get());
        if (cancel->load()) {
            return;
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, data = std::move(data)] {
                if (self) {
                    self->onModel(job, data);
                }
            },
            Qt::QueuedConnection);
    });
}

void KernelSweepView::onModel(int job, const KernelSweepData& data) {
    if (job != m_modelJob) {
        return; // superseded
    }
    m_modelDone = job;
    m_data = data;
    int invalid = 0;
    QString first;
    for (int i = 0; i < m_data.errors.size(); ++i) {
        if (!m_data.errors[i].isEmpty() && invalid++ == 0) {
            first = m_data.plan.labels.value(i) + QStringLiteral(": ") + m_data.errors[i];
        }
    }
    QString status = tr("%n point(s) of %1; the grid model over the whole grid at each", "",
                        static_cast<int>(m_data.plan.points.size()))
                         .arg(axisName(m_data.plan.axis));
    if (invalid > 0) {
        status += tr("; %n point(s) invalid (first: %1)", "", invalid).arg(first);
    }
    m_status->setText(status);
    replot();
    emit modelComputed();
}

std::vector<const KernelMeasurement*> KernelSweepView::measurements() const {
    std::vector<const KernelMeasurement*> list;
    if (!m_plan) {
        return list;
    }
    for (const KernelSweepPoint& point : m_plan->points) {
        list.push_back(m_store->find(m_presetId, point));
    }
    return list;
}

int KernelSweepView::measuredPointCount() const {
    const auto list = measurements();
    return static_cast<int>(std::count_if(list.begin(), list.end(), [](const auto* m) {
        return m != nullptr && m->effectiveBandwidthGBs.has_value();
    }));
}

void KernelSweepView::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    m_axis->setEnabled(!running);
    m_values->setEnabled(!running);
    if (running) {
        m_progress->setRange(0, 0); // busy until the first progress line
    }
}

void KernelSweepView::setProgress(int done, int total) {
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
}

void KernelSweepView::setGpuStatus(const QString& text) {
    m_gpuStatus->setText(text);
}

void KernelSweepView::ensureModel() {
    if (m_stale && m_plan) {
        startModel();
    }
}

bool KernelSweepView::computeModelNow() {
    if (!m_plan) {
        return false;
    }
    m_stale = false;
    m_cancelModel->store(true); // a model on the worker is superseded by this one
    m_cancelModel = std::make_shared<std::atomic<bool>>(false);
    const int job = ++m_modelJob;
    onModel(job, computeKernelSweep(m_kernel, *m_plan, m_cancelModel.get()));
    return true;
}

void KernelSweepView::showEvent(QShowEvent* event) {
    if (m_stale && m_plan) {
        startModel();
    }
    QWidget::showEvent(event);
}

void KernelSweepView::replot() {
    m_bandwidthBars = 0;
    m_modelPoints = 0;
    const int n = m_plan && m_data.plan.labels == m_plan->labels
                      ? static_cast<int>(m_data.modelSectors.size())
                      : 0;
    const std::vector<const KernelMeasurement*> measured = measurements();
    QString gpu;
    for (const KernelMeasurement* m : measured) {
        if (m != nullptr && !m->gpuName.isEmpty()) {
            gpu = m->gpuName + (m->recorded ? tr(", recorded earlier") : QString());
            break;
        }
    }
    const int measuredCount = measuredPointCount();
    if (measuredCount > 0) {
        m_gpuStatus->setText(
            tr("This GPU (%1): %2 of %n point(s) measured.", "", static_cast<int>(measured.size()))
                .arg(gpu)
                .arg(measuredCount));
    }
    const QStringList labels = m_plan ? m_plan->labels : QStringList{};
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    const ViewColors colors = ViewColors::fromPalette(palette());
    m_plot->clearPlottables();
    m_plot->setBackground(colors.background);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2}) {
        styleChartAxis(axis, colors);
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    // A parameter's points are ticked with its value alone, the axis naming the parameter:
    // "distinct 1" to "distinct 32" ran into one another.
    const QString parameter =
        m_plan && !m_plan->axis.blockShape
            ? QString::fromStdString(m_plan->axis.parameter) + QLatin1Char(' ')
            : QString();
    for (int i = 0; i < labels.size(); ++i) {
        ticker->addTick(i + 1, !parameter.isEmpty() && labels[i].startsWith(parameter)
                                   ? labels[i].mid(parameter.size())
                                   : labels[i]);
    }
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(m_plan ? axisName(m_plan->axis) : QString());
    m_plot->xAxis->setRange(0.4, labels.size() + 0.6);
    const bool constant = m_data.hasConstant;
    m_plot->yAxis->setLabel(constant ? tr("constant-cache requests (whole grid)")
                                     : tr("grid model: sectors (whole grid)"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setLabel(constant ? tr("this GPU: kernel time, µs")
                                      : tr("this GPU: effective bandwidth, GB/s"));
    // The bandwidth first, as bars behind the model's line.
    QVector<double> barKeys;
    QVector<double> bandwidth;
    QVector<double> sectorKeys;
    QVector<double> sectors;
    for (int i = 0; i < static_cast<int>(measured.size()); ++i) {
        const KernelMeasurement* m = measured[static_cast<std::size_t>(i)];
        if (m == nullptr) {
            continue;
        }
        if (constant && m->kernelMsMedian()) {
            // Constant loads move no global bytes: the time is what shows the serialisation.
            barKeys << i + 1;
            bandwidth << *m->kernelMsMedian() * 1000.0;
        } else if (!constant && m->effectiveBandwidthGBs) {
            barKeys << i + 1;
            bandwidth << *m->effectiveBandwidthGBs;
        }
        if (const auto s = constant ? measuredConstantAddresses(*m) : measuredSectors(*m)) {
            sectorKeys << i + 1;
            sectors << *s;
        }
    }
    auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis2);
    bars->setName(gpu.isEmpty() ? tr("this GPU: not measured")
                  : constant    ? tr("this GPU (%1): time, right axis").arg(gpu)
                                : tr("this GPU (%1): bandwidth, right axis").arg(gpu));
    bars->setPen(QPen(colors.group(1).darker(130)));
    bars->setBrush(colors.groupFill(1));
    bars->setWidth(0.6);
    bars->setData(barKeys, bandwidth, true);
    m_bandwidthBars = static_cast<int>(barKeys.size());
    double topBandwidth = 0;
    for (double v : bandwidth) {
        topBandwidth = std::max(topBandwidth, v);
    }
    m_plot->yAxis2->setRange(0, topBandwidth > 0 ? topBandwidth * 1.2 : 1.0);

    double topCount = 0;
    auto addLine = [&](const QString& name, const QVector<double>& values, int color,
                       Qt::PenStyle style, QCPScatterStyle::ScatterShape shape) {
        QVector<double> keys;
        QVector<double> ys;
        for (int i = 0; i < n && i < values.size(); ++i) {
            if (!std::isnan(values[i])) {
                keys << i + 1;
                ys << values[i];
                topCount = std::max(topCount, values[i]);
            }
        }
        QCPGraph* graph = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
        graph->setName(name);
        graph->setPen(QPen(colors.group(color), 2.5, style));
        graph->setScatterStyle(QCPScatterStyle(shape, 7));
        graph->setData(keys, ys, true);
        return static_cast<int>(keys.size());
    };
    if (constant) {
        m_modelPoints =
            addLine(tr("grid model: constant-cache requests (distinct addresses, "
                       "served in turn)"),
                    m_data.modelConstantAddresses, 4, Qt::SolidLine, QCPScatterStyle::ssCircle);
    } else {
        m_modelPoints = addLine(tr("grid model: global sectors"), m_data.modelSectors, 4,
                                Qt::SolidLine, QCPScatterStyle::ssCircle);
    }
    if (m_data.hasShared) {
        addLine(tr("grid model: shared wavefronts"), m_data.modelWavefronts, 2, Qt::DashLine,
                QCPScatterStyle::ssSquare);
    }
    if (!sectors.isEmpty()) {
        QCPGraph* graph = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
        graph->setName(constant ? tr("this GPU: idc__requests.sum − LDC instructions + warps "
                                     "(measured)")
                                : tr("this GPU: global sectors (measured)"));
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, colors.text, 11));
        graph->setData(sectorKeys, sectors, true);
        for (double v : sectors) {
            topCount = std::max(topCount, v);
        }
    }
    m_plot->yAxis->setRange(0, topCount > 0 ? topCount * 1.25 : 1.0);
    styleChartLegend(m_plot, colors);
    putLegendUnderChart(m_plot, 0);
    m_plot->replot();
#else
    m_table->clear();
    const bool constant = m_data.hasConstant;
    const QStringList headers{
        tr("point"), constant ? tr("model: constant-cache requests") : tr("model: global sectors"),
        tr("model: shared wavefronts"),
        constant ? tr("measured: constant-cache requests") : tr("measured: sectors"),
        constant ? tr("measured: µs") : tr("measured: GB/s")};
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(labels.size()));
    auto number = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 6); };
    for (int r = 0; r < labels.size(); ++r) {
        m_table->setItem(r, 0, new QTableWidgetItem(labels[r]));
        if (r < n) {
            m_table->setItem(r, 1,
                             new QTableWidgetItem(number(constant ? m_data.modelConstantAddresses[r]
                                                                  : m_data.modelSectors[r])));
            m_table->setItem(r, 2, new QTableWidgetItem(number(m_data.modelWavefronts[r])));
            ++m_modelPoints;
        }
        if (r < static_cast<int>(measured.size()) && measured[static_cast<std::size_t>(r)]) {
            const KernelMeasurement* m = measured[static_cast<std::size_t>(r)];
            if (const auto s = constant ? measuredConstantAddresses(*m) : measuredSectors(*m)) {
                m_table->setItem(r, 3, new QTableWidgetItem(number(*s)));
            }
            if (constant && m->kernelMsMedian()) {
                m_table->setItem(r, 4, new QTableWidgetItem(number(*m->kernelMsMedian() * 1000.0)));
            } else if (!constant && m->effectiveBandwidthGBs) {
                m_table->setItem(r, 4, new QTableWidgetItem(number(*m->effectiveBandwidthGBs)));
            }
        }
    }
#endif
}

} // namespace warpscope::app
