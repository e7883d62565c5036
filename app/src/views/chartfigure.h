// Writing a chart view's figure to a file: the one path the Notes and experiment views share; and
// the chart set-up they share (axes and legend in the theme's colours, the legend under the chart).
#pragma once

#include <QRect>
#include <QSize>
#include <QString>

#include <functional>

class QColor;
class QCPAxis;
class QCPItemText;
class QCustomPlot;
class QPainter;
class QTableWidget;
class QVBoxLayout;
class QWidget;

namespace warpscope::app {

/// Writes a figure to `path` in the format its suffix names. A .png is `raster` drawn into an
/// image; .svg and .pdf are `vector` drawn with a vector painter (QCustomPlot's, where the build
/// has it, so that its charts stay vectors), titled `title`. Returns false with `*error` saying
/// why (an unknown suffix, a file that cannot be written).
bool writeChartFigure(const QString& path, QSize size, const QString& title,
                      const std::function<void(QPainter&, QSize)>& raster,
                      const std::function<void(QPainter&, QSize)>& vector, QString* error);

/// Where a chart figure's parts go: its margin, the chart's top (under the title) and the box the
/// text under the chart needs.
struct ChartFigureFrame {
    int margin = 12;
    int chartTop = 0;
    QRect belowBox;
};

/// Starts a chart figure: fills `size` with `background`, draws `title` bold at the top in
/// `text`, and measures `below` (the summary and status drawn under the chart). Leaves the painter
/// with `text` and a plain font.
ChartFigureFrame beginChartFigure(QPainter& painter, QSize size, const QColor& background,
                                  const QColor& text, const QString& title, const QString& below);

/// In a build without QCustomPlot, what a sweep view shows instead of its plot: a line saying why
/// the plot is missing and how to get it, and under it a read-only table (returned, owned by
/// `parent`) for the numbers; both added to `layout`.
QTableWidget* addSweepTableInsteadOfPlot(QWidget* parent, QVBoxLayout* layout);

#ifdef WARPSCOPE_HAVE_QCUSTOMPLOT
struct ViewColors;

/// `axis`'s line, ticks and labels in the theme's colours, and its grid dotted.
void styleChartAxis(QCPAxis* axis, const ViewColors& colors);

/// Empties `plot` (its graphs and items) for filling again: the theme's background, both axes
/// linear or `logarithmic` and styled (styleChartAxis), with no sub-grid.
void clearChart(QCustomPlot* plot, const ViewColors& colors, bool logarithmic = false);

/// The legend shown, in the theme's colours.
void styleChartLegend(QCustomPlot* plot, const ViewColors& colors);

/// A text item on `plot` (a note, a line's label) in the chart's type: its tick labels' font,
/// which a slide's font sets (ExperimentView::applyChartFont()). QCPItemText's own default is
/// the application's font, whatever the chart's.
QCPItemText* addChartText(QCustomPlot* plot);

/// Moves the legend into a row of its own under the chart, never over a curve, filled row by row:
/// at most `columns` to a row (0: no limit), fewer where they do not fit the width drawn (the
/// widget's or an export's), laid out again after every layout, so it holds for entries added
/// before or after this call. Once: true when it moved now, false when it already was there.
bool putLegendUnderChart(QCustomPlot* plot, int columns);

/// Draws `plot` at y = `top`, `width` x `height`, as vectors through a QCPPainter when `vector`
/// (SVG and PDF: writeChartFigure paints through one), else as a pixmap.
void drawChartInFigure(QPainter& painter, QCustomPlot* plot, int top, int width, int height,
                       bool vector);
#endif

} // namespace warpscope::app
