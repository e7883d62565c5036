// kernelEditorBenchmarkRows: the kernel editor's edits of the transpose, timed in a real window.
#include "harness/kerneleditorbenchmark.h"

#include "document/patterndocument.h"
#include "shell/mainwindow.h"
#include "views/warpview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <string>

#include <time.h>

namespace warpscope::app {

namespace {

/// CPU time of the calling (GUI) thread: what an edit costs, apart from the waiting a loaded
/// machine adds to the wall time.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

} // namespace

std::vector<KernelBenchmarkRow> kernelEditorBenchmarkRows(MainWindow& window, int iterations) {
    std::vector<KernelBenchmarkRow> rows;
    // The notes' naive transpose as a whole kernel: 2048 x 2048 floats, block (16, 16), a load
    // of `in` and a store of `out`; the editor shows both accesses, the store selected.
    PatternDocument& document = *window.document();
    if (!window.showKernelPreset(QStringLiteral("transpose-naivecol")) || !document.kernel() ||
        document.kernel()->accesses.size() < 2) {
        return rows;
    }
    window.showView(MainWindow::View::Warp);
    document.selectAccess(1);
    QApplication::processEvents();
    WarpView* view = window.warpView();
    QImage image(view->size(), QImage::Format_ARGB32_Premultiplied);
    {
        // Each edit goes the whole way a keystroke goes: the access's pattern folded into the
        // kernel, the kernel resolved (buffers, launch), the editor and the kernel panel
        // resynchronised, the models run, the warp view laid out and painted.
        KernelBenchmarkRow row{QStringLiteral("kernel editor: edit one access of the 2048×2048 "
                                              "transpose kernel (2 accesses) → warp view painted"),
                               {},
                               QStringLiteral("≤ 16 ms p95")};
        KernelBenchmarkRow cpu{QStringLiteral("kernel editor: the same edit, CPU time of the GUI "
                                              "thread"),
                               {},
                               QStringLiteral("≤ 16 ms p95")};
        const Pattern original = document.pattern();
        for (int i = 0; i < iterations; ++i) {
            const Pattern pattern = benchmarkEdit(original, i);
            QElapsedTimer timer;
            timer.start();
            const double cpuStart = threadCpuMs();
            document.editPattern(pattern, QStringLiteral("benchmark edit"),
                                 static_cast<int>(EditMerge::AddressExpression));
            view->render(&image);
            row.ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
            cpu.ms.push_back(threadCpuMs() - cpuStart);
        }
        rows.push_back(row);
        rows.push_back(cpu);
    }
    {
        KernelBenchmarkRow row{QStringLiteral("kernel editor: choose the other access of the "
                                              "transpose kernel → warp view painted"),
                               {},
                               QStringLiteral("≤ 16 ms p95")};
        for (int i = 0; i < iterations; ++i) {
            QElapsedTimer timer;
            timer.start();
            document.selectAccess(i % 2);
            view->render(&image);
            row.ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        rows.push_back(row);
    }
    return rows;
}

} // namespace warpscope::app
