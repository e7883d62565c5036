// L2PersistenceView: hit rate or time against the window's size or hitRatio, measured and model.
#include "experiments/l2persistenceview.h"

#include "views/chartfigure.h"
#include "views/theme.h"

#include "warpscope/l2_persistence_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

#include <algorithm>
#include <cmath>
#include <map>

namespace warpscope::app {

namespace {

QString number(double value, int decimals) {
    return QLocale::c().toString(value, 'f', decimals);
}

constexpr double kHoverPixels = 12.0;

// The legend's names of the model's two kinds of number (warpscope::L2ModelKind).
QString predictionLabel() {
    return L2PersistenceView::tr("prediction (the notes' rule, exact on the H100)");
}
QString estimateLabel() {
    return L2PersistenceView::tr("estimate (no documented rule)");
}
constexpr double kMiB = 1024.0 * 1024.0;

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
/// A percent axis's ticks: none above 100 (a share or a hit rate), though the range goes higher
/// to leave room for the labels and the note above the curves.
class PercentTicker : public QCPAxisTicker {
protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        QVector<double> ticks = QCPAxisTicker::createTickVector(tickStep, range);
        ticks.removeIf([](double tick) { return tick > 100.0 + 1e-9; });
        return ticks;
    }
};
#endif

/// A series: the points of one curve, ordered along x.
struct Series {
    QString name;
    std::vector<const experiments::L2PersistencePoint*> points;
    int colour = 0;
    bool window = true;
};

} // namespace

L2PersistenceView::L2PersistenceView(QWidget* parent)
    : ExperimentView(parent, QStringLiteral("l2Persistence"), tr("Measure L2 persistence"),
                     tr("Re-read a region while streaming 2 GiB, with and without an access "
                        "policy window, over window sizes and hitRatios "
                        "(measure_l2_persistence)"),
                     240) {
    m_quantityBox = new QComboBox(this);
    m_quantityBox->setObjectName(QStringLiteral("l2PersistenceQuantity"));
    m_quantityBox->addItems(
        {tr("region's reads served by L2"), tr("L2 hit rate, all sectors"), tr("time per launch")});
    m_axisBox = new QComboBox(this);
    m_axisBox->setObjectName(QStringLiteral("l2PersistenceAxis"));
    m_axisBox->addItems({tr("against window size"), tr("against hitRatio")});
    m_controls->addStretch(1);
    m_controls->addWidget(m_quantityBox);
    m_controls->addWidget(m_axisBox);
    addTitle();
    m_plot = addCharts({{QStringLiteral("l2PersistenceChart"), 260, 1,
                         [this](const QPointF& pixel) { return hoverText(pixel); }}},
                       tr("The chart is unavailable: this build did not find QCustomPlot. The "
                          "summary below has the main numbers."))
                 .front();
    // The chart keeps at least half the figure's height; the text below is cut if need be.
    m_figure.chartKeepsHalf = true;
    m_figure.chartsUnavailable = tr("(the chart needs QCustomPlot)");
    finishLayout();
    connect(m_quantityBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setQuantity(static_cast<Quantity>(index)); });
    connect(m_axisBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setAxis(static_cast<Axis>(index)); });
    refresh();
}

void L2PersistenceView::setResults(std::optional<L2PersistenceResults> results) {
    m_results = std::move(results);
    refresh();
}

void L2PersistenceView::setQuantity(Quantity quantity) {
    m_quantity = quantity;
    if (m_quantityBox->currentIndex() != static_cast<int>(quantity)) {
        m_quantityBox->setCurrentIndex(static_cast<int>(quantity));
    }
    fillChart();
}

void L2PersistenceView::setAxis(Axis axis) {
    m_axis = axis;
    if (m_axisBox->currentIndex() != static_cast<int>(axis)) {
        m_axisBox->setCurrentIndex(static_cast<int>(axis));
    }
    fillChart();
}

void L2PersistenceView::refresh() {
    m_shown = m_results ? *m_results : modelL2Persistence();
    m_summary = summarizeL2Persistence(m_shown);
    if (m_results) {
        m_title->setText(tr("The L2 persistence window — %1, %2 set aside of %3")
                             .arg(m_results->measurement.device.name.empty()
                                      ? tr("unnamed GPU")
                                      : qString(m_results->measurement.device.name),
                                  formatL2Bytes(m_results->measurement.setAsideBytes),
                                  formatL2Bytes(m_results->measurement.device.l2Bytes)));
    } else {
        m_title->setText(tr("The L2 persistence window — the model and the notes' statement"));
    }
    m_summaryLabel->setText(m_summary.text);
    m_summaryLabel->setToolTip(m_summary.details);
    QStringList status;
    if (m_results) {
        status << tr("Medians of %n timed launch(es) per point after one warm-up; hover a point "
                     "for its spread. Solid: measured; dashed: the model's estimate (no "
                     "documented rule); ringed crosses: its prediction (the notes' rule).",
                     "", m_results->measurement.repetitions);
        if (!m_results->measurement.capNote.empty()) {
            status << qString(m_results->measurement.capNote);
        }
    }
    if (!m_gpuStatus.isEmpty()) {
        status << m_gpuStatus;
    } else if (!m_results) {
        status << tr("Not measured yet: press Measure L2 persistence.");
    }
    m_status->setText(status.join(QLatin1Char(' ')));
    fillChart();
}

