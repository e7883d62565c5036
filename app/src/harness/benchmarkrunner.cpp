// runBenchmark: drives a real MainWindow through the document, times the frames the window system
// gets (FrameClock) and whole renders with QWidget::render into QImages, simulates a slider drag
// at 60 Hz, steps lecture mode at 4K, and reports percentiles and where a frame's time goes.
#include "harness/benchmarkrunner.h"

#include "harness/frametiming.h"
#include "lecture/lecturewindow.h"
#include "panels/parameterpanel.h"
#include "panels/patterneditor.h"

#include "document/patterndocument.h"
#include "harness/kernelbenchmark.h"
#include "harness/kerneleditorbenchmark.h"
#include "harness/screenshotrunner.h"
#include "shell/commandline.h"
#include "shell/mainwindow.h"
#include "views/blockview.h"
#include "views/warpview.h"

#include <warpscope/preset.h>
#include <warpscope/statistics.h>

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSlider>
#include <QSysInfo>
#include <QThread>
#include <QTimer>
#include <QWindow>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <vector>

namespace warpscope::app {

namespace {

struct Timing {
    QString name;
    std::vector<double> ms;
    QString target;
};

/// A row timed against the frame budget, its name's %1×%2 the window's size.
Timing frameTiming(const QString& name, const QWidget& window) {
    return Timing{name.arg(window.width()).arg(window.height()), {}, QStringLiteral("≤ 16 ms p95")};
}

/// Runs `paint`, profiled by `profile` (between its beginFrame() and endFrame()) when `profiled`:
/// the second half of a run's frames, once the caches are warm.
template <class Paint>
void paintProfiled(PaintProfile& profile, bool profiled, const Paint& paint) {
    if (profiled) {
        profile.beginFrame();
    }
    paint();
    if (profiled) {
        profile.endFrame();
    }
}

QString cpuModel() {
    QFile file(QStringLiteral("/proc/cpuinfo"));
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (line.startsWith("model name")) {
                return QString::fromUtf8(line.mid(line.indexOf(':') + 1).trimmed());
            }
        }
    }
    return QSysInfo::currentCpuArchitecture();
}

/// A preset with a parameter to drag, in the wanted memory space (first one found).
const Preset* pickPreset(const QString& wanted, MemorySpace space) {
    if (!wanted.isEmpty()) {
        if (const Preset* preset = findPreset(wanted.toStdString())) {
            return preset;
        }
    }
    for (const Preset& preset : builtinPresets()) {
        if (preset.pattern.kind.space == space && preset.pattern.source &&
            !preset.pattern.source->parameters.empty()) {
            return &preset;
        }
    }
    return nullptr;
}

/// One "edit": move the first parameter to the next value of its range (or change the address
/// expression when there is none), as a slider drag does.
void editOnce(PatternDocument& document, int step) {
    Pattern pattern = document.pattern();
    if (!pattern.source) {
        return;
    }
    auto& parameters = pattern.source->parameters;
    if (!parameters.empty()) {
        Parameter& p = parameters.front();
        const std::int64_t span = std::max<std::int64_t>(1, p.maximum - p.minimum);
        p.value = p.minimum + (step % (span + 1));
    } else {
        pattern.source->addressExpression = "4 * gid + " + std::to_string(4 * (step % 64));
    }
    document.editPattern(pattern, QStringLiteral("benchmark edit"),
                         static_cast<int>(EditMerge::FirstParameter));
}

double msSince(qint64 startNs) {
    return static_cast<double>(benchmarkNowNs() - startNs) / 1e6;
}

QString loadAverage() {
    QFile file(QStringLiteral("/proc/loadavg"));
    if (file.open(QIODevice::ReadOnly)) {
        return QString::fromLatin1(file.readAll().split(' ').value(0));
    }
    return QStringLiteral("?");
}

/// Let the event loop deliver what an edit posted: the deferred edits, then the repaint (an
/// UpdateRequest posted while events are being sent waits for the next pass).
void settleBenchmark() {
    for (int pass = 0; pass < 3; ++pass) {
        QApplication::processEvents();
    }
}

