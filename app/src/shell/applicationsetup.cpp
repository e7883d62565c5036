// configureApplication() and runWarpscope().
#include "shell/applicationsetup.h"

#include "document/patterndocument.h"
#include "gpu/probeclient.h"
#include "lecture/lecturescript.h"
#include "lecture/lecturewindow.h"
#include "panels/messagebar.h"
#include "panels/presetpicker.h"
#include "shell/commandline.h"
#include "shell/experimentexport.h"
#include "shell/exportcommand.h"
#include "shell/mainwindow.h"
#include "views/experimentview.h"
#include "views/gridview.h"
#include "views/notesview.h"
#include "views/theme.h"
#include "views/viewkind.h"

#include <warpscope/preset.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QIcon>
#include <QSettings>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

// Q_INIT_RESOURCE must be used outside a namespace.
static void initWarpscopeAppResources() {
    Q_INIT_RESOURCE(app);
}

namespace warpscope::app {

void initializeAppResources() {
    initWarpscopeAppResources();
}

void configureApplication(QApplication& application) {
    initializeAppResources();
    QCoreApplication::setOrganizationName(QString::fromLatin1(kOrganizationName));
    QCoreApplication::setApplicationName(QString::fromLatin1(kApplicationName));
    QCoreApplication::setApplicationVersion(QStringLiteral(WARPSCOPE_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("warpscope"));
    QGuiApplication::setDesktopFileName(QString::fromLatin1(kApplicationId));
    application.setWindowIcon(QIcon(QStringLiteral(":/warpscope/icons/warpscope.svg")));
}

std::optional<QString> missingHarnessMode(const CommandLine& options, const HarnessModes& modes) {
    if (options.benchmark && !modes.benchmark) {
        return QStringLiteral("--benchmark");
    }
    if (options.benchmarkGpu && !modes.benchmarkGpu) {
        return QStringLiteral("--benchmark-gpu");
    }
    if (!options.screenshotPath.isEmpty() && !modes.screenshot) {
        return QStringLiteral("--screenshot");
    }
    if (!options.geometryReportPath.isEmpty() && !modes.geometryReport) {
        return QStringLiteral("--geometry-report");
    }
    if (options.quitAfterFirstFrame && !modes.watchFirstFrame) {
        return QStringLiteral("--quit-after-first-frame");
    }
    return std::nullopt;
}

int runWarpscope(int argc, char** argv, const HarnessModes& harness) {
    QElapsedTimer sinceStart;
    sinceStart.start();
    if (argumentsNeedNoDisplay(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen"); // exports and --help need no display
    }
    protectSessionArgument(argc, argv);
    QApplication application(argc, argv);
    configureApplication(application);

    CommandLine options;
    if (auto error = CommandLine::parse(QCoreApplication::arguments(), options)) {
        std::fprintf(stderr, "warpscope: %s\n", qPrintable(*error));
        return 2;
    }
    if (options.exporting && options.presetId.startsWith(QLatin1String(kNotesExperimentPrefix))) {
        return runNotesExport(options); // the notes-vs-GPU chart (mainwindow_notes.cpp)
    }
    if (const AppExperiment* experiment = exportedExperiment(options)) {
        return runExperimentExport(options, *experiment); // its tab's chart (experimentexport.cpp)
    }
    if (options.exporting) {
        return runFigureExport(options);
    }
    if (auto mode = missingHarnessMode(options, harness)) {
        std::fprintf(stderr,
                     "warpscope: %s is not part of this program (it comes with the "
                     "benchmark and screenshot harness, warpscope-app-harness)\n",
                     qPrintable(*mode));
        return 2;
    }

    Theme theme = Theme::Light;
    if (!options.theme.isEmpty()) {
        theme = themeFromName(options.theme);
    } else if (!options.noSettings) {
        theme = themeFromName(QSettings().value(QStringLiteral("theme")).toString());
    }
    applyTheme(application, theme);

    if (options.benchmark) {
        return harness.benchmark(options, sinceStart);
    }
    if (options.benchmarkGpu) {
        return harness.benchmarkGpu(options);
    }

    MainWindowOptions windowOptions;
    windowOptions.useSettings = !options.noSettings;
    // A geometry report reads the settings (a first start has none) but leaves nothing behind
    // and asks nothing.
    const bool reporting = !options.geometryReportPath.isEmpty();
    windowOptions.autosave = !options.noSettings && !reporting;
    windowOptions.confirmDiscard = !options.noSettings && !reporting;
    windowOptions.warmUpGpu = !reporting;
    windowOptions.probeCommand = options.probeCommand;
    MainWindow window(windowOptions);
    window.setTheme(theme);

    bool fromSession = false;
    if (!options.sessionFile.isEmpty()) {
        fromSession = window.openSession(options.sessionFile);
        if (!fromSession && !options.screenshotPath.isEmpty()) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 1;
        }
    }
    if (!fromSession) {
        if (!options.presetId.isEmpty()) {
            if (!window.loadPresetById(options.presetId) && !options.screenshotPath.isEmpty()) {
                std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
                return 1;
            }
        } else if (!builtinPresets().empty()) {
            window.loadPresetById(QString::fromStdString(builtinPresets().front().id));
        }
        window.markStartupState();
    }
    if (!options.traceFile.isEmpty()) {
        if ((!window.openTrace(options.traceFile) ||
             (options.tracePc && !window.showTracedInstruction(*options.tracePc))) &&
            !options.screenshotPath.isEmpty()) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 1;
        }
        if (!fromSession) {
            window.markStartupState(); // the traced warp shown is where the session starts
        }
    }
    if (auto view = MainWindow::viewFromName(options.view)) {
        window.showView(*view);
    } else if (ExperimentTab* tab = window.findExperimentTab(options.view)) {
        window.viewTabs()->setCurrentWidget(tab->view());
    } else if (options.view == viewKindName(ViewKind::Grid) ||
               options.view == viewKindName(ViewKind::Notes)) {
        window.viewTabs()->setCurrentWidget(options.view == viewKindName(ViewKind::Grid)
                                                ? static_cast<QWidget*>(window.gridView())
                                                : static_cast<QWidget*>(window.notesView()));
    }
    if (options.windowSize.isValid()) {
        window.resize(options.windowSize);
    } else if (options.noSettings) {
        window.resize(1600, 1000);
    }

    applyExperimentViewOptions(options, window);
    for (ExperimentTab* tab : window.experimentTabs()) {
        for (const QString& file : options.experimentResults(tab->experiment().key())) {
            if (!tab->loadResults(file) && !options.screenshotPath.isEmpty()) {
                std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
                return 1;
            }
        }
    }
    for (const QString& file : options.kernelMeasurementsFiles) {
        if (!window.importKernelMeasurements(file, {}) && !options.screenshotPath.isEmpty()) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 1;
        }
    }
    if (!options.probeDevices.isEmpty()) {
        window.probeClient()->setDevice(options.probeDevices.front());
    }
    if (options.measure) {
        // On each device asked for in turn: one session holds every GPU's measurements.
        const QList<int> devices =
            options.probeDevices.isEmpty() ? QList<int>{-1} : options.probeDevices;
        for (const int device : devices) {
            if (device >= 0) {
                window.probeClient()->setDevice(device);
            }
            if (!measureAndWait(window) && !options.screenshotPath.isEmpty()) {
                std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
                return 1;
            }
        }
    }
    if (!options.saveSessionPath.isEmpty() && !window.saveSession(options.saveSessionPath)) {
        std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
        return 1;
    }
    if (reporting) {
        return harness.geometryReport(window, options.geometryReportPath, options.screenshotPath);
    }
    if (!options.screenshotPath.isEmpty()) {
        return harness.screenshot(window, options.screenshotPath);
    }
    if (options.lecture) {
        window.show(); // where leaving lecture mode returns to
        LectureWindow* lecture = window.startLecture(options.lectureDeck, options.windowSize);
        if (lecture == nullptr && !options.lectureScript.isEmpty()) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 1;
        }
        if (lecture != nullptr && !options.lectureScript.isEmpty()) {
            return runLectureScript(lecture, options.lectureScript);
        }
        return QApplication::exec();
    }
    if (options.quitAfterFirstFrame) {
        harness.watchFirstFrame(window, sinceStart);
    }
    window.show();
    return QApplication::exec();
}

} // namespace warpscope::app
