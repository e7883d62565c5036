// The headless chart exports: `--export FILE --preset KEY` (or `--view KEY`) for an experiment's
// tab, and the pieces the notes' chart export shares with it (the window it draws in, writing the
// figure and saying so).
#pragma once

#include "shell/commandline.h"
#include "shell/mainwindow.h"

#include <QSize>
#include <QString>

#include <cstdio>
#include <memory>

namespace warpscope::app {

/// The experiment an `--export` draws: `--preset KEY` or `--view KEY` naming one (null: none, a
/// pattern's figure).
const AppExperiment* exportedExperiment(const CommandLine& options);

/// The window a headless chart export draws in, sized by --size (into `*size`); null, after
/// saying why, for a missing output file or a bad size.
std::unique_ptr<MainWindow> headlessChartWindow(const CommandLine& options, QSize* size);

/// Writes a chart view's figure for --export: 0, with "wrote FILE (WxH)" on stderr, or 1 with
/// the reason (the notes' chart and the experiment tabs alike).
template <class View> int writeExportedChart(View* view, const QString& output, QSize size) {
    QString error;
    if (!view->exportFigure(output, size, &error)) {
        std::fprintf(stderr, "warpscope: %s\n", qPrintable(error));
        return 1;
    }
    std::fprintf(stderr, "warpscope: wrote %s (%dx%d)\n", qPrintable(output), size.width(),
                 size.height());
    return 0;
}

} // namespace warpscope::app
