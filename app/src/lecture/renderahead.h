// The lecture window's render-ahead engine. After the frame that shows a slide (or a reveal), once
// the window has been idle for two passes of its event loop in a row, it has each prepared view
// draw what the next key will show: the slide's remaining reveals, the next slide, and the slide
// after that one. A prepared view is one part of a slide drawn ahead (its texts, a view's picture
// on a hidden twin, the grid computed off the GUI thread); the window registers them in the
// order they are drawn and the engine decides when.
#pragma once

#include <QEvent>

#include <functional>
#include <memory>
#include <vector>

class QWidget;

namespace warpscope::app {

/// One part of a slide that the lecture window draws ahead of the key that shows it.
class PreparedView {
public:
    virtual ~PreparedView() = default;
    /// The shown slide `slide` is on screen and idle: draw its reveals still to come.
    virtual void prepareReveals(int slide);
    /// A reveal is on screen and idle: draw what the next reveals show.
    virtual void prepareAfterReveal();
    /// Draw slide `slide` (the next one) as the step onto it will show it.
    virtual void prepare(int slide) = 0;
    /// After slide `next` was prepared: draw slide `afterNext` too, beside it.
    virtual void prepareBeyond(int next, int afterNext);
};

/// A prepared view made of functions (the window's own drawing-ahead steps).
class PreparedSteps final : public PreparedView {
public:
    struct Steps {
        std::function<void(int slide)> prepare;
        std::function<void(int next, int afterNext)> prepareBeyond;
        std::function<void(int slide)> prepareReveals;
        std::function<void()> prepareAfterReveal;
    };
    explicit PreparedSteps(Steps steps) : m_steps(std::move(steps)) {}
    void prepareReveals(int slide) override;
    void prepareAfterReveal() override;
    void prepare(int slide) override;
    void prepareBeyond(int next, int afterNext) override;

private:
    Steps m_steps;
};

class RenderAhead {
public:
    /// `window` receives the engine's idle checks (its event() passes them to handleEvent());
    /// `shownSlide` and `slideAfter` tell the engine where the deck stands.
    RenderAhead(QWidget* window, std::function<int()> shownSlide,
                std::function<int(int)> slideAfter);

    /// Add a part drawn ahead; parts are drawn in the order they were added.
    void add(std::unique_ptr<PreparedView> view);

    /// A slide was shown or the window resized: draw ahead after the next frame.
    void slideShown() { m_prepareAfterFrame = true; }
    /// The window's texts changed in a step: not idle, and the next reveals' lines to draw after
    /// this frame.
    void stepShown() {
        m_busySinceCheck = true;
        m_prepareStepsAfterFrame = true;
    }

    /// The window's event(): true when `event` is the engine's idle check (handled).
    bool handleEvent(QEvent* event);
    /// After the window handled `event`: a layout or a frame makes the window busy, and a frame
    /// starts the wait for idle.
    void afterEvent(const QEvent* event);

private:
    void postIdleCheck();
    void prepareAfterSlide();

    QWidget* m_window;
    std::function<int()> m_shownSlide;
    std::function<int(int)> m_slideAfter;
    std::vector<std::unique_ptr<PreparedView>> m_views;
    const QEvent::Type m_idleCheckEvent;
    /// A slide was shown (or the window resized): prepare the next one after its frame.
    bool m_prepareAfterFrame = false;
    /// The next slide waits to be prepared, once the window has been idle for two passes of its
    /// event loop in a row (m_quietChecks): no step, layout or frame in between.
    bool m_preparePending = false;
    bool m_busySinceCheck = false;
    /// A reveal was shown: draw the step line's next texts once the window is idle.
    bool m_prepareStepsAfterFrame = false;
    bool m_stepsPending = false;
    int m_quietChecks = 0;
};

} // namespace warpscope::app
