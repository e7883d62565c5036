// The probe experiment views' shared parts (experimentview.h).
#include "views/experimentview.h"

#include "views/chartfigure.h"
#include "views/picturechart.h"
#include "views/theme.h"

#include <QBoxLayout>
#include <QCryptographicHash>
#include <QEvent>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QToolTip>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

#include <algorithm>
#include <numeric>

namespace warpscope::app {

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
constexpr bool kVectorChart = true;
#else
constexpr bool kVectorChart = false;
#endif

ExperimentView::ExperimentView(QWidget* parent, const QString& prefix, const QString& runText,
                               const QString& runTip, int progressWidth)
    : QWidget(parent), m_prefix(prefix) {
    setObjectName(prefix + QStringLiteral("View"));
    m_layout = new QVBoxLayout(this);
    m_controls = new QHBoxLayout;
    m_run = new QPushButton(runText, this);
    m_run->setObjectName(prefix + QStringLiteral("RunButton"));
    m_run->setToolTip(runTip);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(prefix + QStringLiteral("CancelButton"));
    m_cancel->setVisible(false);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setVisible(false);
    m_progress->setMaximumWidth(progressWidth);
    m_controls->addWidget(m_run);
    m_controls->addWidget(m_cancel);
    m_controls->addWidget(m_progress);
    m_layout->addLayout(m_controls);
}

void ExperimentView::addTitle() {
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    m_layout->addWidget(m_title);
}

std::vector<QCustomPlot*> ExperimentView::addCharts(const std::vector<ChartSpec>& charts,
                                                    const QString& unavailable) {
    m_charts.clear();
    m_chartShares.clear();
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    Q_UNUSED(unavailable);
    for (const ChartSpec& spec : charts) {
        auto* plot = new PictureChart(this);
        plot->setObjectName(spec.name);
        plot->setMinimumHeight(spec.minimumHeight);
        m_layout->addWidget(plot, spec.stretch);
        installChartHover(this, plot, spec.hover);
        m_charts.push_back(plot);
        m_chartShares.push_back(spec.stretch);
    }
#else
    m_layout->addWidget(new QLabel(unavailable, this), 1);
    m_charts.assign(charts.size(), nullptr);
#endif
    return m_charts;
}

void ExperimentView::finishLayout() {
    m_summaryLabel = new QLabel(this);
    m_summaryLabel->setObjectName(m_prefix + QStringLiteral("Summary"));
    m_summaryLabel->setWordWrap(true);
    m_summaryLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status = new QLabel(this);
    m_status->setObjectName(m_prefix + QStringLiteral("Status"));
    m_status->setWordWrap(true);
    m_layout->addWidget(m_summaryLabel);
    m_layout->addWidget(m_status);
    connect(m_run, &QPushButton::clicked, this, &ExperimentView::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &ExperimentView::cancelRequested);
}

void ExperimentView::setGpuStatus(const QString& text) {
    m_gpuStatus = text;
    refresh();
}

void ExperimentView::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_cancel->setVisible(running);
    m_progress->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0);
    }
}

void ExperimentView::setProgress(int done, int total) {
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
}

void ExperimentView::render(QPainter& painter, QSize size) {
    renderFigure(painter, size, false);
}

bool ExperimentView::exportFigure(const QString& path, QSize size, QString* error) {
    return writeChartFigure(
        path, size, m_title->text(), [this](QPainter& painter, QSize at) { render(painter, at); },
        [this](QPainter& painter, QSize at) { renderFigure(painter, at, kVectorChart); }, error);
}

void ExperimentView::renderFigure(QPainter& painter, QSize size, bool vectorChart) {
    const ViewColors colors = ViewColors::fromPalette(palette());
    // The summary and status under the charts, as on screen.
    const QString below = m_summaryLabel->text() + QLatin1Char('\n') + m_status->text();
    const ChartFigureFrame frame =
        beginChartFigure(painter, size, colors.background, colors.text, m_title->text(), below);
    const int margin = frame.margin;
    const int top = frame.chartTop;
    const int spare = size.height() - top - frame.belowBox.height() - 16;
    const int height =
        m_figure.chartKeepsHalf
            ? std::max({m_figure.minimumChartHeight, (size.height() - top) / 2, spare})
            : std::max(m_figure.minimumChartHeight, spare);
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    // The charts share the height as they share the view's.
    const int shares = std::accumulate(m_chartShares.begin(), m_chartShares.end(), 0);
    int y = top;
    for (std::size_t i = 0; i < m_charts.size(); ++i) {
        const int chartHeight =
            i + 1 == m_charts.size() ? top + height - y : height * m_chartShares[i] / shares;
        drawChartInFigure(painter, m_charts[i], y, size.width(), chartHeight, vectorChart);
        y += chartHeight;
    }
#else
    Q_UNUSED(vectorChart);
    painter.drawText(QRect(margin, top, size.width() - 2 * margin, height), Qt::TextWordWrap,
                     m_figure.chartsUnavailable);
#endif
    painter.setPen(colors.text);
    const int textTop = top + height + 8;
    const QRect textBox(margin, textTop, size.width() - 2 * margin, frame.belowBox.height() + 4);
    if (m_figure.chartKeepsHalf) {
        painter.save();
        painter.setClipRect(QRect(0, textTop, size.width(), size.height() - textTop));
        painter.drawText(textBox, Qt::TextWordWrap, below);
        painter.restore();
    } else {
        painter.drawText(textBox, Qt::TextWordWrap, below);
    }
}

