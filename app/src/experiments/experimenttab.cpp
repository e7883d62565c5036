// ExperimentTab (experimenttab.h): one experiment tab's probe job, results and session copy. Its
// words stay in MainWindow's translation context, where they were written first.
#include "experiments/experimenttab.h"

#include "document/patterndocument.h"
#include "gpu/probeclient.h"
#include "panels/messagebar.h"
#include "views/experimentview.h"

#include <warpscope/file_open.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QStatusBar>
#include <QStringList>
#include <QTabWidget>

#include <optional>

namespace warpscope::app {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("MainWindow", text);
}

/// The bytes of a recorded results file; nullopt, with the reason in the message bar, when it
/// cannot be read. The one opener: no FIFO or device blocks the window, at most the size cap is
/// read.
std::optional<QByteArray> readExperimentFile(const QString& path, MessageBar* messageBar) {
    auto text = readTextFile(QFile::encodeName(path).toStdString());
    if (!text) {
        messageBar->showMessage(
            MessageBar::Level::Error,
            tr("Cannot read %1: %2").arg(path, QString::fromStdString(text.error().message)));
        return std::nullopt;
    }
    return QByteArray::fromStdString(text.value());
}

} // namespace

ExperimentTab::ExperimentTab(const AppExperiment& experiment, const ExperimentTabHost& host,
                             QObject* parent)
    : QObject(parent), m_experiment(experiment), m_host(host), m_texts(experiment.texts()) {
    m_view = experiment.createView(host.tabs);
    host.tabs->addTab(m_view, m_texts.tabTitle);
    connect(m_view, &ExperimentView::runRequested, this, &ExperimentTab::run);
    connect(m_view, &ExperimentView::cancelRequested, this, &ExperimentTab::cancel);
    connect(host.probe, &ProbeClient::progress, this, &ExperimentTab::onProgress);
    connect(host.probe, &ProbeClient::experimentMeasured, this,
            [this](int job, const QString& /*key*/, const QJsonObject& result) {
                onMeasured(job, result);
            });
    connect(host.probe, &ProbeClient::jobFailed, this, &ExperimentTab::onFailed);
    connect(host.probe, &ProbeClient::stateChanged, this, &ExperimentTab::onProbeState);
}

void ExperimentTab::run() {
    if (m_job != 0) {
        return;
    }
    m_host.tabs->setCurrentWidget(m_view);
    m_view->setRunning(true);
    m_host.statusBar->showMessage(m_texts.running);
    m_job = m_host.probe->measureExperiment(m_experiment.tableKey(), QJsonObject());
}

void ExperimentTab::cancel() {
    if (m_job == 0) {
        return;
    }
    m_host.probe->cancel(m_job);
    m_job = 0;
    m_view->setRunning(false);
    m_host.statusBar->showMessage(m_texts.cancelled, 5000);
}

void ExperimentTab::onProgress(int job, int done, int total) {
    if (job == m_job && m_job != 0) {
        m_view->setProgress(done, total);
    }
}

void ExperimentTab::onMeasured(int job, const QJsonObject& result) {
    if (job != m_job || m_job == 0) {
        return;
    }
    m_job = 0;
    m_view->setRunning(false);
    QString error;
    if (!m_experiment.showAnswer(m_view, result, &error)) {
        m_host.messageBar->showMessage(MessageBar::Level::Error,
                                       m_texts.unreadableAnswer.arg(error));
        return;
    }
    m_view->setGpuStatus(experimentMeasuredNowStatus());
    m_host.document->markModified(); // the results belong to the session
    m_host.statusBar->showMessage(m_texts.measured, 5000);
}

void ExperimentTab::onFailed(int job, const ProbeFailure& failure) {
    if (job != m_job || m_job == 0) {
        return;
    }
    m_job = 0;
    m_view->setRunning(false);
    // Never left saying "Measuring …" after the answer that ends it.
    m_host.statusBar->clearMessage();
    if (failure.isNoGpu()) {
        m_view->setGpuStatus(m_texts.modelOnly.arg(failure.message));
        m_host.messageBar->showMessage(MessageBar::Level::Info,
                                       tr("No GPU to measure on: %1").arg(failure.message));
    } else {
        m_host.messageBar->showMessage(MessageBar::Level::Error,
                                       m_texts.failed.arg(failure.message));
    }
}

void ExperimentTab::onProbeState() {
    if (hasResults()) {
        return; // the status says where the results shown come from
    }
    const ProbeClient::State state = m_host.probe->state();
    if (state == ProbeClient::State::NoGpu || state == ProbeClient::State::Failed) {
        m_view->setGpuStatus(m_texts.modelOnly.arg(m_host.probe->stateText()));
    } else if (state == ProbeClient::State::Ready) {
        m_view->setGpuStatus(m_texts.pressMeasure.arg(m_host.probe->gpu().describe()));
    }
}

