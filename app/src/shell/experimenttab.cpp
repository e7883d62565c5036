// The pieces of the probe experiment tabs' wiring that do not depend on the tab (experimenttab.h).
// Their words stay in MainWindow's translation context, where they were written first.
#include "shell/experimenttab.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStatusBar>
#include <QStringList>
#include <QTabWidget>

namespace warpscope::app {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("MainWindow", text);
}

} // namespace

ExperimentTabHost MainWindow::experimentTabHost() {
    ExperimentTabHost host;
    host.context = this;
    host.probe = m_probe;
    host.messageBar = m_messageBar;
    host.statusBar = statusBar();
    host.document = m_document;
    host.tabs = m_tabs;
    return host;
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

void showExperimentNoGpu(MessageBar* messageBar, const QString& why) {
    messageBar->showMessage(MessageBar::Level::Info, tr("No GPU to measure on: %1").arg(why));
}

void showExperimentDone(QStatusBar* statusBar, const QString& text) {
    statusBar->showMessage(text, 5000);
}

void showExperimentRunning(QStatusBar* statusBar, const QString& text) {
    statusBar->showMessage(text);
}

void clearExperimentStatus(QStatusBar* statusBar) {
    statusBar->clearMessage();
}

void setCurrentExperimentTab(QTabWidget* tabs, QWidget* view) {
    tabs->setCurrentWidget(view);
}

std::optional<QByteArray> readExperimentFile(const QString& path, MessageBar* messageBar) {
    // The one opener: no FIFO or device blocks the window, at most the size cap is read.
    auto text = readTextFile(QFile::encodeName(path).toStdString());
    if (!text) {
        messageBar->showMessage(
            MessageBar::Level::Error,
            tr("Cannot read %1: %2").arg(path, QString::fromStdString(text.error().message)));
        return std::nullopt;
    }
    return QByteArray::fromStdString(text.value());
}

std::string experimentSessionValue(const QJsonObject& answer) {
    return QJsonDocument(answer).toJson(QJsonDocument::Compact).toStdString();
}

std::unique_ptr<MainWindow> headlessChartWindow(const CommandLine& options, QSize* size) {
    const std::optional<QSize> exportSize = chartExportSize(options);
    if (!exportSize) {
        return nullptr;
    }
    *size = *exportSize;
    auto window = std::make_unique<MainWindow>(headlessChartWindowOptions(options));
    window->resize(*size);
    return window;
}

} // namespace warpscope::app