void ExperimentView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        fillChart();
    } else if (event->type() == QEvent::FontChange && testAttribute(Qt::WA_SetFont)) {
        // A font set on the view (a lecture slide's, which follows the slide's size): the charts'
        // ticks, axis titles and legend follow it. Elsewhere they keep the plot's own.
        applyChartFont();
        fillChart();
    }
}

void ExperimentView::applyChartFont() {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    // A little smaller than the view's other text, as a figure's labels are.
    constexpr qreal kChartShare = 0.8;
    QFont chartFont = font();
    if (chartFont.pointSizeF() > 0) {
        chartFont.setPointSizeF(chartFont.pointSizeF() * kChartShare);
    } else {
        chartFont.setPixelSize(std::max(1, qRound(chartFont.pixelSize() * kChartShare)));
    }
    for (QCustomPlot* plot : m_charts) {
        if (plot == nullptr) {
            continue;
        }
        plot->setFont(chartFont); // fillChart()'s notes and labels take the ticks' (addChartText)
        for (QCPAxisRect* rect : plot->axisRects()) {
            for (QCPAxis* axis : rect->axes()) {
                axis->setTickLabelFont(chartFont);
                axis->setLabelFont(chartFont);
            }
        }
        plot->legend->setFont(chartFont);
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            if (QCPAbstractLegendItem* item = plot->legend->item(i)) {
                item->setFont(chartFont);
            }
        }
    }
#endif
}

void ExperimentView::requestChartReplot(QCustomPlot* chart) {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    const auto found = std::find(m_charts.begin(), m_charts.end(), chart);
    if (found == m_charts.end()) {
        return;
    }
    auto* experimentChart = static_cast<PictureChart*>(chart);
    experimentChart->setKey(chartKey(static_cast<std::size_t>(found - m_charts.begin())));
    experimentChart->requestReplot();
#else
    Q_UNUSED(chart);
#endif
}

QString ExperimentView::answerDigest(const QJsonObject* answer) {
    if (answer == nullptr) {
        return QStringLiteral("none");
    }
    return QString::fromLatin1(
        QCryptographicHash::hash(QJsonDocument(*answer).toJson(QJsonDocument::Compact),
                                 QCryptographicHash::Sha1)
            .toHex());
}

QString ExperimentView::chartKey(std::size_t index) const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    const QString state = chartStateKey();
    if (state.isEmpty() || index >= m_charts.size() || m_charts[index] == nullptr) {
        return {};
    }
    QStringList key{QString::fromLatin1(metaObject()->className()), QString::number(index), state,
                    font().toString(), m_charts[index]->font().toString()};
    // The title and summary the view computed from the same numbers (results made without a
    // measurement's answer have the same digest).
    for (const QLabel* label : {m_title, m_summaryLabel}) {
        key << (label != nullptr ? label->text() : QString());
    }
    // Every colour of the view's palette (fillChart() draws with the palette's).
    const QPalette& colours = palette();
    for (int role = 0; role < QPalette::NColorRoles; ++role) {
        key << QString::number(
            colours.color(QPalette::Active, static_cast<QPalette::ColorRole>(role)).rgba64(), 16);
    }
    return key.join(QLatin1Char('\n'));
#else
    Q_UNUSED(index);
    return {};
#endif
}

std::vector<ExperimentView::ChartPicture> ExperimentView::chartPictures() {
    std::vector<ChartPicture> pictures;
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    for (std::size_t i = 0; i < m_charts.size(); ++i) {
        auto* chart = static_cast<PictureChart*>(m_charts[i]);
        chart->setKey(chartKey(i));
        if (chart->key().isEmpty()) {
            pictures.emplace_back();
            continue;
        }
        chart->replot(QCustomPlot::rpImmediateRefresh);
        pictures.push_back(ChartPicture{chart->key(), chart->compose()});
    }
#endif
    return pictures;
}

void ExperimentView::adoptChartPictures(std::vector<ChartPicture> pictures) {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    for (std::size_t i = 0; i < pictures.size() && i < m_charts.size(); ++i) {
        static_cast<PictureChart*>(m_charts[i])->adopt(std::move(pictures[i]));
    }
#else
    Q_UNUSED(pictures);
#endif
}

bool ExperimentView::holdsChartPicturesOf(const ExperimentView& twin) const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    if (twin.m_charts.size() != m_charts.size() || m_charts.empty()) {
        return false;
    }
    for (std::size_t i = 0; i < m_charts.size(); ++i) {
        const QString key = twin.chartKey(i);
        const QSize pixels = (QSizeF(twin.m_charts[i]->size()) * twin.devicePixelRatioF()).toSize();
        if (key.isEmpty() || !static_cast<const PictureChart*>(m_charts[i])->holds(key, pixels)) {
            return false;
        }
    }
    return true;
#else
    Q_UNUSED(twin);
    return false;
#endif
}

bool ExperimentView::chartsPaintedFromPictures() const {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    return !m_charts.empty() && std::all_of(m_charts.begin(), m_charts.end(), [](QCustomPlot* c) {
        return static_cast<const PictureChart*>(c)->paintedFromPicture();
    });
#else
    return false;
#endif
}

void installChartHover(QWidget* owner, QCustomPlot* plot,
                       const std::function<QString(const QPointF&)>& text) {
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    plot->setMouseTracking(true);
    QObject::connect(plot, &QCustomPlot::mouseMove, owner, [plot, text](QMouseEvent* event) {
        const QString tip = text(event->position());
        if (tip.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(event->globalPosition().toPoint(), tip, plot);
        }
    });
#else
    Q_UNUSED(owner);
    Q_UNUSED(plot);
    Q_UNUSED(text);
#endif
}

} // namespace warpscope::app
