// MainWindow: building the window, the file and view actions, sessions, settings and recovery.
#include "shell/mainwindow.h"

#include "document/autosaver.h"
#include "document/patterndocument.h"
#include "document/recentfiles.h"
#include "document/sessionfile.h"
#include "export/figureexportdialog.h"
#include "gpu/gpurunner.h"
#include "gpu/kernelsourcedialog.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"
#include "gpu/probesettingsdialog.h"
#include "lecture/lecturewindow.h"
#include "panels/expressionedit.h"
#include "panels/lanetablemodel.h"
#include "panels/messagebar.h"
#include "panels/metricspanel.h"
#include "panels/patterneditor.h"
#include "panels/presetpicker.h"
#include "views/bankview.h"
#include "views/blockview.h"
#include "views/lanehighlight.h"
#include "views/sweepplot.h"
#include "views/warpview.h"

#include <warpscope/preset.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace warpscope::app {

namespace {

constexpr const char* kViewKey = "view";
constexpr const char* kOutlinesKey = "warp.textbookOutlines";

QScrollArea* wrapInScrollArea(QWidget* view, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    area->setWidget(view);
    area->setWidgetResizable(false);
    area->setFrameShape(QFrame::NoFrame);
    area->setBackgroundRole(QPalette::Base);
    return area;
}

QString sessionFilter() {
    return QCoreApplication::translate("warpscope", "warpscope sessions (*.%1);;All files (*)")
        .arg(QString::fromLatin1(kSessionSuffix));
}

} // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), m_options(std::move(options)), m_document(new PatternDocument(this)),
      m_highlight(new LaneHighlight(this)), m_recent(new RecentFiles(m_options.useSettings, this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/warpscope/icons/warpscope.svg")));
    m_measurements = new MeasurementStore(this);
    m_probe = new ProbeClient(this);
    m_gpu = new GpuRunner(m_document, m_probe, m_measurements, this);
    createCentralArea();
    createDocks();
    createMenus(); // every action lives in a menu; m_shortcutActions lists those with keys

    m_gpuStatus = new QLabel(gpuStatusText(), this);
    m_gpuStatus->setObjectName(QStringLiteral("gpuStatus"));
    statusBar()->addPermanentWidget(m_gpuStatus);
    createGpu();
    connect(m_highlight, &LaneHighlight::changed, this, [this] {
        if (!m_highlight->selectionText().isEmpty()) {
            statusBar()->showMessage(m_highlight->selectionText());
        } else {
            statusBar()->clearMessage();
        }
    });
    connect(m_document, &PatternDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &PatternDocument::patternChanged, this, &MainWindow::updateTitle);
    connect(m_recent, &RecentFiles::openRequested, this, [this](const QString& path) {
        if (maybeDiscard()) {
            openSession(path);
        }
    });

    if (m_options.autosave) {
        m_autosaver = new Autosaver(
            m_options.autosaveDirectory, m_options.autosaveIntervalMs,
            [this] { return currentSession(); }, [this] { return m_document->changeCounter(); },
            this);
        connect(m_autosaver, &Autosaver::failed, this, [this](const QString& message) {
            m_messageBar->showMessage(MessageBar::Level::Warning,
                                      tr("Autosave failed: %1").arg(message));
        });
    }
    readSettings();
    updateTitle();
    offerRecovery();
}

MainWindow::~MainWindow() = default;

// ---- Building the window
// --------------------------------------------------------------------------

void MainWindow::createCentralArea() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_messageBar = new MessageBar(central);
    layout->addWidget(m_messageBar);

    m_tabs = new QTabWidget(central);
    m_tabs->setObjectName(QStringLiteral("viewTabs"));
    m_tabs->setDocumentMode(true);

    // Warp view with its small tool row.
    auto* warpPage = new QWidget(m_tabs);
    auto* warpLayout = new QVBoxLayout(warpPage);
    warpLayout->setContentsMargins(0, 4, 0, 0);
    m_warpView = new WarpView(m_document, m_highlight);
    auto* tools = new QHBoxLayout;
    tools->setContentsMargins(8, 0, 8, 0);
    auto addTool = [&](const QString& text, const QString& tip, auto slot) {
        auto* button = new QToolButton(warpPage);
        button->setText(text);
        button->setToolTip(tip);
        button->setAutoRaise(true);
        connect(button, &QToolButton::clicked, m_warpView, slot);
        tools->addWidget(button);
    };
    addTool(tr("−"), tr("Zoom out (Ctrl+-)"), &WarpView::zoomOut);
    addTool(tr("+"), tr("Zoom in (Ctrl++)"), &WarpView::zoomIn);
    addTool(tr("Fit"), tr("Fit to the window (F)"), &WarpView::fitToWindow);
    auto* outlines = new QCheckBox(tr("Textbook transactions"), warpPage);
    outlines->setObjectName(QStringLiteral("textbookOutlinesBox"));
    outlines->setChecked(m_warpView->showsTextbook());
    outlines->setToolTip(tr("Draw the textbook model's transactions as dashed outlines (Ctrl+T)"));
    connect(outlines, &QCheckBox::toggled, m_warpView, &WarpView::setShowTextbook);
    tools->addWidget(outlines);
    tools->addStretch(1);
    auto* hint =
        new QLabel(tr("Hover a lane to follow it · click a sector, transaction or list row "
                      "to light its lanes · Ctrl+wheel zooms"),
                   warpPage);
    hint->setEnabled(false);
    tools->addWidget(hint);
    warpLayout->addLayout(tools);
    warpLayout->addWidget(wrapInScrollArea(m_warpView, warpPage), 1);
    m_tabs->addTab(warpPage, tr("&Warp"));

    m_bankView = new BankView(m_document, m_highlight);
    m_tabs->addTab(wrapInScrollArea(m_bankView, m_tabs), tr("&Banks"));
    m_blockView = new BlockView(m_document, m_highlight);
    m_tabs->addTab(wrapInScrollArea(m_blockView, m_tabs), tr("B&lock"));
    m_sweepPlot = new SweepPlot(m_document, m_tabs);
    m_tabs->addTab(m_sweepPlot, tr("Swee&p"));
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    // Keep the checkbox and the menu action in step with the view.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { m_highlight->setHoveredLane(-1); });
}

