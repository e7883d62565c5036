// MainWindow: the L2 persistence tab. Its Measure button sends measure_l2_persistence to the probe
// (progress, Cancel), its results are recorded in the session, recorded results can be loaded
// (--l2-persistence), and --export --preset l2-persistence writes its chart without a window.
#include "shell/mainwindow.h"

#include "document/patterndocument.h"
#include "gpu/eventwait.h"
#include "gpu/l2persistencemeasurement.h"
#include "gpu/probeclient.h"
#include "panels/messagebar.h"
#include "shell/commandline.h"
#include "views/l2persistenceview.h"

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

// Session view setting: the last L2 persistence results, as the probe answered them (compact JSON).
constexpr const char* kL2PersistenceResultsKey = "l2persistence.results";

QString modelOnlyStatus(const QString& why) {
    return QCoreApplication::translate("MainWindow",
                                       "This machine: no GPU to measure on (%1); the chart "
                                       "shows the model and the notes' statement.")
        .arg(why);
}

} // namespace

void MainWindow::createL2Persistence() {
    m_l2PersistenceView = new L2PersistenceView(m_tabs);
    m_tabs->addTab(m_l2PersistenceView, tr("L2 persistence"));
    connect(m_l2PersistenceView, &L2PersistenceView::runRequested, this,
            &MainWindow::runL2PersistenceOnGpu);
    connect(m_l2PersistenceView, &L2PersistenceView::cancelRequested, this, [this] {
        if (m_l2PersistenceJob != 0) {
            m_probe->cancel(m_l2PersistenceJob);
            m_l2PersistenceJob = 0;
            m_l2PersistenceView->setRunning(false);
            statusBar()->showMessage(tr("L2 persistence measurement cancelled."), 5000);
        }
    });
    connect(m_probe, &ProbeClient::progress, this, [this](int job, int done, int total) {
        if (job == m_l2PersistenceJob) {
            m_l2PersistenceView->setProgress(done, total);
        }
    });
    connect(m_probe, &ProbeClient::l2PersistenceMeasured, this,
            [this](int job, const QJsonObject& result) {
                if (job != m_l2PersistenceJob) {
                    return;
                }
                m_l2PersistenceJob = 0;
                m_l2PersistenceView->setRunning(false);
                QString error;
                auto results = l2PersistenceResultsFromJson(result, &error);
                if (!results) {
                    m_messageBar->showMessage(
                        MessageBar::Level::Error,
                        tr("The probe's L2 persistence results cannot be read: %1").arg(error));
                    return;
                }
                m_l2PersistenceView->setResults(std::move(results));
                m_l2PersistenceView->setGpuStatus(tr("Measured on this machine just now."));
                m_document->markModified(); // the results belong to the session
                statusBar()->showMessage(tr("The L2 persistence window measured."), 5000);
            });
    connect(m_probe, &ProbeClient::jobFailed, this, [this](int job, const ProbeFailure& failure) {
        if (job != m_l2PersistenceJob) {
            return;
        }
        m_l2PersistenceJob = 0;
        m_l2PersistenceView->setRunning(false);
        if (failure.isNoGpu()) {
            m_l2PersistenceView->setGpuStatus(modelOnlyStatus(failure.message));
            m_messageBar->showMessage(MessageBar::Level::Info,
                                      tr("No GPU to measure on: %1").arg(failure.message));
        } else {
            m_messageBar->showMessage(MessageBar::Level::Error,
                                      tr("L2 persistence: %1").arg(failure.message));
        }
    });
    connect(m_probe, &ProbeClient::stateChanged, this, [this](ProbeClient::State state) {
        if (m_l2PersistenceView->results()) {
            return; // the status says where the results shown come from
        }
        if (state == ProbeClient::State::NoGpu || state == ProbeClient::State::Failed) {
            m_l2PersistenceView->setGpuStatus(modelOnlyStatus(m_probe->stateText()));
        } else if (state == ProbeClient::State::Ready) {
            m_l2PersistenceView->setGpuStatus(
                tr("This GPU: %1; press Measure L2 persistence.").arg(m_probe->gpu().describe()));
        }
    });
}

