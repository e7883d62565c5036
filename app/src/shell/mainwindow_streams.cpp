// MainWindow: the Streams tab. Its Measure button sends measure_streams to the probe (progress,
// Cancel), its results are recorded in the session, recorded results can be loaded (--streams),
// and --export --preset streams writes its timeline without a window.
#include "shell/mainwindow.h"

#include "document/patterndocument.h"
#include "gpu/eventwait.h"
#include "gpu/probeclient.h"
#include "gpu/streamsmeasurement.h"
#include "panels/messagebar.h"
#include "shell/commandline.h"
#include "views/streamsview.h"

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

// Session view settings: the last stream results, as the probe answered them (compact JSON),
// and the stream count drawn.
constexpr const char* kStreamsResultsKey = "streams.results";
constexpr const char* kStreamsCountKey = "streams.count";

QString streamsModelOnlyStatus(const QString& why) {
    return QCoreApplication::translate("MainWindow",
                                       "This machine: no GPU to measure on (%1); the timeline is "
                                       "the model's.")
        .arg(why);
}

} // namespace

void MainWindow::createStreams() {
    m_streamsView = new StreamsView(m_tabs);
    m_tabs->addTab(m_streamsView, tr("Streams"));
    connect(m_streamsView, &StreamsView::runRequested, this, &MainWindow::runStreamsOnGpu);
    connect(m_streamsView, &StreamsView::cancelRequested, this, [this] {
        if (m_streamsJob != 0) {
            m_probe->cancel(m_streamsJob);
            m_streamsJob = 0;
            m_streamsView->setRunning(false);
            statusBar()->showMessage(tr("Stream measurement cancelled."), 5000);
        }
    });
    connect(m_probe, &ProbeClient::progress, this, [this](int job, int done, int total) {
        if (job == m_streamsJob) {
            m_streamsView->setProgress(done, total);
        }
    });
    connect(m_probe, &ProbeClient::streamsMeasured, this,
            [this](int job, const QJsonObject& result) {
                if (job != m_streamsJob) {
                    return;
                }
                m_streamsJob = 0;
                m_streamsView->setRunning(false);
                QString error;
                auto results = streamsResultsFromJson(result, &error);
                if (!results) {
                    m_messageBar->showMessage(
                        MessageBar::Level::Error,
                        tr("The probe's stream results cannot be read: %1").arg(error));
                    return;
                }
                m_streamsView->setResults(std::move(results));
                m_streamsView->setGpuStatus(tr("Measured on this machine just now."));
                m_document->markModified(); // the results belong to the session
                statusBar()->showMessage(tr("Streams and overlap measured."), 5000);
            });
    connect(m_probe, &ProbeClient::jobFailed, this, [this](int job, const ProbeFailure& failure) {
        if (job != m_streamsJob) {
            return;
        }
        m_streamsJob = 0;
        m_streamsView->setRunning(false);
        if (failure.isNoGpu()) {
            m_streamsView->setGpuStatus(streamsModelOnlyStatus(failure.message));
            m_messageBar->showMessage(MessageBar::Level::Info,
                                      tr("No GPU to measure on: %1").arg(failure.message));
        } else {
            m_messageBar->showMessage(MessageBar::Level::Error,
                                      tr("Streams: %1").arg(failure.message));
        }
    });
    connect(m_probe, &ProbeClient::stateChanged, this, [this](ProbeClient::State state) {
        if (m_streamsView->results()) {
            return; // the status says where the results shown come from
        }
        if (state == ProbeClient::State::NoGpu || state == ProbeClient::State::Failed) {
            m_streamsView->setGpuStatus(streamsModelOnlyStatus(m_probe->stateText()));
        } else if (state == ProbeClient::State::Ready) {
            m_streamsView->setGpuStatus(
                tr("This GPU: %1; press Measure streams.").arg(m_probe->gpu().describe()));
        }
    });
}

