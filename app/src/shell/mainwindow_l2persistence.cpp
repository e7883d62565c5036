// MainWindow: the L2 persistence tab. Its Measure button sends measure_l2_persistence to the probe
// (progress, Cancel), its results are recorded in the session, recorded results can be loaded
// (--l2-persistence), and --export --preset l2-persistence writes its chart without a window.
#include "shell/mainwindow.h"

#include "gpu/l2persistencemeasurement.h"
#include "shell/experimenttab.h"
#include "views/l2persistenceview.h"

#include <QTabWidget>

namespace warpscope::app {

namespace {

// Session view setting: the last L2 persistence results, as the probe answered them (compact JSON).
constexpr const char* kL2PersistenceResultsKey = "l2persistence.results";

} // namespace

void MainWindow::createL2Persistence() {
    m_l2PersistenceView = new L2PersistenceView(m_tabs);
    m_tabs->addTab(m_l2PersistenceView, tr("L2 persistence"));
    connect(m_l2PersistenceView, &L2PersistenceView::runRequested, this,
            &MainWindow::runL2PersistenceOnGpu);
    ExperimentTabTexts texts;
    texts.cancelled = tr("L2 persistence measurement cancelled.");
    texts.unreadableAnswer = tr("The probe's L2 persistence results cannot be read: %1");
    texts.measured = tr("The L2 persistence window measured.");
    texts.failed = tr("L2 persistence: %1");
    texts.modelOnly = tr("This machine: no GPU to measure on (%1); the chart "
                         "shows the model and the notes' statement.");
    texts.pressMeasure = tr("This GPU: %1; press Measure L2 persistence.");
    wireExperimentTab(experimentTabHost(), m_l2PersistenceView, &m_l2PersistenceJob,
                      &ProbeClient::l2PersistenceMeasured, l2PersistenceResultsFromJson, texts);
}

void MainWindow::runL2PersistenceOnGpu() {
    startExperiment(experimentTabHost(), m_l2PersistenceView, &m_l2PersistenceJob,
                    tr("Measuring the L2 persistence window on the GPU…"),
                    [this] { return m_probe->measureL2Persistence(QJsonObject()); });
}

bool MainWindow::loadL2PersistenceResults(const QString& path) {
    return loadExperimentResults(m_messageBar, m_l2PersistenceView, path, readL2PersistenceResults);
}

void MainWindow::addL2PersistenceSettings(std::map<std::string, std::string>& settings) const {
    addExperimentSettings(settings, kL2PersistenceResultsKey, m_l2PersistenceView);
}

void MainWindow::applyL2PersistenceSettings(const std::map<std::string, std::string>& settings) {
    if (m_l2PersistenceView == nullptr) {
        return;
    }
    applyExperimentSettings(settings, kL2PersistenceResultsKey, m_l2PersistenceView,
                            readL2PersistenceResults, m_messageBar,
                            tr("The session's L2 persistence results cannot be read (%1); they "
                               "are left out."));
}

int runL2PersistenceExport(const CommandLine& options) {
    ExperimentExport<L2PersistenceView> how;
    how.resultsFiles = options.l2PersistenceResultsFiles;
    how.load = &MainWindow::loadL2PersistenceResults;
    how.view = &MainWindow::l2PersistenceView;
    how.run = &MainWindow::runL2PersistenceOnGpu;
    how.measureTimeoutMs = 600000;
    how.noResults = "L2 persistence";
    return runExperimentExport(options, how);
}

} // namespace warpscope::app