void MainWindow::createDocks() {
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    auto* editorDock = new QDockWidget(tr("Pattern"), this);
    editorDock->setObjectName(QStringLiteral("patternDock"));
    m_editor = new PatternEditor(m_document, editorDock);
    auto* editorScroll = new QScrollArea(editorDock);
    editorScroll->setWidget(m_editor);
    editorScroll->setWidgetResizable(true);
    editorScroll->setFrameShape(QFrame::NoFrame);
    editorScroll->setMinimumWidth(340);
    editorDock->setWidget(editorScroll);
    addDockWidget(Qt::LeftDockWidgetArea, editorDock);
    connect(m_editor, &PatternEditor::presetRequested, this, &MainWindow::loadPresetById);

    auto* metricsDock = new QDockWidget(tr("Metrics"), this);
    metricsDock->setObjectName(QStringLiteral("metricsDock"));
    m_metrics = new MetricsPanel(m_document, metricsDock);
    metricsDock->setWidget(m_metrics);
    addDockWidget(Qt::RightDockWidgetArea, metricsDock);

    auto* lanesDock = new QDockWidget(tr("Lanes"), this);
    lanesDock->setObjectName(QStringLiteral("lanesDock"));
    m_laneTable = new QTableView(lanesDock);
    m_laneTable->setObjectName(QStringLiteral("laneTable"));
    m_laneModel = new LaneTableModel(m_document, m_highlight, m_laneTable);
    m_laneTable->setModel(m_laneModel);
    m_laneTable->verticalHeader()->hide();
    // Columns are fitted when the evaluation changes (fitLaneColumns()), not by
    // QHeaderView::ResizeToContents: that mode re-measures every cell through the delegate on
    // every dataChanged, hover included, and was half of an edit's cost.
    m_laneTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_laneTable->horizontalHeader()->setStretchLastSection(true);
    connect(m_document, &PatternDocument::evaluationChanged, this, &MainWindow::fitLaneColumns);
    m_laneTable->setAlternatingRowColors(true);
    m_laneTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_laneTable->setEditTriggers(QAbstractItemView::DoubleClicked |
                                 QAbstractItemView::EditKeyPressed |
                                 QAbstractItemView::AnyKeyPressed);
    m_laneTable->setToolTip(tr("Type an address (decimal or 0x hex; empty = inactive) to make the "
                               "pattern an explicit list of addresses"));
    connect(m_laneTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        std::uint32_t mask = 0;
        for (const QModelIndex& index : m_laneTable->selectionModel()->selectedRows()) {
            mask |= 1u << index.row();
        }
        m_highlight->setSelectedLanes(mask, QString());
    });
    lanesDock->setWidget(m_laneTable);
    addDockWidget(Qt::RightDockWidgetArea, lanesDock);
    splitDockWidget(metricsDock, lanesDock, Qt::Vertical);
    fitLaneColumns();
    resizeDocks({editorDock, metricsDock}, {350, 480}, Qt::Horizontal);
}

