// writeChartFigure: PNG through the widget's own rendering, SVG and PDF through a vector painter;
// the chart views' shared set-up.
#include "views/chartfigure.h"

#include "views/theme.h"

#include <QColor>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>
#include <vector>

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
#include <qcustomplot.h>
#endif

namespace warpscope::app {

namespace {

QString cannotWrite(const QString& path) {
    return QCoreApplication::translate("warpscope", "cannot write %1").arg(path);
}

} // namespace

bool writeChartFigure(const QString& path, QSize size, const QString& title,
                      const std::function<void(QPainter&, QSize)>& raster,
                      const std::function<void(QPainter&, QSize)>& vector, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        QPainter painter(&image);
        raster(painter, size);
        painter.end();
        if (!image.save(path)) {
            *error = cannotWrite(path);
            return false;
        }
        return true;
    }
    if (suffix != QLatin1String("svg") && suffix != QLatin1String("pdf")) {
        *error = QCoreApplication::translate("warpscope",
                                             "unknown figure format \"%1\": use .svg, .pdf or .png")
                     .arg(suffix);
        return false;
    }
#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
    QCPPainter painter;
#else
    QPainter painter;
#endif
    QSvgGenerator generator;
    QPdfWriter writer(suffix == QLatin1String("pdf") ? path : QString());
    bool begun = false;
    if (suffix == QLatin1String("svg")) {
        generator.setFileName(path);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(title.toHtmlEscaped()); // written into <title> unescaped by Qt
        begun = painter.begin(&generator);
    } else {
        writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setResolution(96);
        writer.setTitle(title);
        begun = painter.begin(&writer);
    }
    if (!begun) {
        *error = cannotWrite(path);
        return false;
    }
    vector(painter, size);
    if (!painter.end()) {
        *error = cannotWrite(path);
        return false;
    }
    return true;
}

ChartFigureFrame beginChartFigure(QPainter& painter, QSize size, const QColor& background,
                                  const QColor& text, const QString& title, const QString& below) {
    ChartFigureFrame frame;
    painter.fillRect(QRect(QPoint(0, 0), size), background);
    painter.setPen(text);
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    const int margin = frame.margin;
    QRect used;
    painter.drawText(QRect(margin, margin, size.width() - 2 * margin, size.height()),
                     Qt::TextWordWrap, title, &used);
    frame.chartTop = used.bottom() + 8;
    font.setBold(false);
    painter.setFont(font);
    frame.belowBox = painter.boundingRect(
        QRect(margin, 0, size.width() - 2 * margin, size.height()), Qt::TextWordWrap, below);
    return frame;
}

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
void drawChartInFigure(QPainter& painter, QCustomPlot* plot, int top, int width, int height,
                       bool vector) {
    plot->replot(QCustomPlot::rpImmediateRefresh);
    painter.save();
    painter.translate(0, top);
    if (vector) {
        plot->toPainter(static_cast<QCPPainter*>(&painter), width, height);
    } else {
        painter.drawPixmap(0, 0, plot->toPixmap(width, height));
    }
    painter.restore();
}

void styleChartAxis(QCPAxis* axis, const ViewColors& colors) {
    axis->setBasePen(QPen(colors.frame));
    axis->setTickPen(QPen(colors.frame));
    axis->setSubTickPen(QPen(colors.frame));
    axis->setTickLabelColor(colors.text);
    axis->setLabelColor(colors.text);
    axis->grid()->setPen(QPen(colors.grid, 0, Qt::DotLine));
}

void clearChart(QCustomPlot* plot, const ViewColors& colors, bool logarithmic) {
    plot->clearPlottables();
    plot->clearItems();
    plot->setBackground(colors.background);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        styleChartAxis(axis, colors);
        axis->grid()->setSubGridVisible(false);
    }
}

void styleChartLegend(QCustomPlot* plot, const ViewColors& colors) {
    plot->legend->setVisible(true);
    plot->legend->setBrush(colors.surface);
    plot->legend->setTextColor(colors.text);
    plot->legend->setBorderPen(QPen(colors.frame));
}