double L2PersistenceView::valueOf(const experiments::L2PersistencePoint& point, bool model) const {
    switch (m_quantity) {
    case Quantity::RegionHitRate:
        return model ? point.modelRegionHitPct : point.regionHitPct;
    case Quantity::L2HitRate:
        return model ? point.modelHitRatePct : point.hitRatePct;
    case Quantity::Time:
        return point.medianMs;
    }
    return 0.0;
}

double L2PersistenceView::xOf(const experiments::L2PersistencePoint& point) const {
    return m_axis == Axis::WindowSize ? static_cast<double>(point.windowBytes) / kMiB
                                      : point.hitRatio;
}

void L2PersistenceView::fillChart() {
    m_curves = 0;
    m_modelCurves = 0;
    m_predictionMarkers = 0;
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    const ViewColors colors = ViewColors::fromPalette(palette());
    clearChart(m_plot, colors);
    const L2PersistenceResults& shown = m_shown;
    const bool measured = m_results.has_value();
    const bool time = m_quantity == Quantity::Time;
    const bool region = m_quantity == Quantity::RegionHitRate;

    // The series: by hitRatio (none, each ratio, tuned) against size, or by size against ratio.
    std::vector<Series> series;
    if (m_axis == Axis::WindowSize) {
        std::map<long long, Series> byRatio; // hitRatio x 1e6; -1 none, 2e6 tuned
        for (const experiments::L2PersistencePoint& point : shown.measurement.points) {
            const long long key = point.window ? std::llround(point.hitRatio * 1e6) : -1;
            Series& s = byRatio[key];
            s.window = point.window;
            s.name =
                point.window ? tr("hitRatio %1").arg(number(point.hitRatio, 2)) : tr("no window");
            s.points.push_back(&point);
            if (point.tuned) {
                Series& t = byRatio[2000000];
                t.name = tr("tuned hitRatio, min(1, set-aside / size)");
                t.points.push_back(&point);
            }
        }
        int colour = 0;
        for (auto& [key, s] : byRatio) {
            // Tuned values below 1 are measured once each: they belong to the tuned curve only.
            if (key >= 0 && key < 2000000 &&
                std::all_of(s.points.begin(), s.points.end(),
                            [](const experiments::L2PersistencePoint* p) { return p->tuned; }) &&
                key != 250000 && key != 500000 && key != 750000 && key != 1000000) {
                continue;
            }
            s.colour = key == -1 ? 6 : colour++;
            series.push_back(s);
        }
    } else {
        std::map<qint64, Series> bySize;
        for (const experiments::L2PersistencePoint& point : shown.measurement.points) {
            Series& s = bySize[point.windowBytes];
            s.name = formatL2Bytes(point.windowBytes);
            s.points.push_back(&point);
        }
        int colour = 0;
        for (auto& [size, s] : bySize) {
            s.colour = colour++;
            std::sort(
                s.points.begin(), s.points.end(),
                [](const experiments::L2PersistencePoint* a,
                   const experiments::L2PersistencePoint* b) { return a->hitRatio < b->hitRatio; });
            series.push_back(s);
        }
    }

    double highest = time ? 0.0 : 100.0;
    double right = 1.0;
    for (const experiments::L2PersistencePoint& point : shown.measurement.points) {
        right = std::max(right, xOf(point));
        if (time) {
            highest = std::max(highest, point.maxMs);
        }
    }
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    m_plot->xAxis->setLabel(m_axis == Axis::WindowSize ? tr("region = window size (num_bytes), MiB")
                                                       : tr("hitRatio (0: no window)"));
    m_plot->xAxis->setRange(0.0, right * 1.05);
    m_plot->yAxis->setLabel(m_quantity == Quantity::RegionHitRate
                                ? tr("the region's reads served by L2, % (from DRAM bytes)")
                            : m_quantity == Quantity::L2HitRate
                                ? tr("L2 hit rate, all sectors, % (lts__t_sector_hit_rate)")
                                : tr("time per launch, ms (median)"));
    // Without a measurement the note goes in a band above the curves (it lay over them).
    const bool noteAbove = !measured && !time;
    m_plot->yAxis->setRange(0.0, highest * (noteAbove ? 1.34 : 1.08) + (time ? 0.01 : 0.0));
    m_plot->yAxis->setTicker(time ? QSharedPointer<QCPAxisTicker>(new QCPAxisTicker)
                                  : QSharedPointer<QCPAxisTicker>(new PercentTicker));

    const QCPScatterStyle::ScatterShape shapes[] = {
        QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond};
    for (const Series& s : series) {
        const QColor colour = s.window ? colors.group(s.colour) : colors.text; // none: plain
        if (measured) {
            QVector<double> x;
            QVector<double> y;
            for (const experiments::L2PersistencePoint* point : s.points) {
                if (time || point->countersMeasured) {
                    x << xOf(*point);
                    y << valueOf(*point, false);
                }
            }
            if (!x.isEmpty()) {
                QCPGraph* graph = m_plot->addGraph();
                graph->setName(s.name);
                graph->setPen(QPen(colour, 2.0));
                QCPScatterStyle scatter(shapes[s.colour % 4], 7);
                scatter.setPen(QPen(colour, 1.5));
                scatter.setBrush(QBrush(colour));
                graph->setScatterStyle(scatter);
                graph->setData(x, y, true);
                ++m_curves;
            }
        }
        if (!time) {
            // The model's numbers: estimates (no documented rule) dashed, with hollow markers;
            // predictions (the window holds the whole region: the notes' rule) as ringed crosses
            // only where the rule holds. The L2 hit rate is an estimate everywhere.
            QVector<double> x;
            QVector<double> y;
            QVector<double> px;
            QVector<double> py;
            for (const experiments::L2PersistencePoint* point : s.points) {
                const bool predicted = region && modelRegionPredicted(*point);
                x << xOf(*point);
                y << (predicted ? qQNaN() : valueOf(*point, true));
                if (predicted) {
                    px << xOf(*point);
                    py << valueOf(*point, true);
                }
            }
            QCPGraph* estimate = m_plot->addGraph();
            estimate->setName(measured ? tr("%1, %2").arg(s.name, estimateLabel()) : s.name);
            estimate->setPen(QPen(colour, measured ? 1.2 : 2.0, Qt::DashLine));
            QCPScatterStyle hollow(shapes[s.colour % 4], measured ? 5 : 6);
            hollow.setPen(QPen(colour, 1.2));
            hollow.setBrush(QBrush(colors.background));
            estimate->setScatterStyle(hollow);
            estimate->setData(x, y, true);
            if (measured) {
                estimate->removeFromLegend();
            }
            ++m_modelCurves;
            if (!px.isEmpty()) {
                QCPGraph* prediction = m_plot->addGraph();
                prediction->setName(tr("%1, %2").arg(s.name, predictionLabel()));
                prediction->setLineStyle(QCPGraph::lsNone);
                prediction->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossCircle,
                                                            QPen(colour, 1.5), Qt::NoBrush, 14));
                prediction->setData(px, py, true);
                prediction->removeFromLegend();
                m_predictionMarkers += static_cast<int>(px.size());
            }
        }
    }
    if (!time) {
        // What the two kinds of model number look like, once each in the legend.
        if (m_predictionMarkers > 0) {
            QCPGraph* key = m_plot->addGraph();
            key->setName(tr("model: %1").arg(predictionLabel()));
            key->setLineStyle(QCPGraph::lsNone);
            key->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossCircle,
                                                 QPen(colors.text, 1.5), Qt::NoBrush, 14));
        }
        QCPGraph* key = m_plot->addGraph();
        key->setName(tr("model: %1").arg(estimateLabel()));
        key->setPen(QPen(colors.text, 1.2, Qt::DashLine));
    }
    if (m_axis == Axis::WindowSize && shown.measurement.setAsideBytes > 0) {
        // The set-aside size: hitRatio 1 fits up to here.
        auto* line = new QCPItemStraightLine(m_plot);
        const double x = static_cast<double>(shown.measurement.setAsideBytes) / kMiB;
        line->point1->setCoords(x, 0.0);
        line->point2->setCoords(x, 1.0);
        line->setPen(QPen(colors.warning, 1.2, Qt::DotLine));
        auto* label = addChartText(m_plot);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->position->setCoords(x * 1.01, highest * 1.06 + (time ? 0.01 : 0.0));
        label->setText(tr("set aside %1").arg(formatL2Bytes(shown.measurement.setAsideBytes)));
        label->setColor(colors.warning);
    }
    if (!measured || (time && !measured)) {
        auto* note = addChartText(m_plot);
        note->setObjectName(QStringLiteral("l2NoMeasurementNote"));
        note->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setCoords(0.5, 0.01);
        note->setText(time ? tr("No measurement on this machine: the model gives shares and hit "
                                "rates,\nnot times. Choose one of those, or measure on a GPU.")
                           : tr("No measurement here: the model for an H100 (ringed crosses: "
                                "predictions,\ndashed: estimates). With a GPU, Measure draws "
                                "measured curves."));
        note->setColor(colors.mutedText);
    }
    styleChartLegend(m_plot, colors);
    putLegendUnderChart(m_plot, 4); // rows of four, fewer where they do not fit
    requestChartReplot(m_plot);
