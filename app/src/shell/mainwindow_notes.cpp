// MainWindow: the whole grid and the notes beside this GPU. The grid tab, the notes tab, its Run
// (F5) through NotesRunner, the picker's notes experiments and kernel presets, and recorded kernel
// measurements.
#include "shell/mainwindow.h"

#include "document/patterndocument.h"
#include "export/tikzexport.h"
#include "gpu/kernelmeasurement.h"
#include "gpu/kernelsweeprunner.h"
#include "gpu/notesexperiment.h"
#include "gpu/notesrunner.h"
#include "gpu/probeclient.h"
#include "panels/kernelmetrics.h"
#include "panels/messagebar.h"
#include "panels/metricspanel.h"
#include "panels/metricstablemodel.h"
#include "panels/patterneditor.h"
#include "panels/presetpicker.h"
#include "views/gridview.h"
#include "views/kernelsweepview.h"
#include "views/notesview.h"
#include "views/sweepplot.h"

#include <warpscope/file_format.h>
#include <warpscope/kernel.h>
#include <warpscope/kernel_preset.h>
#include <warpscope/preset.h>

#include "gpu/eventwait.h"
#include "shell/commandline.h"
#include "shell/experimentexport.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSize>
#include <QStatusBar>
#include <QTabWidget>

#include <cstdio>
#include <optional>

