// GridView: every warp of the launch (or, for huge grids, a representative region, said so) as a
// heat map of the current access's sectors per request (global) or wavefronts (shared), with the
// grid model's histogram beside it. Clicking a cell selects that warp: the pattern's block index
// and warp become the cell's (an undoable edit), so the warp, bank and block views show it. The
// grid is computed off the GUI thread by GridComputation; a newer edit supersedes older work.
// The heat map has block lines and axes of block indices, and hovering a cell tells its block,
// warp, threads and value. A grid whose estimate is above askAboveThreadAccesses() is asked
// about first (HugeGridQuestion); while one computes the view shows its progress, never the
// previous grid, and Esc or Cancel stops it. gridview_paint.cpp draws; gridview_question.cpp
// asks and cancels.
#pragma once

#include "document/gridcomputation.h"

#include <QColor>
#include <QImage>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <optional>
#include <vector>

class QPushButton;
class QShortcut;

namespace warpscope::app {

class HugeGridQuestion;
class PatternDocument;

class GridView : public QWidget {
    Q_OBJECT
public:
    explicit GridView(PatternDocument* document, QWidget* parent = nullptr);

    GridComputation* computation() const { return m_computation; }
    /// The last result drawn, if any.
    const std::optional<GridResult>& result() const { return m_result; }
    /// A line on what is shown ("131072 warps; ..."), or the error, or the progress.
    QString statusText() const { return m_status; }
    /// The heat map's rectangle in widget coordinates (for tests: click a cell).
    QRect heatMapRect() const;
    /// The warp a widget point falls on: (block linear index, warp in block), if any.
    std::optional<std::pair<std::int64_t, std::int64_t>> warpAt(QPoint point) const;
    /// Select warp `warpInBlock` of block `blockLinear` in the other views.
    void selectWarp(std::int64_t blockLinear, std::int64_t warpInBlock);
    /// Ask for the current pattern's grid now (it is asked for after every edit anyway).
    void recompute();
    /// Show a result computed elsewhere (figures compute it on their own thread).
    void showResult(const GridResult& result);
    /// The request this view makes for `document`'s current pattern: its kernel and selected
    /// access, or the pattern's one-access kernel.
    static GridRequest requestFor(const PatternDocument& document);
    /// Compute `request` ahead of time (lecture mode's next slide), off the GUI thread, and keep
    /// the result with its heat map made: when the view next asks for that request
    /// (recompute()), it shows it at once instead of computing it and showing the progress;
    /// asked while it is under way, it waits for it. One is kept.
    void prepare(const GridRequest& request);
    /// Whether the result computed ahead for `request` is ready.
    bool isPrepared(const GridRequest& request) const;
    /// Whether a result is being computed ahead.
    bool isPreparing() const { return m_aheadJob != 0; }
    /// Whether the view shows the progress of a grid it asked for ("Computing the grid…").
    bool isComputing() const { return m_progressPermille >= 0; }
    /// Whether the heat map shown is `request`'s, with nothing newer asked for.
    bool showsResultFor(const GridRequest& request) const;
    /// Show no heat map until the next result (the one shown is another pattern's).
    void clearResult();
    /// How many times the view asked its computation for a grid (tests).
    int computationsRequested() const { return m_computationsRequested; }
    /// Draw the heat map as one rectangle per run of equal warps in a row (vectors in SVG and
    /// PDF figures) instead of an image; past `kMaxVectorRuns` runs the image is drawn anyway.
    void setVectorCells(bool vector) { m_vectorCells = vector; }
    static constexpr int kMaxVectorRuns = 20000;
    /// The heat map's runs of equal warps, row by row: what setVectorCells draws.
    struct Run {
        int row = 0;
        int first = 0; // column of the first warp
        int count = 0;
        int value = -1;
    };
    std::vector<Run> heatMapRuns() const;
    /// The colour of a warp with `value` sectors per request (or wavefronts; -1: no active lane)
    /// in a map whose largest value is `maxValue`: cells and histogram bars alike.
    static QColor heatColour(int value, int maxValue);

