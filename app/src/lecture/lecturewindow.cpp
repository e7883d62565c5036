// LectureWindow: slides, the type scale, keys and clicks. The step-through (what Space reveals
// next) is in lecturewindow_steps.cpp.
#include "lecture/lecturewindow.h"

#include "document/patterndocument.h"
#include "gpu/kernelmeasurement.h"
#include "lecture/slidetextlabel.h"
#include "panels/metricstablemodel.h"
#include "views/bankview.h"
#include "views/blockview.h"
#include "views/experimentview.h"
#include "views/gridview.h"
#include "views/l2persistenceview.h"
#include "views/lanehighlight.h"
#include "views/notesview.h"
#include "views/streamsview.h"
#include "views/sweepplot.h"
#include "views/theme.h"
#include "views/transfersview.h"
#include "views/viewpainting.h"
#include "views/viewscrollarea.h"
#include "views/warplayout.h"
#include "views/warpview.h"

#include <QAbstractEventDispatcher>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QFile>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QTimerEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace warpscope::app {

namespace {

// The type scale, in pixels at a window 1080 pixels high (a 1080p projector); every size follows
// the window's height. Body text (the caption) is over 30 px: readable from the back of a room.
constexpr qreal kReferenceHeight = 1080.0;
constexpr qreal kTitlePx = 56.0;
constexpr qreal kCaptionPx = 34.0;
constexpr qreal kStepPx = 32.0;
constexpr qreal kCounterPx = 30.0;
constexpr qreal kKeysPx = 21.0;
constexpr qreal kViewPx = 22.0; // the views' own labels: figures, smaller than the body text
constexpr qreal kMetricsPx = 24.0;
// A drawing narrower than this (beside another view) scales its labels down with its width, so
// its lines of text still fit.
constexpr qreal kViewReferenceWidth = 1500.0;

/// LectureWindow's own event: draw the next slide's texts if the window is idle.
const QEvent::Type kIdleCheckEvent = static_cast<QEvent::Type>(QEvent::registerEventType());

const QColor kStepColour(0xFF, 0xE6, 0x00); // the high-contrast theme's highlight
const QColor kMutedColour(0xD0, 0xD0, 0xD0);

/// Size the metrics table's columns to their texts (bold included: the model puts the first
/// model's column in bold) and the table to its columns, so no number is cut off and the drawing
/// beside it gets the rest of the width.
void fitMetricsTable(QTableView* table) {
    QFont bold = table->font();
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    const QFontMetrics regular(table->font());
    const int padding = metrics.horizontalAdvance(QStringLiteral("M"));
    const QAbstractItemModel* model = table->model();
    int total = 0;
    for (int column = 0; column < model->columnCount(); ++column) {
        if (table->isColumnHidden(column)) {
            continue;
        }
        int width = metrics.horizontalAdvance(
            model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, column);
            const bool isBold = index.data(Qt::FontRole).value<QFont>().bold();
            width = std::max(
                width, (isBold ? metrics : regular).horizontalAdvance(index.data().toString()));
        }
        table->setColumnWidth(column, width + padding);
        total += width + padding;
    }
    table->setFixedWidth(total + 2 * table->frameWidth());
}

/// Deliver the resize events that `widget` and its children have pending, as showing it would.
void sendPendingResizes(QWidget* widget) {
    if (widget->testAttribute(Qt::WA_PendingResizeEvent)) {
        widget->setAttribute(Qt::WA_PendingResizeEvent, false);
        QResizeEvent event(widget->size(), QSize());
        QCoreApplication::sendEvent(widget, &event);
    }
    for (QObject* child : widget->children()) {
        auto* childWidget = qobject_cast<QWidget*>(child);
        if (childWidget != nullptr && !childWidget->isWindow()) {
            sendPendingResizes(childWidget);
        }
    }
}

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

/// Slide `slide`'s pattern as a session of one entry, as setSlide() loads it: the slide's title
/// (the window draws it, with the caption, in its own type; the views' title lines keep the
/// access description and the numbers) and no caption.
Session slideSession(const DeckSlide& slide) {
    NamedPattern pattern = slide.pattern;
    pattern.title = slide.title.empty() ? pattern.title : slide.title;
    pattern.caption.clear();
    Session session;
    session.entries.push_back(SessionEntry{pattern, {}});
    return session;
}

void setTextColour(QLabel* label, const QColor& colour) {
    QPalette palette = label->palette();
    palette.setColor(QPalette::WindowText, colour);
    label->setPalette(palette);
}

} // namespace

QString builtinDeckPath() {
    return QStringLiteral(":/decks/course.json");
}

Result<Deck> loadDeckFile(const QString& path) {
    std::string text;
    if (path.startsWith(QLatin1String(":/"))) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            return Error{ErrorCode::Io, "this build has no such deck compiled in", 0,
                         path.toStdString()};
        }
        text = file.readAll().toStdString();
    } else {
        auto read = readTextFile(QFile::encodeName(path).toStdString());
        if (!read) {
            return read.error();
        }
        text = std::move(read).value();
    }
    return deckFromJsonText(text);
}

