// The headless chart exports (experimentexport.h): an experiment tab's figure drawn in a window
// that is never shown, from recorded results (--KEY FILE) or, with --measure, from the GPU.
#include "shell/experimentexport.h"

#include "experiments/experimenttab.h"
#include "gpu/eventwait.h"
#include "panels/messagebar.h"
#include "views/experimentview.h"

#include <QApplication>
#include <QCoreApplication>
#include <QPushButton>

namespace warpscope::app {

const AppExperiment* exportedExperiment(const CommandLine& options) {
    if (!options.exporting || !options.exportArguments.deck.isEmpty()) {
        return nullptr;
    }
    if (const AppExperiment* experiment = findAppExperiment(options.presetId)) {
        return experiment;
    }
    return findAppExperiment(options.view);
}

std::unique_ptr<MainWindow> headlessChartWindow(const CommandLine& options, QSize* size) {
    const std::optional<QSize> exportSize = chartExportSize(options);
    if (!exportSize) {
        return nullptr;
    }
    *size = *exportSize;
    auto window = std::make_unique<MainWindow>(headlessChartWindowOptions(options));
    window->resize(*size);
    return window;
}

int runExperimentExport(const CommandLine& options, const AppExperiment& experiment) {
    const QString output = options.exportArguments.output;
    if (options.view == experiment.key() &&
        ((!options.presetId.isEmpty() && options.presetId != experiment.key()) ||
         !options.sessionFile.isEmpty())) {
        std::fprintf(stderr, "warpscope: %s\n",
                     qPrintable(QCoreApplication::translate(
                                    "warpscope", "--view %1 draws the %1 tab's chart, which shows "
                                                 "no pattern: drop --preset and --session (give "
                                                 "its results with --%2 FILE).")
                                    .arg(experiment.key(), experiment.resultsOption())));
        return 2;
    }
    QSize size;
    const std::unique_ptr<MainWindow> headless = headlessChartWindow(options, &size);
    if (!headless) {
        return 2;
    }
    MainWindow& window = *headless;
    ExperimentTab* tab = window.experimentTab(experiment.tableKey());
    for (const QString& file : options.experimentResults(experiment.key())) {
        if (!tab->loadResults(file)) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 2;
        }
    }
    applyExperimentViewOptions(options, window);
    if (options.measure) {
        tab->run();
        const bool answered =
            waitForEvents([&] { return !tab->isRunning(); }, experiment.measureTimeoutMs);
        if (!answered || !tab->hasResults()) {
            std::fprintf(stderr, "warpscope: no %s results (%s)\n", experiment.noResults,
                         qPrintable(window.messageBar()->text()));
        }
        QApplication::processEvents();
    }
    return writeExportedChart(tab->view(), output, size);
}

} // namespace warpscope::app