    // ---- Large grids (gridview_question.cpp) ----------------------------------------------
    /// The size asked about by default: 2^27 thread-accesses, above every kernel preset (the
    /// largest, 50,331,648) and a thirty-second of the grid model's budget.
    static constexpr std::int64_t kDefaultAskAbove = std::int64_t{1} << 27;
    /// Above this many thread-accesses (the core's estimate) the view asks before computing;
    /// 0 never asks. The grid model's budget refuses larger grids whatever this says.
    void setAskAboveThreadAccesses(std::int64_t threadAccesses);
    std::int64_t askAboveThreadAccesses() const { return m_askAbove; }
    /// Read the size asked about from the settings (grid/askAboveThreadAccesses), and keep it
    /// there when the user raises it from the question. Only where the app uses its settings.
    void keepAskAboveInSettings();
    /// The question open now, if any.
    HugeGridQuestion* question() const;
    /// Stop the grid under way (Esc, Cancel): the view says it was not computed and offers
    /// Compute. Nothing happens when nothing is being computed.
    void cancelComputation();
    /// Compute the current grid without asking (the Compute button).
    void computeAnyway();
    /// The Cancel button (shown while computing) and the Compute button (shown when a grid was
    /// not computed: declined, cancelled, or asked about).
    QPushButton* cancelButton() const { return m_cancelButton; }
    QPushButton* computeButton() const { return m_computeButton; }

    // ---- Axes and hover (gridview_paint.cpp) ------------------------------------------------
    /// A tick of an axis: a block index and where its label is centred, in widget coordinates.
    struct Tick {
        std::int64_t block = 0;
        double position = 0.0;
    };
    /// The labelled blocks of the x axis (blockIdx.x) and the y axis (blockIdx.y) of the heat
    /// map shown; empty when none is shown.
    std::vector<Tick> xTicks() const;
    std::vector<Tick> yTicks() const;
    /// Where the lines between blocks are drawn (x: between columns of blocks; y: rows).
    std::vector<double> blockLinesX() const;
    std::vector<double> blockLinesY() const;
    /// What hovering `point` tells: the block, the warp, its threads and its value; empty off
    /// the heat map.
    QString hoverText(QPoint point) const;

signals:
    void computed();
    /// The view asked whether to compute a large grid (its question is open).
    void confirmationAsked();
    /// The user chose to be asked only above `threadAccesses` from now on.
    void askAboveChanged(qint64 threadAccesses);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool event(QEvent* event) override;

private:
    void onConfirmationNeeded(int job, const GridResult& estimate);
    void onQuestionFinished(int answer);
    /// Forget the grid shown (it is not the one asked for now).
    void hideShownResult();
    /// The buttons and Esc follow the state; laid out in the heat map's area.
    void updateControls();
    void paintAxes(QPainter& painter, const QRect& area) const;
    void paintHeatMap(QPainter& painter, const QRect& area);
    void paintHistogram(QPainter& painter, const QRect& area) const;
    /// Block widths in pixels of the heat map (x: one block's columns; y: one row).
    double blockWidth(const QRect& area) const;
    double blockHeight(const QRect& area) const;
    void onResult(int job, const GridResult& result);
    void showAdopted();
    void rebuildImage();
    static QImage heatMapImage(const GridResult& result);
    /// `pixels` of the layout at this view's type (see kReferenceLineHeight).
    int scaled(int pixels) const;
    static QString statusFor(const GridResult& result);

    struct Adopted {
        GridRequest request;
        GridResult result;
        QImage image;
        QString status;
    };

    PatternDocument* m_document;
    GridComputation* m_computation;
    QTimer m_debounce;
    std::optional<GridResult> m_result;
    QImage m_image;
    QString m_status;
    int m_progressPermille = -1;
    bool m_vectorCells = false;
    GridComputation* m_ahead; // prepare()'s
    GridRequest m_aheadRequest;
    int m_aheadJob = 0;             // under way, 0 when none
    bool m_waitingForAhead = false; // the view asked for m_aheadRequest while under way
    std::optional<Adopted> m_adopted;
    bool m_showingAdopted = false; // m_result is m_adopted's
    int m_computationsRequested = 0;
    GridRequest m_requested;                   // the view's own computation's, last asked for
    std::optional<GridRequest> m_shownRequest; // whose result m_result is, when known
    // Large grids.
    std::int64_t m_askAbove = kDefaultAskAbove;
    std::optional<GridRequest> m_confirmed; // the user said compute (no question for it)
    std::optional<GridRequest> m_declined;  // the user said no, or cancelled: not recomputed
    GridRequest m_askedRequest;             // the open question's
    QPointer<HugeGridQuestion> m_question;
    QPushButton* m_cancelButton;
    QPushButton* m_computeButton;
    QShortcut* m_escape;
    /// A grid that takes longer than this replaces the one shown by its progress (a quick
    /// one replaces it by its result with no flash in between).
    QTimer m_hideShownTimer;
    std::optional<QPoint> m_hover;
};

} // namespace warpscope::app
