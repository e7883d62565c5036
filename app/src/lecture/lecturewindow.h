// LectureWindow: lecture mode. A full-screen, high-contrast window that shows one slide of a deck
// at a time (a big title, the slide's views side by side, its caption, "3 / 30"), in a type scale
// that follows the window's height so it stays readable from the back of a room. Keys a
// presentation clicker sends step through the slides; Space steps through the slide's
// transactions (warp view) or wavefronts (bank view), highlighting the lanes each one serves.
// The slides live on the window's own PatternDocument: the user's session is never touched.
#pragma once

#include "experiments/experimentregistry.h"

#include <warpscope/file_format.h>
#include <warpscope/result.h>

#include <QString>
#include <QStringList>
#include <QWidget>

#include <any>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QHBoxLayout;
class QLabel;

namespace warpscope::app {

class BankView;
class ExperimentView;
class GridView;
class KernelMeasurementStore;
class LaneHighlight;
class NotesView;
struct NotesComparison;
class PatternDocument;
class RenderAhead;
class SlideTextLabel;
class TwinCache;
class WarpView;

/// The deck compiled into the app (resources/decks/course.json).
QString builtinDeckPath();
/// Read and check a deck file (a ":/" resource path works too). The error names the place in the
/// file ("/slides/3/preset") or why it cannot be read.
Result<Deck> loadDeckFile(const QString& path);

class LectureWindow : public QWidget {
    Q_OBJECT
public:
    explicit LectureWindow(Deck deck, QWidget* parent = nullptr);
    ~LectureWindow() override;

    /// Full screen on the screen it is on; with a valid `size`, a plain window of that size
    /// instead (tests, scripted captures).
    void present(QSize size = {});
    /// The results a slide of experiment `id` (its key as the slide's view: "transfers",
    /// "streams", ...) draws: the main window's tab's (AppExperiment::results; empty: none, and
    /// the slide shows what the view shows without results: the notes' figures, the model).
    void setExperimentResults(std::string_view key, std::any results);

    const Deck& deck() const { return m_deck; }
    int slideCount() const { return static_cast<int>(m_deck.slides.size()); }
    int slideIndex() const { return m_slide; }
    /// Go to slide `index` (clamped), with none of its steps revealed.
    void setSlide(int index);
    void nextSlide();
    void previousSlide();

    /// The step-through: the items of the slide's first warp or bank view (the warp view's lines
    /// and textbook transactions in its list order, or the bank view's wavefronts), or on a
    /// "notes" slide its two series: the notes' bars, then this GPU's.
    int stepCount() const { return static_cast<int>(m_steps.size()); }
    int revealedSteps() const { return m_revealed; }
    /// Reveal the next item; when all are shown, go to the next slide.
    void revealNext();
    /// Hide the last revealed item; with none revealed, go back to the previous slide.
    void revealPrevious();
    void revealAll();

    QString titleText() const;
    QString captionText() const;
    /// "3 / 30"
    QString counterText() const;
    /// What the last revealed item is ("Transaction 2 of 5 (textbook model): 32 B at 0x20 · lanes
    /// 8–15"), or what Space will do.
    QString stepText() const;
    /// The views of this slide, in order ("warp", "metrics").
    QStringList shownViews() const;

