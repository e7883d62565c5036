// Transfers: measure_transfers' answer read, the summary under the chart, and TransfersView
// (bandwidth against size, one curve per transfer mode, the notes' lines beside).
#include "experiments/transfersview.h"

#include "gpu/experimentresults.h"
#include "views/chartfigure.h"
#include "views/theme.h"

#include <warpscope/format.h>

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

namespace warpscope::app {

namespace {

constexpr const char* kContext = "TransfersMeasurement";

QString tr(const char* text) {
    return QCoreApplication::translate(kContext, text);
}

/// A ratio with two significant figures at most: "6.7", "53", "0.52".
QString ratioText(double value) {
    return value >= 10.0 ? fixedNumber(value, 0) : fixedNumber(value, value >= 1.0 ? 1 : 2);
}

QString bandwidthText(double gbs) {
    return fixedNumber(gbs, gbs >= 100 ? 0 : (gbs >= 10 ? 1 : 2));
}

/// One colour per family of modes (Okabe-Ito's seven); pageable and pinned copies, and managed
/// memory faulted or prefetched, differ by line and by open or filled markers.
int familyOf(experiments::TransferMode mode) {
    const QLatin1String name(experiments::transferModeName(mode));
    static const char* const families[] = {"h2d",      "d2h",      "both",   "sum_device",
                                           "sum_zero", "sum_copy", "managed"};
    for (int i = 0; i < 7; ++i) {
        if (name.startsWith(QLatin1String(families[i]))) {
            return i;
        }
    }
    return 6;
}

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
/// A double-headed vertical bracket from `low` to `high` GB/s at `x`, labelled beside it.
void addGap(QCustomPlot* plot, double x, double low, double high, const QString& text,
            const QColor& color) {
    auto* line = new QCPItemLine(plot);
    line->start->setCoords(x, low);
    line->end->setCoords(x, high);
    line->setHead(QCPLineEnding::esSpikeArrow);
    line->setTail(QCPLineEnding::esSpikeArrow);
    line->setPen(QPen(color, 1.4));
    auto* label = addChartText(plot);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    label->position->setCoords(x * 1.15, std::sqrt(low * high));
    label->setText(text);
    label->setColor(color);
}
#endif

constexpr double kHoverPixels = 12.0;

} // namespace

QString formatTransferBytes(qint64 bytes) {
    return QString::fromStdString(warpscope::formatBytes(bytes)); // as the probe writes sizes
}

TransferSummary summarizeTransfers(const TransferResults* results) {
    TransferSummary summary;
    const double notesRatio = NotesTransferFigures::deviceMemoryGBs / NotesTransferFigures::pcieGBs;
    const QString notes =
        tr("The notes' machine (Figure 4-3): device memory at %1 GB/s, the PCIe "
           "Gen2 bus at %2 GB/s, %3× apart.")
            .arg(fixedNumber(NotesTransferFigures::deviceMemoryGBs, 0),
                 fixedNumber(NotesTransferFigures::pcieGBs, 0), ratioText(notesRatio));
    using experiments::TransferCurve;
    using experiments::TransferMode;
    const experiments::TransferMeasurement* measured = results ? &results->measurement : nullptr;
    const TransferCurve* pinned = measured ? measured->curve(TransferMode::H2dPinned) : nullptr;
    if (results == nullptr || pinned == nullptr || pinned->points.empty()) {
        summary.text =
            notes + QLatin1Char(' ') +
            (results == nullptr
                 ? tr("Nothing measured here yet: with a GPU, Measure transfers times copies from "
                      "pageable and pinned host memory and the sumArrays kernel over device, "
                      "zero-copy and managed memory, and draws them against these lines.")
                 : tr("These results hold no pinned host-to-device copies to compare with."));
        return summary;
    }
    const TransferCurve* pageable = measured->curve(TransferMode::H2dPageable);
    const TransferCurve* zeroCopy = measured->curve(TransferMode::SumZeroCopy);
    // The largest size pinned copies were measured at (where the others have it too, if any).
    std::int64_t size = pinned->points.back().bytes;
    for (auto it = pinned->points.rbegin(); it != pinned->points.rend(); ++it) {
        if ((!pageable || pageable->at(it->bytes)) && (!zeroCopy || zeroCopy->at(it->bytes))) {
            size = it->bytes;
            break;
        }
    }
    summary.atBytes = size;
    const double link = pinned->at(size)->bandwidthGBs;
    summary.linkGBs = link;
    QStringList parts;
    if (pageable != nullptr && pageable->at(size) && pageable->at(size)->bandwidthGBs > 0) {
        summary.pinnedOverPageable = link / pageable->at(size)->bandwidthGBs;
        parts << tr("pinned copies are %1× faster than pageable here")
                     .arg(ratioText(*summary.pinnedOverPageable));
    }
    if (zeroCopy != nullptr && zeroCopy->at(size) && link > 0) {
        summary.zeroCopyShareOfPinned = zeroCopy->at(size)->bandwidthGBs / link;
        parts << tr("zero-copy reads reach %1 % of pinned copy bandwidth")
                     .arg(fixedNumber(100.0 * *summary.zeroCopyShareOfPinned, 0));
    }
    if (measured->deviceCopyBandwidthGBs > 0 && link > 0) {
        summary.deviceOverLink = measured->deviceCopyBandwidthGBs / link;
        parts << tr("the device's own memory is %1× the link (%2 GB/s against %3 GB/s)")
                     .arg(ratioText(*summary.deviceOverLink),
                          fixedNumber(measured->deviceCopyBandwidthGBs, 0), fixedNumber(link, 1));
    }
    QString text = parts.join(QStringLiteral("; "));
    if (!text.isEmpty()) {
        text = tr("At %1, host to device: %2.").arg(formatTransferBytes(size), text);
    }
    summary.text = text + QLatin1Char(' ') + notes;
    return summary;
}

TransfersView::TransfersView(QWidget* parent)
    : ExperimentView(parent, QStringLiteral("transfers"), tr("Measure transfers"),
                     tr("Time copies, zero-copy and managed memory from 4 KiB to 1 GiB with the "
                        "probe (measure_transfers); takes about half a minute"),
                     240) {
    m_progress->setValue(0);
    m_controls->addStretch(1);
    addTitle();
    m_plot = addCharts({{QStringLiteral("transfersChart"), 260, 1,
                         [this](const QPointF& pixel) { return hoverText(pixel); }}},
                       tr("The chart is unavailable: this build did not find QCustomPlot. The "
                          "summary below has the main numbers."))
                 .front();
    m_figure.chartsUnavailable = tr("(the chart needs QCustomPlot)");
    finishLayout();
    refresh();
}

void TransfersView::setResults(std::optional<TransferResults> results) {
    m_results = std::move(results);
    refresh();
}

void TransfersView::refresh() {
    const TransferResults* results = m_results ? &*m_results : nullptr;
    m_summary = summarizeTransfers(results);
    const experiments::TransferMeasurement* measured = results ? &results->measurement : nullptr;
    if (measured != nullptr) {
        const QString device = qString(measured->deviceName);
        const QString link = qString(measured->link.description);
        m_title->setText(tr("Host and device transfers — %1, %2")
                             .arg(device.isEmpty() ? tr("unnamed GPU") : device,
                                  link.isEmpty() ? tr("link unknown") : link));
    } else {
        m_title->setText(tr("Host and device transfers — the course notes' figures"));
    }
    m_summaryLabel->setText(m_summary.text);
    QStringList status;
    if (measured != nullptr) {
        status << tr("Medians of %n timed repetition(s) per point; hover a point for its spread.",
                     "", measured->repetitions);
        if (!measured->capNote.empty()) {
            status << qString(measured->capNote);
        }
    }
    if (!m_gpuStatus.isEmpty()) {
        status << m_gpuStatus;
    } else if (results == nullptr) {
        status << tr("Not measured yet: press Measure transfers.");
    }
    m_status->setText(status.join(QLatin1Char(' ')));
    fillChart();
}

void TransfersView::fillChart() {
    m_curves = 0;
    m_references = 0;
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    const ViewColors colors = ViewColors::fromPalette(palette());
    clearChart(m_plot, colors, true);
    const experiments::TransferMeasurement* results = m_results ? &m_results->measurement : nullptr;

    std::int64_t smallest = 4 * 1024;
    std::int64_t largest = std::int64_t{1} << 30;
    double lowest = NotesTransferFigures::pcieGBs;
    double highest = NotesTransferFigures::deviceMemoryGBs;
    if (results != nullptr) {
        bool any = false;
        for (const experiments::TransferCurve& curve : results->curves) {
            for (const experiments::TransferPoint& point : curve.points) {
                smallest = any ? std::min(smallest, point.bytes) : point.bytes;
                largest = any ? std::max(largest, point.bytes) : point.bytes;
                if (point.bandwidthGBs > 0) {
                    lowest = std::min(lowest, point.bandwidthGBs);
                    highest = std::max(highest, point.bandwidthGBs);
                }
                any = true;
            }
        }
        highest = std::max(highest, results->deviceCopyBandwidthGBs);
    }
    const double left = static_cast<double>(smallest) / 1.6;
    const double right = static_cast<double>(largest) * 1.6;

    QSharedPointer<QCPAxisTickerText> sizes(new QCPAxisTickerText);
    for (qint64 bytes = 1024; bytes <= (qint64{1} << 40); bytes *= 4) {
        sizes->addTick(static_cast<double>(bytes), formatTransferBytes(bytes));
    }
    m_plot->xAxis->setTicker(sizes);
    m_plot->xAxis->setLabel(tr("size (bytes of one buffer or array)"));
    m_plot->xAxis->setRange(left, right);
    QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
    logTicker->setLogBase(10);
    logTicker->setSubTickCount(8);
    m_plot->yAxis->setTicker(logTicker);
    m_plot->yAxis->setNumberFormat(QStringLiteral("gb"));
    m_plot->yAxis->setNumberPrecision(6);
    m_plot->yAxis->setLabel(tr("bandwidth, GB/s (1e9 bytes per second)"));
    m_plot->yAxis->setRange(lowest / 2.0, highest * 2.5);

    // Reference lines, labelled at their right end.
    struct Reference {
        double gbs;
        QString name;
        QColor color;
        Qt::PenStyle style;
    };
    std::vector<Reference> references;
    if (results != nullptr && results->deviceCopyBandwidthGBs > 0) {
        references.push_back({results->deviceCopyBandwidthGBs,
                              tr("this device's memory, copy (measured): %1 GB/s")
                                  .arg(bandwidthText(results->deviceCopyBandwidthGBs)),
                              colors.text, Qt::SolidLine});
    }
    if (results != nullptr && results->link.theoreticalGBs > 0) {
        references.push_back({results->link.theoreticalGBs,
                              tr("this link, theoretical per direction: %1 GB/s")
                                  .arg(bandwidthText(results->link.theoreticalGBs)),
                              colors.mutedText, Qt::DashDotLine});
    }
    references.push_back({NotesTransferFigures::deviceMemoryGBs,
                          tr("notes: device memory (GDDR5) %1 GB/s")
                              .arg(fixedNumber(NotesTransferFigures::deviceMemoryGBs, 0)),
                          colors.warning, Qt::DashLine});
    references.push_back(
        {NotesTransferFigures::pcieGBs,
         tr("notes: PCIe Gen2 bus %1 GB/s").arg(fixedNumber(NotesTransferFigures::pcieGBs, 0)),
         colors.warning, Qt::DotLine});
    for (const Reference& reference : references) {
        QCPGraph* line = m_plot->addGraph();
        line->setName(reference.name);
        QPen pen(reference.color, 1.6, reference.style);
        line->setPen(pen);
        line->setData(QVector<double>{left, right}, QVector<double>{reference.gbs, reference.gbs},
                      true);
        auto* label = addChartText(m_plot);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(right / 1.05, reference.gbs * 1.05);
        label->setText(reference.name);
        label->setColor(reference.color);
        // Above the curves, on the chart's background: a curve that crosses the line near its
        // right end passes behind the label instead of through its words.
        label->setObjectName(QStringLiteral("transfersReferenceLabel"));
        label->setLayer(QStringLiteral("legend"));
        label->setBrush(colors.background);
        label->setPadding(QMargins(3, 1, 3, 1));
        ++m_references;
    }

    if (results != nullptr) {
        const QCPScatterStyle::ScatterShape shapes[] = {
            QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
            QCPScatterStyle::ssDiamond};
        for (const experiments::TransferCurve& curve : results->curves) {
            if (curve.points.empty()) {
                continue;
            }
            QVector<double> x;
            QVector<double> y;
            for (const experiments::TransferPoint& point : curve.points) {
                if (point.bandwidthGBs > 0) {
                    x << static_cast<double>(point.bytes);
                    y << point.bandwidthGBs;
                }
            }
            const int family = familyOf(curve.mode);
            const bool managed = experiments::transferModeIsManaged(curve.mode);
            const bool pageable = curve.mode == experiments::TransferMode::H2dPageable ||
                                  curve.mode == experiments::TransferMode::D2hPageable ||
                                  curve.mode == experiments::TransferMode::BothPageable ||
                                  curve.mode == experiments::TransferMode::ManagedFault;
            QCPGraph* graph = m_plot->addGraph();
            graph->setName(QString::fromUtf8(experiments::transferModeLabel(curve.mode)));
            QPen pen(colors.group(family), 2.0,
                     pageable  ? Qt::DashLine
                     : managed ? Qt::DashDotLine
                               : Qt::SolidLine);
            graph->setPen(pen);
            QCPScatterStyle scatter(shapes[family % 4], 7);
            scatter.setPen(QPen(colors.group(family), 1.5));
            scatter.setBrush(pageable ? QBrush(colors.background) : QBrush(colors.group(family)));
            graph->setScatterStyle(scatter);
            graph->setData(x, y, true);
            ++m_curves;
        }
        if (m_summary.deviceOverLink) {
            addGap(m_plot, static_cast<double>(smallest) * 1.3, m_summary.linkGBs,
                   results->deviceCopyBandwidthGBs,
                   tr("%1× here").arg(fixedNumber(*m_summary.deviceOverLink, 0)), colors.text);
        }
    } else {
        auto* note = addChartText(m_plot);
        note->setPositionAlignment(Qt::AlignHCenter | Qt::AlignVCenter);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setCoords(0.5, 0.35);
        note->setText(tr("No measurement on this machine: the lines are the notes' figures.\n"
                         "With a GPU, Measure transfers draws this machine's curves here."));
        note->setColor(colors.mutedText);
    }

    addGap(m_plot, static_cast<double>(smallest) * (results != nullptr ? 2.6 : 1.3),
           NotesTransferFigures::pcieGBs, NotesTransferFigures::deviceMemoryGBs,
           tr("%1× in the notes")
               .arg(fixedNumber(
                   NotesTransferFigures::deviceMemoryGBs / NotesTransferFigures::pcieGBs, 0)),
           colors.warning);
    styleChartLegend(m_plot, colors);
    putLegendUnderChart(m_plot, 4);
    requestChartReplot(m_plot);
#endif
}

QString TransfersView::pointText(const experiments::TransferCurve& curve,
                                 const experiments::TransferPoint& point) {
    const double spread =
        point.medianMs > 0 ? 100.0 * (point.maxMs - point.minMs) / point.medianMs : 0.0;
    QString text = tr("%1, %2: %3 GB/s")
                       .arg(QString::fromUtf8(experiments::transferModeLabel(curve.mode)),
                            formatTransferBytes(point.bytes), bandwidthText(point.bandwidthGBs));
    text += QLatin1Char('\n') + tr("median %1 ms of %2 (%3 to %4 ms, spread %5 %)")
                                    .arg(fixedNumber(point.medianMs, 4))
                                    .arg(point.samples)
                                    .arg(fixedNumber(point.minMs, 4), fixedNumber(point.maxMs, 4),
                                         fixedNumber(spread, 1));
    text +=
        QLatin1Char('\n') +
        tr("GB/s counts %1").arg(QString::fromUtf8(experiments::transferBytesMeaning(curve.mode)));
    return text;
}

QString TransfersView::chartStateKey() const {
    // fillChart() draws the results (or the notes' lines alone).
    return QStringLiteral("results %1").arg(answerDigest(m_results ? &m_results->answer : nullptr));
}

QString TransfersView::hoverText(const QPointF& pixel) const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    if (!m_results) {
        return {};
    }
    double best = kHoverPixels;
    const experiments::TransferCurve* bestCurve = nullptr;
    const experiments::TransferPoint* bestPoint = nullptr;
    for (const experiments::TransferCurve& curve : m_results->measurement.curves) {
        for (const experiments::TransferPoint& point : curve.points) {
            if (point.bandwidthGBs <= 0) {
                continue;
            }
            const double px = m_plot->xAxis->coordToPixel(static_cast<double>(point.bytes));
            const double py = m_plot->yAxis->coordToPixel(point.bandwidthGBs);
            const double distance = std::hypot(px - pixel.x(), py - pixel.y());
            if (distance <= best) {
                best = distance;
                bestCurve = &curve;
                bestPoint = &point;
            }
        }
    }
    return bestCurve != nullptr ? pointText(*bestCurve, *bestPoint) : QString();
#else
    Q_UNUSED(pixel);
    return {};
#endif
}

} // namespace warpscope::app
