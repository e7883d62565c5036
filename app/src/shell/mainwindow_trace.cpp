// MainWindow's traces: File ▸ Open Trace…, `warpscope FILE.wstrace`, and the Trace dock. A trace
// that cannot be read is refused in the message bar (naming the byte offset or JSON pointer, as
// the other files' errors do) and the session stays as it was.
#include "shell/mainwindow.h"

#include "document/patterndocument.h"
#include "document/tracedocument.h"
#include "panels/messagebar.h"
#include "panels/tracepanel.h"

#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

namespace warpscope::app {

void MainWindow::createTrace() {
    m_trace = new TraceDocument(this);
    m_traceLoader = new TraceLoader(this);
    m_traceDock = new QDockWidget(tr("Trace"), this);
    m_traceDock->setObjectName(QStringLiteral("traceDock"));
    m_tracePanel = new TracePanel(m_trace, m_document, m_traceDock);
    m_traceDock->setWidget(m_tracePanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_traceDock);
    m_traceDock->hide(); // until a trace is opened
    connect(m_tracePanel, &TracePanel::problem, this, [this](const QString& message) {
        m_messageBar->showMessage(MessageBar::Level::Warning, message);
    });
    connect(m_traceLoader, &TraceLoader::loaded, this,
            [this](int, const QString& path, std::shared_ptr<const TraceReader> reader) {
                m_messageBar->dismiss();
                m_trace->setTrace(std::move(reader), QFileInfo(path).absoluteFilePath());
                m_traceDock->show();
                m_traceDock->raise();
                resizeDocks({m_traceDock}, {height() / 3}, Qt::Vertical);
                statusBar()->showMessage(tr("Opened trace %1").arg(QDir::toNativeSeparators(path)),
                                         4000);
            });
    connect(m_traceLoader, &TraceLoader::failed, this,
            [this](int, const QString& path, const Error& error) {
                m_messageBar->showMessage(
                    MessageBar::Level::Error,
                    tr("Cannot open trace %1: %2")
                        .arg(QFileInfo(path).fileName(), QString::fromStdString(error.describe())));
            });
}

bool MainWindow::openTrace(const QString& path) {
    bool failed = false;
    const auto connection =
        connect(m_traceLoader, &TraceLoader::failed, this, [&failed] { failed = true; });
    m_traceLoader->load(path);
    disconnect(connection);
    return !failed;
}

bool MainWindow::showTracedInstruction(qint64 pc) {
    const TraceHeader& header = m_trace->header();
    QStringList pcs;
    for (std::size_t i = 0; i < header.instructions.size(); ++i) {
        const TraceInstruction& instruction = header.instructions[i];
        if (instruction.launch != 0) {
            continue;
        }
        if (instruction.pcOffset == pc) {
            m_tracePanel->selectLaunch(0);
            return m_tracePanel->selectInstruction(i);
        }
        pcs << QStringLiteral("0x%1").arg(static_cast<qulonglong>(instruction.pcOffset), 0, 16);
    }
    m_messageBar->showMessage(
        MessageBar::Level::Error,
        tr("The trace has no instruction at PC 0x%1 in its first launch "
           "(its PCs: %2).")
            .arg(static_cast<qulonglong>(pc), 0, 16)
            .arg(pcs.isEmpty() ? tr("none") : pcs.join(QStringLiteral(", "))));
    return false;
}

void MainWindow::openTraceWithDialog() {
    const QString filter =
        QCoreApplication::translate("warpscope", "warpscope traces (*.%1);;All files (*)")
            .arg(QString::fromLatin1(kTraceSuffix));
    const QString start = m_trace->hasTrace() ? QFileInfo(m_trace->path()).absolutePath()
                                              : QFileInfo(m_currentFile).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Trace"), start, filter);
    if (!path.isEmpty()) {
        openTrace(path);
    }
}

} // namespace warpscope::app