    PatternDocument* document() const { return m_document; }
    LaneHighlight* laneHighlight() const { return m_highlight; }
    /// The slide's warp or bank view, or nullptr when the slide does not show it.
    WarpView* warpView() const;
    BankView* bankView() const;
    /// The slide's grid view or notes-vs-GPU chart, or nullptr when the slide does not show it.
    GridView* gridView() const;
    NotesView* notesView() const;
    /// Where the "notes" slides find this GPU's bars: the session's kernel measurements (the
    /// window's own, empty store until set). Not owned.
    void setKernelMeasurements(KernelMeasurementStore* store);

signals:
    void slideChanged(int index);
    void revealChanged(int revealed);
    /// Escape or F11 (or closing the window): lecture mode is over; `slideIndex` is where it ended.
    void finished(int slideIndex);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Step {
        std::uint32_t lanes = 0;
        QString text;
    };
    QWidget* viewWidget(const QString& name);
    void showSlideViews();
    void computeSteps();
    void applyReveal();
    void applyFonts();
    void updateTexts();
    /// The slide the next key most likely shows after slide `index`: the one after it, and after
    /// the last the first (Home); -1 in a deck of one slide.
    int slideAfter(int index) const;
    /// Draw slide `index`'s title and caption ahead (SlideTextLabel::prepare), once the window
    /// is idle after the frame that shows this slide (or its new size): a slide change then
    /// only copies their pixels.
    void prepareSlideTexts(int index);
    /// Make every view the deck shows (hidden until a slide places it).
    void createDeckViews();
    /// Lay out and draw, off screen, slide `index`'s views that are not on screen now and not
    /// in `leave`, at the sizes its layout will give them (with its texts, when the window is
    /// idle).
    void prepareSlideViews(int index, const QStringList& leave);
    /// The sizes slide `index`'s layout will give its views, by view name: the window less the
    /// slide's title, caption and step line; the metrics table its own width, the drawings
    /// share the rest.
    /// `stepLine`: the step line's text then (one line when empty).
    std::map<QString, QSize> slideViewSizes(int index, const QString& stepLine = {});
    /// Draw slide `index`'s notes chart ahead, as it will show with `revealed` series (and
    /// `stepLine` below it), on a hidden twin of the notes view at the size the slide gives it,
    /// and give the picture to the notes view: the step then copies it instead of replotting
    /// (NotesView::adoptChartPicture).
    void prepareNotesChart(int index, int revealed = 0, const QString& stepLine = {});
    /// Draw slide `index`'s warp view ahead, whole, as the slide will show it (its pattern, its
    /// type, nothing revealed, at the size its layout will give the view's frame, scroll bars
    /// included), on a hidden twin with a document of its own, and give the picture to the warp
    /// view (WarpView::adoptPicture): the step then copies it instead of drawing lanes and
    /// sectors. The picture of the slide before is let go (one is kept).
    void prepareWarpPicture(int index);
    /// Have the grid view compute slide `index`'s grid ahead, off the GUI thread
    /// (GridView::prepare, the request made from the slide's pattern on a document of its own):
    /// the step onto the slide shows its heat map at once instead of the last grid shown, then
    /// "Computing the grid…" and its progress.
    void prepareGridResult(int index);
    /// In a step: the slide's grid view shows the result computed ahead (or waits for it).
    void showGridAhead();
    /// Draw ahead the step line's next texts (the next two reveals', or with all revealed the
    /// next slide's first line) and, with `nextSlide`, slide `nextSlide`'s counter and first
    /// step line, at the sizes the layout will give them (SlideTextLabel::prepare).
    void prepareStepTexts(int nextSlide = -1);
    /// The step line slide `index` opens with, when it can be told ahead (from the twins drawn
    /// for it); empty when not.
    QString firstStepText(int index);
    /// Slide `index`'s pattern loaded as setSlide() loads it, on the view twins' document
    /// (loadSlideTwin()); nullptr when it cannot be loaded.
    const PatternDocument* aheadDocument(int index);
    /// The size the layout gives the step line with `text`.
    QSize stepLineSize(const QString& text) const;
    /// Draw slide `index`'s experiment charts (streams, transfers, L2 persistence) ahead, as the
    /// slide will show them with `revealed` steps, on hidden twins of the views at the sizes the
    /// slide gives them, and give the pictures to the slide's views
    /// (ExperimentView::adoptChartPictures): the step then copies them instead of laying the
    /// charts out and replotting them. On a streams slide its reveals too (each stream count).
    void prepareExperimentCharts(int index);
    /// One view's charts of slide `index`, as they will show with `revealed` steps.
    void prepareExperimentChart(int index, const QString& name, int revealed);
    /// The stream count a streams slide shows with `revealed` steps, and its step line then.
    static int streamsSlideCount(int revealed);
    QString streamsStepText(int revealed) const;
    /// Draw slide `index`'s bank view ahead, whole, as the slide will show it (its pattern, its
    /// type, nothing revealed when it is the view the slide steps through, at the size its
    /// layout will give the view's frame), on a hidden twin with a document of its own, and give
    /// the picture to the bank view (BankView::adoptPicture), as prepareWarpPicture() does for
    /// the warp view. The picture of the slide before is let go (one is kept).
    void prepareBankPicture(int index);
    /// The width the metrics table will have on slide `index` (its columns fit that slide's
    /// numbers): the table's own on the slide shown, else that of a hidden twin table given the
    /// slide's pattern (in the view twins' document).
    int metricsWidth(int index);
    /// Load slide `index`'s pattern into the view twins' document (made when first needed), as
    /// setSlide() loads it; false when the pattern has an error.
    bool loadSlideTwin(int index);
    /// At the end of a step: lay the window out now, and let the views' scroll areas show or
    /// hide their scroll bars now (a queued call of theirs) and lay out again, so that the step's
    /// first frame shows the slide as it stays. Otherwise a scroll bar that appears asks for a
    /// second layout pass after that frame, and a second frame.
    void settleSlideLayout();
    /// The notes view's status line on a slide.
    QString notesStatus(const NotesComparison& comparison) const;
    /// The window's type at `pixels` (at a window 1080 pixels high).
    QFont typeFont(qreal pixels, bool bold) const;
    /// A view's type when its frame is `width` wide.
    QFont viewFont(const QString& name, int width) const;
    /// Register with the render-ahead engine, in the order they are drawn, the parts of a slide
    /// drawn ahead (lecturewindow_ahead.cpp).
    void addPreparedViews();
    void finish();

