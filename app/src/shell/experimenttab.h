// The wiring the window's probe experiment tabs (Transfers, Streams, L2 persistence) share: Measure
// and Cancel against one ProbeClient job, progress, the probe's answer or failure, the GPU status
// line, recorded results from a file or from the session, and the headless --export runner. Each
// tab keeps its own probe call, result parser and words in its mainwindow_*.cpp.
#pragma once

#include "document/patterndocument.h"
#include "gpu/eventwait.h"
#include "gpu/probeclient.h"
#include "panels/messagebar.h"
#include "shell/commandline.h"
#include "shell/mainwindow.h"

#include <QApplication>
#include <QByteArray>
#include <QJsonObject>
#include <QPushButton>
#include <QSize>
#include <QString>
#include <QStringList>

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

class QStatusBar;
class QTabWidget;

namespace warpscope::app {

/// The window's pieces an experiment tab talks to.
struct ExperimentTabHost {
    QObject* context = nullptr; // the window: the connections end with it
    ProbeClient* probe = nullptr;
    MessageBar* messageBar = nullptr;
    QStatusBar* statusBar = nullptr;
    PatternDocument* document = nullptr;
    QTabWidget* tabs = nullptr;
};

/// One tab's own words, already translated; %1 is filled in where a text names it.
struct ExperimentTabTexts {
    QString cancelled;         // status bar, after Cancel
    QString unreadableAnswer;  // message bar: the probe's answer cannot be read (%1: why)
    QString measured;          // status bar, after a measurement
    QString failed;            // message bar: the probe failed (%1: its message)
    QString modelOnly;         // GPU status with no GPU to measure on (%1: why)
    QString pressMeasure;      // GPU status with a GPU ready (%1: the GPU)
    QString unreadableSession; // message bar: the session's results cannot be read (%1: why)
};

// The shared words and the pieces that do not depend on the tab (experimenttab.cpp).
QString experimentMeasuredNowStatus();
/// "Recorded on NVIDIA H100 80GB HBM3 (file)": the GPU named in the recorded results.
QString experimentRecordedEarlierStatus(const QString& path);
/// The GPU a recorded results file names ("device", or the transfers' nvidia-smi line), or empty.
QString recordedGpuName(const QString& path);
QString experimentRecordedInSessionStatus();
void showExperimentNoGpu(MessageBar* messageBar, const QString& why);
/// A status bar message for five seconds (cancelled, measured).
void showExperimentDone(QStatusBar* statusBar, const QString& text);
/// A status bar message until the next one (measuring).
void showExperimentRunning(QStatusBar* statusBar, const QString& text);
/// The running message gone (the job failed or was refused).
void clearExperimentStatus(QStatusBar* statusBar);
void setCurrentExperimentTab(QTabWidget* tabs, QWidget* view);
/// The bytes of a recorded results file; nullopt, with the reason in the message bar, when it
/// cannot be read.
std::optional<QByteArray> readExperimentFile(const QString& path, MessageBar* messageBar);
/// An answer as the session records it (compact JSON).
std::string experimentSessionValue(const QJsonObject& answer);

/// Connects a tab's Cancel button and the probe's progress, answer (`measured`, parsed by
/// `fromJson`), failure and state to `view`, for the job in `*job` (0 when none). Measure
/// (runRequested) stays with the tab, which starts its own probe call.
template <class View, class FromJson>
void wireExperimentTab(const ExperimentTabHost& host, View* view, int* job,
                       void (ProbeClient::*measured)(int, const QJsonObject&), FromJson fromJson,
                       const ExperimentTabTexts& texts) {
    ProbeClient* probe = host.probe;
    QObject::connect(view, &View::cancelRequested, host.context, [=] {
        if (*job != 0) {
            probe->cancel(*job);
            *job = 0;
            view->setRunning(false);
            showExperimentDone(host.statusBar, texts.cancelled);
        }
    });
    QObject::connect(probe, &ProbeClient::progress, host.context,
                     [=](int answered, int done, int total) {
                         if (answered == *job) {
                             view->setProgress(done, total);
                         }
                     });
    QObject::connect(probe, measured, host.context, [=](int answered, const QJsonObject& result) {
        if (answered != *job) {
            return;
        }
        *job = 0;
        view->setRunning(false);
        QString error;
        auto results = fromJson(result, &error);
        if (!results) {
            host.messageBar->showMessage(MessageBar::Level::Error,
                                         texts.unreadableAnswer.arg(error));
            return;
        }
        view->setResults(std::move(results));
        view->setGpuStatus(experimentMeasuredNowStatus());
        host.document->markModified(); // the results belong to the session
        showExperimentDone(host.statusBar, texts.measured);
    });
    QObject::connect(probe, &ProbeClient::jobFailed, host.context,
                     [=](int answered, const ProbeFailure& failure) {
                         if (answered != *job) {
                             return;
                         }
                         *job = 0;
                         view->setRunning(false);
                         // Never left saying "Measuring …" after the answer that ends it.
                         clearExperimentStatus(host.statusBar);
                         if (failure.isNoGpu()) {
                             view->setGpuStatus(texts.modelOnly.arg(failure.message));
                             showExperimentNoGpu(host.messageBar, failure.message);
                         } else {
                             host.messageBar->showMessage(MessageBar::Level::Error,
                                                          texts.failed.arg(failure.message));
                         }
                     });
    QObject::connect(
        probe, &ProbeClient::stateChanged, host.context, [=](ProbeClient::State state) {
            if (view->results()) {
                return; // the status says where the results shown come from
            }
            if (state == ProbeClient::State::NoGpu || state == ProbeClient::State::Failed) {
                view->setGpuStatus(texts.modelOnly.arg(probe->stateText()));
            } else if (state == ProbeClient::State::Ready) {
                view->setGpuStatus(texts.pressMeasure.arg(probe->gpu().describe()));
            }
        });
}

/// Measure on a tab: shows it, marks it running and starts the probe call `start` (unless a job
/// runs already).
template <class View, class Start>
void startExperiment(const ExperimentTabHost& host, View* view, int* job,
                     const QString& runningText, Start start) {
    if (*job != 0) {
        return;
    }
    setCurrentExperimentTab(host.tabs, view);
    view->setRunning(true);
    showExperimentRunning(host.statusBar, runningText);
    *job = start();
}

/// Shows the results recorded in `path` (read by `read`); false, with the reason in the message
/// bar, when they cannot be read.
template <class View, class Read>
bool loadExperimentResults(MessageBar* messageBar, View* view, const QString& path, Read read) {
    const std::optional<QByteArray> bytes = readExperimentFile(path, messageBar);
    if (!bytes) {
        return false;
    }
    QString error;
    auto results = read(*bytes, &error);
    if (!results) {
        messageBar->showMessage(
            MessageBar::Level::Error,
            QCoreApplication::translate("MainWindow", "%1: %2").arg(path, error));
        return false;
    }
    view->setResults(std::move(results));
    view->setGpuStatus(experimentRecordedEarlierStatus(path));
    return true;
}

/// Records a tab's results in the session settings under `key` (when it has some).
template <class View>
void addExperimentSettings(std::map<std::string, std::string>& settings, const char* key,
                           const View* view) {
    if (view != nullptr && view->results()) {
        settings[key] = experimentSessionValue(view->results()->answer);
    }
}

/// Shows the results the session recorded under `key` (read by `read`), or none; unreadable ones
/// are left out with a warning.
template <class View, class Read>
void applyExperimentSettings(const std::map<std::string, std::string>& settings, const char* key,
                             View* view, Read read, MessageBar* messageBar,
                             const QString& unreadableSession) {
    const auto it = settings.find(key);
    if (it == settings.end()) {
        view->setResults(std::nullopt);
        return;
    }
    QString error;
    auto results = read(QByteArray::fromStdString(it->second), &error);
    if (!results) {
        messageBar->showMessage(MessageBar::Level::Warning, unreadableSession.arg(error));
        view->setResults(std::nullopt);
        return;
    }
    view->setResults(std::move(results));
    view->setGpuStatus(experimentRecordedInSessionStatus());
}

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

/// How `--export --preset <tab>` draws one experiment tab without a window.
template <class View> struct ExperimentExport {
    QStringList resultsFiles;                 // --<tab> FILE, loaded in order
    bool (MainWindow::*load)(const QString&); // loads one of them
    View* (MainWindow::*view)() const;        // the tab's view
    void (MainWindow::*run)();                // Measure (with --measure)
    int measureTimeoutMs;                     // how long --measure waits for the answer
    const char* noResults;                    // "no <noResults> results" when it gets none
    std::function<void(MainWindow&)> prepare; // the tab's own options, after loading
};

/// Runs a headless experiment export: 0 when the figure is written, 1 when it cannot be, 2 for a
/// bad size or results file (as runNotesExport).
template <class View>
int runExperimentExport(const CommandLine& options, const ExperimentExport<View>& how) {
    const QString output = options.exportArguments.output;
    QSize size;
    const std::unique_ptr<MainWindow> headless = headlessChartWindow(options, &size);
    if (!headless) {
        return 2;
    }
    MainWindow& window = *headless;
    for (const QString& file : how.resultsFiles) {
        if (!(window.*how.load)(file)) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 2;
        }
    }
    if (how.prepare) {
        how.prepare(window);
    }
    if (options.measure) {
        View* view = (window.*how.view)();
        (window.*how.run)();
        const bool answered =
            waitForEvents([&] { return view->cancelButton()->isHidden(); }, how.measureTimeoutMs);
        if (!answered || !view->results()) {
            std::fprintf(stderr, "warpscope: no %s results (%s)\n", how.noResults,
                         qPrintable(window.messageBar()->text()));
        }
        QApplication::processEvents();
    }
    return writeExportedChart((window.*how.view)(), output, size);
}

} // namespace warpscope::app
