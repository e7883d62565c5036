// waitForEvents(): spin the Qt event loop until a condition holds or a time runs out. For the
// non-interactive modes that wait for the probe's answer (--measure, --export --measure, the GPU
// benchmark); the window itself never blocks on the probe.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>

namespace warpscope::app {

/// Process events until `done()` or `timeoutMs`; false when the time ran out first.
template <class Predicate> bool waitForEvents(Predicate done, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs) {
            return false;
        }
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 10);
    }
    return true;
}

} // namespace warpscope::app