LectureWindow::LectureWindow(Deck deck, QWidget* parent)
    : QWidget(parent, Qt::Window), m_deck(std::move(deck)), m_document(new PatternDocument(this)),
      m_highlight(new LaneHighlight(this)), m_title(new SlideTextLabel(this)),
      m_counter(new SlideTextLabel(this)), m_viewArea(new QWidget(this)),
      m_viewLayout(new QHBoxLayout(m_viewArea)), m_caption(new SlideTextLabel(this)),
      m_step(new SlideTextLabel(this)), m_keys(new QLabel(this)),
      m_kernelMeasurements(new KernelMeasurementStore(this)) {
    setObjectName(QStringLiteral("lectureWindow"));
    setWindowTitle(m_deck.title.empty()
                       ? tr("warpscope lecture")
                       : tr("%1 — warpscope lecture").arg(QString::fromStdString(m_deck.title)));
    setPalette(themePalette(Theme::HighContrast));
    setAutoFillBackground(true);
    setFocusPolicy(Qt::StrongFocus);

    m_title->setObjectName(QStringLiteral("lectureTitle"));
    m_counter->setObjectName(QStringLiteral("lectureCounter"));
    m_caption->setObjectName(QStringLiteral("lectureCaption"));
    m_step->setObjectName(QStringLiteral("lectureStep"));
    m_keys->setObjectName(QStringLiteral("lectureKeys"));
    m_title->setWordWrap(true);
    m_caption->setWordWrap(true);
    m_step->setWordWrap(true);
    m_step->setPicturesKept(6); // this line, two reveals ahead, the next slide's, spares
    m_counter->setAlignment(Qt::AlignRight | Qt::AlignTop);
    m_keys->setAlignment(Qt::AlignRight | Qt::AlignBottom);
    setTextColour(m_counter, kMutedColour);
    setTextColour(m_step, kStepColour);
    setTextColour(m_keys, kMutedColour);
    m_keys->setText(tr("→ PgDn next · ← PgUp back · Space step · Enter all · Esc leave"));
    for (QLabel* label :
         std::initializer_list<QLabel*>{m_title, m_counter, m_caption, m_step, m_keys}) {
        label->setTextFormat(Qt::PlainText);
        label->setFocusPolicy(Qt::NoFocus);
    }
    m_viewLayout->setContentsMargins(0, 0, 0, 0);

    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_counter, 0, Qt::AlignTop);
    layout->addLayout(top);
    layout->addWidget(m_viewArea, 1);
    layout->addWidget(m_caption);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_step, 1);
    bottom->addWidget(m_keys, 0, Qt::AlignBottom);
    layout->addLayout(bottom);

    applyFonts();
    createDeckViews();
    if (!m_deck.slides.empty()) {
        setSlide(0);
    }
}

LectureWindow::~LectureWindow() = default;

void LectureWindow::present(QSize size) {
    if (size.isValid()) {
        resize(size);
        show();
    } else {
        // Cover the screen even where no window manager honours the full-screen request.
        if (QScreen* current = screen()) {
            setGeometry(current->geometry());
        }
        showFullScreen();
    }
    raise();
    activateWindow();
    setFocus(Qt::OtherFocusReason);
}

// ---- Slides -----------------------------------------------------------------------------------

void LectureWindow::setSlide(int index) {
    if (m_deck.slides.empty()) {
        return;
    }
    index = std::clamp(index, 0, slideCount() - 1);
    m_slide = index;
    const DeckSlide& slide = m_deck.slides[static_cast<std::size_t>(index)];
    const auto error = m_document->loadSession(slideSession(slide));
    m_highlight->clear();
    showSlideViews();
    showGridAhead();
    if (NotesView* notes = notesView()) {
        if (!slide.notesExperiment.empty() && !notes->setExperiment(slide.notesExperiment)) {
            m_step->setText(tr("This slide's notes table \"%1\" does not exist.")
                                .arg(QString::fromStdString(slide.notesExperiment)));
        }
        notes->setGpuStatus(notesStatus(notes->comparison()));
    }
    computeSteps();
    m_revealed = 0;
    m_revealedAll = false;
    applyReveal();
    updateTexts();
    if (error) {
        m_step->setText(
            tr("This slide cannot be shown: %1").arg(QString::fromStdString(error->describe())));
    }
    settleSlideLayout();
    m_prepareAfterFrame = true;
    emit slideChanged(m_slide);
}

QString LectureWindow::notesStatus(const NotesComparison& comparison) const {
    return comparison.measuredRows > 0
               ? tr("This GPU: %1.").arg(comparison.measuredGpu)
               : tr("No measurement of this GPU: run the table on the Notes vs GPU tab, or start "
                    "with --kernel-measurements FILE.");
}

void LectureWindow::nextSlide() {
    if (m_slide + 1 < slideCount()) {
        setSlide(m_slide + 1);
    }
}

void LectureWindow::previousSlide() {
    if (m_slide > 0) {
        setSlide(m_slide - 1);
    }
}

void LectureWindow::setTransferResults(std::optional<TransferResults> results) {
    m_transferResults = std::move(results);
    if (auto it = m_views.find(QStringLiteral("transfers")); it != m_views.end()) {
        static_cast<TransfersView*>(it->second)->setResults(m_transferResults);
    }
}

void LectureWindow::setStreamsResults(std::optional<StreamsResults> results) {
    m_streamsResults = std::move(results);
    if (auto it = m_views.find(QStringLiteral("streams")); it != m_views.end()) {
        static_cast<StreamsView*>(it->second)->setResults(m_streamsResults);
    }
}
void LectureWindow::setL2PersistenceResults(std::optional<L2PersistenceResults> results) {
    m_l2PersistenceResults = std::move(results);
    if (auto it = m_views.find(QStringLiteral("l2-persistence")); it != m_views.end()) {
        static_cast<L2PersistenceView*>(it->second)->setResults(m_l2PersistenceResults);
    }
}

QStringList LectureWindow::shownViews() const {
    QStringList names;
    if (m_slide >= 0) {
        for (const std::string& view : m_deck.slides[static_cast<std::size_t>(m_slide)].views) {
            names << QString::fromStdString(view);
        }
    }
    return names;
}

