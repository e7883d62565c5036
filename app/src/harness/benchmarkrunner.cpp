// runBenchmark: drives a real MainWindow through the document, renders with QWidget::render into
// QImages, and reports percentiles.
#include "harness/benchmarkrunner.h"

#include "document/patterndocument.h"
#include "harness/kernelbenchmark.h"
#include "harness/screenshotrunner.h"
#include "shell/commandline.h"
#include "shell/mainwindow.h"
#include "views/blockview.h"
#include "views/warpview.h"

#include <warpscope/preset.h>

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSysInfo>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace warpscope::app {

namespace {

struct Timing {
    QString name;
    std::vector<double> ms;
    QString target;
};

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

} // namespace

double percentile(std::vector<double> values, double p) {
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

int runBenchmark(const CommandLine& options, const QElapsedTimer& sinceStart) {
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

    // 0. The edit alone: the model and every panel's update (tables, editor), no painting.
    {
        Timing t{
            QStringLiteral("edit → model → panels updated (no painting)"), {}, QStringLiteral("—")};
        for (int i = 0; i < n; ++i) {
            QElapsedTimer timer;
            timer.start();
            editOnce(*window.document(), i + 3);
            t.ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
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
            QElapsedTimer timer;
            timer.start();
            editOnce(*window.document(), i);
            window.warpView()->render(&image);
            t.ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        timings.push_back(t);
    }
    // 2. Edit + the whole window (docks, tables, metrics) repainted at the window's size.
    {
        Timing t{QStringLiteral("edit → model → whole window painted (%1×%2)")
                     .arg(window.width())
                     .arg(window.height()),
                 {},
                 QStringLiteral("—")};
        QImage image(window.size() * dpr, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        for (int i = 0; i < n; ++i) {
            QElapsedTimer timer;
            timer.start();
            editOnce(*window.document(), i + 7);
            QApplication::processEvents(); // deliver the updates the edit posted
            window.render(&image);
            t.ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        timings.push_back(t);
    }
    // 3. The block view of a 32×32 block (1024 threads, 32 warps each evaluated by the model).
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
        QApplication::processEvents();
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
            QElapsedTimer timer;
            timer.start();
            window.document()->editPattern(p, QStringLiteral("benchmark warp"),
                                           static_cast<int>(EditMerge::WarpIndex));
            window.blockView()->render(&image);
            t.ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        timings.push_back(t);
    }

    // Whole kernels: the grid view and the transpose's warp view (harness/kernelbenchmark.cpp).
    for (KernelBenchmarkRow& row : kernelBenchmarkRows(window, n)) {
        timings.push_back(Timing{row.name, std::move(row.ms), row.target});
    }
    std::printf("## warpscope --benchmark\n\n");
    std::printf(
        "- machine: %s, %d logical CPUs; %s; Qt %s, platform \"%s\", device pixel ratio %.1f\n",
        qPrintable(cpuModel()), QThread::idealThreadCount(),
        qPrintable(QSysInfo::prettyProductName()), qVersion(),
        qPrintable(QGuiApplication::platformName()), dpr);
    std::printf("- preset: %s; %d iterations per row; build: %s\n\n",
                global ? global->id.c_str() : "(none)", n, WARPSCOPE_BUILD_TYPE);
    std::printf("| measurement | p50 ms | p95 ms | max ms | target |\n");
    std::printf("| --- | ---: | ---: | ---: | --- |\n");
    for (const Timing& t : timings) {
        std::printf("| %s | %.2f | %.2f | %.2f | %s |\n", qPrintable(t.name), percentile(t.ms, 0.5),
                    percentile(t.ms, 0.95), *std::max_element(t.ms.begin(), t.ms.end()),
                    qPrintable(t.target));
    }
    std::printf("| start (main) → window painted, plus 300 ms of settling%s | %.1f | — | — | ≤ "
                "1000 ms |\n",
                painted ? "" : " (NOT painted within 5 s)", firstFrameMs);
    return painted ? 0 : 1;
}

} // namespace warpscope::app