/// Show `widget` and wait until it is exposed and has repainted once.
bool waitUntilShownAndPainted(QWidget& widget, FrameClock& clock, int timeoutMs) {
    const qint64 deadline = benchmarkNowNs() + qint64{timeoutMs} * 1000000;
    while (benchmarkNowNs() < deadline) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        if (widget.windowHandle() && widget.windowHandle()->isExposed() && clock.frameCount() > 0) {
            return true;
        }
    }
    return false;
}

/// The first parameter's value in the document (what the window shows), or -1.
std::int64_t firstParameterValue(const PatternDocument& document) {
    const Pattern& pattern = document.pattern();
    if (!pattern.source || pattern.source->parameters.empty()) {
        return -1;
    }
    return pattern.source->parameters.front().value;
}

struct DragResult {
    int moves = 0;
    int missed = 0;
    int evaluations = 0;
    int frames = 0;
    std::vector<double> latencyMs;  // each move to the first frame that shows it (or a later one)
    std::vector<double> frameMs;    // each frame's repaint alone
    std::vector<double> frameCpuMs; // the GUI thread's CPU time in each frame's repaint
    PaintProfile profile;           // where the frames' time went
};

/// A hand dragging the first parameter's slider across `moves` values at 60 Hz: every 16.7 ms,
/// on a fixed schedule whether or not the window kept up, the hand moves one value on, and the
/// slider follows it as a mouse move delivered by the event loop does. A move is in time when a
/// frame showing its value (or a later one) has been painted within 16.7 ms of it; a move whose
/// value is never shown by itself (merged into a later frame, or queued behind a slow one) misses.
void simulateDrag(MainWindow& window, int moves, DragResult& result) {
    PatternDocument& document = *window.document();
    Pattern pattern = document.pattern();
    if (!pattern.source || pattern.source->parameters.empty()) {
        return;
    }
    // A range the drag can cross one value at a time.
    Parameter& p = pattern.source->parameters.front();
    p.minimum = 0;
    p.maximum = std::max<std::int64_t>(p.maximum, moves + 1);
    p.value = 0;
    document.editPattern(pattern, QStringLiteral("benchmark drag range"));
    settleBenchmark();
    QSlider* slider = window.editor()->parameterPanel()->slider(0);
    if (slider == nullptr) {
        return;
    }

    FrameClock clock(&window);
    std::vector<std::pair<qint64, std::int64_t>> frames; // end, value shown
    clock.setProfile(&result.profile);
    clock.onFrame = [&](qint64 start, qint64 end, qint64 cpu) {
        frames.emplace_back(end, firstParameterValue(document));
        result.frameMs.push_back(static_cast<double>(end - start) / 1e6);
        result.frameCpuMs.push_back(static_cast<double>(cpu) / 1e6);
    };
    const QMetaObject::Connection counting = QObject::connect(
        &document, &PatternDocument::evaluationChanged, [&] { ++result.evaluations; });

    constexpr qint64 kFrameNs = 16'666'667;
    slider->setSliderDown(true);
    settleBenchmark();
    frames.clear();
    const qint64 t0 = benchmarkNowNs() + kFrameNs;
    std::vector<qint64> scheduled;
    QEventLoop loop;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.setSingleShot(true);
    int move = 0;
    QObject::connect(&timer, &QTimer::timeout, [&] {
        if (move == moves) {
            loop.quit();
            return;
        }
        // Where the hand is now: when the window fell behind, the moves it missed are merged
        // into this one, as the window system merges queued mouse moves.
        const auto due =
            static_cast<int>(std::min<qint64>(moves, 1 + (benchmarkNowNs() - t0) / kFrameNs));
        for (; move < due; ++move) {
            scheduled.push_back(t0 + move * kFrameNs);
        }
        slider->setSliderPosition(move); // what QSlider::mouseMoveEvent does
        const qint64 next = move < moves ? t0 + move * kFrameNs : benchmarkNowNs() + 200'000'000;
        timer.start(static_cast<int>(std::max<qint64>(0, next - benchmarkNowNs()) / 1000000));
    });
    timer.start(static_cast<int>((t0 - benchmarkNowNs()) / 1000000));
    loop.exec();
    slider->setSliderDown(false);
    settleBenchmark();
    QObject::disconnect(counting);

    result.moves = moves;
    result.frames = static_cast<int>(frames.size());
    for (int i = 0; i < moves; ++i) {
        const std::int64_t value = i + 1;
        qint64 shown = -1;
        for (const auto& [end, frameValue] : frames) {
            if (end >= scheduled[static_cast<std::size_t>(i)] && frameValue >= value) {
                shown = end;
                break;
            }
        }
        const double latency =
            shown < 0 ? 1e9 : static_cast<double>(shown - scheduled[static_cast<std::size_t>(i)]);
        result.latencyMs.push_back(latency / 1e6);
        if (shown < 0 || shown - scheduled[static_cast<std::size_t>(i)] > kFrameNs) {
            ++result.missed;
        }
    }
}

