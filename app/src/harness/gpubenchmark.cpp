// runGpuBenchmark: a real MainWindow, its GpuRunner and the probe it starts.
#include "harness/gpubenchmark.h"

#include "document/patterndocument.h"
#include "gpu/eventwait.h"
#include "gpu/gpurunner.h"
#include "gpu/probeclient.h"
#include "harness/benchmarkrunner.h"
#include "harness/screenshotrunner.h"
#include "panels/messagebar.h"
#include "shell/commandline.h"
#include "shell/mainwindow.h"
#include "views/warpview.h"

#include <warpscope/preset.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace warpscope::app {

int runGpuBenchmark(const CommandLine& options) {
    MainWindowOptions windowOptions;
    windowOptions.useSettings = false;
    windowOptions.autosave = false;
    windowOptions.confirmDiscard = false;
    windowOptions.probeCommand = options.probeCommand;
    MainWindow window(windowOptions);
    window.resize(options.windowSize.isValid() ? options.windowSize : QSize(1920, 1080));
    const QString presetId =
        options.presetId.isEmpty() ? QStringLiteral("readsegment-offset-11") : options.presetId;
    if (!window.loadPresetById(presetId)) {
        std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
        return 2;
    }
    window.showView(MainWindow::View::Warp);
    window.show();
    waitUntilPainted(window, 5000);

    // Start-up: the probe process, its GPU set-up and the first measurement.
    QElapsedTimer startup;
    startup.start();
    if (!measureAndWait(window)) {
        std::fprintf(stderr, "warpscope: no GPU measurement: %s\n",
                     qPrintable(window.messageBar()->text()));
        return 1;
    }
    const double startupMs = static_cast<double>(startup.nsecsElapsed()) / 1e6;

    // Edits with auto-run on, as a user drags the parameter: each waits for its overlay.
    GpuRunner* gpu = window.gpuRunner();
    gpu->setAutoRun(true);
    bool arrived = false;
    QObject::connect(gpu, &GpuRunner::measurementArrived, [&] {
        arrived = true;
        window.warpView()->repaint(); // the overlay on screen, painted now
    });
    const int n = std::clamp(options.benchmarkIterations, 10, 1000);
    std::vector<double> ms;
    int lost = 0;
    for (int i = 0; i < n; ++i) {
        Pattern pattern = window.document()->pattern();
        if (!pattern.source || pattern.source->parameters.empty()) {
            break;
        }
        Parameter& p = pattern.source->parameters.front();
        const std::int64_t span = std::max<std::int64_t>(1, p.maximum - p.minimum);
        p.value = p.minimum + ((p.value - p.minimum + 1) % (span + 1));
        arrived = false;
        QElapsedTimer timer;
        timer.start();
        window.document()->editPattern(pattern, QStringLiteral("benchmark edit"),
                                       static_cast<int>(EditMerge::FirstParameter));
        if (!waitForEvents([&] { return arrived; }, 30000)) {
            ++lost;
            continue;
        }
        ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    const ProbeMeasureOptions o = gpu->options();
    std::printf("## warpscope --benchmark-gpu\n\n");
    std::printf("- GPU: %s, driver %s; probe: %s\n",
                qPrintable(window.probeClient()->gpu().describe()),
                qPrintable(window.probeClient()->gpu().driverVersion),
                qPrintable(window.probeClient()->program()));
    std::printf("- preset %s, %d edits of its first parameter with auto-run on (debounce %d ms); "
                "measuring counters %s, latency %s, grid %s, %d repetitions\n\n",
                qPrintable(presetId), n, gpu->autoRunDelayMs(), o.counters ? "on" : "off",
                o.latency ? "on" : "off", o.grid ? "on" : "off", o.repetitions);
    std::printf("| measurement | p50 ms | p90 ms | max ms | target |\n");
    std::printf("| --- | ---: | ---: | ---: | --- |\n");
    if (!ms.empty()) {
        std::printf("| edit → measured overlay painted | %.1f | %.1f | %.1f | ≤ 150 ms p50 |\n",
                    percentile(ms, 0.5), percentile(ms, 0.9),
                    *std::max_element(ms.begin(), ms.end()));
    }
    std::printf("| first Run: probe start, GPU set-up, first measurement | %.0f | — | — | — |\n",
                startupMs);
    if (lost > 0) {
        std::printf("\n%d edits got no measurement within 30 s.\n", lost);
    }
    return ms.empty() ? 1 : 0;
}

} // namespace warpscope::app
