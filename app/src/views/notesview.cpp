// NotesView: the notes' numbers beside this GPU's, as bars and a table.
#include "views/notesview.h"

#include "views/chartfigure.h"

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

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

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

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
/// The notes chart. It replots once in the next pass of the event loop, however often it was
/// filled or resized before then, and before the repaint that asks for it (posted at a higher
/// priority). QCustomPlot itself replots at once on every resize, and its queued replot runs
/// even when the chart has been replotted since. In lecture mode one slide change or reveal
/// fills the chart up to three times and resizes it two or three times as the labels above it
/// wrap, and each replot takes 4–32 ms at 3840 × 2160.
/// It also keeps a few pictures of itself drawn ahead on another view (NotesView::chartPicture):
/// when what it comes to show (its key: data, labels, colours, type) and its size are a
/// picture's, it is not replotted and its paint copies the picture, pixel for pixel what its own
/// paint would draw. Hidden, it is not replotted until it is shown.
class NotesChart : public QCustomPlot {
public:
    explicit NotesChart(QWidget* parent) : QCustomPlot(parent) {
        connect(this, &QCustomPlot::afterReplot, this, [this] {
            m_replotPending = false;
            m_layoutPassesWaited = 0;
            m_buffersStale = false;
        });
    }

    /// What fillChart() set: the data, labels, colours and type the chart shows.
    void setKey(const QString& key) { m_key = key; }
    const QString& key() const { return m_key; }

    void requestReplot() {
        if (!isVisible()) {
            // Hidden (a lecture slide without the chart, another tab): replotted when shown.
            m_buffersStale = true;
            return;
        }
        if (showPicture()) {
            return;
        }
        if (m_replotPending) {
            return;
        }
        m_replotPending = true;
        postReplot();
    }

