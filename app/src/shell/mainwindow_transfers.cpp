// MainWindow: the Transfers tab. Its Measure button sends measure_transfers to the probe (progress,
// Cancel), its results are recorded in the session, recorded results can be loaded (--transfers),
// and --export --preset transfers writes its chart without a window.
#include "shell/mainwindow.h"

#include "gpu/transfersmeasurement.h"
#include "shell/experimenttab.h"
#include "views/transfersview.h"

#include <QTabWidget>

namespace warpscope::app {

namespace {

// Session view setting: the last transfer results, as the probe answered them (compact JSON).
constexpr const char* kTransferResultsKey = "transfers.results";

} // namespace

void MainWindow::createTransfers() {
    m_transfersView = new TransfersView(m_tabs);
    m_tabs->addTab(m_transfersView, tr("Transfers"));
    connect(m_transfersView, &TransfersView::runRequested, this, &MainWindow::runTransfersOnGpu);
    ExperimentTabTexts texts;
    texts.cancelled = tr("Transfer measurement cancelled.");
    texts.unreadableAnswer = tr("The probe's transfer results cannot be read: %1");
    texts.measured = tr("Host and device transfers measured.");
    texts.failed = tr("Transfers: %1");
    texts.modelOnly = tr("This machine: no GPU to measure on (%1); the chart "
                         "shows the notes' figures.");
    texts.pressMeasure = tr("This GPU: %1; press Measure transfers.");
    wireExperimentTab(experimentTabHost(), m_transfersView, &m_transfersJob,
                      &ProbeClient::transfersMeasured, transferResultsFromJson, texts);
}

void MainWindow::runTransfersOnGpu() {
    startExperiment(experimentTabHost(), m_transfersView, &m_transfersJob,
                    tr("Measuring host and device transfers on the GPU…"),
                    [this] { return m_probe->measureTransfers(QJsonObject()); });
}

bool MainWindow::loadTransferResults(const QString& path) {
    return loadExperimentResults(m_messageBar, m_transfersView, path, readTransferResults);
}

void MainWindow::addTransfersSettings(std::map<std::string, std::string>& settings) const {
    addExperimentSettings(settings, kTransferResultsKey, m_transfersView);
}

void MainWindow::applyTransfersSettings(const std::map<std::string, std::string>& settings) {
    if (m_transfersView == nullptr) {
        return;
    }
    applyExperimentSettings(settings, kTransferResultsKey, m_transfersView, readTransferResults,
                            m_messageBar,
                            tr("The session's transfer results cannot be read (%1); they "
                               "are left out."));
}

int runTransfersExport(const CommandLine& options) {
    ExperimentExport<TransfersView> how;
    how.resultsFiles = options.transferResultsFiles;
    how.load = &MainWindow::loadTransferResults;
    how.view = &MainWindow::transfersView;
    how.run = &MainWindow::runTransfersOnGpu;
    how.measureTimeoutMs = 600000;
    how.noResults = "transfer";
    return runExperimentExport(options, how);
}

} // namespace warpscope::app