void MainWindow::createMenus() {
    auto add = [this](QMenu* menu, const QString& text, const QKeySequence& key, auto slot) {
        QAction* action = menu->addAction(text);
        if (!key.isEmpty()) {
            action->setShortcut(key);
            m_shortcutActions << action;
        }
        connect(action, &QAction::triggered, this, slot);
        return action;
    };

    QMenu* file = menuBar()->addMenu(tr("&File"));
    add(file, tr("&New Session"), QKeySequence::New, [this] { newSession(); });
    add(file, tr("&Open…"), QKeySequence::Open, [this] { openWithDialog(); });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, [this] { m_recent->populate(m_recentMenu); });
    m_recent->populate(m_recentMenu);
    add(file, tr("Open &Deck for Lecture Mode…"), QKeySequence(), [this] { openDeckWithDialog(); });
    file->addSeparator();
    add(file, tr("&Save"), QKeySequence::Save, [this] { save(); });
    add(file, tr("Save &As…"), QKeySequence(tr("Ctrl+Shift+S")), [this] { saveAsWithDialog(); });
    file->addSeparator();
    add(file, tr("&Export Figure…"), QKeySequence(tr("Ctrl+Shift+E")),
        [this] { exportFigureWithDialog(*this, m_options.useSettings); });
    file->addSeparator();
    add(file, tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(tr("Ctrl+Shift+Z")), QKeySequence(tr("Ctrl+Y"))});
    edit->addAction(undo);
    edit->addAction(redo);
    m_shortcutActions << undo << redo;
    edit->addSeparator();
    add(edit, tr("Edit the &Address Expression"), QKeySequence(tr("Ctrl+E")), [this] {
        m_editor->addressEdit()->setFocus();
        m_editor->addressEdit()->selectAll();
    });
    add(edit, tr("Copy &Figure"), QKeySequence(tr("Ctrl+Shift+C")),
        [this] { copyFigureToClipboard(*this); });
    add(edit, tr("&Next Preset"), QKeySequence(tr("Ctrl+]")), [this] { stepPreset(1); });
    add(edit, tr("&Previous Preset"), QKeySequence(tr("Ctrl+[")), [this] { stepPreset(-1); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    add(view, tr("&Warp View"), QKeySequence(tr("Ctrl+1")), [this] { showView(View::Warp); });
    add(view, tr("&Bank View"), QKeySequence(tr("Ctrl+2")), [this] { showView(View::Bank); });
    add(view, tr("B&lock View"), QKeySequence(tr("Ctrl+3")), [this] { showView(View::Block); });
    add(view, tr("&Sweep Plot"), QKeySequence(tr("Ctrl+4")), [this] { showView(View::Sweep); });
    view->addSeparator();
    auto zoomTarget = [this]() -> ZoomableView* {
        switch (currentView()) {
        case View::Bank:
            return m_bankView;
        case View::Block:
            return m_blockView;
        case View::Warp:
            return m_warpView;
        case View::Sweep:
            return nullptr;
        }
        return nullptr;
    };
    QAction* zoomIn = add(view, tr("Zoom &In"), QKeySequence::ZoomIn, [zoomTarget] {
        if (ZoomableView* v = zoomTarget()) {
            v->zoomIn();
        }
    });
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+="))});
    add(view, tr("Zoom &Out"), QKeySequence::ZoomOut, [zoomTarget] {
        if (ZoomableView* v = zoomTarget()) {
            v->zoomOut();
        }
    });
    QAction* fit = add(view, tr("&Fit to Window"), QKeySequence(tr("F")), [zoomTarget] {
        if (ZoomableView* v = zoomTarget()) {
            v->fitToWindow();
        }
    });
    fit->setShortcuts({QKeySequence(tr("F")), QKeySequence(tr("Ctrl+0"))});
    m_textbookOutlines = view->addAction(tr("&Textbook Transactions in the Warp View"));
    m_textbookOutlines->setCheckable(true);
    m_textbookOutlines->setChecked(m_warpView->showsTextbook());
    m_textbookOutlines->setShortcut(QKeySequence(tr("Ctrl+T")));
    m_shortcutActions << m_textbookOutlines;
    auto* outlinesBox = findChild<QCheckBox*>(QStringLiteral("textbookOutlinesBox"));
    connect(m_textbookOutlines, &QAction::toggled, this, [this, outlinesBox](bool on) {
        m_warpView->setShowTextbook(on);
        if (outlinesBox) {
            outlinesBox->setChecked(on);
        }
    });
    if (outlinesBox) {
        connect(outlinesBox, &QCheckBox::toggled, m_textbookOutlines, &QAction::setChecked);
    }
    view->addSeparator();
    QMenu* themes = view->addMenu(tr("T&heme"));
    auto* themeGroup = new QActionGroup(this);
    m_lightTheme = themes->addAction(tr("&Light"));
    m_darkTheme = themes->addAction(tr("&Dark"));
    for (QAction* a : {m_lightTheme, m_darkTheme}) {
        a->setCheckable(true);
        themeGroup->addAction(a);
    }
    m_lightTheme->setChecked(true);
    connect(m_lightTheme, &QAction::triggered, this, [this] { setTheme(Theme::Light); });
    connect(m_darkTheme, &QAction::triggered, this, [this] { setTheme(Theme::Dark); });
    add(view, tr("Toggle &Dark Theme"), QKeySequence(tr("Ctrl+Shift+D")),
        [this] { setTheme(m_theme == Theme::Dark ? Theme::Light : Theme::Dark); });
    add(view, tr("&Lecture Mode"), QKeySequence(tr("F11")), [this] { startLecture(); });
    view->addSeparator();
    QMenu* panels = view->addMenu(tr("&Panels"));
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        panels->addAction(dock->toggleViewAction());
    }

    QMenu* gpu = menuBar()->addMenu(tr("GP&U"));
    add(gpu, tr("&Run on the GPU"), QKeySequence(tr("F5")), [this] { runOnGpu(); });
    m_autoRunAction = gpu->addAction(tr("&Auto-Run After Each Edit"));
    m_autoRunAction->setCheckable(true);
    m_autoRunAction->setShortcut(QKeySequence(tr("Ctrl+F5")));
    m_shortcutActions << m_autoRunAction;
    connect(m_autoRunAction, &QAction::toggled, this, [this](bool on) {
        m_gpu->setAutoRun(on);
        if (m_options.useSettings) {
            QSettings().setValue(QStringLiteral("probe/autoRun"), on);
        }
    });
    add(gpu, tr("Run the &Sweep on the GPU"), QKeySequence(tr("Shift+F5")),
        [this] { runSweepOnGpu(); });
    add(gpu, tr("&Cancel the GPU Sweep"), QKeySequence(tr("Ctrl+Shift+F5")),
        [this] { m_gpu->cancelSweep(); });
    gpu->addSeparator();
    add(gpu, tr("Show &Kernel…"), QKeySequence(tr("Ctrl+K")), [this] { showKernelSource(); });
    gpu->addSeparator();
    add(gpu, tr("R&estart the Probe"), QKeySequence(), [this] {
        m_probe->restart();
        m_messageBar->dismiss();
    });
    add(gpu, tr("Probe &Settings…"), QKeySequence(), [this] { editProbeSettings(); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    add(help, tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, [this] { showShortcuts(); });
    add(help, tr("&About warpscope"), QKeySequence(), [this] { showAbout(); });
}

// ---- State
// ------------------------------------------------------------------------------------------

QString MainWindow::gpuStatusText() const {
    if (m_probe == nullptr) {
        return {};
    }
    return m_probe->stateText();
}

void MainWindow::createGpu() {
    ProbeSettings settings = m_options.useSettings ? ProbeSettings::load() : ProbeSettings{};
    if (m_options.probeCommand) {
        settings.command = *m_options.probeCommand;
    }
    const auto [program, arguments] = ProbeClient::parseCommand(settings.command);
    m_probe->setCommand(program, arguments);
    m_probe->setTimeoutMs(m_options.probeTimeoutMs > 0 ? m_options.probeTimeoutMs
                                                       : settings.timeoutSeconds * 1000);
    m_gpu->setOptions(settings.options);
    m_metrics->setMeasurementStore(m_measurements);

    connect(m_gpu, &GpuRunner::message, this,
            [this](GpuRunner::MessageLevel level, const QString& text) {
                const MessageBar::Level bar =
                    level == GpuRunner::MessageLevel::Error     ? MessageBar::Level::Error
                    : level == GpuRunner::MessageLevel::Warning ? MessageBar::Level::Warning
                                                                : MessageBar::Level::Info;
                // One message at a time: the bar replaces what it showed, never stacks dialogs.
                m_messageBar->showMessage(bar, text);
            });
    connect(m_gpu, &GpuRunner::measuringChanged, this, [this](bool measuring) {
        if (measuring) {
            statusBar()->showMessage(tr("Measuring on the GPU…"));
        } else {
            statusBar()->clearMessage();
        }
    });
    connect(m_gpu, &GpuRunner::measurementArrived, this, [this] {
        m_document->markModified(); // a new result: saved with the session, autosaved
    });
    connect(m_probe, &ProbeClient::stateChanged, this, &MainWindow::updateGpuStatus);
    connect(m_measurements, &MeasurementStore::changed, this, &MainWindow::updateMeasurementMarks);
    connect(m_document, &PatternDocument::evaluationChanged, this,
            &MainWindow::updateMeasurementMarks);

    connect(m_sweepPlot, &SweepPlot::gpuSweepRequested, this,
            [this](const std::vector<NamedPattern>& patterns) {
                m_sweepPlot->setGpuRunning(true);
                m_gpu->runSweep(patterns);
            });
    connect(m_sweepPlot, &SweepPlot::gpuSweepCancelRequested, m_gpu, &GpuRunner::cancelSweep);
    connect(m_gpu, &GpuRunner::sweepProgress, m_sweepPlot, &SweepPlot::setGpuProgress);
    connect(m_gpu, &GpuRunner::sweepFinished, m_sweepPlot, &SweepPlot::setGpuMeasurements);
    connect(m_gpu, &GpuRunner::sweepStopped, m_sweepPlot, &SweepPlot::setGpuStopped);

    m_kernelDialog = new KernelSourceDialog(this);
    connect(m_gpu, &GpuRunner::kernelSourceArrived, m_kernelDialog,
            &KernelSourceDialog::showSource);
    connect(m_gpu, &GpuRunner::kernelSourceFailed, m_kernelDialog,
            &KernelSourceDialog::showProblem);
    updateGpuStatus();
    updateMeasurementMarks();
}

void MainWindow::updateGpuStatus() {
    m_gpuStatus->setText(gpuStatusText());
    QString tip;
    switch (m_probe->state()) {
    case ProbeClient::State::Ready:
        tip = tr("warpscope-probe: %1, %2 SMs, driver %3, measured copy bandwidth %4 GB/s")
                  .arg(m_probe->gpu().describe())
                  .arg(m_probe->gpu().smCount)
                  .arg(m_probe->gpu().driverVersion)
                  .arg(m_probe->gpu().measuredCopyBandwidthGBs, 0, 'f', 0);
        break;
    case ProbeClient::State::NoGpu:
    case ProbeClient::State::Failed:
        tip = m_probe->stateFailure() ? m_probe->stateFailure()->message : QString();
        break;
    default:
        tip = tr("Predictions come from the models; GPU ▸ Run (F5) measures the pattern with %1")
                  .arg(m_probe->program().isEmpty() ? tr("warpscope-probe (not found)")
                                                    : m_probe->program());
        break;
    }
    m_gpuStatus->setToolTip(tip);
    m_metrics->setGpuText(m_probe->state() == ProbeClient::State::Ready ||
                                  m_probe->state() == ProbeClient::State::NoGpu
                              ? gpuStatusText()
                              : QString());
}

void MainWindow::updateMeasurementMarks() {
    const auto& evaluation = m_document->evaluation();
    MeasurementMark mark;
    if (evaluation) {
        mark = measurementMark(evaluation->modern, m_measurements->find(evaluation->pattern));
    }
    m_warpView->setMeasurementMark(mark);
    m_bankView->setMeasurementMark(mark);
}

void MainWindow::runOnGpu() {
    m_gpu->run();
}

void MainWindow::runSweepOnGpu() {
    showView(View::Sweep);
    m_sweepPlot->gpuRunButton()->click();
}

void MainWindow::showKernelSource() {
    m_kernelDialog->showWaiting(QString::fromStdString(m_document->current().title));
    m_kernelDialog->show();
    m_kernelDialog->raise();
    m_gpu->requestKernelSource();
}

void MainWindow::editProbeSettings() {
    ProbeSettings current = ProbeSettings::load();
    current.options = m_gpu->options();
    if (m_options.probeCommand) {
        current.command = *m_options.probeCommand;
    }
    ProbeSettingsDialog dialog(current, this);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    const ProbeSettings chosen = dialog.settings();
    if (m_options.useSettings) {
        chosen.save();
    }
    m_gpu->setOptions(chosen.options);
    m_probe->setTimeoutMs(chosen.timeoutSeconds * 1000);
    const auto [program, arguments] = ProbeClient::parseCommand(chosen.command);
    if (program != m_probe->program() || arguments != m_probe->arguments()) {
        m_probe->setCommand(program, arguments);
        if (m_probe->state() != ProbeClient::State::Stopped) {
            m_probe->restart();
        }
    }
    updateGpuStatus();
}

void MainWindow::updateTitle() {
    const QString name =
        m_currentFile.isEmpty() ? tr("Untitled session") : QFileInfo(m_currentFile).fileName();
    const QString title =
        QStringLiteral("%1[*] — %2").arg(name, QString::fromStdString(m_document->current().title));
    // Only what changed: each of these goes to the window system (every edit calls this).
    if (title != windowTitle()) {
        setWindowTitle(title);
    }
    if (m_currentFile != windowFilePath()) {
        setWindowFilePath(m_currentFile);
    }
    if (m_document->isModified() != isWindowModified()) {
        setWindowModified(m_document->isModified());
    }
}

void MainWindow::fitLaneColumns() {
    // As ResizeToContents would, but measuring only each column's longest text (digits and the
    // separators are what vary), in the bold font an emphasised lane uses, so hovering never
    // clips a cell and never resizes a column.
    QFont bold = m_laneTable->font();
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    const int margin =
        2 * (m_laneTable->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_laneTable) +
             1) +
        4;
    QHeaderView* header = m_laneTable->horizontalHeader();
    const int lastColumn = m_laneModel->columnCount() - 1; // stretched to the remaining room
    for (int column = 0; column < lastColumn; ++column) {
        QString longest;
        for (int row = 0; row < m_laneModel->rowCount(); ++row) {
            const QString text = m_laneModel->index(row, column).data().toString();
            if (text.size() > longest.size()) {
                longest = text;
            }
        }
        const int width =
            std::max(header->sectionSizeHint(column), metrics.horizontalAdvance(longest) + margin);
        if (header->sectionSize(column) != width) {
            header->resizeSection(column, width);
        }
    }
}

void MainWindow::showView(View view) {
    m_tabs->setCurrentIndex(static_cast<int>(view));
}

MainWindow::View MainWindow::currentView() const {
    return static_cast<View>(std::clamp(m_tabs->currentIndex(), 0, 3));
}

std::optional<MainWindow::View> MainWindow::viewFromName(const QString& name) {
    if (name == QLatin1String("warp")) {
        return View::Warp;
    }
    if (name == QLatin1String("bank")) {
        return View::Bank;
    }
    if (name == QLatin1String("block")) {
        return View::Block;
    }
    if (name == QLatin1String("sweep")) {
        return View::Sweep;
    }
    return std::nullopt;
}

QString MainWindow::viewName(View view) {
    switch (view) {
    case View::Warp:
        return QStringLiteral("warp");
    case View::Bank:
        return QStringLiteral("bank");
    case View::Block:
        return QStringLiteral("block");
    case View::Sweep:
        return QStringLiteral("sweep");
    }
    return QStringLiteral("warp");
}

std::map<std::string, std::string> MainWindow::viewSettings() const {
    return {{kViewKey, viewName(currentView()).toStdString()},
            {kOutlinesKey, m_warpView->showsTextbook() ? "true" : "false"}};
}

void MainWindow::applyViewSettings(const std::map<std::string, std::string>& settings) {
    if (auto it = settings.find(kViewKey); it != settings.end()) {
        if (auto view = viewFromName(QString::fromStdString(it->second))) {
            showView(*view);
        }
    }
    if (auto it = settings.find(kOutlinesKey); it != settings.end()) {
        m_textbookOutlines->setChecked(it->second != "false");
    }
}

Session MainWindow::currentSession() const {
    Session session = m_document->toSession(viewSettings());
    m_measurements->fillSession(session);
    return session;
}

void MainWindow::setTheme(Theme theme) {
    m_theme = theme;
    if (auto* application = qobject_cast<QApplication*>(QCoreApplication::instance())) {
        applyTheme(*application, theme);
    }
    (theme == Theme::Dark ? m_darkTheme : m_lightTheme)->setChecked(true);
    if (m_options.useSettings) {
        QSettings().setValue(QStringLiteral("theme"), themeName(theme));
    }
}

void MainWindow::readSettings() {
    if (!m_options.useSettings) {
        return;
    }
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_theme = themeFromName(settings.value(QStringLiteral("theme")).toString());
    m_autoRunAction->setChecked(settings.value(QStringLiteral("probe/autoRun"), false).toBool());
    m_deckPath = settings.value(QStringLiteral("lecture/deck")).toString();
    (m_theme == Theme::Dark ? m_darkTheme : m_lightTheme)->setChecked(true);
}

void MainWindow::writeSettings() {
    if (!m_options.useSettings) {
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("theme"), themeName(m_theme));
}

void MainWindow::markStartupState() {
    m_document->undoStack()->clear();
    m_document->markSaved();
    if (m_autosaver && !m_autosaver->hasRecoveryFile()) {
        m_autosaver->discard();
    }
}

// ---- Presets and sessions
// ---------------------------------------------------------------------------

bool MainWindow::loadPresetById(const QString& id) {
    const Preset* preset = findPreset(id.toStdString());
    if (preset == nullptr) {
        m_messageBar->showMessage(
            MessageBar::Level::Error,
            tr("There is no built-in preset \"%1\" (%n preset(s) in this build).", "",
               static_cast<int>(builtinPresets().size()))
                .arg(id));
        m_editor->presetPicker()->setCurrentPresetId(m_document->presetId());
        return false;
    }
    m_document->loadPreset(*preset);
    return true;
}

void MainWindow::stepPreset(int delta) {
    const auto& presets = builtinPresets();
    if (presets.empty()) {
        return;
    }
    int index = -1;
    for (std::size_t i = 0; i < presets.size(); ++i) {
        if (QString::fromStdString(presets[i].id) == m_document->presetId()) {
            index = static_cast<int>(i);
        }
    }
    const int count = static_cast<int>(presets.size());
    index = index < 0 ? (delta > 0 ? 0 : count - 1) : ((index + delta) % count + count) % count;
    m_document->loadPreset(presets[static_cast<std::size_t>(index)]);
}

bool MainWindow::openSession(const QString& path) {
    auto session = readSessionFile(path);
    if (!session) {
        m_messageBar->showMessage(MessageBar::Level::Error,
                                  tr("Cannot open %1: %2")
                                      .arg(QFileInfo(path).fileName(),
                                           QString::fromStdString(session.error().describe())));
        return false;
    }
    if (auto error = m_document->loadSession(session.value())) {
        m_messageBar->showMessage(
            MessageBar::Level::Error,
            tr("Cannot open %1: %2")
                .arg(QFileInfo(path).fileName(), QString::fromStdString(error->describe())));
        return false;
    }
    m_measurements->takeFromSession(session.value());
    applyViewSettings(session.value().viewSettings);
    m_document->markSaved(); // applying the view settings is not a change
    m_currentFile = QFileInfo(path).absoluteFilePath();
    m_recent->add(m_currentFile);
    m_messageBar->dismiss();
    updateTitle();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(m_currentFile)), 4000);
    return true;
}