void MainWindow::runL2PersistenceOnGpu() {
    if (m_l2PersistenceJob != 0) {
        return;
    }
    m_tabs->setCurrentWidget(m_l2PersistenceView);
    m_l2PersistenceView->setRunning(true);
    statusBar()->showMessage(tr("Measuring the L2 persistence window on the GPU…"));
    m_l2PersistenceJob = m_probe->measureL2Persistence(QJsonObject());
}

bool MainWindow::loadL2PersistenceResults(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_messageBar->showMessage(MessageBar::Level::Error,
                                  tr("Cannot read %1: %2").arg(path, file.errorString()));
        return false;
    }
    QString error;
    auto results = readL2PersistenceResults(file.readAll(), &error);
    if (!results) {
        m_messageBar->showMessage(MessageBar::Level::Error, tr("%1: %2").arg(path, error));
        return false;
    }
    m_l2PersistenceView->setResults(std::move(results));
    m_l2PersistenceView->setGpuStatus(tr("Recorded earlier (%1).").arg(QFileInfo(path).fileName()));
    return true;
}

void MainWindow::addL2PersistenceSettings(std::map<std::string, std::string>& settings) const {
    if (m_l2PersistenceView != nullptr && m_l2PersistenceView->results()) {
        settings[kL2PersistenceResultsKey] = QJsonDocument(m_l2PersistenceView->results()->answer)
                                                 .toJson(QJsonDocument::Compact)
                                                 .toStdString();
    }
}

void MainWindow::applyL2PersistenceSettings(const std::map<std::string, std::string>& settings) {
    if (m_l2PersistenceView == nullptr) {
        return;
    }
    const auto it = settings.find(kL2PersistenceResultsKey);
    if (it == settings.end()) {
        m_l2PersistenceView->setResults(std::nullopt);
        return;
    }
    QString error;
    auto results = readL2PersistenceResults(QByteArray::fromStdString(it->second), &error);
    if (!results) {
        m_messageBar->showMessage(
            MessageBar::Level::Warning,
            tr("The session's L2 persistence results cannot be read (%1); they "
               "are left out.")
                .arg(error));
        m_l2PersistenceView->setResults(std::nullopt);
        return;
    }
    m_l2PersistenceView->setResults(std::move(results));
    m_l2PersistenceView->setGpuStatus(tr("Recorded in this session."));
}

int runL2PersistenceExport(const CommandLine& options) {
    const QString output = options.exportArguments.output;
    const std::optional<QSize> exportSize = chartExportSize(options);
    if (!exportSize) {
        return 2;
    }
    const QSize size = *exportSize;
    MainWindow window(headlessChartWindowOptions(options));
    window.resize(size);
    for (const QString& file : options.l2PersistenceResultsFiles) {
        if (!window.loadL2PersistenceResults(file)) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 2;
        }
    }
    if (options.measure) {
        L2PersistenceView* view = window.l2PersistenceView();
        window.runL2PersistenceOnGpu();
        const bool answered =
            waitForEvents([&] { return view->cancelButton()->isHidden(); }, 600000);
        if (!answered || !view->results()) {
            std::fprintf(stderr, "warpscope: no L2 persistence results (%s)\n",
                         qPrintable(window.messageBar()->text()));
        }
        QApplication::processEvents();
    }
    QString error;
    if (!window.l2PersistenceView()->exportFigure(output, size, &error)) {
        std::fprintf(stderr, "warpscope: %s\n", qPrintable(error));
        return 1;
    }
    std::fprintf(stderr, "warpscope: wrote %s (%dx%d)\n", qPrintable(output), size.width(),
                 size.height());
    return 0;
}

} // namespace warpscope::app
