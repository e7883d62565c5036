// MainWindow: the probe experiments' tabs, one ExperimentTab per row of the app's experiment
// registry (experiments/experimentregistry.h), and the command-line options only a view of one of
// them takes (--stream-count).
#include "shell/mainwindow.h"

#include "experiments/experimenttab.h"
#include "experiments/streamsview.h"
#include "shell/commandline.h"

#include <QStatusBar>

namespace warpscope::app {

void MainWindow::createExperimentTabs() {
    ExperimentTabHost host;
    host.probe = m_probe;
    host.messageBar = m_messageBar;
    host.statusBar = statusBar();
    host.document = m_document;
    host.tabs = m_tabs;
    for (const AppExperiment& experiment : appExperiments()) {
        m_experimentTabs.push_back(new ExperimentTab(experiment, host, this));
    }
}

ExperimentTab* MainWindow::experimentTab(std::string_view key) const {
    for (ExperimentTab* tab : m_experimentTabs) {
        if (tab->experiment().tableKey() == key) {
            return tab;
        }
    }
    Q_ASSERT_X(false, "MainWindow::experimentTab", "not a key of core's experiments table");
    return nullptr;
}

void MainWindow::applyExperimentResults(const Session& session) {
    for (ExperimentTab* tab : m_experimentTabs) {
        tab->applyResults(session);
    }
}

ExperimentTab* MainWindow::findExperimentTab(const QString& key) const {
    for (ExperimentTab* tab : m_experimentTabs) {
        if (tab->experiment().key() == key) {
            return tab;
        }
    }
    return nullptr;
}

void applyExperimentViewOptions(const CommandLine& options, MainWindow& window) {
    if (options.streamCount > 0) {
        window.experimentView<StreamsView>(experiments::StreamsExperiment::key)
            ->setStreamCount(options.streamCount);
    }
}

} // namespace warpscope::app
