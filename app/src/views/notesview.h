// NotesView: the notes beside this GPU. For one notes experiment (Table 4-11's block shapes, the
// readSegment offsets, the tiled transpose with and without padding, ...) it shows the notes'
// published numbers (their GPU named) beside this GPU's measurement of the same kernel at the same
// size, as a bar chart (QCustomPlot; without it, the table alone) and a table, with one sentence
// computed from the numbers. Without a measurement it shows the notes' bars and says why this
// GPU's are missing (no GPU, not run yet), never an empty chart.
#pragma once

#include "gpu/notesexperiment.h"

#include "views/chartpicture.h"

#include <QImage>
#include <QVector>
#include <QWidget>

#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QProgressBar;
class QTableWidget;
class QCustomPlot;

namespace warpscope::app {

class KernelMeasurementStore;

class NotesView : public QWidget {
    Q_OBJECT
public:
    explicit NotesView(KernelMeasurementStore* store, QWidget* parent = nullptr);

    /// Show the experiment with this id (false, nothing changes, for an unknown id).
    bool setExperiment(const std::string& id);
    const std::string& experimentId() const { return m_experimentId; }
    /// What the view shows now (rows, finding), as computed from the store.
    const NotesComparison& comparison() const { return m_comparison; }

    /// The status line: why this GPU's bars are missing, or where they come from.
    void setGpuStatus(const QString& text);
    void setRunning(bool running);
    void setProgress(int done, int total);

    QPushButton* runButton() const { return m_run; }
    QComboBox* experimentPicker() const { return m_picker; }
    QLabel* findingLabel() const { return m_finding; }
    QLabel* statusLabel() const { return m_status; }
    QTableWidget* table() const { return m_table; }
    /// The chart (null in builds without QCustomPlot).
    QCustomPlot* chart() const { return m_plot; }
    /// Bars drawn in the chart: the notes' series and this GPU's (0 without QCustomPlot).
    int notesBarCount() const { return m_notesBars; }
    int measuredBarCount() const { return m_measuredBars; }
    /// With more than one GPU: the chart's series per GPU, each its legend name ("GPU 0 ·
    /// NVIDIA H200") and its bars' values in row order; empty with one GPU or none, or without
    /// QCustomPlot.
    struct GpuSeries {
        QString name;
        QVector<double> values;
    };
    const std::vector<GpuSeries>& gpuSeries() const { return m_gpuSeries; }

    /// The chart drawn now as one picture (QCustomPlot's layers composed onto its background, at
    /// the chart's size and device pixel ratio), with what it shows: another view given it shows
    /// it in place of a replot when it comes to show the same (lecture mode draws the next slide's
    /// chart ahead on a twin view). Empty without QCustomPlot.
    using ChartPicture = app::ChartPicture;
    ChartPicture chartPicture();
    /// Keep `picture` (a few at a time): whenever the chart comes to show what it shows, at its
    /// size and ratio, its paint copies it and the chart is not replotted.
    void adoptChartPicture(ChartPicture picture);
    /// Whether the chart's last paint copied an adopted picture.
    bool chartPaintedFromPicture() const;

    /// Lecture slides: the chart, its title and status only (no picker, Run button or table).
    void setPresentation(bool presentation);
    /// Which series the chart draws, for a slide that reveals them: 0 none (axes and labels
    /// only), 1 the notes' bars, 2 also this GPU's (with the finding); -1 (the default) all.
    void setRevealedSeries(int count);
    int revealedSeries() const { return m_revealedSeries; }

    /// The chart with its title, finding and status, for figures: `size` in pixels.
    void render(QPainter& painter, QSize size);
    /// render(), with the chart painted through QCustomPlot's own painter when `vectorChart`
    /// (the painter must then be a QCPPainter) so that SVG and PDF hold vectors.
    void renderFigure(QPainter& painter, QSize size, bool vectorChart);
    /// Write that figure to `path` (.svg, .pdf or .png by its suffix); false with `error` set
    /// when the suffix is unknown or the file cannot be written.
    bool exportFigure(const QString& path, QSize size, QString* error);

signals:
    void runRequested();
    void experimentChosen(const QString& id);
    /// The table's current row changed (or the rows were refilled): `row` indexes the
    /// experiment's rows, -1 for none.
    void rowSelected(int row);

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void fillTable();
    void fillChart();
    /// Replot the chart once in the next pass of the event loop (NotesChart).
    void requestReplot();

    KernelMeasurementStore* m_store;
    std::string m_experimentId;
    NotesComparison m_comparison;
    QComboBox* m_picker;
    QPushButton* m_run;
    QProgressBar* m_progress;
    QLabel* m_title;
    QLabel* m_finding;
    QLabel* m_status;
    QString m_gpuStatus;
    QTableWidget* m_table;
    QCustomPlot* m_plot = nullptr;
    int m_notesBars = 0;
    int m_measuredBars = 0;
    int m_revealedSeries = -1;
    std::vector<GpuSeries> m_gpuSeries;
};

} // namespace warpscope::app
