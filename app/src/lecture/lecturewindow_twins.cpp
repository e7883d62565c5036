// LectureWindow's twins: hidden copies of a slide's views (warp, bank, notes, the experiment
// charts, the metrics table, all in one TwinCache) laid out as the slide will show them, whose
// pictures the slide's views adopt, so a step copies a picture instead of drawing lanes, sectors
// and charts.
#include "lecture/lecturewindow.h"

#include "document/patterndocument.h"
#include "experiments/experimentregistry.h"
#include "experiments/streamsview.h"
#include "lecture/lecturewindow_helpers.h"
#include "lecture/twincache.h"
#include "panels/metricstablemodel.h"
#include "views/bankview.h"
#include "views/experimentview.h"
#include "views/gridview.h"
#include "views/lanehighlight.h"
#include "views/notesview.h"
#include "views/viewkind.h"
#include "views/viewscrollarea.h"
#include "views/warplayout.h"
#include "views/warpview.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>

namespace warpscope::app {

using lecture::fitMetricsTable;
using lecture::sendPendingResizes;
using lecture::slideSession;
using lecture::slideViews;

namespace {

/// Lay out a twin view's scroll area never shown as showing it would, three times over: the
/// frame's resize places the viewport, whose resize lays the view out, whose resize may bring or
/// take away a scroll bar (a queued call of the scroll area's, then a layout request) and resize
/// the viewport again.
void settleTwinFrame(QWidget* frame) {
    for (int pass = 0; pass < 3; ++pass) {
        sendPendingResizes(frame);
        QCoreApplication::sendPostedEvents(frame);
        for (QWidget* child : frame->findChildren<QWidget*>()) {
            QCoreApplication::sendPostedEvents(child);
        }
    }
}

/// A warp or bank view's twin: on `twin`'s document with a highlight of its own, in a scroll area
/// in the twin's window, laid out to its frame's height as the slide's own (viewWidget()).
template <class View> View* makeViewTwin(TwinCache::Twin& twin, const QString& objectName) {
    auto* view = new View(twin.document, new LaneHighlight(twin.host));
    view->setObjectName(objectName);
    twin.frame = wrapInScrollArea(view, twin.host);
    view->setFitHeight(true);
    twin.view = view;
    return view;
}

} // namespace

void LectureWindow::prepareNotesChart(int index, int revealed, const QString& stepLine) {
    auto* notesTwin = m_twins->view<NotesView>(viewKindName(ViewKind::Notes));
    if (notesTwin == nullptr || index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    const DeckSlide& slide = m_deck.slides[static_cast<std::size_t>(index)];
    const auto found = m_views.find(viewKindName(ViewKind::Notes));
    if (found == m_views.end() || slide.notesExperiment.empty() ||
        !slideViews(slide).contains(viewKindName(ViewKind::Notes))) {
        return;
    }
    auto* notes = static_cast<NotesView*>(found->second);
    const QSize size = slideViewSizes(index, stepLine).at(viewKindName(ViewKind::Notes));
    if (size.isEmpty() || !notesTwin->setExperiment(slide.notesExperiment)) {
        return;
    }
    // The twin as the slide's notes view will be: its colours, its type at that width, its
    // status line, the series revealed, laid out at that size.
    notesTwin->setPalette(palette());
    notesTwin->setFont(viewFont(viewKindName(ViewKind::Notes), size.width()));
    notesTwin->setGpuStatus(notesStatus(notesTwin->comparison()));
    notesTwin->setRevealedSeries(revealed);
    notesTwin->ensurePolished();
    notesTwin->resize(size);
    for (QSplitter* splitter : notesTwin->findChildren<QSplitter*>()) {
        splitter->refresh();
    }
    notesTwin->layout()->invalidate();
    notesTwin->layout()->activate();
    // A widget never shown gets its resize events only when it is shown: give them now, parents
    // first (the splitter places the chart in its own).
    sendPendingResizes(notesTwin);
    notes->adoptChartPicture(notesTwin->chartPicture());
}

void LectureWindow::prepareWarpPicture(int index) {
    const auto found = m_views.find(viewKindName(ViewKind::Warp));
    if (found == m_views.end() || index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    auto* warp = static_cast<WarpView*>(found->second);
    warp->dropPicture(); // the current slide's, copied already: one picture at most
    const DeckSlide& slide = m_deck.slides[static_cast<std::size_t>(index)];
    const QStringList names = slideViews(slide);
    if (!names.contains(viewKindName(ViewKind::Warp))) {
        return;
    }
    const QSize size = slideViewSizes(index).at(viewKindName(ViewKind::Warp));
    if (size.isEmpty()) {
        return;
    }
    TwinCache::Twin* twin = m_twins->find(viewKindName(ViewKind::Warp));
    if (twin == nullptr) {
        // With a document of its own (the bank view's twin reads another slide's).
        twin = &m_twins->make(viewKindName(ViewKind::Warp));
        twin->document = new PatternDocument(twin->host);
        makeViewTwin<WarpView>(*twin, QStringLiteral("warpTwin"));
    }
    auto* warpTwin = static_cast<WarpView*>(twin->view);
    if (twin->document->loadSession(slideSession(slide))) {
        return; // the slide shows its error; nothing to draw ahead
    }
    // The twin as the slide's warp view will be: this window's colours, its type at that width,
    // laid out in a frame of that size (its scroll bars as they will be).
    twin->host->setPalette(palette());
    warpTwin->setFont(viewFont(viewKindName(ViewKind::Warp), size.width()));
    twin->frame->resize(size);
    settleTwinFrame(twin->frame);
    // Nothing revealed when the warp view is the one the slide steps through (computeSteps()).
    int revealCount = -1;
    for (const QString& name : names) {
        if (name == viewKindName(ViewKind::Warp)) {
            revealCount = warpTwin->currentLayout().listRows.empty() ? -1 : 0;
            break;
        }
        if (name == QLatin1String("streams") || name == viewKindName(ViewKind::Notes) ||
            name == viewKindName(ViewKind::Bank)) {
            break;
        }
    }
    warpTwin->setRevealCount(revealCount);
    twin->slide = index;
    // The warp view lays out to its frame's height (setFitHeight()): the frame must be the one
    // the slide will give it, with the step line the slide opens with (its step count is the
    // twin's, known only now; a longer line wraps and leaves the view less height).
    if (const QSize exact =
            slideViewSizes(index, firstStepText(index)).at(viewKindName(ViewKind::Warp));
        !exact.isEmpty() && exact != size) {
        warpTwin->setFont(viewFont(viewKindName(ViewKind::Warp), exact.width()));
        twin->frame->resize(exact);
        settleTwinFrame(twin->frame);
    }
    warp->adoptPicture(warpTwin->renderPicture(devicePixelRatioF()), warpTwin->pictureKey());
}

void LectureWindow::prepareGridResult(int index) {
    const auto found = m_views.find(viewKindName(ViewKind::Grid));
    if (found == m_views.end() || index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    const DeckSlide& slide = m_deck.slides[static_cast<std::size_t>(index)];
    if (!slideViews(slide).contains(viewKindName(ViewKind::Grid))) {
        return;
    }
    if (const PatternDocument* document = aheadDocument(index)) {
        static_cast<GridView*>(found->second)->prepare(GridView::requestFor(*document));
    }
}

const PatternDocument* LectureWindow::aheadDocument(int index) {
    return loadSlideTwin(index) ? m_twins->find(QStringLiteral("slide"))->document : nullptr;
}

void LectureWindow::prepareExperimentCharts(int index) {
    if (index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    for (const QString& name : slideViews(m_deck.slides[static_cast<std::size_t>(index)])) {
        if (findAppExperiment(name) == nullptr) {
            continue; // not an experiment's chart
        }
        // The slide as it comes, then, on the streams slide, each stream count Space reveals
        // (the presenter often steps on at once, with no pause on the slide to draw them in).
        const int reveals = name == QLatin1String("streams") ? 3 : 0;
        for (int revealed = 0; revealed <= reveals; ++revealed) {
            prepareExperimentChart(index, name, revealed);
        }
    }
}

void LectureWindow::prepareExperimentChart(int index, const QString& name, int revealed) {
    const auto found = m_views.find(name);
    const AppExperiment* experiment = findAppExperiment(name);
    if (found == m_views.end() || experiment == nullptr) {
        return;
    }
    auto* view = qobject_cast<ExperimentView*>(found->second);
    const bool streams = name == QLatin1String("streams");
    const QString stepLine = streams ? streamsStepText(revealed) : QString();
    const QSize size = slideViewSizes(index, stepLine).at(name);
    if (view == nullptr || size.isEmpty()) {
        return;
    }
    TwinCache::Twin* twin = m_twins->find(name);
    if (twin == nullptr) {
        // As viewWidget() makes the slide's view: in a scroll area that gives it the panel,
        // Measure and the status line hidden.
        twin = &m_twins->make(name);
        ExperimentView* made = experiment->createView(nullptr);
        made->setObjectName(name + QStringLiteral("Twin"));
        made->runButton()->hide();
        made->statusLabel()->hide();
        auto* area = wrapInScrollArea(made, twin->host);
        area->setWidgetResizable(true);
        twin->view = made;
        twin->frame = area;
    }
    auto* twinView = static_cast<ExperimentView*>(twin->view);
    // The slide's results, colours, type at that width and stream count.
    experiment->setResults(twinView, experimentResults(experiment->tableKey()));
    if (streams) {
        static_cast<StreamsView*>(twinView)->setStreamCount(streamsSlideCount(revealed));
    }
    twin->host->setPalette(palette());
    twinView->setFont(viewFont(name, size.width()));
    twin->frame->resize(size);
    for (int pass = 0; pass < 3; ++pass) {
        // Never shown: its resizes and layout requests delivered as showing it would (the
        // frame places the viewport, which sizes the view, whose layout sizes the charts).
        sendPendingResizes(twin->frame);
        QCoreApplication::sendPostedEvents(twin->frame);
        for (QWidget* child : twin->frame->findChildren<QWidget*>()) {
            QCoreApplication::sendPostedEvents(child, QEvent::LayoutRequest);
        }
        sendPendingResizes(twin->frame);
    }
    if (!view->holdsChartPicturesOf(*twinView)) {
        view->adoptChartPictures(twinView->chartPictures());
    }
    if (streams && revealed == 0 && !view->isVisible()) {
        // The slide's view, hidden, shows its first stream count already (its title and
        // summary with it): the step then sets no text and lays nothing out again for them.
        static_cast<StreamsView*>(view)->setStreamCount(streamsSlideCount(0));
    }
}

bool LectureWindow::loadSlideTwin(int index) {
    TwinCache::Twin* twin = m_twins->find(QStringLiteral("slide"));
    if (twin == nullptr) {
        twin = &m_twins->make(QStringLiteral("slide"));
        twin->document = new PatternDocument(twin->host);
    }
    if (index != twin->slide) {
        twin->valid = !twin->document->loadSession(
            slideSession(m_deck.slides[static_cast<std::size_t>(index)]));
        twin->slide = index;
    }
    return twin->valid;
}

int LectureWindow::metricsWidth(int index) {
    QWidget* table = viewWidget(viewKindName(ViewKind::Metrics));
    if (index == m_slide || !loadSlideTwin(index)) {
        return table->width();
    }
    auto* metricsTwin = m_twins->view<QTableView>(viewKindName(ViewKind::Metrics));
    if (metricsTwin == nullptr) {
        // As viewWidget() makes the slide's table, in the same order, as far as its width goes.
        TwinCache::Twin& twin =
            m_twins->make(viewKindName(ViewKind::Metrics), QStringLiteral("slide"));
        metricsTwin = new QTableView(twin.host);
        metricsTwin->verticalHeader()->hide();
        metricsTwin->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        metricsTwin->setModel(new MetricsTableModel(twin.document, metricsTwin));
        // After setModel(): a column hidden before the table has a model is shown again.
        metricsTwin->setColumnHidden(MetricsTableModel::MeasuredColumn, true);
        metricsTwin->setWordWrap(false);
        metricsTwin->setFrameShape(QFrame::NoFrame);
        twin.view = metricsTwin;
    }
    metricsTwin->setFont(m_views.at(viewKindName(ViewKind::Metrics))->font());
    fitMetricsTable(metricsTwin);
    return metricsTwin->minimumWidth();
}

void LectureWindow::prepareBankPicture(int index) {
    const auto found = m_views.find(viewKindName(ViewKind::Bank));
    if (found == m_views.end() || index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    auto* bank = static_cast<BankView*>(found->second);
    bank->dropPicture(); // the current slide's, copied already: one picture at most
    const QStringList names = slideViews(m_deck.slides[static_cast<std::size_t>(index)]);
    if (!names.contains(viewKindName(ViewKind::Bank))) {
        return;
    }
    // The bank view lays out to its frame's height (setFitHeight()): the frame the slide gives
    // it with the step line the slide opens with.
    const QSize size = slideViewSizes(index, firstStepText(index)).at(viewKindName(ViewKind::Bank));
    if (size.isEmpty() || !loadSlideTwin(index)) {
        return; // an error: the slide shows it, nothing to draw ahead
    }
    TwinCache::Twin* twin = m_twins->find(viewKindName(ViewKind::Bank));
    if (twin == nullptr) {
        // On the slide twin's document, which loadSlideTwin() gave this slide's pattern.
        twin = &m_twins->make(viewKindName(ViewKind::Bank), QStringLiteral("slide"));
        makeViewTwin<BankView>(*twin, QStringLiteral("bankTwin"));
    }
    auto* bankTwin = static_cast<BankView*>(twin->view);
    // The twin as the slide's bank view will be: this window's colours, its type at that width,
    // laid out in a frame of that size (its scroll bars as they will be).
    twin->host->setPalette(palette());
    bankTwin->setFont(viewFont(viewKindName(ViewKind::Bank), size.width()));
    twin->frame->resize(size);
    settleTwinFrame(twin->frame);
    // Nothing revealed when the bank view is the one the slide steps through (computeSteps():
    // the first warp view with lines or transactions, or bank view with wavefronts).
    int revealCount = -1;
    const auto& evaluation = twin->document->evaluation();
    for (const QString& name : names) {
        if (name == QLatin1String("streams") || name == viewKindName(ViewKind::Notes) ||
            !evaluation) {
            break;
        }
        if (name == viewKindName(ViewKind::Warp)) {
            if (!WarpLayout::compute(*evaluation, size.width(), QFontMetricsF(bankTwin->font()),
                                     true)
                     .listRows.empty()) {
                break; // the warp view steps
            }
        } else if (name == viewKindName(ViewKind::Bank)) {
            if (evaluation->modern.shared && !evaluation->modern.shared->wavefrontList.empty()) {
                revealCount = 0;
            }
            break;
        }
    }
    bankTwin->setRevealCount(revealCount);
    bank->adoptPicture(bankTwin->renderPicture(devicePixelRatioF()), bankTwin->pictureKey());
}

} // namespace warpscope::app
