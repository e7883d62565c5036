// MainWindow: File ▸ Open Measurements…, the measurements recorded on a GPU (the transfer, stream
// and L2 persistence results, the notes' kernel tables as measure_kernel answers, or a session
// measured elsewhere) opened from the menu, as --transfers, --streams, --l2-persistence and
// --kernel-measurements open them from the command line. The package installs the ones recorded
// on NVIDIA H100 and H200 GPUs beside the app (share/warpscope/measurements), where the dialog
// starts. Help ▸ User Guide finds the guide the same way.
#include "shell/mainwindow.h"

#include "panels/messagebar.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QUrl>

namespace warpscope::app {

QString recordedMeasurementsFolder() {
    // Installed: <prefix>/bin/warpscope and <prefix>/share/warpscope/measurements.
    const QDir installed(QCoreApplication::applicationDirPath() +
                         QStringLiteral("/../share/warpscope/measurements"));
    if (installed.exists()) {
        return installed.canonicalPath();
    }
    for (const QString& data : QStandardPaths::locateAll(QStandardPaths::GenericDataLocation,
                                                         QStringLiteral("warpscope/measurements"),
                                                         QStandardPaths::LocateDirectory)) {
        return data;
    }
    return QDir::homePath();
}

MeasurementsKind measurementsKind(const QString& path, const AppExperiment** experiment) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("jsonl")) {
        return MeasurementsKind::KernelTables;
    }
    if (suffix == QLatin1String("warpscope")) {
        return MeasurementsKind::Session;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return MeasurementsKind::Unknown;
    }
    // A recorded result is one JSON object; its keys tell which experiment answered it.
    const QJsonObject object = QJsonDocument::fromJson(file.read(64 * 1024 * 1024)).object();
    if (object.value(QStringLiteral("format")).toString() == QLatin1String("warpscope-session")) {
        return MeasurementsKind::Session;
    }
    for (const AppExperiment& row : appExperiments()) {
        for (const char* key : row.resultKeys) {
            if (key != nullptr && object.contains(QLatin1String(key))) {
                if (experiment != nullptr) {
                    *experiment = &row;
                }
                return MeasurementsKind::Experiment;
            }
        }
    }
    return MeasurementsKind::Unknown;
}

QString userGuidePath() {
    const QString app = QCoreApplication::applicationDirPath();
    const QString installed = app + QStringLiteral("/../share/doc/warpscope/guide/index.md");
    if (QFileInfo::exists(installed)) {
        return QFileInfo(installed).canonicalFilePath();
    }
    // A build tree (build/<preset>/app/warpscope, or a test beside it): the sources' guide.
    QDir up(app);
    for (int level = 0; level < 5 && up.cdUp(); ++level) {
        const QString source = up.filePath(QStringLiteral("docs/guide/index.md"));
        if (QFileInfo::exists(source)) {
            return QFileInfo(source).canonicalFilePath();
        }
    }
    return {};
}

void MainWindow::openUserGuide() {
    const QString path = userGuidePath();
    if (path.isEmpty() || !QDesktopServices::openUrl(QUrl::fromLocalFile(path))) {
        m_messageBar->showMessage(
            MessageBar::Level::Info,
            tr("The user guide is docs/guide/index.md in warpscope's sources (installed as "
               "share/doc/warpscope/guide/index.md)%1.")
                .arg(path.isEmpty() ? QString() : tr("; no viewer opened %1").arg(path)));
    }
}

bool MainWindow::openMeasurements(const QString& path) {
    const AppExperiment* experiment = nullptr;
    switch (measurementsKind(path, &experiment)) {
    case MeasurementsKind::Experiment:
        return experimentTab(experiment->tableKey())->loadResults(path);
    case MeasurementsKind::KernelTables:
        return importKernelMeasurements(path, {});
    case MeasurementsKind::Session:
        return maybeDiscard() && openSession(path);
    case MeasurementsKind::Unknown:
        break;
    }
    m_messageBar->showMessage(
        MessageBar::Level::Error,
        tr("%1 holds no recorded measurements warpscope knows: open a transfers, streams or L2 "
           "persistence result (.json), the notes' kernel tables (.jsonl) or a session "
           "(.warpscope).")
            .arg(QFileInfo(path).fileName()));
    return false;
}

void MainWindow::openMeasurementsWithDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Measurements"), recordedMeasurementsFolder(),
        tr("Recorded measurements (*.json *.jsonl *.warpscope);;All files (*)"));
    if (!path.isEmpty()) {
        openMeasurements(path);
    }
}

} // namespace warpscope::app