void MainWindow::runStreamsOnGpu() {
    if (m_streamsJob != 0) {
        return;
    }
    m_tabs->setCurrentWidget(m_streamsView);
    m_streamsView->setRunning(true);
    statusBar()->showMessage(tr("Measuring streams and overlap on the GPU…"));
    m_streamsJob = m_probe->measureStreams(QJsonObject());
}

bool MainWindow::loadStreamsResults(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_messageBar->showMessage(MessageBar::Level::Error,
                                  tr("Cannot read %1: %2").arg(path, file.errorString()));
        return false;
    }
    QString error;
    auto results = readStreamsResults(file.readAll(), &error);
    if (!results) {
        m_messageBar->showMessage(MessageBar::Level::Error, tr("%1: %2").arg(path, error));
        return false;
    }
    m_streamsView->setResults(std::move(results));
    m_streamsView->setGpuStatus(tr("Recorded earlier (%1).").arg(QFileInfo(path).fileName()));
    return true;
}

void MainWindow::addStreamsSettings(std::map<std::string, std::string>& settings) const {
    if (m_streamsView == nullptr) {
        return;
    }
    settings[kStreamsCountKey] = std::to_string(m_streamsView->streamCount());
    if (m_streamsView->results()) {
        settings[kStreamsResultsKey] = QJsonDocument(m_streamsView->results()->answer)
                                           .toJson(QJsonDocument::Compact)
                                           .toStdString();
    }
}

void MainWindow::applyStreamsSettings(const std::map<std::string, std::string>& settings) {
    if (m_streamsView == nullptr) {
        return;
    }
    if (const auto count = settings.find(kStreamsCountKey); count != settings.end()) {
        bool ok = false;
        const int value = QString::fromStdString(count->second).toInt(&ok);
        if (ok) {
            m_streamsView->setStreamCount(value);
        }
    }
    const auto it = settings.find(kStreamsResultsKey);
    if (it == settings.end()) {
        m_streamsView->setResults(std::nullopt);
        return;
    }
    QString error;
    auto results = readStreamsResults(QByteArray::fromStdString(it->second), &error);
    if (!results) {
        m_messageBar->showMessage(MessageBar::Level::Warning,
                                  tr("The session's stream results cannot be read (%1); they "
                                     "are left out.")
                                      .arg(error));
        m_streamsView->setResults(std::nullopt);
        return;
    }
    m_streamsView->setResults(std::move(results));
    m_streamsView->setGpuStatus(tr("Recorded in this session."));
}

int runStreamsExport(const CommandLine& options) {
    const QString output = options.exportArguments.output;
    const std::optional<QSize> exportSize = chartExportSize(options);
    if (!exportSize) {
        return 2;
    }
    const QSize size = *exportSize;
    MainWindow window(headlessChartWindowOptions(options));
    window.resize(size);
    for (const QString& file : options.streamsResultsFiles) {
        if (!window.loadStreamsResults(file)) {
            std::fprintf(stderr, "warpscope: %s\n", qPrintable(window.messageBar()->text()));
            return 2;
        }
    }
    if (options.streamCount > 0) {
        window.streamsView()->setStreamCount(options.streamCount);
    }
    if (options.measure) {
        StreamsView* view = window.streamsView();
        window.runStreamsOnGpu();
        const bool answered =
            waitForEvents([&] { return view->cancelButton()->isHidden(); }, 300000);
        if (!answered || !view->results()) {
            std::fprintf(stderr, "warpscope: no stream results (%s)\n",
                         qPrintable(window.messageBar()->text()));
        }
        QApplication::processEvents();
    }
    QString error;
    if (!window.streamsView()->exportFigure(output, size, &error)) {
        std::fprintf(stderr, "warpscope: %s\n", qPrintable(error));
        return 1;
    }
    std::fprintf(stderr, "warpscope: wrote %s (%dx%d)\n", qPrintable(output), size.width(),
                 size.height());
    return 0;
}

} // namespace warpscope::app
