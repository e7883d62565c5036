// FrameClock and PaintProfile: event filters around a window's repaints and its widgets' paints.
#include "harness/frametiming.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>

#include <ctime>

namespace warpscope::app {

qint64 benchmarkNowNs() {
    static QElapsedTimer clock = [] {
        QElapsedTimer timer;
        timer.start();
        return timer;
    }();
    return clock.nsecsElapsed();
}

qint64 benchmarkThreadCpuNs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

FrameClock::FrameClock(QWidget* window) : m_window(window) {
    window->installEventFilter(this);
}

FrameClock::~FrameClock() {
    m_window->removeEventFilter(this);
}

bool FrameClock::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_window || event->type() != QEvent::UpdateRequest || m_inside) {
        return false;
    }
    // Deliver the repaint here, inside the filter, to know when it is over; then swallow it.
    const qint64 start = benchmarkNowNs();
    const qint64 startCpu = benchmarkThreadCpuNs();
    m_inside = true;
    if (m_profile != nullptr) {
        m_profile->beginFrame();
    }
    QCoreApplication::sendEvent(m_window, event);
    if (m_profile != nullptr) {
        m_profile->endFrame();
    }
    m_inside = false;
    m_lastEndNs = benchmarkNowNs();
    m_lastEndCpuNs = benchmarkThreadCpuNs();
    ++m_frames;
    if (onFrame) {
        onFrame(start, m_lastEndNs, m_lastEndCpuNs - startCpu);
    }
    return true;
}

QString widgetName(const QWidget* widget) {
    if (widget->objectName() == QLatin1String("qt_scrollarea_viewport") &&
        widget->parentWidget() != nullptr) {
        return widgetName(widget->parentWidget()) + QStringLiteral("›viewport");
    }
    QString name = QString::fromLatin1(widget->metaObject()->className());
    if (!widget->objectName().isEmpty() && !widget->objectName().startsWith(QLatin1String("qt_"))) {
        name += QLatin1Char('#') + widget->objectName();
    }
    return name;
}

PaintProfile::PaintProfile() {
    qApp->installEventFilter(this);
}

PaintProfile::~PaintProfile() {
    qApp->removeEventFilter(this);
}

void PaintProfile::beginFrame() {
    m_recording = true;
    m_current.clear();
}

void PaintProfile::endFrame() {
    closeCurrent(benchmarkNowNs());
    m_recording = false;
    ++m_frames;
}

void PaintProfile::closeCurrent(qint64 nowNs) {
    if (!m_current.isEmpty()) {
        m_totalMs[m_current] += static_cast<double>(nowNs - m_currentStartNs) / 1e6;
    }
    m_current.clear();
}

bool PaintProfile::eventFilter(QObject* watched, QEvent* event) {
    if (m_recording && event->type() == QEvent::Paint && watched->isWidgetType()) {
        const qint64 now = benchmarkNowNs();
        closeCurrent(now);
        m_current = widgetName(static_cast<QWidget*>(watched));
        m_currentStartNs = now;
    }
    return false;
}

} // namespace warpscope::app