QCPItemText* addChartText(QCustomPlot* plot) {
    auto* text = new QCPItemText(plot);
    const QFont font = plot->xAxis != nullptr ? plot->xAxis->tickLabelFont() : plot->font();
    text->setFont(font);
    text->setSelectedFont(font);
    return text;
}

namespace {

// The most columns putLegendUnderChart() was asked for (0: no limit), kept on the legend.
constexpr char kMostLegendColumns[] = "warpscopeMostLegendColumns";

/// The most columns, up to `most` (0: as many as there are entries), in which `legend`'s entries
/// (`widths`, in order) side by side fit `width`, filled row by row; at least one.
int legendColumnsThatFit(const std::vector<int>& widths, QCPLegend* legend, int most, int width) {
    const int count = static_cast<int>(widths.size());
    const int inner = width - legend->margins().left() - legend->margins().right();
    for (int columns = most > 0 ? std::min(most, count) : count; columns > 1; --columns) {
        std::vector<int> columnWidths(static_cast<std::size_t>(columns), 0);
        for (int i = 0; i < count; ++i) {
            int& column = columnWidths[static_cast<std::size_t>(i % columns)];
            column = std::max(column, widths[static_cast<std::size_t>(i)]);
        }
        const int total = std::accumulate(columnWidths.begin(), columnWidths.end(), 0) +
                          (columns - 1) * legend->columnSpacing();
        if (total <= inner) {
            return columns;
        }
    }
    return 1;
}

/// Lays `plot`'s legend out again in as many columns as fit the width it was given (in the
/// widget, or in a figure while toPainter() draws one): after every layout, so that a legend filled
/// before its wrap was set, a narrow slide and a one-shot export all get rows that fit.
void fitLegendColumns(QCustomPlot* plot) {
    QCPLegend* legend = plot->legend;
    // The entries' widths in their order (itemCount() counts the grid's cells, empty ones too).
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (const QCPAbstractLegendItem* item = legend->item(i)) {
            widths.push_back(item->minimumOuterSizeHint().width());
        }
    }
    const int count = static_cast<int>(widths.size());
    if (count == 0) {
        return;
    }
    const int columns = legendColumnsThatFit(
        widths, legend, legend->property(kMostLegendColumns).toInt(), legend->outerRect().width());
    const int rows = (count + columns - 1) / columns;
    if (legend->wrap() == columns && legend->columnCount() == std::min(columns, count) &&
        legend->rowCount() == rows) {
        return; // already so
    }
    legend->setWrap(columns);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true); // the items in rows of `columns`
    // The layout just made had the old rows: once more (as QCustomPlot::updateLayout() does).
    for (const auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins,
                             QCPLayoutElement::upLayout}) {
        plot->plotLayout()->update(phase);
    }
}

} // namespace

bool putLegendUnderChart(QCustomPlot* plot, int columns) {
    if (plot->plotLayout()->rowCount() != 1) {
        return false;
    }
    plot->plotLayout()->addElement(1, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setProperty(kMostLegendColumns, columns);
    // Its width is the chart's, not the sum of its items' in one row (which made the chart as
    // wide as the legend, wider than a slide's panel): fitLegendColumns() wraps the items.
    plot->legend->setMinimumSize(1, 0);
    // A few pixels round the chart: the legend's frame, drawn on its outer edge, was cut at the
    // widget's or the figure's right and bottom edges.
    plot->plotLayout()->setAutoMargins(QCP::msNone);
    plot->plotLayout()->setMargins(QMargins(2, 0, 2, 4));
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] { fitLegendColumns(plot); });
    return true;
}
#endif

QTableWidget* addSweepTableInsteadOfPlot(QWidget* parent, QVBoxLayout* layout) {
    auto* missing =
        new QLabel(QCoreApplication::translate(
                       "warpscope", "The sweep plot is unavailable: this build did not find "
                                    "QCustomPlot (Debian: libqcustomplot-dev). The numbers are "
                                    "below."),
                   parent);
    missing->setWordWrap(true);
    layout->addWidget(missing);
    auto* table = new QTableWidget(parent);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(table, 1);
    return table;
}

} // namespace warpscope::app