    /// QCustomPlot's paint (its background, then its layers' buffers) into one picture.
    QImage compose() {
        if (mBackgroundBrush.style() != Qt::SolidPattern || !mBackgroundBrush.isOpaque()) {
            return {}; // what lies beneath would show through
        }
        const qreal dpr = devicePixelRatioF();
        QImage image((QSizeF(size()) * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        QCPPainter painter(&image);
        painter.fillRect(mViewport, mBackgroundBrush);
        drawBackground(&painter);
        for (const QSharedPointer<QCPAbstractPaintBuffer>& buffer : mPaintBuffers) {
            buffer->draw(&painter);
        }
        return image;
    }

    void adopt(NotesView::ChartPicture picture) {
        if (picture.key.isEmpty() || picture.image.isNull()) {
            return;
        }
        std::erase_if(m_pictures, [&](const NotesView::ChartPicture& kept) {
            return kept.key == picture.key && kept.image.size() == picture.image.size();
        });
        m_pictures.insert(m_pictures.begin(), std::move(picture));
        if (m_pictures.size() > kPicturesKept) {
            m_pictures.pop_back();
        }
    }

    bool paintedFromPicture() const { return m_paintedFromPicture; }

protected:
    void resizeEvent(QResizeEvent* event) override {
        Q_UNUSED(event);
        setViewport(rect());
        requestReplot();
    }

    void showEvent(QShowEvent* event) override {
        QCustomPlot::showEvent(event);
        if (m_buffersStale) {
            requestReplot(); // before the paint that shows it (posted at a higher priority)
        }
    }

    void paintEvent(QPaintEvent* event) override {
        if (const QImage* picture = pictureForNow()) {
            QPainter painter(this);
            painter.setCompositionMode(QPainter::CompositionMode_Source);
            painter.drawImage(QPoint(0, 0), *picture);
            m_paintedFromPicture = true;
            return;
        }
        m_paintedFromPicture = false;
        if (m_buffersStale) {
            // Shown from a picture until now: the layers still hold what was before it.
            replot(QCustomPlot::rpQueuedRefresh);
        }
        QCustomPlot::paintEvent(event);
    }

private:
    // At 3840 × 2160 a picture is about 23 MB: a notes slide's two reveals, the next slide's
    // and the one after it.
    static constexpr std::size_t kPicturesKept = 4;

    void postReplot() {
        QTimer::singleShot(0, this, [this] {
            if (!m_replotPending || showPicture()) {
                return; // replotted since, or a picture shows what the chart shows now
            }
            // A picture of this data at another size: the window's layout (posted after this
            // request, in the same step) is likely to give the chart that size; look again
            // after it, for two passes (a reveal changes the step line's height, then the
            // finding's).
            if (m_layoutPassesWaited < 2 && hasPictureOfKey()) {
                ++m_layoutPassesWaited;
                postReplot();
                return;
            }
            replot();
        });
    }

    bool hasPictureOfKey() const {
        return std::any_of(m_pictures.begin(), m_pictures.end(),
                           [this](const NotesView::ChartPicture& p) { return p.key == m_key; });
    }

    /// The kept picture of what the chart shows now, at its size and ratio, or nullptr.
    const QImage* pictureForNow() const {
        const QSize pixels = (QSizeF(size()) * devicePixelRatioF()).toSize();
        for (const NotesView::ChartPicture& picture : m_pictures) {
            if (picture.key == m_key && picture.image.size() == pixels &&
                picture.image.devicePixelRatio() == devicePixelRatioF()) {
                return &picture.image;
            }
        }
        return nullptr;
    }

    /// With a picture of what the chart shows now: no replot, the paint copies it.
    bool showPicture() {
        if (pictureForNow() == nullptr) {
            return false;
        }
        m_replotPending = false;
        m_layoutPassesWaited = 0;
        m_buffersStale = true;
        update();
        return true;
    }

    QString m_key;
    std::vector<NotesView::ChartPicture> m_pictures;
    bool m_replotPending = false;
    int m_layoutPassesWaited = 0; // passes the pending replot has waited for the layout
    bool m_buffersStale = false;
    bool m_paintedFromPicture = false;
};
#endif

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
    m_plot = new NotesChart(splitter);
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
    status << (m_comparison.notesRows > 0 ? tr("Notes: %1.").arg(m_comparison.notesGpu)
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

void NotesView::fillChart() {
    m_notesBars = 0;
    m_measuredBars = 0;
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    const NotesExperiment* experiment = m_comparison.experiment;
    const ViewColors colors = ViewColors::fromPalette(palette());
    m_plot->clearPlottables();
    m_plot->setBackground(colors.background);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QVector<double> keys;
    QVector<double> notesValues;
    QVector<double> notesKeys;
    QVector<double> measuredKeys;
    QVector<double> measuredValues;
    // With more than one GPU: a series per GPU (gpuColumns), in place of "this GPU".
    const QStringList& gpus = m_comparison.gpuColumns;
    std::vector<QVector<double>> gpuKeys(static_cast<std::size_t>(gpus.size()));
    std::vector<QVector<double>> gpuValues(static_cast<std::size_t>(gpus.size()));
    for (int i = 0; i < static_cast<int>(m_comparison.rows.size()); ++i) {
        const NotesComparisonRow& row = m_comparison.rows[static_cast<std::size_t>(i)];
        ticker->addTick(i + 1, row.label);
        if (row.notes) {
            notesKeys << i + 1;
            notesValues << *row.notes;
        } else if (m_comparison.notesRows == 0 && row.model) {
            // No number in the notes: the left series is the model's count for one warp.
            notesKeys << i + 1;
            notesValues << *row.model;
        }
        if (row.measured) {
            measuredKeys << i + 1;
            measuredValues << *row.measured;
        }
        if (!gpus.isEmpty()) {
            const auto& perGpu = m_comparison.perGpu[static_cast<std::size_t>(i)];
            for (std::size_t g = 0; g < perGpu.size() && g < gpuKeys.size(); ++g) {
                if (perGpu[g].measured) {
                    gpuKeys[g] << i + 1;
                    gpuValues[g] << *perGpu[g].measured;
                }
            }
        }
    }
    if (!gpus.isEmpty()) {
        // The right axis (or the shared one) spans every GPU's bars.
        measuredValues.clear();
        for (const QVector<double>& values : gpuValues) {
            measuredValues << values;
        }
    }
    const QString unit = quantityUnit(experiment->quantity);
    // Bandwidth and time differ by an order of magnitude or more between the notes' GPU and
    // today's: each gets its own axis (left: the notes, right: this GPU), so both shapes show.
    // Efficiencies share one axis in percent.
    const bool modelSeries = m_comparison.notesRows == 0 && !m_comparison.modelName.isEmpty();
    const bool ownAxes = experiment->quantity == NotesQuantity::Bandwidth ||
                         experiment->quantity == NotesQuantity::Time || modelSeries;
    QCPAxis* bottom = m_plot->xAxis;
    QCPAxis* notesAxis = m_plot->yAxis;
    QCPAxis* measuredAxis = ownAxes ? m_plot->yAxis2 : m_plot->yAxis;
    // This GPU's axis only with this GPU's bars: without them it would scale nothing (0 to 1).
    const bool measuredAxisShown = ownAxes && !measuredValues.isEmpty();
    m_plot->yAxis2->setVisible(measuredAxisShown);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2}) {
        styleChartAxis(axis, colors);
    }
    bottom->setTicker(ticker);
    bottom->setLabel(experiment->axisLabel);
    bottom->setRange(0.4, m_comparison.rows.size() + 0.6);
    const QString notesName = m_comparison.notesRows > 0
                                  ? tr("notes (%1)").arg(m_comparison.notesGpu)
                              : modelSeries ? m_comparison.modelName
                                            : tr("notes: no number");
    const QString measuredName = !gpus.isEmpty() ? QString()
                                 : m_comparison.measuredGpu.isEmpty()
                                     ? tr("this GPU: not measured")
                                     : tr("this GPU (%1)").arg(m_comparison.measuredGpu);
    if (modelSeries) {
        notesAxis->setLabel(tr("model, per warp"));
        measuredAxis->setLabel(gpus.isEmpty() ? tr("this GPU, %1").arg(unit)
                                              : tr("each GPU, %1").arg(unit));
    } else if (ownAxes) {
        notesAxis->setLabel(tr("notes, %1").arg(unit));
        measuredAxis->setLabel(gpus.isEmpty() ? tr("this GPU, %1").arg(unit)
                                              : tr("each GPU, %1").arg(unit));
    } else {
        notesAxis->setLabel(unit);
    }
    // The bars of one row share 0.76 of a tick: the notes' and each GPU's side by side.
    const double barWidth = 0.76 / static_cast<double>(1 + std::max<qsizetype>(1, gpus.size()));
    auto* group = new QCPBarsGroup(m_plot);
    auto* notesBars = new QCPBars(bottom, notesAxis);
    notesBars->setName(notesName);
    notesBars->setPen(QPen(colors.group(0).darker(130)));
    notesBars->setBrush(colors.groupFill(0));
    notesBars->setWidth(barWidth);
    notesBars->setData(notesKeys, notesValues, true);
    notesBars->setBarsGroup(group);
    if (notesKeys.isEmpty()) {
        // A series with no bars has no place in the legend ("notes: no number" says so there
        // only when there is nothing else to name).
        notesBars->removeFromLegend();
    }
    // In a lecture the series appear one by one: the notes' bars, then the GPUs'.
    notesBars->setVisible(m_revealedSeries < 0 || m_revealedSeries >= 1);
    const bool gpuBarsShown = m_revealedSeries < 0 || m_revealedSeries >= 2;
    m_notesBars = static_cast<int>(notesKeys.size());
    m_gpuSeries.clear();
    if (gpus.isEmpty()) {
        auto* measuredBars = new QCPBars(bottom, measuredAxis);
        measuredBars->setName(measuredName);
        measuredBars->setPen(QPen(colors.group(1).darker(130)));
        // Light fill for the notes, full colour for this GPU: the two differ without colour too.
        measuredBars->setBrush(colors.group(1));
        measuredBars->setWidth(barWidth);
        measuredBars->setData(measuredKeys, measuredValues, true);
        measuredBars->setBarsGroup(group);
        measuredBars->setVisible(gpuBarsShown);
        m_measuredBars = static_cast<int>(measuredKeys.size());
        if (measuredKeys.isEmpty()) {
            // Not measured: no bars, so no legend entry either (the status line above the chart
            // says why this GPU's bars are missing).
            measuredBars->removeFromLegend();
        }
    } else {
        for (int g = 0; g < gpus.size(); ++g) {
            const auto at = static_cast<std::size_t>(g);
            auto* bars = new QCPBars(bottom, measuredAxis);
            bars->setName(gpus[g]);
            bars->setPen(QPen(colors.group(1 + g).darker(130)));
            bars->setBrush(colors.group(1 + g));
            bars->setWidth(barWidth);
            bars->setData(gpuKeys[at], gpuValues[at], true);
            bars->setBarsGroup(group);
            bars->setVisible(gpuBarsShown);
            m_measuredBars += static_cast<int>(gpuKeys[at].size());
            if (gpuKeys[at].isEmpty()) {
                bars->removeFromLegend();
            }
            m_gpuSeries.push_back({gpus[g], gpuValues[at]});
        }
    }
    const auto maxOf = [](const QVector<double>& values) {
        double top = 0;
        for (const double v : values) {
            top = std::max(top, v);
        }
        return top > 0 ? top * 1.15 : 1.0;
    };
    if (ownAxes) {
        notesAxis->setRange(0, maxOf(notesValues));
        measuredAxis->setRange(0, maxOf(measuredValues));
    } else {
        notesAxis->setRange(0, std::max(maxOf(notesValues), maxOf(measuredValues)));
    }
    styleChartLegend(m_plot, colors);
    // What the chart shows, for a picture of it drawn ahead (chartPicture()).
    QStringList key = {QString::fromStdString(experiment->id),
                       QString::number(m_revealedSeries),
                       notesName,
                       measuredName,
                       gpus.join(QLatin1Char('\t')),
                       bottom->label(),
                       notesAxis->label(),
                       measuredAxis->label(),
                       QString::number(ownAxes),
                       QString::number(measuredAxisShown),
                       m_plot->font().toString()};
    for (const QPalette::ColorRole role :
         {QPalette::Window, QPalette::WindowText, QPalette::Base, QPalette::Text, QPalette::Button,
          QPalette::ButtonText, QPalette::Highlight, QPalette::Mid}) {
        key << palette().color(role).name(QColor::HexArgb);
    }
    for (const NotesComparisonRow& row : m_comparison.rows) {
        key << row.label;
    }
    // The legend's entries (a series without bars has none).
    QStringList legendNames;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(m_plot->legend->item(i))) {
            legendNames << item->plottable()->name();
        }
    }
    key << legendNames.join(QLatin1Char('\t'));
    const auto numbers = [&key](const QVector<double>& values) {
        QStringList texts;
        for (const double v : values) {
            texts << QString::number(v, 'g', 17);
        }
        key << texts.join(QLatin1Char(' '));
    };
    numbers(notesKeys);
    numbers(notesValues);
    numbers(measuredKeys);
    numbers(measuredValues);
    for (std::size_t g = 0; g < gpuKeys.size(); ++g) {
        numbers(gpuKeys[g]);
        numbers(gpuValues[g]);
    }
    static_cast<NotesChart*>(m_plot)->setKey(key.join(QLatin1Char('\n')));
    // Under the chart, with the few pixels round it that keep its frame inside the figure.
    putLegendUnderChart(m_plot, 0);
    requestReplot();
