// ExperimentView, what the probe experiment views (Transfers, Streams, L2 persistence) build alike:
// Measure, Cancel and the progress bar in a row at the top, the chart title, the charts with hover
// tooltips, the summary and status lines, and the figure of it all for exports and slides. Each
// view adds its own controls, fills its charts and writes its texts.
#pragma once

#include "views/chartpicture.h"

#include <QImage>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <functional>
#include <vector>

class QBoxLayout;
class QCustomPlot;
class QHBoxLayout;
class QJsonObject;
class QLabel;
class QPainter;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace warpscope::app {

class ExperimentView : public QWidget {
    Q_OBJECT
public:
    /// The status line: where the results come from, or why there are none.
    void setGpuStatus(const QString& text);
    /// Measure disabled, Cancel and the progress bar (busy until the first progress) shown while
    /// `running`; the other way round after.
    void setRunning(bool running);
    /// `done` of `total` steps on the progress bar.
    void setProgress(int done, int total);

    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* summaryLabel() const { return m_summaryLabel; }
    QLabel* statusLabel() const { return m_status; }

    /// The charts with the title, summary and status, for figures and slides.
    void render(QPainter& painter, QSize size);
    /// Write that figure to `path` (.svg, .pdf or .png by its suffix); false with `error` set.
    bool exportFigure(const QString& path, QSize size, QString* error);

    /// The charts, top to bottom (nulls in builds without QCustomPlot).
    const std::vector<QCustomPlot*>& charts() const { return m_charts; }
    /// One chart drawn as one picture (QCustomPlot's background and layers composed, at the
    /// chart's size and device pixel ratio), with a key of everything it is drawn from (the
    /// view's class, the chart's place, chartStateKey(), the palette's colours, the fonts).
    using ChartPicture = app::ChartPicture;
    /// Each chart replotted at its size now and drawn as a picture, in the charts' order (an
    /// empty picture where there is none: no QCustomPlot, or a view with no chartStateKey()).
    /// Lecture mode draws the next slide's charts ahead on a twin view.
    std::vector<ChartPicture> chartPictures();
    /// Keep these pictures (a few per chart, in the charts' order): whenever a chart comes to
    /// show what a picture of it shows, at its size and ratio, its paint copies the picture and
    /// the chart is not replotted.
    void adoptChartPictures(std::vector<ChartPicture> pictures);
    /// Whether this view holds, for every chart, a picture of what `twin`'s shows now at its
    /// size (then `twin` need not be replotted to draw them again).
    bool holdsChartPicturesOf(const ExperimentView& twin) const;
    /// Whether every chart's last paint copied an adopted picture (false without charts).
    bool chartsPaintedFromPictures() const;

signals:
    void runRequested();
    void cancelRequested();

protected:
    /// One chart under the title: its object name, height on screen, share of the height (in the
    /// window and in figures) and tooltip text at a pixel.
    struct ChartSpec {
        QString name;
        int minimumHeight = 0;
        int stretch = 1;
        std::function<QString(const QPointF&)> hover;
    };
    /// How a figure gives out its height: the charts get what the text under them leaves, at
    /// least `minimumChartHeight` (with `chartKeepsHalf`, at least half of what is under the
    /// title, the text then cut at the bottom); `chartsUnavailable` stands in their place in
    /// builds without QCustomPlot.
    struct FigureLayout {
        int minimumChartHeight = 100;
        bool chartKeepsHalf = false;
        QString chartsUnavailable;
    };

    /// The view named `<prefix>View`: Measure (`<prefix>RunButton`, `runText` with `runTip`),
    /// Cancel (`<prefix>CancelButton`) and the progress bar (at most `progressWidth` wide) in
    /// `m_controls`, where the view adds its own controls. The view then calls addTitle(),
    /// addCharts() and finishLayout(), in that order.
    ExperimentView(QWidget* parent, const QString& prefix, const QString& runText,
                   const QString& runTip, int progressWidth);

    /// The bold, word-wrapped title under the controls.
    void addTitle();
    /// The charts, one under the other (null without QCustomPlot: then one label saying
    /// `unavailable` in their place).
    std::vector<QCustomPlot*> addCharts(const std::vector<ChartSpec>& charts,
                                        const QString& unavailable);
    /// The summary (`<prefix>Summary`, selectable) and status (`<prefix>Status`) under the charts,
    /// and Measure and Cancel wired to runRequested and cancelRequested.
    void finishLayout();

    /// Texts and charts again from the results and the GPU status.
    virtual void refresh() = 0;
    /// The charts again (the palette changed).
    virtual void fillChart() = 0;
    /// Replot `chart` (one of addCharts()') once, in the next pass of the event loop, after
    /// fillChart() changed it: not while it is hidden (it is replotted when shown), and not at
    /// all when a picture of what it now shows, at its size, was adopted.
    void requestChartReplot(QCustomPlot* chart);
    /// What the charts are drawn from besides the palette, the fonts and the size: the results
    /// and the view's own choices (the stream count, the quantity), for the pictures' keys.
    /// Empty (the default): no pictures, the charts are always replotted.
    virtual QString chartStateKey() const { return {}; }
    /// A digest of a measurement's answer (`answer` null: none), for chartStateKey().
    static QString answerDigest(const QJsonObject* answer);

    void changeEvent(QEvent* event) override;
    /// The charts' tick, axis-title and legend fonts from the view's font (set by a slide).
    void applyChartFont();

    QVBoxLayout* m_layout;
    QHBoxLayout* m_controls;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_title = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QLabel* m_status = nullptr;
    QString m_gpuStatus;
    FigureLayout m_figure;

private:
    void renderFigure(QPainter& painter, QSize size, bool vectorChart);
    /// The key of what chart `index` shows now (empty: no pictures).
    QString chartKey(std::size_t index) const;

    QString m_prefix;
    std::vector<QCustomPlot*> m_charts;
    std::vector<int> m_chartShares;
};

/// Shows `text(pixel)` as a tooltip while the mouse moves over `plot` (hidden where it is empty),
/// for as long as `owner` lives. Nothing in builds without QCustomPlot.
void installChartHover(QWidget* owner, QCustomPlot* plot,
                       const std::function<QString(const QPointF&)>& text);

} // namespace warpscope::app