#endif
}

QString L2PersistenceView::pointText(const L2PersistenceResults& results,
                                     const experiments::L2PersistencePoint& point) {
    QString text =
        tr("%1, hitRatio %2").arg(formatL2Bytes(point.windowBytes), hitRatioLabel(point));
    if (point.samples > 0) {
        const double spread =
            point.medianMs > 0 ? 100.0 * (point.maxMs - point.minMs) / point.medianMs : 0.0;
        text += QLatin1Char('\n') + tr("median %1 ms of %2 (%3 to %4 ms, spread %5 %), %6 GB/s")
                                        .arg(number(point.medianMs, 4))
                                        .arg(point.samples)
                                        .arg(number(point.minMs, 4), number(point.maxMs, 4),
                                             number(spread, 1), number(point.bandwidthGBs, 0));
    }
    const QString regionKind = modelRegionPredicted(point) ? tr("prediction") : tr("estimate");
    if (point.countersMeasured) {
        text +=
            QLatin1Char('\n') +
            tr("the region's reads served by L2 %1 % (model's %2 %3 %); L2 hit rate %4 % "
               "(model's estimate %5 %); DRAM read %6")
                .arg(number(point.regionHitPct, 2), regionKind, number(point.modelRegionHitPct, 2),
                     number(point.hitRatePct, 2), number(point.modelHitRatePct, 2),
                     formatL2Bytes(static_cast<qint64>(point.dramReadBytes)));
    } else {
        text += QLatin1Char('\n') + tr("model: the region's reads served by L2 %1 % (%2), L2 hit "
                                       "rate %3 % (estimate)")
                                        .arg(number(point.modelRegionHitPct, 1), regionKind,
                                             number(point.modelHitRatePct, 2));
    }
    text += QLatin1Char('\n') +
            tr("The region's share: %1.")
                .arg(QString::fromUtf8(l2ModelBasisText(results.modelBasis(point))));
    text += QLatin1Char('\n') +
            tr("The L2 hit rate: %1.").arg(QString::fromUtf8(l2HitRateEstimateText()));
    if (point.window && results.measurement.setAsideBytes > 0) {
        const double persisting = point.hitRatio * static_cast<double>(point.windowBytes);
        text += QLatin1Char('\n') +
                (persisting <= static_cast<double>(results.measurement.setAsideBytes)
                     ? tr("hitRatio x size = %1 fits the %2 set aside")
                     : tr("hitRatio x size = %1 exceeds the %2 set aside: thrashing"))
                    .arg(formatL2Bytes(static_cast<qint64>(persisting)),
                         formatL2Bytes(results.measurement.setAsideBytes));
    }
    return text;
}

