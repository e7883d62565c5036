// takeScreenshot(), waitUntilPainted() and the first-frame watcher.
#include "harness/screenshotrunner.h"

#include "shell/mainwindow.h"
#include "views/gridview.h"
#include "views/kernelsweepview.h"
#include "views/sweepplot.h"
#include "views/warpview.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QPixmap>
#include <QPointer>
#include <QTabWidget>
#include <QTimer>
#include <QWindow>

#include <cstdio>

namespace warpscope::app {

namespace {

/// How long a screenshot waits for a tab's model computed on a worker.
constexpr int kModelTimeoutMs = 60000;

/// Records the first paint event of a widget.
class PaintWatcher : public QObject {
public:
    using QObject::QObject;
    bool painted = false;
    std::function<void()> onFirstPaint;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint && !painted) {
            painted = true;
            if (onFirstPaint) {
                // After this paint has finished.
                QTimer::singleShot(0, this, onFirstPaint);
            }
        }
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

bool waitUntilPainted(MainWindow& window, int timeoutMs) {
    auto* watcher = new PaintWatcher(&window);
    QWidget* target = window.centralWidget();
    target->installEventFilter(watcher);
    window.show();
    window.raise();
    window.activateWindow();
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        if (window.windowHandle() && window.windowHandle()->isExposed() && watcher->painted) {
            break;
        }
    }
    // Let layouts settle (dock sizes, scroll areas) before anyone looks.
    const QDeadlineTimer settle(300);
    while (!settle.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    const bool painted = watcher->painted;
    target->removeEventFilter(watcher);
    watcher->deleteLater();
    return painted;
}

namespace {

/// Lets the event loop run until `pending` is false or kModelTimeoutMs pass; false, with a
/// message naming `whose` model, if `busy` still holds then (nothing is photographed).
template <class Pending, class Busy>
bool waitForModel(const char* whose, Pending pending, Busy busy, const QString& path) {
    const QDeadlineTimer computed(kModelTimeoutMs);
    while (!computed.hasExpired() && pending()) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    if (busy()) {
        std::fprintf(stderr,
                     "warpscope: the %s model was not computed within %d s; no screenshot "
                     "written to %s\n",
                     whose, kModelTimeoutMs / 1000, qPrintable(path));
        return false;
    }
    QApplication::processEvents();
    return true;
}

} // namespace

int takeScreenshot(MainWindow& window, const QString& path) {
    if (!waitUntilPainted(window, 5000)) {
        std::fprintf(stderr, "warpscope: the window was not painted within 5 s; grabbing anyway\n");
    }
    // The grid tab computes on a worker: photograph its result, not its progress.
    if (GridView* grid = window.gridView();
        grid != nullptr && window.viewTabs()->currentWidget() == grid) {
        if (!waitForModel(
                "grid tab's",
                [grid] { return grid->computation()->isBusy() || grid->statusText().isEmpty(); },
                [grid] { return grid->computation()->isBusy(); }, path)) {
            return 1;
        }
    }
    // So does the sweep tab's whole-kernel sweep (a kernel preset's): its grid model at every
    // point, not "Computing the grid model..." over empty axes.
    if (SweepPlot* sweep = window.sweepPlot();
        sweep != nullptr && window.viewTabs()->currentWidget() == sweep && sweep->kernelMode()) {
        KernelSweepView* kernel = sweep->kernelSweepView();
        kernel->ensureModel();
        const auto busy = [kernel] { return kernel->isModelBusy(); };
        if (!waitForModel("sweep tab's grid", busy, busy, path)) {
            return 1;
        }
    }
    const QPixmap pixmap = window.grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
        std::fprintf(stderr, "warpscope: cannot write the screenshot to %s\n", qPrintable(path));
        return 1;
    }
    std::printf("warpscope: saved %dx%d screenshot to %s\n", pixmap.width(), pixmap.height(),
                qPrintable(path));
    return 0;
}

void watchFirstFrame(MainWindow& window, const QElapsedTimer& sinceStart) {
    auto* watcher = new PaintWatcher(&window);
    const QElapsedTimer start = sinceStart;
    watcher->onFirstPaint = [start] {
        std::printf("warpscope: first frame after %.1f ms\n",
                    static_cast<double>(start.nsecsElapsed()) / 1e6);
        std::fflush(stdout);
        QCoreApplication::quit();
    };
    window.warpView()->installEventFilter(watcher);
}

} // namespace warpscope::app
