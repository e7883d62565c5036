// The lecture window's render-ahead engine and its one cache of twins, on their own: the engine
// draws ahead only after the frame that shows a step and two quiet passes of the event loop, in
// the order the parts were added (the shown slide's reveals, the next slide, the one after it),
// and a step or layout in between postpones it; the cache makes a twin once, shares a window and
// document where asked, and lets a twin's window go.
#include "lecture/renderahead.h"
#include "lecture/twincache.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QPointer>
#include <QWidget>

#include <memory>
#include <string>
#include <vector>

namespace warpscope::app::test {
namespace {

/// A window that hands its events to the engine as LectureWindow::event() does.
class AheadWindow : public QWidget {
public:
    RenderAhead* ahead = nullptr;

protected:
    bool event(QEvent* event) override {
        if (ahead != nullptr && ahead->handleEvent(event)) {
            return true;
        }
        const bool handled = QWidget::event(event);
        if (ahead != nullptr) {
            ahead->afterEvent(event);
        }
        return handled;
    }
};

class RecordedPart final : public PreparedView {
public:
    RecordedPart(std::string name, std::vector<std::string>* log)
        : m_name(std::move(name)), m_log(log) {}
    void prepareReveals(int slide) override { add("reveals " + std::to_string(slide)); }
    void prepareAfterReveal() override { add("after reveal"); }
    void prepare(int slide) override { add("prepare " + std::to_string(slide)); }
    void prepareBeyond(int next, int afterNext) override {
        add("beyond " + std::to_string(next) + " " + std::to_string(afterNext));
    }

private:
    void add(const std::string& what) { m_log->push_back(m_name + ": " + what); }
    std::string m_name;
    std::vector<std::string>* m_log;
};

struct Engine {
    explicit Engine(int slides) {
        ahead = std::make_unique<RenderAhead>(
            &window, [this] { return shown; },
            [slides](int index) { return index < 0 || slides < 2 ? -1 : (index + 1) % slides; });
        window.ahead = ahead.get();
        ahead->add(std::make_unique<RecordedPart>("texts", &log));
        ahead->add(std::make_unique<RecordedPart>("views", &log));
    }
    ~Engine() { window.ahead = nullptr; }
    /// The frame that shows a step.
    void frame() {
        QEvent update(QEvent::UpdateRequest);
        QCoreApplication::sendEvent(&window, &update);
    }
    /// One pass of the event loop for the window's posted events.
    void pass() { QCoreApplication::sendPostedEvents(&window); }

    AheadWindow window;
    std::unique_ptr<RenderAhead> ahead;
    std::vector<std::string> log;
    int shown = 0;
};

TEST(RenderAhead, DrawsTheNextSlidesAfterTheFrameAndTwoQuietPasses) {
    Engine engine(3);
    engine.shown = 1;
    engine.ahead->slideShown();
    engine.pass();
    EXPECT_TRUE(engine.log.empty()) << "nothing before the slide's frame";
    engine.frame();
    engine.pass();
    EXPECT_TRUE(engine.log.empty()) << "one quiet pass is not enough";
    engine.pass();
    const std::vector<std::string> expected = {"texts: reveals 1",  "views: reveals 1",
                                               "texts: prepare 2",  "views: prepare 2",
                                               "texts: beyond 2 0", "views: beyond 2 0"};
    EXPECT_EQ(engine.log, expected);
    engine.log.clear();
    engine.pass();
    engine.pass();
    EXPECT_TRUE(engine.log.empty()) << "drawn once per frame";
}

TEST(RenderAhead, ALayoutBetweenTheChecksPostponesIt) {
    Engine engine(3);
    engine.ahead->slideShown();
    engine.frame();
    engine.pass(); // the first quiet check
    QEvent layout(QEvent::LayoutRequest);
    QCoreApplication::sendEvent(&engine.window, &layout); // the window was busy since
    engine.pass();
    engine.pass();
    EXPECT_TRUE(engine.log.empty()) << "the busy pass starts the count again";
    engine.pass();
    EXPECT_EQ(engine.log.size(), 6U);
}

TEST(RenderAhead, AfterARevealOnlyTheNextRevealsAreDrawn) {
    Engine engine(3);
    engine.ahead->stepShown();
    engine.frame();
    engine.pass();
    engine.pass();
    const std::vector<std::string> expected = {"texts: after reveal", "views: after reveal"};
    EXPECT_EQ(engine.log, expected);
}

TEST(RenderAhead, ADeckOfOneSlideHasNoSlideBeyond) {
    Engine engine(1);
    engine.ahead->slideShown();
    engine.frame();
    engine.pass();
    engine.pass();
    const std::vector<std::string> expected = {"texts: reveals 0", "views: reveals 0",
                                               "texts: prepare -1", "views: prepare -1"};
    EXPECT_EQ(engine.log, expected);
}

TEST(TwinCache, MakesATwinOnceSharesAWindowAndLetsItGo) {
    TwinCache twins;
    EXPECT_EQ(twins.find(QStringLiteral("slide")), nullptr);
    TwinCache::Twin& slide = twins.make(QStringLiteral("slide"));
    ASSERT_NE(slide.host, nullptr);
    EXPECT_FALSE(slide.host->isVisible());
    EXPECT_EQ(slide.slide, -1);
    TwinCache::Twin& bank = twins.make(QStringLiteral("bank"), QStringLiteral("slide"));
    EXPECT_EQ(bank.host, twins.find(QStringLiteral("slide"))->host) << "the slide twin's window";
    bank.view = new QWidget(bank.host);
    EXPECT_EQ(twins.view<QWidget>(QStringLiteral("bank")), bank.view);

    TwinCache::Twin& notes = twins.make(QStringLiteral("notes"));
    EXPECT_NE(notes.host, slide.host) << "a window of its own";
    const QPointer<QWidget> notesHost = notes.host;
    twins.drop(QStringLiteral("notes"));
    EXPECT_TRUE(notesHost.isNull()) << "its window went with it";
    EXPECT_EQ(twins.find(QStringLiteral("notes")), nullptr);
    EXPECT_NE(twins.find(QStringLiteral("bank")), nullptr);
}

} // namespace
} // namespace warpscope::app::test