#endif
}

void NotesView::requestReplot() {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    static_cast<NotesChart*>(m_plot)->requestReplot();
#endif
}

NotesView::ChartPicture NotesView::chartPicture() {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    auto* chart = static_cast<NotesChart*>(m_plot);
    // Laid out now, as a shown chart's resize would (a hidden view gets its resize events late).
    chart->setViewport(chart->rect());
    if (chart->bufferDevicePixelRatio() != chart->devicePixelRatioF()) {
        chart->setBufferDevicePixelRatio(chart->devicePixelRatioF());
    }
    chart->replot(QCustomPlot::rpQueuedRefresh);
    return ChartPicture{chart->key(), chart->compose()};
#else
    return {};
#endif
}

void NotesView::adoptChartPicture(ChartPicture picture) {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    static_cast<NotesChart*>(m_plot)->adopt(std::move(picture));
#else
    Q_UNUSED(picture);
#endif
}

bool NotesView::chartPaintedFromPicture() const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    return static_cast<const NotesChart*>(m_plot)->paintedFromPicture();
#else
    return false;
#endif
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
constexpr bool kVectorChart = true;
#else
constexpr bool kVectorChart = false;
#endif

bool NotesView::exportFigure(const QString& path, QSize size, QString* error) {
    return writeChartFigure(
        path, size, m_title->text(), [this](QPainter& painter, QSize at) { render(painter, at); },
        [this](QPainter& painter, QSize at) { renderFigure(painter, at, kVectorChart); }, error);
}

void NotesView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        fillChart();
    }
}

} // namespace warpscope::app
