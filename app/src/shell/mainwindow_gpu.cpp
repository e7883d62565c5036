// MainWindow's GPU run control: the probe started with the settings' (or --probe's) command, Run,
// auto-run and sweeps wired to the GpuRunner, its messages in the message bar, the status bar's
// statement about the GPU, the measured overlay handed to the views, and --measure's wait.
#include "shell/mainwindow.h"

#include "views/notesview.h"

#include "document/patterndocument.h"
#include "gpu/eventwait.h"
#include "gpu/gpurunner.h"
#include "gpu/kernelsourcedialog.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"
#include "gpu/probesettingsdialog.h"
#include "panels/messagebar.h"
#include "panels/metricspanel.h"
#include "views/bankview.h"
#include "views/sweepplot.h"
#include "views/warpview.h"

#include <QApplication>
#include <QDialog>
#include <QLabel>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

namespace warpscope::app {

QString MainWindow::gpuStatusText() const {
    if (m_probe == nullptr) {
        return {};
    }
    if (m_probe->state() == ProbeClient::State::Stopped) {
        // Before the first Run: what is already known. A probe on this machine needs the NVIDIA
        // driver, whose device files are there or not; a remote one answers when first asked.
        if (m_probe->arguments().isEmpty() && !GpuRunner::localGpuPresent()) {
            return tr("No GPU driver found: model only");
        }
        return tr("GPU: starts with the first Run (F5)");
    }
    return m_probe->stateText();
}

void MainWindow::configureProbe() {
    ProbeSettings settings = m_options.useSettings ? ProbeSettings::load() : ProbeSettings{};
    if (m_options.probeCommand) {
        settings.command = *m_options.probeCommand;
    }
    if (m_options.probeCommand) {
        settings.argumentList.clear(); // --probe's line wins over a remembered argument list
    }
    m_probe->setCommand(settings.probeCommand());
    m_probe->setDevice(m_options.useSettings ? settings.device : 0);
    m_probe->setTimeoutMs(m_options.probeTimeoutMs > 0 ? m_options.probeTimeoutMs
                                                       : settings.timeoutSeconds * 1000);
    m_gpu->setOptions(settings.options);
}

void MainWindow::createGpu() {
    configureProbe();
    m_metrics->setMeasurementStore(m_measurements);

    connect(m_gpu, &GpuRunner::message, this,
            [this](GpuRunner::MessageLevel level, const QString& text) {
                const MessageBar::Level bar =
                    level == GpuRunner::MessageLevel::Error     ? MessageBar::Level::Error
                    : level == GpuRunner::MessageLevel::Warning ? MessageBar::Level::Warning
                                                                : MessageBar::Level::Info;
                // One message at a time: the bar replaces what it showed, never stacks dialogs.
                m_messageBar->showMessage(bar, text);
            });
    // After a failed job, once its tab has re-enabled its button (setRunning(false)).
    connect(m_probe, &ProbeClient::jobFailed, this,
            [this] { QTimer::singleShot(0, this, [this] { updateGpuAvailability(); }); });
    connect(m_gpu, &GpuRunner::measuringChanged, this, [this](bool measuring) {
        if (measuring) {
            statusBar()->showMessage(tr("Measuring on the GPU…"));
        } else {
            statusBar()->clearMessage();
        }
    });
    connect(m_gpu, &GpuRunner::measurementArrived, this, [this] {
        m_document->markModified(); // a new result: saved with the session, autosaved
    });
    connect(m_probe, &ProbeClient::stateChanged, this, &MainWindow::updateGpuStatus);
    connect(m_probe, &ProbeClient::startupChanged, this, &MainWindow::updateGpuStatus);
    connect(m_measurements, &MeasurementStore::changed, this, &MainWindow::updateMeasurementMarks);
    connect(m_document, &PatternDocument::evaluationChanged, this,
            &MainWindow::updateMeasurementMarks);

    connect(m_sweepPlot, &SweepPlot::gpuSweepRequested, this,
            [this](const std::vector<NamedPattern>& patterns) {
                m_sweepPlot->setGpuRunning(true);
                m_gpu->runSweep(patterns);
            });
    connect(m_sweepPlot, &SweepPlot::gpuSweepCancelRequested, m_gpu, &GpuRunner::cancelSweep);
    connect(m_gpu, &GpuRunner::sweepProgress, m_sweepPlot, &SweepPlot::setGpuProgress);
    connect(m_gpu, &GpuRunner::sweepFinished, m_sweepPlot, &SweepPlot::setGpuMeasurements);
    connect(m_gpu, &GpuRunner::sweepStopped, m_sweepPlot, &SweepPlot::setGpuStopped);

    m_kernelDialog = new KernelSourceDialog(this);
    connect(m_gpu, &GpuRunner::kernelSourceArrived, m_kernelDialog,
            &KernelSourceDialog::showSource);
    connect(m_gpu, &GpuRunner::kernelSourceFailed, m_kernelDialog,
            &KernelSourceDialog::showProblem);
    updateGpuStatus();
    updateMeasurementMarks();
}

void MainWindow::updateGpuStatus() {
    m_gpuStatus->setText(gpuStatusText());
    QString tip;
    switch (m_probe->state()) {
    case ProbeClient::State::Ready:
        tip = tr("warpscope-probe: %1, %2 SMs, driver %3, measured copy bandwidth %4 GB/s")
                  .arg(m_probe->gpu().describe())
                  .arg(m_probe->gpu().smCount)
                  .arg(m_probe->gpu().driverVersion)
                  .arg(m_probe->gpu().measuredCopyBandwidthGBs, 0, 'f', 0);
        tip += tr("\nStarted with %1: %2").arg(m_probe->program(), m_probe->startup().stepText());
        if (const QString note = m_probe->buildNote(); !note.isEmpty()) {
            tip += QLatin1Char('\n') + note;
        }
        break;
    case ProbeClient::State::NoGpu:
    case ProbeClient::State::Failed:
        tip = m_probe->stateFailure() ? m_probe->stateFailure()->message : QString();
        break;
    default:
        tip = tr("Predictions come from the models; GPU ▸ Run (F5) measures the pattern with %1")
                  .arg(m_probe->program().isEmpty() ? tr("warpscope-probe (not found)")
                                                    : m_probe->program());
        break;
    }
    if (m_probe->state() == ProbeClient::State::Stopped && m_probe->arguments().isEmpty() &&
        !GpuRunner::localGpuPresent()) {
        tip = tr("No NVIDIA driver on this machine (no /dev/nvidiactl): the numbers are the "
                 "models' predictions; File ▸ Open Measurements… shows ones recorded on a GPU");
    }
    m_gpuStatus->setToolTip(tip);
    updateGpuAvailability();
    m_metrics->setGpuText(m_probe->state() == ProbeClient::State::Ready ||
                                  m_probe->state() == ProbeClient::State::NoGpu
                              ? gpuStatusText()
                              : QString());
}

void MainWindow::updateMeasurementMarks() {
    const auto& evaluation = m_document->evaluation();
    MeasurementMark mark;
    if (evaluation) {
        const ProbeMeasurement* measured = m_measurements->find(evaluation->pattern);
        // A kernel-only access has no single-warp measurement: the badge says where it is.
        mark = measured == nullptr && measuredPerKernelOnly(evaluation->access.kind)
                   ? kernelOnlyMark(evaluation->access.kind)
                   : measurementMark(evaluation->modern, measured);
    }
    m_warpView->setMeasurementMark(mark);
    m_bankView->setMeasurementMark(mark);
}

void MainWindow::runOnGpu() {
    if (m_notesView != nullptr && m_tabs->currentWidget() == static_cast<QWidget*>(m_notesView)) {
        runNotesOnGpu();
        return;
    }
    m_gpu->run();
}

void MainWindow::runSweepOnGpu() {
    showView(View::Sweep);
    m_sweepPlot->gpuRunButton()->click();
}

void MainWindow::showKernelSource() {
    m_kernelDialog->showWaiting(QString::fromStdString(m_document->current().title));
    m_kernelDialog->show();
    m_kernelDialog->raise();
    m_gpu->requestKernelSource();
}

void MainWindow::editProbeSettings() {
    ProbeSettings current = ProbeSettings::load();
    current.options = m_gpu->options();
    if (m_options.probeCommand) {
        current.command = *m_options.probeCommand;
        current.argumentList.clear();
    }
    current.device = m_probe->device();
    ProbeSettingsDialog dialog(current, this);
    dialog.setKnownDevices(m_probe->devices());
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    const ProbeSettings chosen = dialog.settings();
    if (m_options.useSettings) {
        chosen.save();
    }
    m_gpu->setOptions(chosen.options);
    m_probe->setTimeoutMs(chosen.timeoutSeconds * 1000);
    const ProbeCommand command = chosen.probeCommand();
    if (command.program != m_probe->program() || command.arguments != m_probe->arguments() ||
        !command.error.isEmpty()) {
        m_probe->setCommand(command);
        if (m_probe->state() != ProbeClient::State::Stopped) {
            m_probe->restart();
        }
    }
    chooseGpuDevice(chosen.device);
    updateGpuStatus();
}

bool measureAndWait(MainWindow& window) {
    if (window.viewTabs()->currentWidget() == static_cast<QWidget*>(window.notesView())) {
        return measureNotesAndWait(window);
    }
    if (window.viewTabs()->currentWidget() == static_cast<QWidget*>(window.sweepPlot()) &&
        window.sweepPlot()->kernelMode()) {
        return measureKernelSweepAndWait(window);
    }
    GpuRunner* gpu = window.gpuRunner();
    bool arrived = false;
    bool failed = false;
    const auto a = QObject::connect(gpu, &GpuRunner::measurementArrived, [&] { arrived = true; });
    const auto b = QObject::connect(
        gpu, &GpuRunner::message, [&](GpuRunner::MessageLevel level, const QString&) {
            failed = failed || level != GpuRunner::MessageLevel::Warning;
        });
    window.runOnGpu();
    const bool answered = waitForEvents(
        [&] {
            return arrived || failed ||
                   (!gpu->isMeasuring() &&
                    (window.probeClient()->state() == ProbeClient::State::NoGpu ||
                     window.probeClient()->state() == ProbeClient::State::Failed));
        },
        120000);
    QObject::disconnect(a);
    QObject::disconnect(b);
    if (!answered) {
        window.messageBar()->showMessage(MessageBar::Level::Error,
                                         QObject::tr("No GPU answer within two minutes."));
    }
    QApplication::processEvents();
    return arrived;
}

} // namespace warpscope::app
