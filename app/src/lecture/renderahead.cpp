// The lecture window's render-ahead engine (renderahead.h): when to draw ahead, and in which
// order. What each part draws is the window's (lecturewindow_ahead.cpp, lecturewindow_twins.cpp).
#include "lecture/renderahead.h"

#include <QCoreApplication>
#include <QWidget>

#include <utility>

namespace warpscope::app {

namespace {

/// The engine's own event: draw ahead if the window is idle. One type for every window.
QEvent::Type idleCheckEventType() {
    static const auto type = static_cast<QEvent::Type>(QEvent::registerEventType());
    return type;
}

} // namespace

void PreparedView::prepareReveals(int /*slide*/) {}

void PreparedView::prepareAfterReveal() {}

void PreparedView::prepareBeyond(int /*next*/, int /*afterNext*/) {}

void PreparedSteps::prepareReveals(int slide) {
    if (m_steps.prepareReveals) {
        m_steps.prepareReveals(slide);
    }
}

void PreparedSteps::prepareAfterReveal() {
    if (m_steps.prepareAfterReveal) {
        m_steps.prepareAfterReveal();
    }
}

void PreparedSteps::prepare(int slide) {
    if (m_steps.prepare) {
        m_steps.prepare(slide);
    }
}

void PreparedSteps::prepareBeyond(int next, int afterNext) {
    if (m_steps.prepareBeyond) {
        m_steps.prepareBeyond(next, afterNext);
    }
}

RenderAhead::RenderAhead(QWidget* window, std::function<int()> shownSlide,
                         std::function<int(int)> slideAfter)
    : m_window(window), m_shownSlide(std::move(shownSlide)), m_slideAfter(std::move(slideAfter)),
      m_idleCheckEvent(idleCheckEventType()) {}

void RenderAhead::add(std::unique_ptr<PreparedView> view) {
    m_views.push_back(std::move(view));
}

void RenderAhead::postIdleCheck() {
    m_busySinceCheck = false;
    // Below the priority of the window's repaints (Qt posts UpdateRequest at LowEventPriority),
    // so that a repaint posted in the same pass of the event loop is delivered before it.
    QCoreApplication::postEvent(m_window, new QEvent(m_idleCheckEvent), Qt::LowEventPriority - 1);
}

bool RenderAhead::handleEvent(QEvent* event) {
    if (event->type() != m_idleCheckEvent) {
        return false;
    }
    // Drawing ahead takes a while at 4K (glyphs filled as paths): only when the window has
    // settled, never before a frame that is still to come (a second layout pass, a scroll bar
    // that appears) nor in a step. Two quiet checks in a row: whatever the first one's pass
    // posted has been delivered, and nothing asked for more.
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
        for (const auto& view : m_views) {
            view->prepareAfterReveal(); // after a reveal: the step line's next texts only
        }
        return true;
    }
    m_preparePending = false;
    prepareAfterSlide();
    return true;
}

void RenderAhead::prepareAfterSlide() {
    const int shown = m_shownSlide();
    // This slide's reveals first (their pictures are kept beside the next slides').
    for (const auto& view : m_views) {
        view->prepareReveals(shown);
    }
    const int next = m_slideAfter(shown);
    for (const auto& view : m_views) {
        view->prepare(next);
    }
    // And the slide after that one: a slide with nothing to reveal (the transfers slide) is
    // often left at once, with no pause in which to prepare what follows it. Its pictures are
    // kept beside this slide's and the next one's, so the next idle pass draws only one slide's
    // again.
    if (const int afterNext = m_slideAfter(next); afterNext >= 0 && afterNext != shown) {
        for (const auto& view : m_views) {
            view->prepareBeyond(next, afterNext);
        }
    }
}

void RenderAhead::afterEvent(const QEvent* event) {
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
        // This slide is on screen now: draw the next one once the window is idle, in the pause
        // before the next key, not in the frame the audience is waiting for.
        m_prepareAfterFrame = false;
        if (!m_preparePending) {
            m_preparePending = true;
            if (!m_stepsPending) { // else its check is posted already
                m_quietChecks = 0;
                postIdleCheck();
            }
        }
    }
}

} // namespace warpscope::app