namespace warpscope::app {

namespace {

// Session view settings (strings): the notes tab's experiment, and every whole-kernel
// measurement of the session as a JSON array (KernelMeasurementStore::toJson), so a session
// opened without a GPU shows what was measured.
constexpr const char* kNotesExperimentKey = kNotesExperimentSetting;
constexpr const char* kKernelMeasurementsKey = kKernelMeasurementsSetting;
// The sweep tab's whole-kernel sweep: the kernel preset, the axis ("block" or "parameter:NAME")
// and the values text. Its measurements are among the kernel measurements above.
constexpr const char* kSweepKernelKey = kSweepKernelPresetSetting;
constexpr const char* kSweepAxisKey = "sweep.kernelAxis";
constexpr const char* kSweepValuesKey = "sweep.kernelValues";

/// The kernel preset a document's preset id shows: "kernel:ID" itself, a notes experiment's
/// first row's; empty for a pattern preset or none.
QString kernelPresetOf(const QString& documentPresetId) {
    if (documentPresetId.startsWith(QLatin1String(kKernelPresetPrefix))) {
        return documentPresetId.mid(static_cast<int>(qstrlen(kKernelPresetPrefix)));
    }
    if (documentPresetId.startsWith(QLatin1String(kNotesExperimentPrefix))) {
        const NotesExperiment* experiment = findNotesExperiment(
            documentPresetId.mid(static_cast<int>(qstrlen(kNotesExperimentPrefix))).toStdString());
        if (experiment != nullptr && !experiment->rows.empty()) {
            return QString::fromStdString(experiment->rows.front().presetId);
        }
    }
    return {};
}

/// The pattern the single-warp views show for a kernel preset: its first access at block 0,
/// warp 0, at the point's parameters.
std::optional<Pattern> firstAccessPattern(const KernelPreset& preset, const KernelPoint& point) {
    Kernel kernel = preset.kernel;
    for (Parameter& parameter : kernel.parameters) {
        const auto it = point.find(parameter.name);
        if (it != point.end()) {
            parameter.value = it->second;
        }
    }
    auto pattern = patternFromKernel(kernel, 0);
    if (!pattern) {
        return std::nullopt;
    }
    return pattern.value();
}

} // namespace

void MainWindow::createNotes() {
    m_kernelMeasurements = new KernelMeasurementStore(this);
    // Constant, local, texture and async-copy accesses are measured as kernels: the metrics
    // dock's table shows the kernel preset's measurement at the current point beside the model.
    m_metrics->setKernelMeasurementStore(m_kernelMeasurements);
    m_notesRunner = new NotesRunner(m_probe, m_kernelMeasurements, this);
    m_gridView = new GridView(m_document, m_tabs);
    if (m_options.useSettings) {
        m_gridView->keepAskAboveInSettings();
    }
    m_tabs->addTab(m_gridView, tr("Grid"));
    m_notesView = new NotesView(m_kernelMeasurements, m_tabs);
    m_tabs->addTab(m_notesView, tr("Notes vs GPU"));

    connect(m_notesView, &NotesView::runRequested, this, &MainWindow::runNotesOnGpu);
    // The metrics dock's kernel section follows the notes table: the selected row, else the
    // first row measured.
    connect(m_notesView, &NotesView::rowSelected, this, [this](int selected) {
        const NotesExperiment* experiment = findNotesExperiment(m_notesView->experimentId());
        if (experiment == nullptr) {
            return;
        }
        const KernelMeasurement* shown = nullptr;
        QString presetId;
        KernelPoint point;
        QString title;
        // Shown only while the open entry is this experiment or the row's kernel preset.
        QStringList owners{QLatin1String(kNotesExperimentPrefix) +
                           QString::fromStdString(experiment->id)};
        for (int i = 0; i < static_cast<int>(experiment->rows.size()); ++i) {
            if (selected >= 0 && i != selected) {
                continue;
            }
            const NotesExperimentRow& row = experiment->rows[static_cast<std::size_t>(i)];
            shown = m_kernelMeasurements->find(QString::fromStdString(row.presetId), row.point);
            if (shown != nullptr) {
                presetId = QString::fromStdString(row.presetId);
                point = row.point;
                owners << QLatin1String(kKernelPresetPrefix) + QString::fromStdString(row.presetId);
                const KernelPreset* preset = findKernelPreset(row.presetId);
                title = preset != nullptr ? QString::fromStdString(preset->title) : row.label;
                break;
            }
        }
        m_metrics->showKernelMeasurements(owners, title, presetId, point);
    });
    connect(m_notesView, &NotesView::experimentChosen, this, [this](const QString& id) {
        m_editor->presetPicker()->setCurrentPresetId(QLatin1String(kNotesExperimentPrefix) + id);
    });
    connect(m_notesRunner, &NotesRunner::runningChanged, m_notesView, &NotesView::setRunning);
    connect(m_notesRunner, &NotesRunner::progress, m_notesView, &NotesView::setProgress);
    connect(m_notesRunner, &NotesRunner::failed, this, [this](const QString& message, bool noGpu) {
        statusBar()->clearMessage(); // not left at "Measuring … on the GPU…"
        if (noGpu) {
            m_notesView->setGpuStatus(
                tr("No GPU on this machine (%1); the chart shows the notes' numbers only.")
                    .arg(message));
            m_messageBar->showMessage(MessageBar::Level::Info,
                                      tr("No GPU to measure on: %1").arg(message));
        } else {
            m_messageBar->showMessage(MessageBar::Level::Error, message);
        }
    });
    connect(m_notesRunner, &NotesRunner::finished, this, [this] {
        statusBar()->showMessage(tr("The notes' table measured on the GPU."), 5000);
    });
    // New measurements belong to the session: saved and autosaved with it. (Not on every change
    // of the store: opening a session fills it too.)
    connect(m_notesRunner, &NotesRunner::finished, this, [this] {
        if (m_kernelMeasurements->size() > 0) {
            m_document->markModified();
        }
    });
    createKernelSweep();
    connect(m_probe, &ProbeClient::stateChanged, this, [this](ProbeClient::State state) {
        if (state == ProbeClient::State::NoGpu || state == ProbeClient::State::Failed) {
            m_notesView->setGpuStatus(tr("This GPU: none present (%1); the chart shows the "
                                         "notes' numbers only.")
                                          .arg(m_probe->stateText()));
        } else if (state == ProbeClient::State::Ready) {
            m_notesView->setGpuStatus(
                tr("This GPU: %1; press Run (F5) to measure.").arg(m_probe->gpu().describe()));
        }
    });
}

void MainWindow::createKernelSweep() {
    KernelSweepView* view = m_sweepPlot->attachKernelSweep(m_kernelMeasurements);
    auto* runner = new KernelSweepRunner(m_probe, m_kernelMeasurements, this);
    runner->setObjectName(QStringLiteral("kernelSweepRunner"));
    // The sweep tab follows the preset: a kernel preset or a notes experiment sweeps its whole
    // kernel; any other preset, or a file, sweeps the current access as before.
    connect(m_document, &PatternDocument::patternChanged, this, [this, last = QString()]() mutable {
        const QString id = m_document->presetId();
        if (id != last) {
            last = id;
            m_sweepPlot->setKernelPreset(kernelPresetOf(id));
        }
    });
    connect(view, &KernelSweepView::runRequested, this, [this, view, runner] {
        if (!view->plan()) {
            return;
        }
        showView(View::Sweep);
        statusBar()->showMessage(tr("Measuring the kernel sweep on the GPU…"));
        runner->run(view->presetId(), view->kernel(), view->plan()->points);
    });
    connect(view, &KernelSweepView::cancelRequested, runner, &KernelSweepRunner::cancel);
    connect(runner, &KernelSweepRunner::runningChanged, view, &KernelSweepView::setRunning);
    connect(runner, &KernelSweepRunner::progress, view, &KernelSweepView::setProgress);
    connect(runner, &KernelSweepRunner::cancelled, this, [this, view] {
        view->setGpuStatus(tr("The GPU sweep was cancelled; what was measured before is kept."));
        statusBar()->clearMessage();
    });
    connect(runner, &KernelSweepRunner::failed, this,
            [this, view](const QString& message, bool noGpu) {
                statusBar()->clearMessage();
                if (noGpu) {
                    view->setGpuStatus(tr("This GPU: none present (%1); the chart shows the grid "
                                          "model alone.")
                                           .arg(message));
                    m_messageBar->showMessage(MessageBar::Level::Info,
                                              tr("No GPU to measure on: %1").arg(message));
                } else {
                    view->setGpuStatus(tr("The GPU sweep failed: %1").arg(message));
                    m_messageBar->showMessage(MessageBar::Level::Error, message);
                }
            });
    // New measurements belong to the session: saved and autosaved with it.
    connect(runner, &KernelSweepRunner::finished, this, [this](int points) {
        statusBar()->showMessage(
            tr("The kernel sweep measured %n point(s) on the GPU.", "", points), 5000);
        if (points > 0) {
            m_document->markModified();
        }
    });
}

bool MainWindow::showNotesExperiment(const QString& id) {
    const NotesExperiment* experiment = findNotesExperiment(id.toStdString());
    if (experiment == nullptr || experiment->rows.empty()) {
        m_messageBar->showMessage(MessageBar::Level::Error,
                                  tr("There is no notes experiment \"%1\".").arg(id));
        m_editor->presetPicker()->setCurrentPresetId(m_document->presetId());
        return false;
    }
    m_notesView->setExperiment(experiment->id);
    m_tabs->setCurrentWidget(m_notesView);
    const NotesExperimentRow& first = experiment->rows.front();
    if (const KernelPreset* preset = findKernelPreset(first.presetId)) {
        if (auto pattern = firstAccessPattern(*preset, first.point)) {
            // Loaded as a preset, so the editor's title and caption say what the views show.
            Preset shown;
            shown.id = kNotesExperimentPrefix + experiment->id;
            shown.topic = preset->topic;
            shown.title = preset->title + ", " + first.label.toStdString() + ": " +
                          preset->kernel.accesses.front().label;
            shown.caption = preset->caption;
            shown.source = preset->source;
            shown.pattern = *pattern;
            m_document->loadPreset(shown);
        }
    }
    m_editor->presetPicker()->setCurrentPresetId(QLatin1String(kNotesExperimentPrefix) + id);
    return true;
}

void MainWindow::addNotesSettings(std::map<std::string, std::string>& settings) const {
    if (m_notesView == nullptr) {
        return;
    }
    settings[kNotesExperimentKey] = m_notesView->experimentId();
    if (m_sweepPlot->kernelMode()) {
        const KernelSweepView* sweep = m_sweepPlot->kernelSweepView();
        const KernelSweepAxis axis = sweep->axis();
        settings[kSweepKernelKey] = sweep->presetId().toStdString();
        settings[kSweepAxisKey] =
            axis.blockShape ? std::string("block") : "parameter:" + axis.parameter;
        settings[kSweepValuesKey] = sweep->valuesText().toStdString();
    }
    if (m_kernelMeasurements->size() > 0) {
        settings[kKernelMeasurementsKey] = QJsonDocument(m_kernelMeasurements->toJson())
                                               .toJson(QJsonDocument::Compact)
                                               .toStdString();
    }
}

void MainWindow::applyNotesSettings(const std::map<std::string, std::string>& settings) {
    if (m_notesView == nullptr) {
        return;
    }
    if (auto it = settings.find(kNotesExperimentKey); it != settings.end()) {
        m_notesView->setExperiment(it->second);
    }
    if (auto it = settings.find(kSweepKernelKey); it != settings.end()) {
        m_sweepPlot->setKernelPreset(QString::fromStdString(it->second));
        const auto axis = settings.find(kSweepAxisKey);
        const auto values = settings.find(kSweepValuesKey);
        if (m_sweepPlot->kernelMode() && axis != settings.end() && values != settings.end()) {
            const std::string prefix = "parameter:";
            KernelSweepAxis chosen;
            chosen.blockShape = axis->second == "block";
            if (!chosen.blockShape && axis->second.starts_with(prefix)) {
                chosen.parameter = axis->second.substr(prefix.size());
            }
            m_sweepPlot->kernelSweepView()->setSweep(chosen,
                                                     QString::fromStdString(values->second));
        }
    }
    const auto it = settings.find(kKernelMeasurementsKey);
    if (it == settings.end()) {
        m_kernelMeasurements->clear();
        return;
    }
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(it->second));
    if (!document.isArray()) {
        m_messageBar->showMessage(MessageBar::Level::Warning,
                                  tr("The session's kernel measurements cannot be read; they "
                                     "are left out."));
        m_kernelMeasurements->clear();
        return;
    }
    m_kernelMeasurements->takeJson(document.array());
}