bool ExperimentTab::loadResults(const QString& path) {
    const std::optional<QByteArray> bytes = readExperimentFile(path, m_host.messageBar);
    if (!bytes) {
        return false;
    }
    QString error;
    if (!m_experiment.showRecorded(m_view, *bytes, &error)) {
        m_host.messageBar->showMessage(MessageBar::Level::Error, tr("%1: %2").arg(path, error));
        return false;
    }
    m_view->setGpuStatus(experimentRecordedEarlierStatus(path));
    return true;
}

std::any ExperimentTab::results() const {
    return m_experiment.results(m_view);
}

bool ExperimentTab::hasResults() const {
    return m_experiment.answer(m_view) != nullptr;
}

void ExperimentTab::addSettings(std::map<std::string, std::string>& settings) const {
    if (m_experiment.addViewSettings != nullptr) {
        m_experiment.addViewSettings(m_view, settings);
    }
}

void ExperimentTab::applySettings(const std::map<std::string, std::string>& settings) {
    if (m_experiment.applyViewSettings != nullptr) {
        m_experiment.applyViewSettings(m_view, settings);
    }
}

void ExperimentTab::addResults(Session& session) const {
    session.viewSettings.erase(std::string(m_experiment.row->sessionKey));
    const std::string key(m_experiment.tableKey());
    const QJsonObject* answer = m_experiment.answer(m_view);
    if (answer == nullptr) {
        session.experiments.erase(key);
        return;
    }
    // As the probe answered it. QJsonObject and core's JSON meet as compact text (the answer was
    // parsed once already, so it parses again).
    nlohmann::json results = nlohmann::json::parse(
        QJsonDocument(*answer).toJson(QJsonDocument::Compact).toStdString(), nullptr, false);
    if (results.is_object()) {
        session.experiments[key] = std::move(results);
    }
}

void ExperimentTab::applyResults(const Session& session) {
    QByteArray recorded;
    QString where;
    if (const auto it = session.experiments.find(std::string(m_experiment.tableKey()));
        it != session.experiments.end()) {
        recorded = QByteArray::fromStdString(it->second.dump());
        where = QStringLiteral("/experiments/") + m_experiment.key();
    } else if (const auto old =
                   session.viewSettings.find(std::string(m_experiment.row->sessionKey));
               old != session.viewSettings.end()) {
        // A session written by an older version: the results as JSON text among the settings.
        recorded = QByteArray::fromStdString(old->second);
        where = QStringLiteral("/viewSettings/") + qString(m_experiment.row->sessionKey);
    } else {
        m_experiment.setResults(m_view, std::any());
        return;
    }
    QString error;
    if (!m_experiment.showRecorded(m_view, recorded, &error)) {
        // The reader names the place inside the results; the session's place goes before it.
        m_host.messageBar->showMessage(
            MessageBar::Level::Warning,
            m_texts.unreadableSession.arg(where + QStringLiteral(": ") + error));
        m_experiment.setResults(m_view, std::any());
        return;
    }
    m_view->setGpuStatus(experimentRecordedInSessionStatus());
}

QString experimentMeasuredNowStatus() {
    return tr("Measured on this machine just now.");
}

QString recordedGpuName(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QJsonObject object = QJsonDocument::fromJson(file.read(64 * 1024 * 1024)).object();
    if (const QString device = object.value(QStringLiteral("device")).toString();
        !device.isEmpty()) {
        return device; // streams and L2 persistence results
    }
    // Transfers: the machine's nvidia-smi lines, "name, driver_version, ..." then the GPU's.
    const QStringList lines = object.value(QStringLiteral("machine")).toString().split(u'\n');
    for (const QString& line : lines) {
        if (line.startsWith(QLatin1String("NVIDIA "))) {
            return line.section(QLatin1Char(','), 0, 0).trimmed();
        }
    }
    return {};
}

QString experimentRecordedEarlierStatus(const QString& path) {
    // Never "This GPU": the numbers come from the GPU they were recorded on.
    const QString gpu = recordedGpuName(path);
    return gpu.isEmpty() ? tr("Recorded earlier (%1).").arg(QFileInfo(path).fileName())
                         : tr("Recorded on %1 (%2).").arg(gpu, QFileInfo(path).fileName());
}

QString experimentRecordedInSessionStatus() {
    return tr("Recorded in this session.");
}

} // namespace warpscope::app
