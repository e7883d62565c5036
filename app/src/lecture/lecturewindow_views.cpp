// LectureWindow's views: each view a slide can show ("warp", "bank", "grid", "notes", the
// experiment charts, the metrics table) made once, in the frame that places it on a slide, and
// the slide's views placed side by side.
#include "lecture/lecturewindow.h"

#include "experiments/experimentregistry.h"
#include "lecture/lecturewindow_helpers.h"
#include "lecture/twincache.h"
#include "panels/metricstablemodel.h"
#include "views/bankview.h"
#include "views/blockview.h"
#include "views/experimentview.h"
#include "views/gridview.h"
#include "views/notesview.h"
#include "views/sweepplot.h"
#include "views/viewkind.h"
#include "views/viewscrollarea.h"
#include "views/warpview.h"
#include "views/zoomableview.h"

#include <QAbstractItemView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>

namespace warpscope::app {

using lecture::fitMetricsTable;
using lecture::kLectureFrameProperty;

QWidget* LectureWindow::viewWidget(const QString& name) {
    if (auto it = m_frames.find(name); it != m_frames.end()) {
        return it->second;
    }
    QWidget* view = nullptr;
    QWidget* frame = nullptr;
    QWidget* clickTarget = nullptr; // where a click lands besides the view itself
    if (name == viewKindName(ViewKind::Warp)) {
        view = new WarpView(m_document, m_highlight);
    } else if (name == viewKindName(ViewKind::Bank)) {
        view = new BankView(m_document, m_highlight);
    } else if (name == viewKindName(ViewKind::Block)) {
        view = new BlockView(m_document, m_highlight);
    } else if (name == viewKindName(ViewKind::Sweep)) {
        view = new SweepPlot(m_document, m_viewArea);
        frame = view;
    } else if (const AppExperiment* experiment = findAppExperiment(name)) {
        ExperimentView* chart = experiment->createView(m_viewArea);
        chart->runButton()->hide(); // a slide shows; the main window measures
        experiment->setResults(chart, experimentResults(experiment->tableKey()));
        view = chart;
    } else if (name == viewKindName(ViewKind::Grid)) {
        view = new GridView(m_document, m_viewArea); // scales its heat map to its size
        frame = view;
    } else if (name == viewKindName(ViewKind::Notes)) {
        auto* notes = new NotesView(m_kernelMeasurements, m_viewArea);
        notes->setPresentation(true);
        view = notes;
        frame = view;
    } else {
        // "metrics": the two models' numbers in large type. The Measured column stays out of a
        // slide: lecture mode shows predictions.
        auto* table = new QTableView(m_viewArea);
        table->setObjectName(QStringLiteral("lectureMetrics"));
        table->verticalHeader()->hide();
        table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        // The model signals only the cells whose numbers changed, then refreshed(): fit then.
        auto* model = new MetricsTableModel(m_document, table);
        table->setModel(model);
        // After setModel(): a column hidden before the table has a model is shown again.
        table->setColumnHidden(MetricsTableModel::MeasuredColumn, true);
        connect(model, &MetricsTableModel::refreshed, table, [table] { fitMetricsTable(table); });
        table->setSelectionMode(QAbstractItemView::NoSelection);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setWordWrap(false);
        table->setFrameShape(QFrame::NoFrame);
        table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        view = table;
        frame = table;
        clickTarget = table->viewport();
    }
    if (auto* zoomable = qobject_cast<ZoomableView*>(view)) {
        // A slide has no scroll bar: the warp and bank views lay their rows and lists out to
        // the frame's height, in the slide's type (never drawn scaled down).
        zoomable->setFitHeight(true);
    }
    if (frame == nullptr) {
        auto* area = wrapInScrollArea(view, m_viewArea);
        // A chart view (transfers, streams, L2) fills its panel as in the main window's tab,
        // scrolling only below its minimum size; at its own size hint it stayed a small box. Its
        // status line (where the numbers come from, Measure's state) stays in the main window:
        // the chart has the room.
        if (auto* experiment = qobject_cast<ExperimentView*>(view)) {
            area->setWidgetResizable(true);
            experiment->statusLabel()->hide();
        }
        frame = area;
        clickTarget = area->viewport();
    }
    // Keys belong to the lecture window (a scroll area or a table would eat the arrows), and a
    // click anywhere on a slide steps on, as in any slide show.
    frame->setFocusPolicy(Qt::NoFocus);
    for (QWidget* child : frame->findChildren<QWidget*>()) {
        child->setFocusPolicy(Qt::NoFocus);
    }
    view->installEventFilter(this);
    frame->installEventFilter(this); // its resizes scale the view's type
    if (clickTarget != nullptr) {
        clickTarget->installEventFilter(this);
    }
    frame->setProperty(kLectureFrameProperty, name); // for lectureGeometry()
    m_views[name] = view;
    m_frames[name] = frame;
    applyFonts();
    return frame;
}

GridView* LectureWindow::gridView() const {
    auto it = m_views.find(viewKindName(ViewKind::Grid));
    return it != m_views.end() && shownViews().contains(it->first)
               ? static_cast<GridView*>(it->second)
               : nullptr;
}

NotesView* LectureWindow::notesView() const {
    auto it = m_views.find(viewKindName(ViewKind::Notes));
    return it != m_views.end() && shownViews().contains(it->first)
               ? static_cast<NotesView*>(it->second)
               : nullptr;
}

void LectureWindow::setKernelMeasurements(KernelMeasurementStore* store) {
    if (store == nullptr || store == m_kernelMeasurements) {
        return;
    }
    m_kernelMeasurements = store;
    // A notes view made before reads the old store: make it again when a slide needs it.
    if (auto it = m_frames.find(viewKindName(ViewKind::Notes)); it != m_frames.end()) {
        m_viewLayout->removeWidget(it->second);
        it->second->deleteLater();
        m_frames.erase(it);
        m_views.erase(viewKindName(ViewKind::Notes));
        m_twins->drop(viewKindName(ViewKind::Notes));
        m_placedViews.clear(); // the layout lost a view: place the slide's views again
        createDeckViews();
        if (m_slide >= 0) {
            setSlide(m_slide);
        }
    }
}

void LectureWindow::createDeckViews() {
    // Every view the deck shows, made when lecture mode opens rather than in the step that first
    // shows it (a grid view, a notes chart, the streams or L2 views: tens of milliseconds each
    // at 4K). They are hidden until a slide places them; the ones made before stay as they are.
    for (const DeckSlide& slide : m_deck.slides) {
        for (const std::string& view : slide.views) {
            const QString name = QString::fromStdString(view);
            if (m_frames.find(name) == m_frames.end()) {
                viewWidget(name)->hide();
            }
            if (name == viewKindName(ViewKind::Notes) && m_twins->find(name) == nullptr) {
                // Never shown, and not in this window (in a window of its own, never shown, so
                // that it is framed as a view inside a window is): prepareNotesChart() gives
                // it this window's colours and type when it draws.
                TwinCache::Twin& twin = m_twins->make(name);
                auto* notesTwin = new NotesView(m_kernelMeasurements, twin.host);
                notesTwin->setObjectName(QStringLiteral("notesTwin"));
                notesTwin->setPresentation(true);
                twin.view = notesTwin;
            }
        }
    }
}

void LectureWindow::showSlideViews() {
    const QStringList names = shownViews();
    if (names == m_placedViews) {
        // The same views as on the slide before (most slides show a warp view and the metrics):
        // keep them where they are. Taking them out and putting them back laid out and
        // repainted the whole view area again.
        return;
    }
    m_placedViews = names;
    for (auto& [name, frame] : m_frames) {
        m_viewLayout->removeWidget(frame);
        frame->hide();
    }
    for (const QString& name : names) {
        QWidget* frame = viewWidget(name);
        // The metrics table takes the width of its columns; the drawings share the rest.
        m_viewLayout->addWidget(frame, name == viewKindName(ViewKind::Metrics) ? 0 : 1);
        frame->show();
    }
}

WarpView* LectureWindow::warpView() const {
    auto it = m_views.find(viewKindName(ViewKind::Warp));
    return it != m_views.end() && shownViews().contains(it->first)
               ? static_cast<WarpView*>(it->second)
               : nullptr;
}

BankView* LectureWindow::bankView() const {
    auto it = m_views.find(viewKindName(ViewKind::Bank));
    return it != m_views.end() && shownViews().contains(it->first)
               ? static_cast<BankView*>(it->second)
               : nullptr;
}

} // namespace warpscope::app
