// Streams: measure_streams' answer read, the comparison with the model under the timeline, and
// StreamsView (the staged experiment's timeline and speed-up, measured beside the model).
#include "experiments/streamsview.h"

#include "gpu/experimentresults.h"
#include "views/chartfigure.h"
#include "views/theme.h"

#include <warpscope/format.h>

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

namespace warpscope::app {

namespace {

constexpr const char* kContext = "StreamsMeasurement";

QString tr(const char* text) {
    return QCoreApplication::translate(kContext, text);
}

QString opLabel(StreamOp op) {
    switch (op) {
    case StreamOp::H2d:
        return QStringLiteral("H2D");
    case StreamOp::Kernel:
        return QStringLiteral("kernel");
    case StreamOp::D2h:
        return QStringLiteral("D2H");
    }
    return {};
}

QString bytesText(qint64 bytes) {
    return QString::fromStdString(
        warpscope::formatBytes(bytes, ByteFormat{ByteUnit::KiB, ByteUnit::MiB, ByteDecimals::One}));
}

/// A stream's colour: Okabe-Ito's seven, then grey for the eighth (the selector's last), so that
/// no two of eight streams share one; beyond eight they repeat.
QColor streamColor(const ViewColors& colors, int stream) {
    const int i = stream % 8;
    return i == 7 ? colors.mutedText : colors.group(i);
}

constexpr double kHoverPixels = 12.0;
constexpr double kBarHalfHeight = 0.36;
constexpr int kMaxSelectable = 8;

} // namespace

StreamsComparison compareStreams(const StreamsResults* held, int streams) {
    const experiments::StreamsMeasurement* results = held ? &held->measurement : nullptr;
    StreamsComparison comparison;
    comparison.streams = std::clamp(streams, 1, 64);
    comparison.modelOnly = results == nullptr;
    comparison.asyncEngineCount = results ? results->asyncEngineCount : kStreamsModelEngines;
    comparison.stages = results ? results->stages : streamsExampleStages();
    const StreamIssueOrder order = results ? results->order : StreamIssueOrder::PerStream;
    comparison.predicted =
        predictStreams(comparison.stages, comparison.streams, comparison.asyncEngineCount, order);
    comparison.limit = streamSpeedupLimit(comparison.stages, comparison.asyncEngineCount);
    const QString notes = QString::fromUtf8(streamsNotesStatement());
    const QString model =
        QString::fromStdString(streamsModelStatement(comparison.asyncEngineCount));
    if (results == nullptr) {
        comparison.text =
            tr("Model only (no measurement here): a device with %1 copy engines, copy in, kernel "
               "and copy out of 1 ms each. Over %2 stream(s) the model predicts %3 ms, a "
               "speed-up of %4× over one stream (at most %5× with many). %6 %7")
                .arg(comparison.asyncEngineCount)
                .arg(comparison.streams)
                .arg(fixedNumber(comparison.predicted.totalMs, 2),
                     fixedNumber(comparison.predicted.speedup, 2), fixedNumber(comparison.limit, 2),
                     model, notes);
        return comparison;
    }
    QString measured;
    if (const experiments::StreamsRun* run = results->run(comparison.streams)) {
        comparison.measuredSpeedup = results->speedup(*run);
        measured =
            tr("measured %1 ms, a speed-up of %2× over one stream; ")
                .arg(fixedNumber(run->totalMs, 3), fixedNumber(*comparison.measuredSpeedup, 2));
    } else {
        measured = tr("not measured at this count; ");
    }
    comparison.text =
        tr("%1 stream(s) on %2 (asyncEngineCount %3): %4the model predicts %5 ms, %6× (at most "
           "%7× with many streams), from the one-stream stages H2D %8 ms, kernel %9 ms, D2H %10 "
           "ms. %11 %12")
            .arg(comparison.streams)
            .arg(results->deviceName.empty() ? tr("an unnamed GPU") : qString(results->deviceName))
            .arg(results->asyncEngineCount)
            .arg(measured, fixedNumber(comparison.predicted.totalMs, 3),
                 fixedNumber(comparison.predicted.speedup, 2), fixedNumber(comparison.limit, 2),
                 fixedNumber(comparison.stages.h2dMs, 3),
                 fixedNumber(comparison.stages.kernelMs, 3),
                 fixedNumber(comparison.stages.d2hMs, 3), model, notes);
    return comparison;
}

StreamsView::StreamsView(QWidget* parent)
    : ExperimentView(parent, QStringLiteral("streams"), tr("Measure streams"),
                     tr("Copy 64 MiB in from pinned memory, run a kernel over it and copy it "
                        "out, on 1 to 8 streams, with the probe (measure_streams); a few "
                        "seconds"),
                     200) {
    auto* streamsLabel = new QLabel(tr("Streams:"), this);
    m_streams = new QSpinBox(this);
    m_streams->setObjectName(QStringLiteral("streamsSelector"));
    m_streams->setRange(1, kMaxSelectable);
    m_streams->setValue(4);
    m_streams->setToolTip(tr("The stream count whose timeline is drawn"));
    streamsLabel->setBuddy(m_streams);
    m_controls->addSpacing(16);
    m_controls->addWidget(streamsLabel);
    m_controls->addWidget(m_streams);
    m_controls->addStretch(1);
    addTitle();
    const std::vector<QCustomPlot*> charts =
        addCharts({{QStringLiteral("streamsTimeline"), 220, 3,
                    [this](const QPointF& pixel) { return timelineHoverText(pixel); }},
                   {QStringLiteral("streamsSpeedup"), 160, 2,
                    [this](const QPointF& pixel) { return speedupHoverText(pixel); }}},
                  tr("The timeline is unavailable: this build did not find QCustomPlot. The "
                     "text below has the main numbers."));
    m_timeline = charts[0];
    m_speedup = charts[1];
    m_figure.minimumChartHeight = 160;
    m_figure.chartsUnavailable = tr("(the timeline needs QCustomPlot)");
    finishLayout();
    connect(m_streams, &QSpinBox::valueChanged, this, [this] { refresh(); });
    refresh();
}

void StreamsView::setResults(std::optional<StreamsResults> results) {
    m_results = std::move(results);
    refresh();
}

void StreamsView::setStreamCount(int streams) {
    m_streams->setValue(streams); // refreshes through valueChanged when it changes
}

int StreamsView::streamCount() const {
    return m_streams->value();
}

void StreamsView::refresh() {
    const experiments::StreamsMeasurement* results = m_results ? &m_results->measurement : nullptr;
    const int n = streamCount();
    m_comparison = compareStreams(m_results ? &*m_results : nullptr, n);
    if (results != nullptr) {
        m_title->setText(
            tr("Streams and overlap — %1, %2 copy engines, %3 over %4 stream(s)")
                .arg(results->deviceName.empty() ? tr("unnamed GPU") : qString(results->deviceName))
                .arg(results->asyncEngineCount)
                .arg(bytesText(results->bytes))
                .arg(n));
    } else {
        m_title->setText(
            tr("Streams and overlap — the model over %1 stream(s) (no measurement)").arg(n));
    }
    m_summaryLabel->setText(m_comparison.text);
    QStringList status;
    if (results != nullptr) {
        status << tr("Totals are medians of %n timed run(s); the timeline is the median run's.", "",
                     results->repetitions);
        if (!results->timelineNote.empty()) {
            QString note = qString(results->timelineNote);
            note[0] = note[0].toUpper();
            status << note + QLatin1Char('.');
        }
        status << tr("Copies are drawn in the row of their direction's engine.");
    }
    if (!m_gpuStatus.isEmpty()) {
        status << m_gpuStatus;
    } else if (results == nullptr) {
        status << tr("Not measured yet: press Measure streams.");
    }
    m_status->setText(status.join(QLatin1Char(' ')));

    // The bars: the measured rows first (with results), the model's beneath.
    m_bars.clear();
    m_rowNames.clear();
    int firstModelRow = 0;
    const experiments::StreamsRun* run = results ? results->run(n) : nullptr;
    if (results != nullptr) {
        for (const std::string& name : streamRowNames(results->asyncEngineCount)) {
            m_rowNames << tr("measured: %1").arg(QString::fromStdString(name));
        }
        firstModelRow = static_cast<int>(m_rowNames.size());
        if (run != nullptr) {
            for (const experiments::StreamsOpRecord& op : run->timeline) {
                Bar bar;
                bar.row = streamRowOf(op.op, results->asyncEngineCount);
                bar.stream = op.stream;
                bar.op = op.op;
                bar.startMs = op.startMs;
                bar.endMs = op.endMs;
                const double ms = op.endMs - op.startMs;
                bar.text = tr("measured, stream %1, %2 of %3: %4 to %5 ms (%6 ms)")
                               .arg(op.stream + 1)
                               .arg(opLabel(op.op), bytesText(op.bytes), fixedNumber(op.startMs, 3),
                                    fixedNumber(op.endMs, 3), fixedNumber(ms, 3));
                if (op.op != StreamOp::Kernel && ms > 0) {
                    bar.text += tr(", %1 GB/s").arg(fixedNumber(op.bytes / (ms * 1e6), 1));
                }
                if (op.channel >= 0) {
                    bar.text += tr(", channel %1").arg(op.channel);
                }
                m_bars.push_back(bar);
            }
        }
    }
    const QString prefix = results != nullptr ? tr("model: ") : QString();
    for (const std::string& name : streamRowNames(m_comparison.asyncEngineCount)) {
        m_rowNames << prefix + QString::fromStdString(name);
    }
    for (const StreamSpan& span : m_comparison.predicted.spans) {
        Bar bar;
        bar.row = firstModelRow + streamRowOf(span.op, m_comparison.asyncEngineCount);
        bar.measured = false;
        bar.stream = span.stream;
        bar.op = span.op;
        bar.startMs = span.startMs;
        bar.endMs = span.endMs;
        bar.text = tr("model, stream %1, %2: %3 to %4 ms (%5 ms, 1/%6 of the stage)")
                       .arg(span.stream + 1)
                       .arg(opLabel(span.op), fixedNumber(span.startMs, 3),
                            fixedNumber(span.endMs, 3), fixedNumber(span.endMs - span.startMs, 3))
                       .arg(n);
        m_bars.push_back(bar);
    }
    fillChart();
}

void StreamsView::fillChart() {
    fillTimeline();
    fillSpeedup();
}

void StreamsView::fillTimeline() {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    const ViewColors colors = ViewColors::fromPalette(palette());
    clearChart(m_timeline, colors);
    double end = 0.0;
    for (const Bar& bar : m_bars) {
        end = std::max(end, bar.endMs);
    }
    const int rows = static_cast<int>(m_rowNames.size());
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int r = 0; r < rows; ++r) {
        ticker->addTick(r, m_rowNames.at(r));
    }
    m_timeline->yAxis->setTicker(ticker);
    m_timeline->yAxis->setRangeReversed(true);
    m_timeline->yAxis->setRange(-0.6, rows - 0.4);
    m_timeline->yAxis->grid()->setVisible(false);
    m_timeline->xAxis->setLabel(tr("time, ms from the first operation's start"));
    m_timeline->xAxis->setRange(0.0, std::max(end, 1e-3) * 1.04);
    const int streams = streamCount();
    for (const Bar& bar : m_bars) {
        auto* rect = new QCPItemRect(m_timeline);
        rect->topLeft->setCoords(bar.startMs, bar.row - kBarHalfHeight);
        rect->bottomRight->setCoords(bar.endMs, bar.row + kBarHalfHeight);
        QColor fill = streamColor(colors, bar.stream);
        if (!bar.measured && m_results) {
            fill.setAlpha(110); // the model's bars lighter than the measured ones
        }
        rect->setBrush(fill);
        rect->setPen(QPen(colors.background, 1.0));
        if (bar.op == StreamOp::Kernel) {
            QBrush hatch(colors.text, Qt::BDiagPattern); // kernels hatched over their colour
            auto* over = new QCPItemRect(m_timeline);
            over->topLeft->setCoords(bar.startMs, bar.row - kBarHalfHeight);
            over->bottomRight->setCoords(bar.endMs, bar.row + kBarHalfHeight);
            over->setBrush(hatch);
            over->setPen(Qt::NoPen);
        }
    }
    if (m_results) {
        // A line between the measured rows and the model's.
        const double split =
            static_cast<double>(streamCopyRows(m_results->measurement.asyncEngineCount)) + 0.5;
        auto* line = new QCPItemStraightLine(m_timeline);
        line->point1->setCoords(0, split);
        line->point2->setCoords(1, split);
        line->setPen(QPen(colors.frame, 1.0, Qt::DashLine));
    }
    // One legend entry per stream (empty graphs carrying the colours).
    m_timeline->legend->clearItems();
    for (int s = 0; s < streams; ++s) {
        QCPGraph* key = m_timeline->addGraph();
        key->setName(tr("stream %1").arg(s + 1));
        key->setPen(QPen(streamColor(colors, s), 8));
        key->setLineStyle(QCPGraph::lsNone);
        key->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, streamColor(colors, s),
                                             streamColor(colors, s), 9));
    }
    styleChartLegend(m_timeline, colors);
    putLegendUnderChart(m_timeline, 8);
    requestChartReplot(m_timeline);