bool MainWindow::showKernelPreset(const QString& id) {
    const KernelPreset* preset = findKernelPreset(id.toStdString());
    if (preset == nullptr) {
        m_messageBar->showMessage(MessageBar::Level::Error,
                                  tr("There is no kernel preset \"%1\".").arg(id));
        m_editor->presetPicker()->setCurrentPresetId(m_document->presetId());
        return false;
    }
    if (auto pattern = firstAccessPattern(*preset, {})) {
        Preset shown;
        shown.id = kKernelPresetPrefix + preset->id;
        shown.topic = preset->topic;
        // The selected access's name follows in the views' headings (shownTitle()).
        shown.title = preset->title;
        shown.caption = preset->caption;
        shown.source = preset->source;
        shown.pattern = *pattern;
        // The whole kernel, so the editor shows and edits every access.
        m_document->loadPreset(shown, preset->kernel);
    }
    for (const NotesExperiment& experiment : notesExperiments()) {
        for (const NotesExperimentRow& row : experiment.rows) {
            if (row.presetId == preset->id) {
                m_notesView->setExperiment(experiment.id);
                break;
            }
        }
        if (m_notesView->experimentId() == experiment.id) {
            break;
        }
    }
    m_editor->presetPicker()->setCurrentPresetId(QLatin1String(kKernelPresetPrefix) + id);
    return true;
}

