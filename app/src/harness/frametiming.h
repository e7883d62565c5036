// Frame timing for `warpscope --benchmark`: when a top-level window's repaint (Qt's UpdateRequest:
// the widgets marked dirty painted into the backing store, then flushed to the window system)
// starts and ends, and where the time of a paint goes, widget by widget.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <functional>
#include <map>

class QWidget;

namespace warpscope::app {

/// Nanoseconds on one clock shared by every timing of a benchmark run.
qint64 benchmarkNowNs();
/// CPU time of the calling thread (the GUI thread), in nanoseconds: what a frame costs the
/// window, apart from the waiting a loaded machine adds to its wall-clock time.
qint64 benchmarkThreadCpuNs();

/// Watches one top-level window and reports each repaint it gets from the event loop, from the
/// start of its UpdateRequest to the end (every dirty widget painted and the result flushed).
class FrameClock : public QObject {
public:
    explicit FrameClock(QWidget* window);
    ~FrameClock() override;

    int frameCount() const { return m_frames; }
    qint64 lastFrameEndNs() const { return m_lastEndNs; }
    /// benchmarkThreadCpuNs() at the end of the last frame.
    qint64 lastFrameEndCpuNs() const { return m_lastEndCpuNs; }
    /// Called at the end of each frame with its start and end (benchmarkNowNs()) and the GUI
    /// thread's CPU time it took.
    std::function<void(qint64 startNs, qint64 endNs, qint64 cpuNs)> onFrame;
    /// Record each frame's paints in `profile` (nullptr: none).
    void setProfile(class PaintProfile* profile) { m_profile = profile; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* m_window;
    PaintProfile* m_profile = nullptr;
    bool m_inside = false;
    int m_frames = 0;
    qint64 m_lastEndNs = 0;
    qint64 m_lastEndCpuNs = 0;
};

/// While recording, the time from each widget's paint event to the next one (or to the end of the
/// frame) is added to that widget's account: its own painting, the style's frames and the item
/// views' cells. Widgets are named by class and object name ("QTableView#laneTable"), a scroll
/// area's viewport after its scroll area.
class PaintProfile : public QObject {
public:
    PaintProfile();
    ~PaintProfile() override;

    void beginFrame();
    void endFrame();
    int frames() const { return m_frames; }
    /// Milliseconds per widget name, summed over the recorded frames.
    const std::map<QString, double>& totalMs() const { return m_totalMs; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void closeCurrent(qint64 nowNs);

    bool m_recording = false;
    int m_frames = 0;
    QString m_current;
    qint64 m_currentStartNs = 0;
    std::map<QString, double> m_totalMs;
};

/// "QTableView#laneTable", "WarpView#warpView", "QScrollArea›viewport".
QString widgetName(const QWidget* widget);

} // namespace warpscope::app