#endif
}

void StreamsView::fillSpeedup() {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    const ViewColors colors = ViewColors::fromPalette(palette());
    clearChart(m_speedup, colors);
    const experiments::StreamsMeasurement* results = m_results ? &m_results->measurement : nullptr;
    int last = kMaxSelectable;
    if (results != nullptr) {
        last = std::max(last, results->runs.back().streams);
    }
    QVector<double> xs;
    QVector<double> predicted;
    for (int n = 1; n <= last; ++n) {
        const StreamsComparison c = compareStreams(m_results ? &*m_results : nullptr, n);
        xs << n;
        predicted << c.predicted.speedup;
    }
    double top = m_comparison.limit;
    QCPGraph* model = m_speedup->addGraph();
    model->setName(results ? tr("model (this device's engines, measured stages)")
                           : tr("model (2 copy engines, equal stages)"));
    model->setPen(QPen(colors.warning, 2.0, Qt::DashLine));
    model->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    model->setData(xs, predicted, true);
    for (double value : predicted) {
        top = std::max(top, value);
    }
    if (results != nullptr) {
        QVector<double> mx;
        QVector<double> my;
        for (const experiments::StreamsRun& run : results->runs) {
            mx << run.streams;
            my << results->speedup(run);
            top = std::max(top, results->speedup(run));
        }
        QCPGraph* measured = m_speedup->addGraph();
        measured->setName(tr("measured (medians)"));
        measured->setPen(QPen(colors.text, 2.2));
        QCPScatterStyle scatter(QCPScatterStyle::ssDisc, 8);
        scatter.setPen(QPen(colors.text));
        scatter.setBrush(colors.text);
        measured->setScatterStyle(scatter);
        measured->setData(mx, my, true);
    }
    QCPGraph* limit = m_speedup->addGraph();
    limit->setName(tr("the model's limit, %1×").arg(fixedNumber(m_comparison.limit, 2)));
    limit->setPen(QPen(colors.mutedText, 1.2, Qt::DotLine));
    limit->setData(QVector<double>{0.5, last + 0.5},
                   QVector<double>{m_comparison.limit, m_comparison.limit}, true);
    // The selected count.
    auto* selected = new QCPItemStraightLine(m_speedup);
    selected->point1->setCoords(streamCount(), 0);
    selected->point2->setCoords(streamCount(), 1);
    selected->setPen(QPen(colors.frame, 1.0, Qt::DashDotLine));
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    m_speedup->xAxis->setTicker(ticker);
    m_speedup->xAxis->setRange(0.5, last + 0.5);
    m_speedup->xAxis->setLabel(tr("streams"));
    m_speedup->yAxis->setRange(0.0, top * 1.15 + 0.05);
    // Short enough for the chart's least height (a slide's or a deck figure's share): "speed-up
    // over one stream" was cut there; the x axis and the summary say over what.
    m_speedup->yAxis->setLabel(tr("speed-up (×)"));
    styleChartLegend(m_speedup, colors);
    m_speedup->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    requestChartReplot(m_speedup);
#endif
}

