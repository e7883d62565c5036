// MainWindow: the Transfers tab. Its Measure button sends measure_transfers to the probe (progress,
// Cancel), its results are recorded in the session, recorded results can be loaded (--transfers),
// and --export --preset transfers writes its chart without a window.
#include "shell/mainwindow.h"

#include "document/patterndocument.h"
#include "gpu/eventwait.h"
#include "gpu/probeclient.h"
#include "gpu/transfersmeasurement.h"
#include "panels/messagebar.h"
#include "shell/commandline.h"
#include "views/transfersview.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QPushButton>
#include <QSize>
#include <QStatusBar>
#include <QTabWidget>

#include <cstdio>

namespace warpscope::app {

namespace {

// Session view setting: the last transfer results, as the probe answered them (compact JSON).
constexpr const char* kTransferResultsKey = "transfers.results";

QString modelOnlyStatus(const QString& why) {
    return QCoreApplication::translate("MainWindow",
                                       "This machine: no GPU to measure on (%1); the chart "
                                       "shows the notes' figures.")
        .arg(why);
}

} // namespace

void MainWindow::createTransfers() {
    m_transfersView = new TransfersView(m_tabs);
    m_tabs->addTab(m_transfersView, tr("Transfers"));
    connect(m_transfersView, &TransfersView::runRequested, this, &MainWindow::runTransfersOnGpu);
    connect(m_transfersView, &TransfersView::cancelRequested, this, [this] {
        if (m_transfersJob != 0) {
            m_probe->cancel(m_transfersJob);
            m_transfersJob = 0;
            m_transfersView->setRunning(false);
            statusBar()->showMessage(tr("Transfer measurement cancelled."), 5000);
        }
    });
    connect(m_probe, &ProbeClient::progress, this, [this](int job, int done, int total) {
        if (job == m_transfersJob) {
            m_transfersView->setProgress(done, total);
        }
    });
    connect(m_probe, &ProbeClient::transfersMeasured, this,
            [this](int job, const QJsonObject& result) {
                if (job != m_transfersJob) {
                    return;
                }
                m_transfersJob = 0;
                m_transfersView->setRunning(false);
                QString error;
                auto results = transferResultsFromJson(result, &error);
                if (!results) {
                    m_messageBar->showMessage(
                        MessageBar::Level::Error,
                        tr("The probe's transfer results cannot be read: %1").arg(error));
                    return;
                }
                m_transfersView->setResults(std::move(results));
                m_transfersView->setGpuStatus(tr("Measured on this machine just now."));
                m_document->markModified(); // the results belong to the session
                statusBar()->showMessage(tr("Host and device transfers measured."), 5000);
            });
    connect(m_probe, &ProbeClient::jobFailed, this, [this](int job, const ProbeFailure& failure) {
        if (job != m_transfersJob) {
            return;
        }
        m_transfersJob = 0;
        m_transfersView->setRunning(false);
        if (failure.isNoGpu()) {
            m_transfersView->setGpuStatus(modelOnlyStatus(failure.message));
            m_messageBar->showMessage(MessageBar::Level::Info,
                                      tr("No GPU to measure on: %1").arg(failure.message));
        } else {
            m_messageBar->showMessage(MessageBar::Level::Error,
                                      tr("Transfers: %1").arg(failure.message));
        }
    });
    connect(m_probe, &ProbeClient::stateChanged, this, [this](ProbeClient::State state) {
        if (m_transfersView->results()) {
            return; // the status says where the results shown come from
        }
        if (state == ProbeClient::State::NoGpu || state == ProbeClient::State::Failed) {
            m_transfersView->setGpuStatus(modelOnlyStatus(m_probe->stateText()));
        } else if (state == ProbeClient::State::Ready) {
            m_transfersView->setGpuStatus(
                tr("This GPU: %1; press Measure transfers.").arg(m_probe->gpu().describe()));
        }
    });
}

void MainWindow::runTransfersOnGpu() {
    if (m_transfersJob != 0) {
        return;
    }
    m_tabs->setCurrentWidget(m_transfersView);
    m_transfersView->setRunning(true);
    statusBar()->showMessage(tr("Measuring host and device transfers on the GPU…"));
    m_transfersJob = m_probe->measureTransfers(QJsonObject());
}

bool MainWindow::loadTransferResults(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_messageBar->showMessage(MessageBar::Level::Error,
                                  tr("Cannot read %1: %2").arg(path, file.errorString()));
        return false;
    }
    QString error;
    auto results = readTransferResults(file.readAll(), &error);
    if (!results) {
        m_messageBar->showMessage(MessageBar::Level::Error, tr("%1: %2").arg(path, error));
        return false;
    }
    m_transfersView->setResults(std::move(results));
    m_transfersView->setGpuStatus(tr("Recorded earlier (%1).").arg(QFileInfo(path).fileName()));
    return true;
}

void MainWindow::addTransfersSettings(std::map<std::string, std::string>& settings) const {
    if (m_transfersView != nullptr && m_transfersView->results()) {
        settings[kTransferResultsKey] = QJsonDocument(m_transfersView->results()->answer)
                                            .toJson(QJsonDocument::Compact)
                                            .toStdString();
    }
}

void MainWindow::applyTransfersSettings(const std::map<std::string, std::string>& settings) {
    if (m_transfersView == nullptr) {
        return;
    }
    const auto it = settings.find(kTransferResultsKey);
    if (it == settings.end()) {
        m_transfersView->setResults(std::nullopt);
        return;
    }
    QString error;
    auto results = readTransferResults(QByteArray::fromStdString(it->second), &error);
    if (!results) {
        m_messageBar->showMessage(MessageBar::Level::Warning,
                                  tr("The session's transfer results cannot be read (%1); they "
                                     "are left out.")
                                      .arg(error));
        m_transfersView->setResults(std::nullopt);
        return;
    }
    m_transfersView->setResults(std::move(results));
    m_transfersView->setGpuStatus(tr("Recorded in this session."));
}

int runTransfersExport(const CommandLine& options) {
    const QString output = options.exportArguments.output;
    const std::optional<QSize> exportSize = chartExportSize(options);
    if (!exportSize) {
        return 2;
    }
    const QSize size = *exportSize;
    MainWindow window(headlessChartWindowOptions(options));
    window.resize(size);
    for (const QString& file : options.transferResultsFiles) {
        if (!window.loadTransferResults(file)) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 2;
        }
    }
    if (options.measure) {
        TransfersView* view = window.transfersView();
        window.runTransfersOnGpu();
        const bool answered =
            waitForEvents([&] { return view->cancelButton()->isHidden(); }, 600000);
        if (!answered || !view->results()) {
            std::fprintf(stderr, "warpscope: no transfer results (%s)\n",
                         qPrintable(window.messageBar()->text()));
        }
        QApplication::processEvents();
    }
    QString error;
    if (!window.transfersView()->exportFigure(output, size, &error)) {
        std::fprintf(stderr, "warpscope: %s\n", qPrintable(error));
        return 1;
    }
    std::fprintf(stderr, "warpscope: wrote %s (%dx%d)\n", qPrintable(output), size.width(),
                 size.height());
    return 0;
}

} // namespace warpscope::app
