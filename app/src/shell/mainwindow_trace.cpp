// MainWindow's traces: File ▸ Open Trace…, `warpscope FILE.wstrace`, and the Trace dock. A trace
// that cannot be read is refused in the message bar (naming the byte offset or JSON pointer, as
// the other files' errors do) and the session stays as it was.
#include "shell/mainwindow.h"

#include "document/patterndocument.h"
#include "document/tracedocument.h"
#include "panels/messagebar.h"
#include "panels/tracepanel.h"
#include "views/gridview.h"
#include "views/tracegridview.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>

namespace warpscope::app {

namespace {

// Session view settings of the traced warp shown: the trace file and where in it.
constexpr const char* kTraceFileKey = "trace.file";
constexpr const char* kTraceLaunchKey = "trace.launch";
constexpr const char* kTracePcKey = "trace.pc";
constexpr const char* kTraceBlockKey = "trace.block";
constexpr const char* kTraceWarpKey = "trace.warp";

} // namespace

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
    connect(m_tracePanel, &TracePanel::warpShown, this, &MainWindow::showTraceGrid);
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

void MainWindow::showTraceGrid(std::size_t instruction, std::uint64_t record) {
    if (m_gridView == nullptr) {
        return;
    }
    if (m_traceGridView == nullptr) {
        m_traceGridView = new TraceGridView(m_gridView);
        m_traceGridView->coverParent();
        // Any other pattern (an edit, a preset, "Open as Pattern") gives the Grid tab back to
        // the pattern's grid.
        connect(m_document, &PatternDocument::patternChanged, m_traceGridView, [this] {
            if (!showsTracedWarp()) {
                m_traceGridView->hide();
            }
        });
    }
    if (m_traceGridView->data().reader != m_trace->reader() ||
        m_traceGridView->data().instruction != instruction) {
        auto data = m_trace->gridData(instruction);
        if (!data) {
            m_traceGridView->hide();
            m_messageBar->showMessage(MessageBar::Level::Warning,
                                      tr("The traced warps cannot be drawn on the grid: %1")
                                          .arg(QString::fromStdString(data.error().describe())));
            return;
        }
        m_traceGridView->setData(std::move(data).value());
    }
    m_traceGridView->setCurrentRecord(record);
    m_traceGridView->show();
    m_traceGridView->raise();
}

bool MainWindow::showsTracedWarp() const {
    if (!m_trace->hasTrace() || !m_tracePanel->currentInstruction() ||
        !m_tracePanel->currentRecord()) {
        return false;
    }
    auto traced =
        m_trace->tracedWarp(*m_tracePanel->currentInstruction(), *m_tracePanel->currentRecord());
    return traced && traced.value().pattern == m_document->pattern();
}

void MainWindow::addTraceSettings(std::map<std::string, std::string>& settings) const {
    if (!showsTracedWarp()) {
        return;
    }
    const TraceInstruction& instruction =
        m_trace->header().instructions.at(*m_tracePanel->currentInstruction());
    auto record = m_trace->reader()->readRecord(*m_tracePanel->currentRecord());
    if (!record) {
        return;
    }
    settings[kTraceFileKey] = m_trace->path().toStdString();
    settings[kTraceLaunchKey] = std::to_string(instruction.launch);
    settings[kTracePcKey] = std::to_string(instruction.pcOffset);
    const auto& block = record.value().block;
    settings[kTraceBlockKey] =
        std::to_string(block[0]) + "," + std::to_string(block[1]) + "," + std::to_string(block[2]);
    settings[kTraceWarpKey] = std::to_string(record.value().warp);
}

void MainWindow::applyTraceSettings(const std::map<std::string, std::string>& settings) {
    const auto file = settings.find(kTraceFileKey);
    if (file == settings.end()) {
        return;
    }
    auto value = [&](const char* key) {
        const auto it = settings.find(key);
        return it == settings.end() ? QString() : QString::fromStdString(it->second);
    };
    const QString path = QString::fromStdString(file->second);
    const qint64 pc = value(kTracePcKey).toLongLong();
    const QString pcText = QStringLiteral("0x%1").arg(static_cast<qulonglong>(pc), 0, 16);
    if (!QFileInfo(path).isFile()) {
        m_messageBar->showMessage(
            MessageBar::Level::Warning,
            tr("The session showed the traced instruction at PC %1 of %2, which is not there any "
               "more (moved or deleted): its warp is shown as a pattern. Open the trace with File "
               "▸ Open Trace… to choose instructions again.")
                .arg(pcText, QDir::toNativeSeparators(path)));
        return;
    }
    // The session's pattern is the traced warp already; the trace brings back its instruction.
    const NamedPattern saved = m_document->current();
    if (!openTrace(path) || !m_trace->hasTrace()) {
        return;
    }
    const int launch = value(kTraceLaunchKey).toInt();
    const TraceHeader& header = m_trace->header();
    m_tracePanel->selectLaunch(launch);
    for (std::size_t i = 0; i < header.instructions.size(); ++i) {
        if (header.instructions[i].launch == launch && header.instructions[i].pcOffset == pc) {
            m_tracePanel->selectInstruction(i);
            const QStringList block = value(kTraceBlockKey).split(QLatin1Char(','));
            if (block.size() == 3) {
                const QString name =
                    tracedWarpName({block[0].toUInt(), block[1].toUInt(), block[2].toUInt()},
                                   value(kTraceWarpKey).toUInt());
                const int index = m_tracePanel->warpPicker()->findText(name);
                if (index >= 0) {
                    m_tracePanel->selectWarp(index);
                }
            }
            if (showsTracedWarp() && m_document->current().pattern == saved.pattern) {
                return;
            }
            break;
        }
    }
    m_messageBar->showMessage(
        MessageBar::Level::Warning,
        tr("%1 no longer holds the traced warp the session showed (PC %2): the trace was "
           "recorded again since?")
            .arg(QFileInfo(path).fileName(), pcText));
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
