// writeChartFigure: PNG through the widget's own rendering, SVG and PDF through a vector painter;
// the chart views' shared set-up.
#include "views/chartfigure.h"

#include "views/theme.h"

#include <QColor>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

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
        generator.setTitle(title);
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

bool putLegendUnderChart(QCustomPlot* plot, int columns) {
    if (plot->plotLayout()->rowCount() != 1) {
        return false;
    }
    plot->plotLayout()->addElement(1, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    if (columns > 0) {
        plot->legend->setWrap(columns);
    }
    return true;
}
#endif

} // namespace warpscope::app
