// LectureWindow's render-ahead: the parts of a slide drawn ahead, registered with the engine
// (renderahead.h) that runs them once the window is idle after a step's frame: the next slide's
// (and the one after it's) texts, views and step lines are laid out and drawn at the sizes the
// slide will give them, so the key that shows them only copies pixels. The hidden twins that
// draw the views' pictures are in lecturewindow_twins.cpp.
#include "lecture/lecturewindow.h"

#include "document/patterndocument.h"
#include "lecture/lecturewindow_helpers.h"
#include "lecture/renderahead.h"
#include "lecture/slidetextlabel.h"
#include "lecture/twincache.h"
#include "views/gridview.h"
#include "views/viewkind.h"
#include "views/warplayout.h"
#include "views/warpview.h"

#include <QAbstractEventDispatcher>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QTimerEvent>

#include <algorithm>
#include <utility>

namespace warpscope::app {

using lecture::slideTitle;
using lecture::slideViews;

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
        if (name == viewKindName(ViewKind::Metrics)) {
            shared -= metricsWidth(index);
        } else {
            ++drawings;
        }
    }
    const int drawingWidth = drawings > 0 ? std::max(1, shared / drawings) : 0;
    std::map<QString, QSize> sizes;
    for (const QString& name : names) {
        sizes[name] =
            QSize(name == viewKindName(ViewKind::Metrics) ? metricsWidth(index) : drawingWidth,
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
        if (name == viewKindName(ViewKind::Notes)) {
            return {}; // not told ahead (it depends on the measurements): drawn in the step
        }
        if (name == viewKindName(ViewKind::Warp)) {
            // The twin holds this slide's layout when prepareWarpPicture() drew it.
            const TwinCache::Twin* twin = m_twins->find(viewKindName(ViewKind::Warp));
            if (twin == nullptr || twin->slide != index) {
                return {};
            }
            const auto count = static_cast<int>(
                static_cast<const WarpView*>(twin->view)->currentLayout().listRows.size());
            if (count > 0) {
                return tr("Space: show the lines and transactions one at a time (%n step(s))", "",
                          count);
            }
        } else if (name == viewKindName(ViewKind::Bank)) {
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

void LectureWindow::addPreparedViews() {
    // In the order they are drawn: the texts first (the views' sizes depend on them), the twins'
    // pictures, the grid, then the step line (the next slide's first line is read off the twins).
    m_ahead->add(std::make_unique<PreparedSteps>(
        PreparedSteps::Steps{[this](int slide) { prepareSlideTexts(slide); },
                             [this](int, int afterNext) { prepareSlideTexts(afterNext); },
                             {},
                             {}}));
    m_ahead->add(std::make_unique<PreparedSteps>(
        PreparedSteps::Steps{[this](int slide) { prepareExperimentCharts(slide); },
                             [this](int, int afterNext) { prepareExperimentCharts(afterNext); },
                             {},
                             {}}));
    // The views the next slide shows stay at the sizes it gives them.
    m_ahead->add(std::make_unique<PreparedSteps>(PreparedSteps::Steps{
        [this](int slide) { prepareSlideViews(slide, {}); },
        [this](int next, int afterNext) {
            prepareSlideViews(afterNext, slideViews(m_deck.slides[static_cast<std::size_t>(next)]));
        },
        {},
        {}}));
    m_ahead->add(std::make_unique<PreparedSteps>(PreparedSteps::Steps{
        [this](int slide) { prepareNotesChart(slide); },
        [this](int, int afterNext) { prepareNotesChart(afterNext); },
        [this](int shown) {
            // This slide's notes reveals: each changes the chart's bars, and the step line's or
            // the finding's height with them.
            if (m_stepView == viewKindName(ViewKind::Notes)) {
                for (int step = m_revealed + 1; step <= stepCount(); ++step) {
                    prepareNotesChart(shown, step,
                                      m_steps[static_cast<std::size_t>(step - 1)].text);
                }
            }
        },
        {}}));
    // The warp and bank views keep one picture each: the slide after next gets it only when the
    // next slide does not show that view, so that a slide left at once (the transfers slide) does
    // not leave the one after it undrawn.
    const auto showsView = [this](int slide, const QString& name) {
        return slideViews(m_deck.slides[static_cast<std::size_t>(slide)]).contains(name);
    };
    m_ahead->add(std::make_unique<PreparedSteps>(
        PreparedSteps::Steps{[this](int slide) { prepareWarpPicture(slide); },
                             [this, showsView](int next, int afterNext) {
                                 if (!showsView(next, viewKindName(ViewKind::Warp))) {
                                     prepareWarpPicture(afterNext);
                                 }
                             },
                             {},
                             {}}));
    m_ahead->add(std::make_unique<PreparedSteps>(
        PreparedSteps::Steps{[this](int slide) { prepareBankPicture(slide); },
                             [this, showsView](int next, int afterNext) {
                                 if (!showsView(next, viewKindName(ViewKind::Bank))) {
                                     prepareBankPicture(afterNext);
                                 }
                             },
                             {},
                             {}}));
    m_ahead->add(std::make_unique<PreparedSteps>(
        PreparedSteps::Steps{[this](int slide) { prepareGridResult(slide); }, {}, {}, {}}));
    m_ahead->add(std::make_unique<PreparedSteps>(PreparedSteps::Steps{
        [this](int slide) { prepareStepTexts(slide); }, {}, {}, [this] { prepareStepTexts(); }}));
}

bool LectureWindow::event(QEvent* event) {
    if (m_ahead != nullptr && m_ahead->handleEvent(event)) {
        return true;
    }
    // A deferred delete destroys this window inside QWidget::event: nothing of it may be
    // touched afterwards.
    const bool deletesThis = event->type() == QEvent::DeferredDelete;
    const bool handled = QWidget::event(event);
    if (!deletesThis && m_ahead != nullptr) {
        m_ahead->afterEvent(event);
    }
    return handled;
}

} // namespace warpscope::app