void MainWindow::runNotesOnGpu() {
    const NotesExperiment* experiment = findNotesExperiment(m_notesView->experimentId());
    if (experiment == nullptr) {
        return;
    }
    m_tabs->setCurrentWidget(m_notesView);
    statusBar()->showMessage(tr("Measuring %1 on the GPU…").arg(experiment->title));
    m_notesRunner->run(*experiment);
}

bool MainWindow::importKernelMeasurements(const QString& path, const QString& gpuName) {
    auto text = readTextFile(QFile::encodeName(path).toStdString()); // regular files, capped
    if (!text) {
        m_messageBar->showMessage(
            MessageBar::Level::Error,
            tr("Cannot read %1: %2").arg(path, QString::fromStdString(text.error().message)));
        return false;
    }
    int points = 0;
    if (auto error = m_kernelMeasurements->importJsonLines(QByteArray::fromStdString(text.value()),
                                                           gpuName, &points)) {
        m_messageBar->showMessage(MessageBar::Level::Error, tr("%1: %2").arg(path, *error));
        return false;
    }
    statusBar()->showMessage(tr("Read %n recorded kernel measurement(s).", "", points), 5000);
    if (points > 0) {
        m_document->markModified();
    }
    return true;
}

bool measureNotesAndWait(MainWindow& window) {
    NotesRunner* runner = window.notesRunner();
    bool done = false;
    const auto connection = QObject::connect(runner, &NotesRunner::finished, [&] { done = true; });
    window.runNotesOnGpu();
    const bool answered = waitForEvents([&] { return done || !runner->isRunning(); }, 300000);
    QObject::disconnect(connection);
    if (!answered) {
        window.messageBar()->showMessage(MessageBar::Level::Error,
                                         QObject::tr("No GPU answer within five minutes."));
    }
    QApplication::processEvents();
    return window.notesView()->comparison().measuredRows > 0;
}