QString L2PersistenceView::chartStateKey() const {
    // fillChart() draws the results (or the model) as the quantity and the axis choose.
    return QStringLiteral("quantity %1, axis %2, results %3")
        .arg(static_cast<int>(m_quantity))
        .arg(static_cast<int>(m_axis))
        .arg(answerDigest(m_results ? &m_results->answer : nullptr));
}

QString L2PersistenceView::hoverText(const QPointF& pixel) const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    double best = kHoverPixels;
    const experiments::L2PersistencePoint* found = nullptr;
    const bool measured = m_results.has_value();
    for (const experiments::L2PersistencePoint& point : m_shown.measurement.points) {
        if (measured && m_quantity != Quantity::Time && !point.countersMeasured) {
            continue;
        }
        if (!measured && m_quantity == Quantity::Time) {
            continue;
        }
        const double px = m_plot->xAxis->coordToPixel(xOf(point));
        const double py = m_plot->yAxis->coordToPixel(valueOf(point, !measured));
        const double distance = std::hypot(px - pixel.x(), py - pixel.y());
        if (distance <= best) {
            best = distance;
            found = &point;
        }
    }
    return found != nullptr ? pointText(m_shown, *found) : QString();
#else
    Q_UNUSED(pixel);
    return {};
#endif
}

} // namespace warpscope::app