bool MainWindow::saveSession(const QString& path) {
    QString target = path;
    if (QFileInfo(target).suffix().isEmpty()) {
        target += QLatin1Char('.') + QString::fromLatin1(kSessionSuffix);
    }
    if (auto error = writeSessionFile(target, currentSession())) {
        m_messageBar->showMessage(
            MessageBar::Level::Error,
            tr("Cannot save: %1").arg(QString::fromStdString(error->describe())));
        return false;
    }
    m_document->markSaved();
    m_currentFile = QFileInfo(target).absoluteFilePath();
    m_recent->add(m_currentFile);
    if (m_autosaver) {
        m_autosaver->discard();
    }
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(m_currentFile)), 4000);
    return true;
}

bool MainWindow::save() {
    if (m_currentFile.isEmpty()) {
        return saveAsWithDialog();
    }
    return saveSession(m_currentFile);
}

bool MainWindow::saveAsWithDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save Session"), m_currentFile, sessionFilter());
    return !path.isEmpty() && saveSession(path);
}

void MainWindow::openWithDialog() {
    if (!maybeDiscard()) {
        return;
    }
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Session"), QFileInfo(m_currentFile).absolutePath(), sessionFilter());
    if (!path.isEmpty()) {
        openSession(path);
    }
}

void MainWindow::newSession() {
    if (!maybeDiscard()) {
        return;
    }
    Session fresh;
    fresh.entries.push_back(SessionEntry{PatternDocument().current(), {}});
    m_document->loadSession(fresh);
    const auto& presets = builtinPresets();
    if (!presets.empty()) {
        m_document->loadPreset(presets.front());
    }
    markStartupState();
    m_currentFile.clear();
    updateTitle();
}