QString StreamsView::chartStateKey() const {
    // fillChart() draws the results (or the model alone) for the stream count.
    return QStringLiteral("%1 streams, results %2")
        .arg(streamCount())
        .arg(answerDigest(m_results ? &m_results->answer : nullptr));
}

QString StreamsView::timelineHoverText(const QPointF& pixel) const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    const double x = m_timeline->xAxis->pixelToCoord(pixel.x());
    const double y = m_timeline->yAxis->pixelToCoord(pixel.y());
    for (const Bar& bar : m_bars) {
        if (x >= bar.startMs && x <= bar.endMs && std::abs(y - bar.row) <= kBarHalfHeight) {
            return bar.text;
        }
    }
#else
    Q_UNUSED(pixel);
#endif
    return {};
}

QString StreamsView::speedupHoverText(const QPointF& pixel) const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    double best = kHoverPixels;
    QString text;
    const experiments::StreamsMeasurement* results = m_results ? &m_results->measurement : nullptr;
    for (int n = 1; n <= kMaxSelectable || (results && n <= results->runs.back().streams); ++n) {
        const StreamsComparison c = compareStreams(m_results ? &*m_results : nullptr, n);
        const auto consider = [&](double value, const QString& what) {
            const double px = m_speedup->xAxis->coordToPixel(n);
            const double py = m_speedup->yAxis->coordToPixel(value);
            const double distance = std::hypot(px - pixel.x(), py - pixel.y());
            if (distance <= best) {
                best = distance;
                text = what;
            }
        };
        consider(c.predicted.speedup, tr("%1 stream(s), model: %2× (%3 ms)")
                                          .arg(n)
                                          .arg(fixedNumber(c.predicted.speedup, 2),
                                               fixedNumber(c.predicted.totalMs, 3)));
        if (results != nullptr) {
            if (const experiments::StreamsRun* run = results->run(n)) {
                const double speedup = results->speedup(*run);
                consider(speedup,
                         tr("%1 stream(s), measured: %2× (median %3 ms of %4, %5 to %6 ms)")
                             .arg(n)
                             .arg(fixedNumber(speedup, 2), fixedNumber(run->totalMs, 3))
                             .arg(run->samples)
                             .arg(fixedNumber(run->minMs, 3), fixedNumber(run->maxMs, 3)));
            }
        }
    }
    return text;
#else
    Q_UNUSED(pixel);
    return {};
#endif
}

} // namespace warpscope::app
