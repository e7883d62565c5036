// MainWindow's traces: File ▸ Open Trace…, `warpscope FILE.wstrace`, and the Trace dock. A trace
// that cannot be read is refused in the message bar (naming the byte offset or JSON pointer, as
// the other files' errors do) and the session stays as it was.
#include "shell/mainwindow.h"
#include "shell/tracewindow.h"

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
    connect(m_tracePanel, &TracePanel::warpShown, this,
            [this](std::size_t instruction, std::uint64_t record) {
                showTraceGrid(*this, instruction, record);
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

TraceGridView* traceGridViewOf(const MainWindow& window) {
    return window.gridView() == nullptr ? nullptr
                                        : window.gridView()->findChild<TraceGridView*>(
                                              QString(), Qt::FindDirectChildrenOnly);
}

void showTraceGrid(MainWindow& window, std::size_t instruction, std::uint64_t record) {
    GridView* page = window.gridView();
    if (page == nullptr) {
        return;
    }
    TraceGridView* grid = traceGridViewOf(window);
    if (grid == nullptr) {
        grid = new TraceGridView(page);
        grid->coverParent();
        // Any other pattern (an edit, a preset, "Open as Pattern") gives the Grid tab back to
        // the pattern's grid.
        QObject::connect(window.document(), &PatternDocument::patternChanged, grid,
                         [&window, grid] {
                             if (!showsTracedWarp(window)) {
                                 grid->hide();
                             }
                         });
    }
    TraceDocument* trace = window.traceDocument();
    if (grid->data().reader != trace->reader() || grid->data().instruction != instruction) {
        auto gridData = trace->gridData(instruction);
        if (!gridData) {
            grid->hide();
            window.messageBar()->showMessage(
                MessageBar::Level::Warning,
                QObject::tr("The traced warps cannot be drawn on the grid: %1")
                    .arg(QString::fromStdString(gridData.error().describe())));
            return;
        }
        grid->setData(std::move(gridData).value());
    }
    grid->setCurrentRecord(record);
    grid->show();
    grid->raise();
}

bool showsTracedWarp(const MainWindow& window) {
    const TraceDocument* trace = window.traceDocument();
    const TracePanel* panel = window.tracePanel();
    if (!trace->hasTrace() || !panel->currentInstruction() || !panel->currentRecord()) {
        return false;
    }
    auto traced = trace->tracedWarp(*panel->currentInstruction(), *panel->currentRecord());
    return traced && traced.value().pattern == window.document()->pattern();
}

void addTraceSettings(const MainWindow& window, std::map<std::string, std::string>& settings) {
    if (!showsTracedWarp(window)) {
        return;
    }
    const TraceDocument* trace = window.traceDocument();
    const TracePanel* panel = window.tracePanel();
    const TraceInstruction& instruction =
        trace->header().instructions.at(*panel->currentInstruction());
    auto record = trace->reader()->readRecord(*panel->currentRecord());
    if (!record) {
        return;
    }
    settings[kTraceFileKey] = trace->path().toStdString();
    settings[kTraceLaunchKey] = std::to_string(instruction.launch);
    settings[kTracePcKey] = std::to_string(instruction.pcOffset);
    const auto& block = record.value().block;
    settings[kTraceBlockKey] =
        std::to_string(block[0]) + "," + std::to_string(block[1]) + "," + std::to_string(block[2]);
    settings[kTraceWarpKey] = std::to_string(record.value().warp);
}

void applyTraceSettings(MainWindow& window, const std::map<std::string, std::string>& settings) {
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
        window.messageBar()->showMessage(
            MessageBar::Level::Warning,
            QObject::tr("The session showed the traced instruction at PC %1 of %2, which is not "
                        "there any more (moved or deleted): its warp is shown as a pattern. Open "
                        "the trace with File ▸ Open Trace… to choose instructions again.")
                .arg(pcText, QDir::toNativeSeparators(path)));
        return;
    }
    // The session's pattern is the traced warp already; the trace brings back its instruction.
    const Pattern saved = window.document()->pattern();
    if (!window.openTrace(path) || !window.traceDocument()->hasTrace()) {
        return;
    }
    const int launch = value(kTraceLaunchKey).toInt();
    const TraceHeader& header = window.traceDocument()->header();
    TracePanel* panel = window.tracePanel();
    panel->selectLaunch(launch);
    for (std::size_t i = 0; i < header.instructions.size(); ++i) {
        if (header.instructions[i].launch == launch && header.instructions[i].pcOffset == pc) {
            panel->selectInstruction(i);
            const QStringList block = value(kTraceBlockKey).split(QLatin1Char(','));
            if (block.size() == 3) {
                const QString name =
                    tracedWarpName({block[0].toUInt(), block[1].toUInt(), block[2].toUInt()},
                                   value(kTraceWarpKey).toUInt());
                const int index = panel->warpPicker()->findText(name);
                if (index >= 0) {
                    panel->selectWarp(index);
                }
            }
            if (showsTracedWarp(window) && window.document()->pattern() == saved) {
                return;
            }
            break;
        }
    }
    window.messageBar()->showMessage(
        MessageBar::Level::Warning,
        QObject::tr("%1 no longer holds the traced warp the session showed (PC %2): the trace was "
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