bool MainWindow::maybeDiscard() {
    if (!m_options.confirmDiscard || !m_document->isModified()) {
        return true;
    }
    const auto answer = QMessageBox::question(
        this, tr("Unsaved Changes"), tr("The session has unsaved changes. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) {
        return save();
    }
    return answer == QMessageBox::Discard;
}

void MainWindow::offerRecovery() {
    if (!m_autosaver || !m_autosaver->hasRecoveryFile()) {
        return;
    }
    const QString path = m_autosaver->filePath();
    m_messageBar->showMessage(
        MessageBar::Level::Warning,
        tr("warpscope did not close cleanly last time. Restore the session autosaved at %1?")
            .arg(QLocale().toString(m_autosaver->recoveryTime(), QLocale::ShortFormat)),
        {{tr("Restore"),
          [this, path] {
              auto session = readSessionFile(path);
              std::optional<Error> error;
              if (!session) {
                  error = session.error();
              } else {
                  error = m_document->loadSession(session.value());
              }
              if (error) {
                  m_messageBar->showMessage(MessageBar::Level::Error,
                                            tr("The autosaved session cannot be restored: %1")
                                                .arg(QString::fromStdString(error->describe())));
                  return;
              }
              m_measurements->takeFromSession(session.value());
              applyViewSettings(session.value().viewSettings);
              m_currentFile.clear();
              m_autosaver->discard();
              m_document->markModified(); // it lives in no file yet
              updateTitle();
          }},
         {tr("Discard"), [this] { m_autosaver->discard(); }}});
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeDiscard()) {
        event->ignore();
        return;
    }
    writeSettings();
    if (m_autosaver) {
        m_autosaver->discard(); // a clean exit: nothing to recover next time
    }
    event->accept();
}

