// LectureWindow: deck loading, slides, the type scale, keys and clicks. The views a slide shows
// are made in lecturewindow_views.cpp, the step-through (what Space reveals next) is in
// lecturewindow_steps.cpp, and what is drawn ahead, in the pause before the next key, in
// lecturewindow_ahead.cpp and lecturewindow_twins.cpp (when: the engine in renderahead.h).
#include "lecture/lecturewindow.h"

#include "document/patterndocument.h"
#include "gpu/kernelmeasurement.h"
#include "lecture/lecturewindow_helpers.h"
#include "lecture/renderahead.h"
#include "lecture/slidetextlabel.h"
#include "lecture/twincache.h"
#include "views/experimentview.h"
#include "views/lanehighlight.h"
#include "views/notesview.h"
#include "views/theme.h"
#include "views/viewkind.h"

#include <QCloseEvent>
#include <QFile>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QScreen>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace warpscope::app {

using lecture::fitMetricsTable;
using lecture::slideSession;
using lecture::slideTitle;

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
// A chart beside another view keeps at least this share of the views' type: its tick labels and
// axis titles at 18.7 px on a 1080-pixel slide, read from the back of a room.
constexpr qreal kChartMinShare = 0.85;

const QColor kStepColour(0xFF, 0xE6, 0x00); // the high-contrast theme's highlight
const QColor kMutedColour(0xD0, 0xD0, 0xD0);

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
      m_twins(std::make_unique<TwinCache>()),
      m_kernelMeasurements(new KernelMeasurementStore(this)) {
    m_ahead = std::make_unique<RenderAhead>(
        this, [this] { return m_slide; }, [this](int index) { return slideAfter(index); });
    addPreparedViews();
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
    m_viewArea->setObjectName(QStringLiteral("lectureViewArea"));
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
    m_ahead->slideShown();
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

void LectureWindow::setExperimentResults(std::string_view key, std::any results) {
    const AppExperiment& experiment = appExperiment(key);
    std::any& kept = m_experimentResults[std::string(key)];
    kept = std::move(results);
    if (auto it = m_views.find(experiment.key()); it != m_views.end()) {
        experiment.setResults(static_cast<ExperimentView*>(it->second), kept);
    }
}

const std::any& LectureWindow::experimentResults(std::string_view key) const {
    static const std::any none;
    const auto it = m_experimentResults.find(key);
    return it == m_experimentResults.end() ? none : it->second;
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

// ---- Texts and type ---------------------------------------------------------------------------

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

QString LectureWindow::counterText() const {
    return QStringLiteral("%1 / %2").arg(m_slide + 1).arg(slideCount());
}

QString LectureWindow::stepText() const {
    if (stepCount() == 0) {
        return m_slide + 1 < slideCount() ? tr("Space: next slide") : tr("The end of the deck");
    }
    if (m_revealed == 0 && m_stepView == viewKindName(ViewKind::Notes)) {
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
        return m_stepView == viewKindName(ViewKind::Bank)
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
    m_ahead->stepShown(); // a step: not idle; the next reveals' lines after this frame
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
    if (name == viewKindName(ViewKind::Metrics)) {
        return typeFont(kMetricsPx, false);
    }
    const qreal scale = std::max(0.4, height() / kReferenceHeight);
    // The drawings (warp, bank, block) lay out to their frame in this type; a chart's labels
    // have a floor.
    const bool drawing = name == viewKindName(ViewKind::Warp) ||
                         name == viewKindName(ViewKind::Bank) ||
                         name == viewKindName(ViewKind::Block);
    const qreal share = width > 200 ? std::min(1.0, width / (kViewReferenceWidth * scale)) : 1.0;
    return typeFont(kViewPx * (drawing ? share : std::max(kChartMinShare, share)), false);
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
    m_ahead->slideShown(); // the next slide's texts at the new sizes and type
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
