// MainWindow: the Streams tab. Its Measure button sends measure_streams to the probe (progress,
// Cancel), its results are recorded in the session, recorded results can be loaded (--streams),
// and --export --preset streams writes its timeline without a window.
#include "shell/mainwindow.h"

#include "gpu/streamsmeasurement.h"
#include "shell/experimenttab.h"
#include "views/streamsview.h"

#include <QTabWidget>

namespace warpscope::app {

namespace {

// Session view settings: the last stream results, as the probe answered them (compact JSON),
// and the stream count drawn.
constexpr const char* kStreamsResultsKey = "streams.results";
constexpr const char* kStreamsCountKey = "streams.count";

} // namespace

void MainWindow::createStreams() {
    m_streamsView = new StreamsView(m_tabs);
    m_tabs->addTab(m_streamsView, tr("Streams"));
    connect(m_streamsView, &StreamsView::runRequested, this, &MainWindow::runStreamsOnGpu);
    ExperimentTabTexts texts;
    texts.cancelled = tr("Stream measurement cancelled.");
    texts.unreadableAnswer = tr("The probe's stream results cannot be read: %1");
    texts.measured = tr("Streams and overlap measured.");
    texts.failed = tr("Streams: %1");
    texts.modelOnly = tr("This machine: no GPU to measure on (%1); the timeline is "
                         "the model's.");
    texts.pressMeasure = tr("This GPU: %1; press Measure streams.");
    wireExperimentTab(experimentTabHost(), m_streamsView, &m_streamsJob,
                      &ProbeClient::streamsMeasured, streamsResultsFromJson, texts);
}

void MainWindow::runStreamsOnGpu() {
    startExperiment(experimentTabHost(), m_streamsView, &m_streamsJob,
                    tr("Measuring streams and overlap on the GPU…"),
                    [this] { return m_probe->measureStreams(QJsonObject()); });
}

bool MainWindow::loadStreamsResults(const QString& path) {
    return loadExperimentResults(m_messageBar, m_streamsView, path, readStreamsResults);
}

void MainWindow::addStreamsSettings(std::map<std::string, std::string>& settings) const {
    if (m_streamsView == nullptr) {
        return;
    }
    settings[kStreamsCountKey] = std::to_string(m_streamsView->streamCount());
    addExperimentSettings(settings, kStreamsResultsKey, m_streamsView);
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
    applyExperimentSettings(settings, kStreamsResultsKey, m_streamsView, readStreamsResults,
                            m_messageBar,
                            tr("The session's stream results cannot be read (%1); they "
                               "are left out."));
}

int runStreamsExport(const CommandLine& options) {
    ExperimentExport<StreamsView> how;
    how.resultsFiles = options.streamsResultsFiles;
    how.load = &MainWindow::loadStreamsResults;
    how.view = &MainWindow::streamsView;
    how.run = &MainWindow::runStreamsOnGpu;
    how.measureTimeoutMs = 300000;
    how.noResults = "stream";
    if (options.streamCount > 0) {
        how.prepare = [count = options.streamCount](MainWindow& window) {
            window.streamsView()->setStreamCount(count);
        };
    }
    return runExperimentExport(options, how);
}

} // namespace warpscope::app
