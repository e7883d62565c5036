// NotesView's chart: the notes' bars and this GPU's filled into the PictureChart, and the pictures
// of it drawn ahead on a twin view (lecture mode) and adopted.
#include "views/notesview.h"

#include "views/chartfigure.h"
#include "views/picturechart.h"

#include "gpu/kernelmeasurement.h"
#include "views/theme.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <vector>

namespace warpscope::app {

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
    static_cast<PictureChart*>(m_plot)->setKey(key.join(QLatin1Char('\n')));
    // Under the chart, with the few pixels round it that keep its frame inside the figure.
    putLegendUnderChart(m_plot, 0);
    requestReplot();
#endif
}

void NotesView::requestReplot() {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    static_cast<PictureChart*>(m_plot)->requestReplot();
#endif
}

NotesView::ChartPicture NotesView::chartPicture() {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    auto* chart = static_cast<PictureChart*>(m_plot);
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
    static_cast<PictureChart*>(m_plot)->adopt(std::move(picture));
#else
    Q_UNUSED(picture);
#endif
}

bool NotesView::chartPaintedFromPicture() const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    return static_cast<const PictureChart*>(m_plot)->paintedFromPicture();
#else
    return false;
#endif
}

} // namespace warpscope::app