// ---- Lecture mode
// ----------------------------------------------------------------------------------

LectureWindow* MainWindow::startLecture(const QString& deckPath, QSize size) {
    QString path = deckPath.isEmpty() ? m_deckPath : deckPath;
    if (path.isEmpty()) {
        path = builtinDeckPath();
    } else if (!path.startsWith(QLatin1String(":/"))) {
        path = QFileInfo(path).absoluteFilePath();
    }
    auto deck = loadDeckFile(path);
    if (!deck) {
        m_messageBar->showMessage(
            MessageBar::Level::Error,
            tr("Cannot open the deck %1: %2")
                .arg(QFileInfo(path).fileName(), QString::fromStdString(deck.error().describe())));
        return nullptr;
    }
    if (m_lecture) {
        m_lecture->close();
    }
    int slide = 0;
    if (m_options.useSettings && QSettings().value(QStringLiteral("lecture/deck")) == path) {
        slide = QSettings().value(QStringLiteral("lecture/slide")).toInt();
    }
    auto* lecture = new LectureWindow(std::move(deck).value(), this);
    lecture->setAttribute(Qt::WA_DeleteOnClose);
    lecture->setSlide(slide);
    connect(lecture, &LectureWindow::finished, this, [this, path](int last) {
        if (m_options.useSettings) {
            QSettings settings;
            settings.setValue(QStringLiteral("lecture/deck"), path);
            settings.setValue(QStringLiteral("lecture/slide"), last);
        }
        raise();
        activateWindow();
    });
    m_lecture = lecture;
    m_deckPath = path;
    lecture->present(size);
    return lecture;
}