    /// When to draw ahead, and the parts drawn (addPreparedViews()). First: event() reads it,
    /// and the members made before it is set send the window events (null until then).
    std::unique_ptr<RenderAhead> m_ahead;
    Deck m_deck;
    int m_slide = -1;
    PatternDocument* m_document;
    LaneHighlight* m_highlight;
    SlideTextLabel* m_title;
    SlideTextLabel* m_counter; // drawn from pictures too: the next slide's made ahead
    QWidget* m_viewArea;
    QHBoxLayout* m_viewLayout;
    SlideTextLabel* m_caption;
    SlideTextLabel* m_step; // drawn from pictures too: the next reveals' made ahead
    QLabel* m_keys;
    /// The view widgets made so far, by view name (made when a slide first needs them), and the
    /// widget placed in the layout for each (the view itself or its scroll area).
    std::map<QString, QWidget*> m_views;
    /// What each experiment's slides draw (setExperimentResults(); none: no entry).
    ExperimentResultsByKey m_experimentResults;
    /// Those results for `id` (empty when none).
    const std::any& experimentResults(std::string_view key) const;
    std::map<QString, QWidget*> m_frames;
    /// The hidden twins of the views, on which the next slides are drawn ahead: "notes" (made
    /// with the deck's views when it has a notes slide), "warp" (with a document of its own),
    /// "streams", "transfers", "l2-persistence", and "slide" (the document of the slide drawn
    /// ahead) with the "bank" view and "metrics" table that read it; made when first needed.
    std::unique_ptr<TwinCache> m_twins;
    QStringList m_placedViews; // the views in the layout now, in order
    QString m_stepView;        // "warp", "bank", "notes" or empty: whose items m_steps are
    KernelMeasurementStore* m_kernelMeasurements;
    std::vector<Step> m_steps;
    int m_revealed = 0;
    bool m_revealedAll = false; // by Return: the whole figure, no step singled out
    bool m_finished = false;
};

} // namespace warpscope::app
