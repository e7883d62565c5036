// ExperimentTab: one probe experiment's tab in the main window, whichever experiment it is (its
// registry row, experimentregistry.h, says which). It adds the experiment's view to the window's
// tabs and wires it: Measure and Cancel against one ProbeClient job, progress, the probe's answer
// or failure, the GPU status line, recorded results from a file, and its results in the session.
#pragma once

#include "experiments/experimentregistry.h"

#include <warpscope/file_format.h>

#include <QObject>
#include <QString>

#include <any>
#include <map>
#include <string>

class QStatusBar;
class QTabWidget;

namespace warpscope::app {

class ExperimentView;
class MessageBar;
class PatternDocument;
class ProbeClient;
struct ProbeFailure;

/// The window's pieces an experiment tab talks to.
struct ExperimentTabHost {
    ProbeClient* probe = nullptr;
    MessageBar* messageBar = nullptr;
    QStatusBar* statusBar = nullptr;
    PatternDocument* document = nullptr;
    QTabWidget* tabs = nullptr;
};

class ExperimentTab : public QObject {
    Q_OBJECT
public:
    /// Adds `experiment`'s view to `host.tabs` and wires it; `parent` (the window) owns the tab.
    ExperimentTab(const AppExperiment& experiment, const ExperimentTabHost& host, QObject* parent);

    const AppExperiment& experiment() const { return m_experiment; }
    ExperimentView* view() const { return m_view; }
    /// A measurement runs (Measure pressed, no answer yet).
    bool isRunning() const { return m_job != 0; }

    /// Measure: shows the tab, marks it running and sends the experiment's op to the probe
    /// (nothing while a job runs already).
    void run();
    /// Shows the results recorded in `path`; false, with the reason in the message bar, when
    /// they cannot be read.
    bool loadResults(const QString& path);

    /// The view's results (AppExperiment::results; empty: none).
    std::any results() const;
    bool hasResults() const;

    /// Records the view's own choices (the streams' count) in the session's view settings.
    void addSettings(std::map<std::string, std::string>& settings) const;
    /// Applies the view's own choices the session's view settings hold.
    void applySettings(const std::map<std::string, std::string>& settings);
    /// Records the results, when there are some, in `session.experiments` under the
    /// experiment's key, as the probe answered them (a JSON object); the view settings never
    /// hold them (a session opened from an older version had them there: they are dropped).
    void addResults(Session& session) const;
    /// Shows the results `session` holds: under `experiments`, or, in a session written by an
    /// older version, as JSON text under the experiment's session key in its view settings; no
    /// results when it holds none. Unreadable ones are left out with a warning naming the JSON
    /// pointer of what is wrong.
    void applyResults(const Session& session);

private:
    void cancel();
    void onProgress(int job, int done, int total);
    void onMeasured(int job, const QJsonObject& result);
    void onFailed(int job, const ProbeFailure& failure);
    void onProbeState();

    const AppExperiment& m_experiment;
    ExperimentTabHost m_host;
    ExperimentTexts m_texts;
    ExperimentView* m_view = nullptr;
    int m_job = 0; // the running job, 0 when none
};

/// "Measured on this machine just now." and the other status lines every tab shares.
QString experimentMeasuredNowStatus();
/// "Recorded on NVIDIA H100 80GB HBM3 (file)": the GPU named in the recorded results.
QString experimentRecordedEarlierStatus(const QString& path);
/// The GPU a recorded results file names ("device", or the transfers' nvidia-smi line), or empty.
QString recordedGpuName(const QString& path);
QString experimentRecordedInSessionStatus();

} // namespace warpscope::app