QWidget* LectureWindow::viewWidget(const QString& name) {
    if (auto it = m_frames.find(name); it != m_frames.end()) {
        return it->second;
    }
    QWidget* view = nullptr;
    QWidget* frame = nullptr;
    QWidget* clickTarget = nullptr; // where a click lands besides the view itself
    if (name == QLatin1String("warp")) {
        view = new WarpView(m_document, m_highlight);
    } else if (name == QLatin1String("bank")) {
        view = new BankView(m_document, m_highlight);
    } else if (name == QLatin1String("block")) {
        view = new BlockView(m_document, m_highlight);
    } else if (name == QLatin1String("sweep")) {
        view = new SweepPlot(m_document, m_viewArea);
        frame = view;
    } else if (name == QLatin1String("transfers")) {
        auto* transfers = new TransfersView(m_viewArea);
        transfers->runButton()->hide(); // a slide shows; the main window measures
        transfers->setResults(m_transferResults);
        view = transfers;
    } else if (name == QLatin1String("streams")) {
        auto* streams = new StreamsView(m_viewArea);
        streams->runButton()->hide(); // a slide shows; the main window measures
        streams->setResults(m_streamsResults);
        view = streams;
    } else if (name == QLatin1String("l2-persistence")) {
        auto* l2 = new L2PersistenceView(m_viewArea);
        l2->runButton()->hide(); // a slide shows; the main window measures
        l2->setResults(m_l2PersistenceResults);
        view = l2;
    } else if (name == QLatin1String("grid")) {
        view = new GridView(m_document, m_viewArea); // scales its heat map to its size
        frame = view;
    } else if (name == QLatin1String("notes")) {
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
        table->setColumnHidden(MetricsTableModel::MeasuredColumn, true);
        // The model signals only the cells whose numbers changed, then refreshed(): fit then.
        auto* model = new MetricsTableModel(m_document, table);
        table->setModel(model);
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
    m_views[name] = view;
    m_frames[name] = frame;
    applyFonts();
    return frame;
}

GridView* LectureWindow::gridView() const {
    auto it = m_views.find(QStringLiteral("grid"));
    return it != m_views.end() && shownViews().contains(it->first)
               ? static_cast<GridView*>(it->second)
               : nullptr;
}

NotesView* LectureWindow::notesView() const {
    auto it = m_views.find(QStringLiteral("notes"));
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
    if (auto it = m_frames.find(QStringLiteral("notes")); it != m_frames.end()) {
        m_viewLayout->removeWidget(it->second);
        it->second->deleteLater();
        m_frames.erase(it);
        m_views.erase(QStringLiteral("notes"));
        m_notesTwinHost.reset();
        m_notesTwin = nullptr;
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
            if (name == QLatin1String("notes") && m_notesTwin == nullptr) {
                // Never shown, and not in this window (in a window of its own, never shown, so
                // that it is framed as a view inside a window is): prepareNotesChart() gives
                // it this window's colours and type when it draws.
                m_notesTwinHost = std::make_unique<QWidget>();
                m_notesTwin = new NotesView(m_kernelMeasurements, m_notesTwinHost.get());
                m_notesTwin->setObjectName(QStringLiteral("notesTwin"));
                m_notesTwin->setPresentation(true);
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
        m_viewLayout->addWidget(frame, name == QLatin1String("metrics") ? 0 : 1);
        frame->show();
    }
}

WarpView* LectureWindow::warpView() const {
    auto it = m_views.find(QStringLiteral("warp"));
    return it != m_views.end() && shownViews().contains(it->first)
               ? static_cast<WarpView*>(it->second)
               : nullptr;
}

BankView* LectureWindow::bankView() const {
    auto it = m_views.find(QStringLiteral("bank"));
    return it != m_views.end() && shownViews().contains(it->first)
               ? static_cast<BankView*>(it->second)
               : nullptr;
}

// ---- Texts and type ---------------------------------------------------------------------------

namespace {

QString slideTitle(const DeckSlide& slide) {
    return QString::fromStdString(slide.title.empty() ? slide.pattern.title : slide.title);
}

} // namespace

QString LectureWindow::titleText() const {
    return m_slide < 0 ? QString() : slideTitle(m_deck.slides[static_cast<std::size_t>(m_slide)]);
}

QString LectureWindow::captionText() const {
    return m_slide < 0
               ? QString()
               : QString::fromStdString(m_deck.slides[static_cast<std::size_t>(m_slide)].caption);
}

int LectureWindow::slideAfter(int index) const {
    if (index < 0 || slideCount() < 2) {
        return -1;
    }
    return index + 1 < slideCount() ? index + 1 : 0;
}

namespace {

QStringList slideViews(const DeckSlide& slide) {
    QStringList names;
    for (const std::string& view : slide.views) {
        names << QString::fromStdString(view);
    }
    return names;
}

} // namespace

void LectureWindow::prepareSlideTexts(int index) {
    if (index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    const DeckSlide& next = m_deck.slides[static_cast<std::size_t>(index)];
    // The sizes the layout will give them: the title keeps its width (the counter beside it has
    // a fixed one, see applyFonts()) and is at least as high as the counter; the caption spans
    // the window. A wrong guess costs nothing but the time: the paint then draws the text itself.
    const QString title = slideTitle(next);
    m_title->prepare(title,
                     m_title->sizeFor(title, m_title->width(), m_counter->sizeHint().height()));
    const QString caption = QString::fromStdString(next.caption);
    // (The window's width less the layout's margins: the layout's own rectangle is not valid
    // while a layout request is pending.)
    const int width = contentsRect().marginsRemoved(layout()->contentsMargins()).width();
    m_caption->prepare(caption, m_caption->sizeFor(caption, width));
}

std::map<QString, QSize> LectureWindow::slideViewSizes(int index, const QString& stepLine) {
    const DeckSlide& next = m_deck.slides[static_cast<std::size_t>(index)];
    const QStringList names = slideViews(next);
    // The window less its margins, the title row, the caption and the step line (one line
    // before the first step), with the layout's spacing between them.
    const auto oneLine = [&stepLine](const QLabel* label) {
        // As the layout measures the label with that text: its own height for its width
        // (QFontMetrics::boundingRect gave one pixel more at 3840 × 2160 at scale 1, so every
        // view prepared ahead was laid out again in the step).
        QLabel probe(stepLine.isEmpty() ? QStringLiteral("Space") : stepLine);
        probe.setFont(label->font());
        probe.setWordWrap(label->wordWrap());
        probe.setAlignment(label->alignment());
        probe.setContentsMargins(label->contentsMargins());
        probe.setMargin(label->margin());
        return probe.heightForWidth(std::max(1, label->width()));
    };
    const QRect inner = contentsRect().marginsRemoved(layout()->contentsMargins());
    const int spacing = layout()->spacing();
    const QString title = slideTitle(next);
    int height =
        inner.height() - 2 * spacing -
        m_title->sizeFor(title, m_title->width(), m_counter->sizeHint().height()).height() -
        std::max(oneLine(m_step), m_keys->sizeHint().height());
    if (const QString caption = QString::fromStdString(next.caption); !caption.isEmpty()) {
        height -= m_caption->sizeFor(caption, inner.width()).height() + spacing;
    }
    const QSize area(m_viewArea->contentsRect().width(), height);
    int shared = area.width() - m_viewLayout->spacing() * (static_cast<int>(names.size()) - 1);
    int drawings = 0;
    for (const QString& name : names) {
        if (name == QLatin1String("metrics")) {
            shared -= metricsWidth(index);
        } else {
            ++drawings;
        }
    }
    const int drawingWidth = drawings > 0 ? std::max(1, shared / drawings) : 0;
    std::map<QString, QSize> sizes;
    for (const QString& name : names) {
        sizes[name] = QSize(name == QLatin1String("metrics") ? metricsWidth(index) : drawingWidth,
                            area.height());
    }
    return sizes;
}

void LectureWindow::prepareSlideViews(int index, const QStringList& leave) {
    if (index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    const QStringList names = slideViews(m_deck.slides[static_cast<std::size_t>(index)]);
    if (names == m_placedViews) {
        return; // the same views stay where they are
    }
    // The sizes the view area's layout will give them. A wrong guess costs nothing but time:
    // the layout sets the true size when the slide shows them.
    const std::map<QString, QSize> sizes = slideViewSizes(index);
    const qreal dpr = devicePixelRatioF();
    for (const QString& name : names) {
        QWidget* frame = viewWidget(name);
        if (frame->isVisible() || leave.contains(name)) {
            continue; // on screen now (the layout places it), or prepared for another slide
        }
        const QSize size = sizes.at(name);
        if (size.isEmpty()) {
            continue;
        }
        // Laid out and drawn once at that size, off screen: its resize (type, scroll bars, a
        // chart's layout) and its caches happen now, in the pause before the next key.
        frame->resize(size);
        QImage scratch((QSizeF(size) * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
        scratch.setDevicePixelRatio(dpr);
        frame->render(&scratch);
    }
}

void LectureWindow::prepareNotesChart(int index, int revealed, const QString& stepLine) {
    if (m_notesTwin == nullptr || index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    const DeckSlide& slide = m_deck.slides[static_cast<std::size_t>(index)];
    const auto found = m_views.find(QStringLiteral("notes"));
    if (found == m_views.end() || slide.notesExperiment.empty() ||
        !slideViews(slide).contains(QStringLiteral("notes"))) {
        return;
    }
    auto* notes = static_cast<NotesView*>(found->second);
    const QSize size = slideViewSizes(index, stepLine).at(QStringLiteral("notes"));
    if (size.isEmpty() || !m_notesTwin->setExperiment(slide.notesExperiment)) {
        return;
    }
    // The twin as the slide's notes view will be: its colours, its type at that width, its
    // status line, the series revealed, laid out at that size.
    m_notesTwin->setPalette(palette());
    m_notesTwin->setFont(viewFont(QStringLiteral("notes"), size.width()));
    m_notesTwin->setGpuStatus(notesStatus(m_notesTwin->comparison()));
    m_notesTwin->setRevealedSeries(revealed);
    m_notesTwin->ensurePolished();
    m_notesTwin->resize(size);
    for (QSplitter* splitter : m_notesTwin->findChildren<QSplitter*>()) {
        splitter->refresh();
    }
    m_notesTwin->layout()->invalidate();
    m_notesTwin->layout()->activate();
    // A widget never shown gets its resize events only when it is shown: give them now, parents
    // first (the splitter places the chart in its own).
    sendPendingResizes(m_notesTwin);
    notes->adoptChartPicture(m_notesTwin->chartPicture());
}

void LectureWindow::prepareWarpPicture(int index) {
    const auto found = m_views.find(QStringLiteral("warp"));
    if (found == m_views.end() || index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    auto* warp = static_cast<WarpView*>(found->second);
    warp->dropPicture(); // the current slide's, copied already: one picture at most
    const DeckSlide& slide = m_deck.slides[static_cast<std::size_t>(index)];
    const QStringList names = slideViews(slide);
    if (!names.contains(QStringLiteral("warp"))) {
        return;
    }
    const QSize size = slideViewSizes(index).at(QStringLiteral("warp"));
    if (size.isEmpty()) {
        return;
    }
    if (m_warpTwin == nullptr) {
        m_warpTwinHost = std::make_unique<QWidget>();
        m_warpTwinDocument = new PatternDocument(m_warpTwinHost.get());
        m_warpTwin = new WarpView(m_warpTwinDocument, new LaneHighlight(m_warpTwinHost.get()));
        m_warpTwin->setObjectName(QStringLiteral("warpTwin"));
        m_warpTwinFrame = wrapInScrollArea(m_warpTwin, m_warpTwinHost.get());
    }
    if (m_warpTwinDocument->loadSession(slideSession(slide))) {
        return; // the slide shows its error; nothing to draw ahead
    }
    // The twin as the slide's warp view will be: this window's colours, its type at that width,
    // laid out in a frame of that size (its scroll bars as they will be).
    m_warpTwinHost->setPalette(palette());
    m_warpTwin->setFont(viewFont(QStringLiteral("warp"), size.width()));
    m_warpTwinFrame->resize(size);
    settleTwinFrame(m_warpTwinFrame);
    // Nothing revealed when the warp view is the one the slide steps through (computeSteps()).
    int revealCount = -1;
    for (const QString& name : names) {
        if (name == QLatin1String("warp")) {
            revealCount = m_warpTwin->currentLayout().listRows.empty() ? -1 : 0;
            break;
        }
        if (name == QLatin1String("streams") || name == QLatin1String("notes") ||
            name == QLatin1String("bank")) {
            break;
        }
    }
    m_warpTwin->setRevealCount(revealCount);
    m_warpTwinSlide = index;
    warp->adoptPicture(m_warpTwin->renderPicture(devicePixelRatioF()), m_warpTwin->pictureKey());
}

void LectureWindow::prepareGridResult(int index) {
    const auto found = m_views.find(QStringLiteral("grid"));
    if (found == m_views.end() || index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    const DeckSlide& slide = m_deck.slides[static_cast<std::size_t>(index)];
    if (!slideViews(slide).contains(QStringLiteral("grid"))) {
        return;
    }
    if (const PatternDocument* document = aheadDocument(index)) {
        static_cast<GridView*>(found->second)->prepare(GridView::requestFor(*document));
    }
}

const PatternDocument* LectureWindow::aheadDocument(int index) {
    return loadSlideTwin(index) ? m_slideTwinDocument : nullptr;
}

void LectureWindow::showGridAhead() {
    // At once rather than after the view's pause for more edits: a result computed ahead is
    // shown in the step's frame, and one under way is waited for, not computed again.
    GridView* grid = gridView();
    if (grid == nullptr) {
        return;
    }
    const GridRequest request = GridView::requestFor(*m_document);
    if (grid->showsResultFor(request)) {
        return; // this slide's grid is shown already
    }
    if (!grid->isPrepared(request)) {
        grid->clearResult(); // another slide's grid: none, as in a window opened on this slide
    }
    grid->recompute();
}

QSize LectureWindow::stepLineSize(const QString& text) const {
    // The bottom row is as high as the step line's text or the keys beside it, and the step line
    // takes the row's height.
    return m_step->sizeFor(text, m_step->width(), m_keys->sizeHint().height());
}

QString LectureWindow::firstStepText(int index) {
    if (index < 0 || index >= slideCount()) {
        return {};
    }
    const DeckSlide& slide = m_deck.slides[static_cast<std::size_t>(index)];
    const bool last = index + 1 >= slideCount();
    // As computeSteps() and stepText(): the first view with steps gives the line.
    for (const QString& name : slideViews(slide)) {
        if (name == QLatin1String("streams")) {
            return tr("One stream: nothing overlaps · Space: 2, 4, then 8 streams");
        }
        if (name == QLatin1String("notes")) {
            return {}; // not told ahead (it depends on the measurements): drawn in the step
        }
        if (name == QLatin1String("warp")) {
            // The twin holds this slide's layout when prepareWarpPicture() drew it.
            if (m_warpTwin == nullptr || m_warpTwinSlide != index) {
                return {};
            }
            const auto count = static_cast<int>(m_warpTwin->currentLayout().listRows.size());
            if (count > 0) {
                return tr("Space: show the lines and transactions one at a time (%n step(s))", "",
                          count);
            }
        } else if (name == QLatin1String("bank")) {
            const PatternDocument* document = aheadDocument(index);
            if (document == nullptr || !document->evaluation() || document->error()) {
                return {};
            }
            const auto& shared = document->evaluation()->modern.shared;
            const int count = shared ? static_cast<int>(shared->wavefrontList.size()) : 0;
            if (count > 0) {
                return tr("Space: show the %n wavefront(s) one at a time", "", count);
            }
        }
    }
    return last ? tr("The end of the deck") : tr("Space: next slide");
}

void LectureWindow::prepareStepTexts(int nextSlide) {
    if (!isVisible()) {
        return;
    }
    QStringList texts;
    if (m_revealed < stepCount()) {
        for (int step = m_revealed; step < std::min(stepCount(), m_revealed + 2); ++step) {
            texts << m_steps[static_cast<std::size_t>(step)].text;
        }
    } else if (const int next = slideAfter(m_slide); next >= 0 && next == nextSlide) {
        texts << firstStepText(next);
    }
    if (nextSlide >= 0) {
        texts << firstStepText(nextSlide);
        const QString counter = QStringLiteral("%1 / %2").arg(nextSlide + 1).arg(slideCount());
        m_counter->prepare(counter, m_counter->size());
    }
    for (const QString& text : texts) {
        if (!text.isEmpty()) {
            m_step->prepare(text, stepLineSize(text));
        }
    }
}

void LectureWindow::prepareExperimentCharts(int index) {
    if (index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    for (const QString& name : slideViews(m_deck.slides[static_cast<std::size_t>(index)])) {
        if (name != QLatin1String("streams") && name != QLatin1String("transfers") &&
            name != QLatin1String("l2-persistence")) {
            continue;
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
    if (found == m_views.end()) {
        return;
    }
    auto* view = qobject_cast<ExperimentView*>(found->second);
    const bool streams = name == QLatin1String("streams");
    const QString stepLine = streams ? streamsStepText(revealed) : QString();
    const QSize size = slideViewSizes(index, stepLine).at(name);
    if (view == nullptr || size.isEmpty()) {
        return;
    }
    ExperimentTwin& twin = m_experimentTwins[name];
    if (twin.view == nullptr) {
        // As viewWidget() makes the slide's view: in a scroll area that gives it the panel,
        // Measure and the status line hidden.
        twin.host = std::make_unique<QWidget>();
        if (streams) {
            twin.view = new StreamsView;
        } else if (name == QLatin1String("transfers")) {
            twin.view = new TransfersView;
        } else {
            twin.view = new L2PersistenceView;
        }
        twin.view->setObjectName(name + QStringLiteral("Twin"));
        twin.view->runButton()->hide();
        twin.view->statusLabel()->hide();
        auto* area = wrapInScrollArea(twin.view, twin.host.get());
        area->setWidgetResizable(true);
        twin.frame = area;
    }
    // The slide's results, colours, type at that width and stream count.
    if (streams) {
        auto* twinStreams = static_cast<StreamsView*>(twin.view);
        twinStreams->setResults(m_streamsResults);
        twinStreams->setStreamCount(streamsSlideCount(revealed));
    } else if (name == QLatin1String("transfers")) {
        static_cast<TransfersView*>(twin.view)->setResults(m_transferResults);
    } else {
        static_cast<L2PersistenceView*>(twin.view)->setResults(m_l2PersistenceResults);
    }
    twin.host->setPalette(palette());
    twin.view->setFont(viewFont(name, size.width()));
    twin.frame->resize(size);
    for (int pass = 0; pass < 3; ++pass) {
        // Never shown: its resizes and layout requests delivered as showing it would (the
        // frame places the viewport, which sizes the view, whose layout sizes the charts).
        sendPendingResizes(twin.frame);
        QCoreApplication::sendPostedEvents(twin.frame);
        for (QWidget* child : twin.frame->findChildren<QWidget*>()) {
            QCoreApplication::sendPostedEvents(child, QEvent::LayoutRequest);
        }
        sendPendingResizes(twin.frame);
    }
    if (!view->holdsChartPicturesOf(*twin.view)) {
        view->adoptChartPictures(twin.view->chartPictures());
    }
    if (streams && revealed == 0 && !view->isVisible()) {
        // The slide's view, hidden, shows its first stream count already (its title and
        // summary with it): the step then sets no text and lays nothing out again for them.
        static_cast<StreamsView*>(view)->setStreamCount(streamsSlideCount(0));
    }
}

void LectureWindow::settleSlideLayout() {
    if (!isVisible()) {
        return;
    }
    for (int pass = 0; pass < 3; ++pass) {
        // The layout requests the step posted (the window's, the scroll areas'), then the scroll
        // areas' queued call that shows or hides a scroll bar for the view's new size, which
        // may post layout requests again.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        for (const QString& name : m_placedViews) {
            if (auto* area = qobject_cast<QAbstractScrollArea*>(m_frames.at(name))) {
                QCoreApplication::sendPostedEvents(area, QEvent::MetaCall);
            }
        }
    }
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    // An item view (the metrics table, its headers) lays its items out and repaints resized
    // columns on zero timers after a change: after the step's frame, with a second frame. Their
    // time is now, before the frame.
    if (QAbstractEventDispatcher* dispatcher = QAbstractEventDispatcher::instance()) {
        for (QAbstractItemView* view : m_viewArea->findChildren<QAbstractItemView*>()) {
            if (!view->isVisible()) {
                continue;
            }
            for (const QAbstractEventDispatcher::TimerInfo& timer :
                 dispatcher->registeredTimers(view)) {
                if (timer.interval == 0) {
                    QTimerEvent event(timer.timerId);
                    QCoreApplication::sendEvent(view, &event);
                }
            }
        }
    }
    // A widget shown (a scroll bar, a slide's frame) posts itself a repaint of its own; delivered
    // after the step's frame it made a second frame.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::UpdateLater);
}

bool LectureWindow::loadSlideTwin(int index) {
    if (m_slideTwinHost == nullptr) {
        m_slideTwinHost = std::make_unique<QWidget>();
        m_slideTwinDocument = new PatternDocument(m_slideTwinHost.get());
    }
    if (index != m_slideTwinIndex) {
        m_slideTwinValid = !m_slideTwinDocument->loadSession(
            slideSession(m_deck.slides[static_cast<std::size_t>(index)]));
        m_slideTwinIndex = index;
    }
    return m_slideTwinValid;
}

int LectureWindow::metricsWidth(int index) {
    QWidget* table = viewWidget(QStringLiteral("metrics"));
    if (index == m_slide || !loadSlideTwin(index)) {
        return table->width();
    }
    if (m_metricsTwin == nullptr) {
        // As viewWidget() makes the slide's table, in the same order, as far as its width goes.
        m_metricsTwin = new QTableView(m_slideTwinHost.get());
        m_metricsTwin->verticalHeader()->hide();
        m_metricsTwin->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        m_metricsTwin->setColumnHidden(MetricsTableModel::MeasuredColumn, true);
        m_metricsTwin->setModel(new MetricsTableModel(m_slideTwinDocument, m_metricsTwin));
        m_metricsTwin->setWordWrap(false);
        m_metricsTwin->setFrameShape(QFrame::NoFrame);
    }
    m_metricsTwin->setFont(m_views.at(QStringLiteral("metrics"))->font());
    fitMetricsTable(m_metricsTwin);
    return m_metricsTwin->minimumWidth();
}

void LectureWindow::prepareBankPicture(int index) {
    const auto found = m_views.find(QStringLiteral("bank"));
    if (found == m_views.end() || index < 0 || index >= slideCount() || !isVisible()) {
        return;
    }
    auto* bank = static_cast<BankView*>(found->second);
    bank->dropPicture(); // the current slide's, copied already: one picture at most
    const QStringList names = slideViews(m_deck.slides[static_cast<std::size_t>(index)]);
    if (!names.contains(QStringLiteral("bank"))) {
        return;
    }
    const QSize size = slideViewSizes(index).at(QStringLiteral("bank"));
    if (size.isEmpty() || !loadSlideTwin(index)) {
        return; // an error: the slide shows it, nothing to draw ahead
    }
    if (m_bankTwin == nullptr) {
        m_bankTwin = new BankView(m_slideTwinDocument, new LaneHighlight(m_slideTwinHost.get()));
        m_bankTwin->setObjectName(QStringLiteral("bankTwin"));
        m_bankTwinFrame = wrapInScrollArea(m_bankTwin, m_slideTwinHost.get());
    }
    // The twin as the slide's bank view will be: this window's colours, its type at that width,
    // laid out in a frame of that size (its scroll bars as they will be).
    m_slideTwinHost->setPalette(palette());
    m_bankTwin->setFont(viewFont(QStringLiteral("bank"), size.width()));
    m_bankTwinFrame->resize(size);
    settleTwinFrame(m_bankTwinFrame);
    // Nothing revealed when the bank view is the one the slide steps through (computeSteps():
    // the first warp view with lines or transactions, or bank view with wavefronts).
    int revealCount = -1;
    const auto& evaluation = m_slideTwinDocument->evaluation();
    for (const QString& name : names) {
        if (name == QLatin1String("streams") || name == QLatin1String("notes") || !evaluation) {
            break;
        }
        if (name == QLatin1String("warp")) {
            if (!WarpLayout::compute(*evaluation, size.width(), QFontMetricsF(m_bankTwin->font()),
                                     true)
                     .listRows.empty()) {
                break; // the warp view steps
            }
        } else if (name == QLatin1String("bank")) {
            if (evaluation->modern.shared && !evaluation->modern.shared->wavefrontList.empty()) {
                revealCount = 0;
            }
            break;
        }
    }
    m_bankTwin->setRevealCount(revealCount);
    bank->adoptPicture(m_bankTwin->renderPicture(devicePixelRatioF()), m_bankTwin->pictureKey());
}

void LectureWindow::prepareViewPicturesBeyond(int next, int afterNext) {
    if (next < 0 || afterNext < 0 || afterNext == m_slide) {
        return;
    }
    const QStringList names = slideViews(m_deck.slides[static_cast<std::size_t>(next)]);
    if (!names.contains(QStringLiteral("warp"))) {
        prepareWarpPicture(afterNext);
    }
    if (!names.contains(QStringLiteral("bank"))) {
        prepareBankPicture(afterNext);
    }
}

QString LectureWindow::counterText() const {
    return QStringLiteral("%1 / %2").arg(m_slide + 1).arg(slideCount());
}

QString LectureWindow::stepText() const {
    if (stepCount() == 0) {
        return m_slide + 1 < slideCount() ? tr("Space: next slide") : tr("The end of the deck");
    }
    if (m_revealed == 0 && m_stepView == QLatin1String("notes")) {
        // What the first step reveals: the notes' bars, or where the notes publish no number,
        // the model's count for one warp (computeSteps()).
        const NotesComparison& comparison = notesView()->comparison();
        if (comparison.notesRows > 0) {
            return tr("Space: the notes' bars, then this GPU's");
        }
        return comparison.modelName.isEmpty()
                   ? tr("Space: the notes (no number here), then this GPU's bars")
                   : tr("Space: the model's count per warp, then this GPU's bars");
    }
    if (m_revealed == 0 && m_stepView == QLatin1String("streams")) {
        return streamsStepText(0);
    }
    if (m_revealed == 0) {
        return m_stepView == QLatin1String("bank")
                   ? tr("Space: show the %n wavefront(s) one at a time", "", stepCount())
                   : tr("Space: show the lines and transactions one at a time (%n step(s))", "",
                        stepCount());
    }
    if (m_revealedAll) {
        return tr("All %n step(s) shown · Space: next slide", "", stepCount());
    }
    return m_steps[static_cast<std::size_t>(m_revealed - 1)].text;
}

void LectureWindow::updateTexts() {
    m_busySinceCheck = true; // a step: not idle
    // Only the labels whose text changed: a step changes the step line and nothing else, and a
    // word-wrapped label set again is laid out and repainted again (2–3 ms of a 4K step).
    const auto setText = [](QLabel* label, const QString& text) {
        if (label->text() != text) {
            label->setText(text);
        }
    };
    setText(m_title, titleText());
    const QString caption = captionText();
    setText(m_caption, caption);
    m_caption->setVisible(!caption.isEmpty());
    setText(m_counter, counterText());
    setText(m_step, stepText());
    m_prepareStepsAfterFrame = true; // the next reveals' lines, after this frame
}

QFont LectureWindow::typeFont(qreal pixels, bool bold) const {
    const qreal scale = std::max(0.4, height() / kReferenceHeight);
    const qreal dpi = logicalDpiY() > 0 ? logicalDpiY() : 96.0;
    // Point sizes, not pixel sizes: the views derive smaller fonts with pointSizeF().
    QFont font = this->font();
    font.setPointSizeF(pixels * scale * 72.0 / dpi);
    font.setBold(bold);
    return font;
}

QFont LectureWindow::viewFont(const QString& name, int width) const {
    if (name == QLatin1String("metrics")) {
        return typeFont(kMetricsPx, false);
    }
    const qreal scale = std::max(0.4, height() / kReferenceHeight);
    return typeFont(kViewPx *
                        (width > 200 ? std::min(1.0, width / (kViewReferenceWidth * scale)) : 1.0),
                    false);
}

void LectureWindow::applyFonts() {
    const qreal scale = std::max(0.4, height() / kReferenceHeight);
    const auto sized = [this](qreal pixels, bool bold) { return typeFont(pixels, bold); };
    m_title->setFont(sized(kTitlePx, true));
    m_counter->setFont(sized(kCounterPx, false));
    // The counter is as wide as its widest text ("35 / 35"), so the title beside it keeps its
    // width from slide to slide and its picture can be drawn ahead (prepareSlideTexts()).
    const QFontMetrics counterMetrics(m_counter->font());
    int counterWidth = 0;
    for (int slide = 1; slide <= slideCount(); ++slide) {
        counterWidth = std::max(
            counterWidth, counterMetrics
                              .boundingRect(QRect(0, 0, 2000, 2000), Qt::AlignRight | Qt::AlignTop,
                                            QStringLiteral("%1 / %2").arg(slide).arg(slideCount()))
                              .width());
    }
    m_counter->setMinimumWidth(counterWidth);
    m_caption->setFont(sized(kCaptionPx, false));
    m_step->setFont(sized(kStepPx, true));
    m_keys->setFont(sized(kKeysPx, false));
    const int margin = static_cast<int>(24 * scale);
    layout()->setContentsMargins(margin, margin / 2, margin, margin / 2);
    layout()->setSpacing(static_cast<int>(12 * scale));
    m_viewLayout->setSpacing(margin);
    for (const auto& [name, view] : m_views) {
        const QFont font = viewFont(name, m_frames.at(name)->width());
        if (view->font() != font) {
            view->setFont(font);
            if (auto* table = qobject_cast<QTableView*>(view)) {
                fitMetricsTable(table);
            }
        }
    }
}

void LectureWindow::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    applyFonts();
    m_prepareAfterFrame = true; // the next slide's texts at the new sizes and type
}

// ---- Keys and clicks
// --------------------------------------------------------------------------

void LectureWindow::keyPressEvent(QKeyEvent* event) {
    const bool shift = event->modifiers().testFlag(Qt::ShiftModifier);
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_PageDown:
    case Qt::Key_N:
        nextSlide();
        break;
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_PageUp:
    case Qt::Key_P:
        previousSlide();
        break;
    case Qt::Key_Home:
        setSlide(0);
        break;
    case Qt::Key_End:
        setSlide(slideCount() - 1);
        break;
    case Qt::Key_Space:
        shift ? revealPrevious() : revealNext();
        break;
    case Qt::Key_Backspace:
        revealPrevious();
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        revealAll();
        break;
    case Qt::Key_Escape:
    case Qt::Key_F11:
        close();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void LectureWindow::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        revealNext();
    } else if (event->button() == Qt::RightButton) {
        revealPrevious();
    }
    event->accept();
}

bool LectureWindow::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize) {
        applyFonts();
        return QWidget::eventFilter(watched, event);
    }
    // A quick second click arrives as a double click: it is one more step all the same.
    if (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::MouseButtonDblClick) {
        mousePressEvent(static_cast<QMouseEvent*>(event));
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void LectureWindow::postIdleCheck() {
    m_busySinceCheck = false;
    // Below the priority of the window's repaints (Qt posts UpdateRequest at LowEventPriority),
    // so that a repaint posted in the same pass of the event loop is delivered before it.
    QCoreApplication::postEvent(this, new QEvent(kIdleCheckEvent), Qt::LowEventPriority - 1);
}

bool LectureWindow::event(QEvent* event) {
    if (event->type() == kIdleCheckEvent) {
        // Drawing the next slide's texts takes a while at 4K (glyphs filled as paths): only
        // when the window has settled, never before a frame that is still to come (a second
        // layout pass, a scroll bar that appears) nor in a step. Two quiet checks in a row:
        // whatever the first one's pass posted has been delivered, and nothing asked for more.
        if (!m_preparePending && !m_stepsPending) {
            return true;
        }
        m_quietChecks = m_busySinceCheck ? 0 : m_quietChecks + 1;
        if (m_quietChecks < 2) {
            postIdleCheck();
            return true;
        }
        m_quietChecks = 0;
        if (std::exchange(m_stepsPending, false) && !m_preparePending) {
            prepareStepTexts(); // after a reveal: the step line's next texts only
            return true;
        }
        m_preparePending = false;
        // This slide's notes reveals first (their pictures are kept beside the next slides'):
        // each changes the chart's bars, and the step line's or the finding's height with them.
        if (m_stepView == QLatin1String("notes")) {
            for (int step = m_revealed + 1; step <= stepCount(); ++step) {
                prepareNotesChart(m_slide, step, m_steps[static_cast<std::size_t>(step - 1)].text);
            }
        }
        const int next = slideAfter(m_slide);
        prepareSlideTexts(next);
        prepareExperimentCharts(next);
        prepareSlideViews(next, {});
        prepareNotesChart(next);
        prepareWarpPicture(next);
        prepareBankPicture(next);
        prepareGridResult(next);
        prepareStepTexts(next); // after the twins: the next slide's first line is read off them
        // And the slide after that one: a slide with nothing to reveal (the transfers slide) is
        // often left at once, with no pause in which to prepare what follows it. Its pictures
        // are kept beside this slide's and the next one's (SlideTextLabel keeps four), so the
        // next idle pass draws only one slide's texts again; the views the next slide shows
        // stay at the sizes it gives them.
        if (const int afterNext = slideAfter(next); afterNext >= 0 && afterNext != m_slide) {
            prepareSlideTexts(afterNext);
            prepareExperimentCharts(afterNext);
            prepareSlideViews(afterNext, slideViews(m_deck.slides[static_cast<std::size_t>(next)]));
            prepareNotesChart(afterNext);
            prepareViewPicturesBeyond(next, afterNext);
        }
        return true;
    }
    const bool handled = QWidget::event(event);
    if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::UpdateRequest) {
        m_busySinceCheck = true;
    }
    if (event->type() == QEvent::UpdateRequest && m_prepareStepsAfterFrame) {
        m_prepareStepsAfterFrame = false;
        if (!m_preparePending && !m_stepsPending && !m_prepareAfterFrame) {
            m_stepsPending = true;
            m_quietChecks = 0;
            postIdleCheck();
        }
    }
    if (event->type() == QEvent::UpdateRequest && m_prepareAfterFrame) {
        // This slide is on screen now: draw the next one's texts once the window is idle, in
        // the pause before the next key, not in the frame the audience is waiting for.
        m_prepareAfterFrame = false;
        if (!m_preparePending) {
            m_preparePending = true;
            if (!m_stepsPending) { // else its check is posted already
                m_quietChecks = 0;
                postIdleCheck();
            }
        }
    }
    return handled;
}

void LectureWindow::mouseDoubleClickEvent(QMouseEvent* event) {
    mousePressEvent(event);
}

void LectureWindow::closeEvent(QCloseEvent* event) {
    finish();
    QWidget::closeEvent(event);
}

void LectureWindow::finish() {
    if (!m_finished) {
        m_finished = true;
        emit finished(m_slide);
    }
}

} // namespace warpscope::app
