// The parts the probe experiment views (Transfers, Streams, L2 persistence) build alike: the
// chart title, hover tooltips on a chart, the summary and status lines, and Measure, Cancel and
// the progress bar while a measurement runs. Each view keeps its own controls, chart and texts.
#pragma once

#include <QPointF>
#include <QString>

#include <functional>

class QBoxLayout;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QWidget;

namespace warpscope::app {

/// A bold, word-wrapped title label added to `layout`.
QLabel* addExperimentTitle(QWidget* parent, QBoxLayout* layout);

/// The summary (selectable text) and status labels, named `<prefix>Summary` and `<prefix>Status`,
/// added to `layout` in that order.
void addExperimentSummaryAndStatus(QWidget* parent, QBoxLayout* layout, const QString& prefix,
                                   QLabel** summary, QLabel** status);

/// Shows `text(pixel)` as a tooltip while the mouse moves over `plot` (hidden where it is empty),
/// for as long as `owner` lives. Nothing in builds without QCustomPlot.
void installChartHover(QWidget* owner, QCustomPlot* plot,
                       const std::function<QString(const QPointF&)>& text);

/// Measure disabled, Cancel and the progress bar (busy until the first progress) shown while
/// `running`; the other way round after.
void setExperimentRunning(QPushButton* run, QPushButton* cancel, QProgressBar* progress,
                          bool running);

/// `done` of `total` steps on the progress bar.
void setExperimentProgress(QProgressBar* progress, int done, int total);

} // namespace warpscope::app