bool measureKernelSweepAndWait(MainWindow& window) {
    KernelSweepView* view = window.sweepPlot()->kernelSweepView();
    view->ensureModel();
    auto* runner = window.findChild<KernelSweepRunner*>(QStringLiteral("kernelSweepRunner"));
    if (runner == nullptr || !view->plan()) {
        return false;
    }
    window.runSweepOnGpu();
    const bool answered =
        waitForEvents([&] { return !runner->isRunning() && !view->isModelBusy(); }, 300000);
    if (!answered) {
        window.messageBar()->showMessage(MessageBar::Level::Error,
                                         QObject::tr("No GPU answer within five minutes."));
    }
    QApplication::processEvents();
    return view->measuredPointCount() == static_cast<int>(view->plan()->points.size());
}

std::optional<QSize> chartExportSize(const CommandLine& options) {
    if (options.exportArguments.output.isEmpty()) {
        std::fprintf(stderr, "warpscope: --export needs a file name\n");
        return std::nullopt;
    }
    const QString sizeText = options.exportArguments.size;
    if (sizeText.isEmpty() || sizeText == QLatin1String("slide-16x9")) {
        return QSize(1920, 1080);
    }
    if (sizeText == QLatin1String("slide-4x3")) {
        return QSize(1440, 1080);
    }
    const QStringList parts = sizeText.split(QLatin1Char('x'));
    bool okW = false;
    bool okH = false;
    const int w = parts.value(0).toInt(&okW);
    const int h = parts.value(1).toInt(&okH);
    if (parts.size() != 2 || !okW || !okH || w < 200 || h < 150 || w > 8000 || h > 8000) {
        std::fprintf(stderr,
                     "warpscope: --size \"%s\": use WIDTHxHEIGHT (200x150 to 8000x8000), "
                     "slide-16x9 or slide-4x3\n",
                     qPrintable(sizeText));
        return std::nullopt;
    }
    return QSize(w, h);
}

MainWindowOptions headlessChartWindowOptions(const CommandLine& options) {
    MainWindowOptions windowOptions;
    windowOptions.useSettings = false;
    windowOptions.autosave = false;
    windowOptions.confirmDiscard = false;
    windowOptions.probeCommand = options.probeCommand;
    return windowOptions;
}

int runNotesExport(const CommandLine& options) {
    const QString id = options.presetId.mid(static_cast<int>(qstrlen(kNotesExperimentPrefix)));
    const QString output = options.exportArguments.output;
    QSize size;
    const std::unique_ptr<MainWindow> headless = headlessChartWindow(options, &size);
    if (!headless) {
        return 2;
    }
    MainWindow& window = *headless;
    // A saved session brings its kernel measurements (every GPU's) to the chart.
    if (!options.sessionFile.isEmpty() && !window.openSession(options.sessionFile)) {
        std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
        return 2;
    }
    if (!window.showNotesExperiment(id)) {
        std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
        return 2;
    }
    for (const QString& file : options.kernelMeasurementsFiles) {
        if (!window.importKernelMeasurements(file, {})) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 2;
        }
    }
    if (options.measure) {
        measureNotesAndWait(window);
    }
    if (QFileInfo(output).suffix().toLower() == QLatin1String("tex")) {
        // The bar chart as TikZ (export/tikzexport.h), numbers and labels as text.
        TikzOptions tikz;
        tikz.title = options.exportArguments.title;
        tikz.caption = options.exportArguments.caption;
        tikz.standalone = !options.exportArguments.tikzPicture;
        QSaveFile file(output);
        if (!file.open(QIODevice::WriteOnly) ||
            file.write(notesTikz(window.notesView()->comparison(), tikz).toUtf8()) < 0 ||
            !file.commit()) {
            std::fprintf(stderr, "warpscope: cannot write %s: %s\n", qPrintable(output),
                         qPrintable(file.errorString()));
            return 1;
        }
        std::fprintf(stderr, "warpscope: wrote %s\n", qPrintable(output));
        return 0;
    }
    return writeExportedChart(window.notesView(), output, size);
}

} // namespace warpscope::app