/// The widgets that took most of the recorded frames, as Markdown rows (ms per frame, share).
void printProfile(const char* title, const PaintProfile& profile, double frameMs) {
    std::vector<std::pair<double, QString>> rows;
    double total = 0;
    for (const auto& [name, ms] : profile.totalMs()) {
        rows.emplace_back(ms / std::max(1, profile.frames()), name);
        total += ms;
    }
    std::sort(rows.begin(), rows.end(), std::greater<>());
    std::printf("\n### %s (%d frames; %.2f ms per frame in paint events, frame p50 %.2f ms)\n\n",
                title, profile.frames(), total / std::max(1, profile.frames()), frameMs);
    std::printf("| widget | ms per frame |\n| --- | ---: |\n");
    for (std::size_t i = 0; i < rows.size() && i < 14; ++i) {
        std::printf("| %s | %.3f |\n", qPrintable(rows[i].second), rows[i].first);
    }
}

} // namespace

int runBenchmark(const CommandLine& options, const QElapsedTimer& sinceStart) {
    const QString loadBefore = loadAverage();
    MainWindowOptions windowOptions;
    windowOptions.useSettings = false;
    windowOptions.autosave = false;
    windowOptions.confirmDiscard = false;
    MainWindow window(windowOptions);
    const QSize size = options.windowSize.isValid() ? options.windowSize : QSize(1920, 1080);
    window.resize(size);
    const Preset* global = pickPreset(options.presetId, MemorySpace::Global);
    if (global) {
        window.document()->loadPreset(*global);
    }
    window.showView(MainWindow::View::Warp);
    const bool painted = waitUntilPainted(window, 5000);
    const double firstFrameMs = static_cast<double>(sinceStart.nsecsElapsed()) / 1e6;

    const int n = options.benchmarkIterations;
    const qreal dpr = window.devicePixelRatioF();
    std::vector<Timing> timings;
    FrameClock frames(&window);
    settleBenchmark();

    // 0. The edit alone: the model and every panel's update (tables, editor), no painting.
    {
        Timing t{
            QStringLiteral("edit → model → panels updated (no painting)"), {}, QStringLiteral("—")};
        for (int i = 0; i < n; ++i) {
            const qint64 start = benchmarkNowNs();
            editOnce(*window.document(), i + 3);
            t.ms.push_back(msSince(start));
            settleBenchmark();
        }
        timings.push_back(t);
    }
    // 1. Edit + the warp view repainted into an image of the view's size.
    {
        Timing t{QStringLiteral("edit → model → warp view painted (view %1×%2)")
                     .arg(window.warpView()->width())
                     .arg(window.warpView()->height()),
                 {},
                 QStringLiteral("≤ 16 ms p95")};
        QImage image(window.warpView()->size() * dpr, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        for (int i = 0; i < n; ++i) {
            const qint64 start = benchmarkNowNs();
            editOnce(*window.document(), i);
            window.warpView()->render(&image);
            t.ms.push_back(msSince(start));
            settleBenchmark();
        }
        timings.push_back(t);
    }
    // 2. Edit + the frame the window system gets: the event loop delivers the edit's updates and
    // repaints what they marked dirty into the window's backing store, as on screen.
    PaintProfile frameProfile;
    std::vector<double> frameMs;
    {
        Timing t = frameTiming(
            QStringLiteral("edit → model → window's frame painted (%1×%2, what changed)"), window);
        Timing cpu{QStringLiteral("edit → model → window's frame painted, GUI-thread CPU time"),
                   {},
                   QStringLiteral("—")};
        const int before = frames.frameCount();
        for (int i = 0; i < n; ++i) {
            const qint64 start = benchmarkNowNs();
            const qint64 startCpu = benchmarkThreadCpuNs();
            editOnce(*window.document(), i + 5);
            paintProfiled(frameProfile, i >= n / 2, [] { settleBenchmark(); });
            t.ms.push_back(msSince(start));
            cpu.ms.push_back(static_cast<double>(benchmarkThreadCpuNs() - startCpu) / 1e6);
        }
        if (frames.frameCount() - before < n) {
            t.name += QStringLiteral(" (only %1 frames for %2 edits)")
                          .arg(frames.frameCount() - before)
                          .arg(n);
        }
        frameMs = t.ms;
        timings.push_back(t);
        timings.push_back(cpu);
    }
    // 3. Edit + the whole window (docks, tables, metrics) rendered from scratch at its size.
    PaintProfile wholeProfile;
    std::vector<double> wholeMs;
    {
        Timing t = frameTiming(
            QStringLiteral("edit → model → whole window painted (%1×%2, every widget)"), window);
        QImage image(window.size() * dpr, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        for (int i = 0; i < n; ++i) {
            const qint64 start = benchmarkNowNs();
            editOnce(*window.document(), i + 7);
            settleBenchmark(); // deliver the updates the edit posted
            paintProfiled(wholeProfile, i >= n / 2, [&] { window.render(&image); });
            t.ms.push_back(msSince(start));
        }
        wholeMs = t.ms;
        timings.push_back(t);
    }
    // 4. A hand dragging the offset slider over 120 values at 60 Hz.
    DragResult drag;
    simulateDrag(window, 120, drag);
    timings.push_back(
        Timing{QStringLiteral("60 Hz drag over %1 values: move → frame showing it; %2 of %1 frames "
                              "missed 16.7 ms (%3 %); %4 model evaluations, %5 frames")
                   .arg(drag.moves)
                   .arg(drag.missed)
                   .arg(drag.moves > 0 ? 100.0 * drag.missed / drag.moves : 0.0, 0, 'f', 1)
                   .arg(drag.evaluations)
                   .arg(drag.frames),
               drag.latencyMs, QStringLiteral("0 missed (scale 1), ≤ 5 % (scale 2)")});
    timings.push_back(Timing{QStringLiteral("60 Hz drag: each frame's repaint alone"), drag.frameMs,
                             QStringLiteral("—")});
    timings.push_back(
        Timing{QStringLiteral("60 Hz drag: each frame's repaint, GUI-thread CPU time"),
               drag.frameCpuMs, QStringLiteral("—")});

    // 5. The block view of a 32×32 block (1024 threads, 32 warps each evaluated by the model).
    {
        const Preset* shared = pickPreset(QString(), MemorySpace::Shared);
        if (shared) {
            window.document()->loadPreset(*shared);
        }
        Pattern pattern = window.document()->pattern();
        if (pattern.source) {
            pattern.source->blockDim = Dim3{32, 32, 1};
            window.document()->editPattern(pattern, QStringLiteral("benchmark block"));
        }
        window.showView(MainWindow::View::Block);
        settleBenchmark();
        Timing t{
            QStringLiteral("block view, 1024-thread block: edit → 32 warps modelled → painted"),
            {},
            QStringLiteral("≤ 50 ms p95")};
        QImage image(window.blockView()->size() * dpr, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        for (int i = 0; i < n; ++i) {
            Pattern p = window.document()->pattern();
            if (p.source) {
                p.source->warpIndex = i % 32;
            }
            const qint64 start = benchmarkNowNs();
            window.document()->editPattern(p, QStringLiteral("benchmark warp"),
                                           static_cast<int>(EditMerge::WarpIndex));
            window.blockView()->render(&image);
            t.ms.push_back(msSince(start));
            settleBenchmark();
        }
        timings.push_back(t);
    }
    window.hide();

    // 6. Lecture mode on a 3840×2160-pixel screen (at this run's device pixel ratio): Space
    // through every slide of the course deck, each step and each next slide to its frame.
    PaintProfile lectureProfile;     // reveals
    PaintProfile lectureNextProfile; // moves to the next slide
    std::vector<double> lectureStepMs;
    std::vector<double> lectureNextMs;
    std::vector<double> lectureRevealMs;
    std::vector<std::pair<double, QString>> lectureNextBySlide; // ms, the slide arrived at
    bool lecturePainted = false;
    {
        auto deck = loadDeckFile(builtinDeckPath());
        if (deck) {
            LectureWindow lecture(std::move(deck).value());
            const QSize lectureSize(qRound(3840 / dpr), qRound(2160 / dpr));
            FrameClock lectureFrames(&lecture);
            lecture.present(lectureSize);
            lecturePainted = waitUntilShownAndPainted(lecture, lectureFrames, 5000);
            // A lecturer opens lecture mode and talks before the first key: let the window
            // settle once (what it does when idle after a slide, see LectureWindow::event).
            // From here the keys come back to back, with no pause between them.
            const qint64 settleUntil = benchmarkNowNs() + qint64{500} * 1000000;
            while (benchmarkNowNs() < settleUntil) {
                QApplication::processEvents(QEventLoop::AllEvents, 20);
            }
            Timing reveal{QStringLiteral("lecture mode %1×%2 px: Space reveals a step → frame")
                              .arg(lectureSize.width() * dpr)
                              .arg(lectureSize.height() * dpr),
                          {},
                          QStringLiteral("≤ 16 ms p95")};
            Timing next{QStringLiteral("lecture mode %1×%2 px: Space moves to the next slide → "
                                       "frame")
                            .arg(lectureSize.width() * dpr)
                            .arg(lectureSize.height() * dpr),
                        {},
                        QStringLiteral("≤ 16 ms p95")};
            // At least `n` presses, and on through the end of the deck, so that every slide
            // change is timed whatever the iteration count (the deck has about 30).
            bool wrapped = false;
            Timing revealCpu{QStringLiteral("lecture mode: a reveal, GUI-thread CPU time"),
                             {},
                             QStringLiteral("—")};
            Timing nextCpu{QStringLiteral("lecture mode: next slide, GUI-thread CPU time"),
                           {},
                           QStringLiteral("—")};
            for (int i = 0; i < n || !wrapped; ++i) {
                const bool atEnd = lecture.revealedSteps() >= lecture.stepCount();
                const bool lastSlide = lecture.slideIndex() + 1 >= lecture.slideCount();
                const qint64 start = benchmarkNowNs();
                const qint64 startCpu = benchmarkThreadCpuNs();
                const int framesBefore = lectureFrames.frameCount();
                PaintProfile& profile = atEnd ? lectureNextProfile : lectureProfile;
                profile.beginFrame();
                if (atEnd && lastSlide) {
                    lecture.setSlide(0);
                    wrapped = true;
                } else {
                    lecture.revealNext();
                }
                settleBenchmark();
                profile.endFrame();
                // To the end of the frame that shows the press (what the audience waits for);
                // work the window leaves for after it (the next slide's texts drawn ahead)
                // does not delay this frame. A press that painted nothing counts to here.
                const bool framed = lectureFrames.frameCount() > framesBefore;
                const double ms =
                    framed ? static_cast<double>(lectureFrames.lastFrameEndNs() - start) / 1e6
                           : msSince(start);
                const qint64 endCpu =
                    framed ? lectureFrames.lastFrameEndCpuNs() : benchmarkThreadCpuNs();
                (atEnd ? next : reveal).ms.push_back(ms);
                if (atEnd) {
                    lectureNextBySlide.emplace_back(
                        ms,
                        QStringLiteral("%1: %2").arg(lecture.counterText(), lecture.titleText()));
                }
                (atEnd ? nextCpu : revealCpu)
                    .ms.push_back(static_cast<double>(endCpu - startCpu) / 1e6);
            }
            lectureNextMs = next.ms;
            lectureRevealMs = reveal.ms;
            lectureStepMs = reveal.ms;
            lectureStepMs.insert(lectureStepMs.end(), next.ms.begin(), next.ms.end());
            timings.push_back(reveal);
            timings.push_back(next);
            timings.push_back(revealCpu);
            timings.push_back(nextCpu);
            Timing all{QStringLiteral("lecture mode: any step (reveal or next slide) → frame"),
                       lectureStepMs, QStringLiteral("≤ 16 ms p95")};
            timings.push_back(all);
        }
    }

    // Whole kernels: the grid view and the transpose's warp view (harness/kernelbenchmark.cpp).
    for (KernelBenchmarkRow& row : kernelBenchmarkRows(window, n)) {
        timings.push_back(Timing{row.name, std::move(row.ms), row.target});
    }
    // The kernel editor on the same transpose (harness/kerneleditorbenchmark.cpp).
    for (KernelBenchmarkRow& row : kernelEditorBenchmarkRows(window, n)) {
        timings.push_back(Timing{row.name, std::move(row.ms), row.target});
    }
    std::printf("## warpscope --benchmark\n\n");
    std::printf(
        "- machine: %s, %d logical CPUs; %s; Qt %s, platform \"%s\", device pixel ratio %.1f\n",
        qPrintable(cpuModel()), QThread::idealThreadCount(),
        qPrintable(QSysInfo::prettyProductName()), qVersion(),
        qPrintable(QGuiApplication::platformName()), dpr);
    std::printf("- preset: %s; %d iterations per row; build: %s; load average %s → %s\n\n",
                global ? global->id.c_str() : "(none)", n, WARPSCOPE_BUILD_TYPE,
                qPrintable(loadBefore), qPrintable(loadAverage()));
    std::printf("| measurement | p50 ms | p95 ms | max ms | target |\n");
    std::printf("| --- | ---: | ---: | ---: | --- |\n");
    for (const Timing& t : timings) {
        if (t.ms.empty()) {
            continue;
        }
        std::printf("| %s | %.2f | %.2f | %.2f | %s |\n", qPrintable(t.name), percentile(t.ms, 0.5),
                    percentile(t.ms, 0.95), *std::max_element(t.ms.begin(), t.ms.end()),
                    qPrintable(t.target));
    }
    std::printf("| start (main) → window painted, plus 300 ms of settling%s | %.1f | — | — | ≤ "
                "1000 ms |\n",
                painted ? "" : " (NOT painted within 5 s)", firstFrameMs);
    printProfile("Where the window's frame goes (edit → frame, second half of the runs)",
                 frameProfile, percentile(frameMs, 0.5));
    printProfile("Where the drag's frames go", drag.profile, percentile(drag.frameMs, 0.5));
    printProfile("Where the whole window's render goes (every widget)", wholeProfile,
                 percentile(wholeMs, 0.5));
    printProfile("Where lecture mode's reveal goes", lectureProfile,
                 percentile(lectureRevealMs, 0.5));
    printProfile("Where lecture mode's next slide goes", lectureNextProfile,
                 percentile(lectureNextMs, 0.5));
    // Which slides the p95 of the next-slide row comes from: with about 40 steps it is the
    // third-slowest, so the five slowest name what to look at.
    std::sort(lectureNextBySlide.begin(), lectureNextBySlide.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    if (!lectureNextBySlide.empty()) {
        std::printf("\n### Lecture mode's slowest next-slide steps\n\n| slide arrived at | ms |\n"
                    "| --- | ---: |\n");
        for (std::size_t i = 0; i < std::min<std::size_t>(5, lectureNextBySlide.size()); ++i) {
            std::printf("| %s | %.2f |\n", qPrintable(lectureNextBySlide[i].second),
                        lectureNextBySlide[i].first);
        }
    }
    return painted && lecturePainted ? 0 : 1;
}

} // namespace warpscope::app