LectureWindow* MainWindow::lectureWindow() const {
    return qobject_cast<LectureWindow*>(m_lecture.data());
}

void MainWindow::openDeckWithDialog() {
    const QString start = m_deckPath.startsWith(QLatin1String(":/"))
                              ? QString()
                              : QFileInfo(m_deckPath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Deck"), start, tr("warpscope decks (*.json);;All files (*)"));
    if (!path.isEmpty()) {
        startLecture(path);
    }
}

// ---- Help
// ------------------------------------------------------------------------------------------

void MainWindow::showShortcuts() {
    // Generated from the actions themselves, so it cannot drift from what the keys do.
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard Shortcuts"));
    // Lecture mode's keys are not actions of this window: listed after them.
    const std::vector<std::pair<QString, QString>> lectureKeys = {
        {tr("Lecture mode: next slide"), tr("Right, Down, PgDown, N, click")},
        {tr("Lecture mode: previous slide"), tr("Left, Up, PgUp, P")},
        {tr("Lecture mode: first, last slide"), tr("Home, End")},
        {tr("Lecture mode: show the next transaction or wavefront"), tr("Space")},
        {tr("Lecture mode: step back"), tr("Backspace, Shift+Space, right click")},
        {tr("Lecture mode: show all"), tr("Return")},
        {tr("Lecture mode: leave"), tr("Esc, F11")},
    };
    auto* table = new QTableWidget(
        static_cast<int>(m_shortcutActions.size() + static_cast<qsizetype>(lectureKeys.size())), 2,
        dialog);
    table->setHorizontalHeaderLabels({tr("Action"), tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    int row = 0;
    for (QAction* action : m_shortcutActions) {
        QString text = action->text();
        text.remove(QLatin1Char('&'));
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts()) {
            keys << key.toString(QKeySequence::NativeText);
        }
        table->setItem(row, 0, new QTableWidgetItem(text));
        table->setItem(row, 1, new QTableWidgetItem(keys.join(QStringLiteral(", "))));
        ++row;
    }
    for (const auto& [text, keys] : lectureKeys) {
        table->setItem(row, 0, new QTableWidgetItem(text));
        table->setItem(row, 1, new QTableWidgetItem(keys));
        ++row;
    }
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    dialog->resize(480, 520);
    dialog->show(); // not modal: the window stays usable
}

void MainWindow::showAbout() {
    m_messageBar->showMessage(
        MessageBar::Level::Info,
        tr("warpscope %1 — draws one CUDA warp's memory accesses over 128-byte lines, 32-byte "
           "sectors and 32 banks, with the modern (cc 7.0+) and textbook (Fermi/Kepler) models. %2")
            .arg(QCoreApplication::applicationVersion(), gpuStatusText()));
}

} // namespace warpscope::app
