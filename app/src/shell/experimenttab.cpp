// The pieces of the probe experiment tabs' wiring that do not depend on the tab (experimenttab.h).
// Their words stay in MainWindow's translation context, where they were written first.
#include "shell/experimenttab.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStatusBar>
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

QString experimentRecordedEarlierStatus(const QString& path) {
    return tr("Recorded earlier (%1).").arg(QFileInfo(path).fileName());
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
