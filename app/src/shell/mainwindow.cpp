// MainWindow: building the window (the tabbed views, the docks around them), the views shown, the
// title, the theme and the remembered window state. The menus and actions, GPU run control,
// sessions and files, lecture mode and figures are in mainwindow_*.cpp.
#include "shell/mainwindow.h"
#include "shell/perinstructionoption.h"
#include "shell/tracewindow.h"

#include "document/autosaver.h"
#include "document/patterndocument.h"
#include "document/recentfiles.h"
#include "gpu/gpurunner.h"
#include "gpu/probeclient.h"
#include "gpu/probemeasurement.h"
#include "panels/lanetablemodel.h"
#include "panels/messagebar.h"
#include "panels/metricspanel.h"
#include "panels/patterneditor.h"
#include "panels/perinstructionpanel.h"
#include "shell/spinboxundo.h"
#include "views/bankview.h"
#include "views/blockview.h"
#include "views/lanehighlight.h"
#include "views/sweepplot.h"
#include "views/tilepanel.h"
#include "views/tileview.h"
#include "views/viewkind.h"
#include "views/viewscrollarea.h"
#include "views/warpview.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace warpscope::app {

namespace {

constexpr const char* kViewKey = "view";
constexpr const char* kOutlinesKey = "warp.textbookOutlines";

} // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), m_options(std::move(options)), m_document(new PatternDocument(this)),
      m_highlight(new LaneHighlight(this)), m_recent(new RecentFiles(m_options.useSettings, this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/warpscope/icons/warpscope.svg")));
    m_measurements = new MeasurementStore(this);
    m_probe = new ProbeClient(this);
    m_gpu = new GpuRunner(m_document, m_probe, m_measurements, this);
    if (m_options.warmUpGpu) {
        // First of all, so that CUDA and the counters are set up while the window builds
        // itself: the process starts asynchronously (a fork, a millisecond or two), and nothing
        // here waits for it.
        configureProbe();
        m_gpu->warmUp();
    }
    createCentralArea();
    createDocks();
    createTrace();
    createMenus(); // every action lives in a menu; m_shortcutActions lists those with keys

    m_gpuStatus = new QLabel(gpuStatusText(), this);
    m_gpuStatus->setObjectName(QStringLiteral("gpuStatus"));
    m_gpuStatus->setTextFormat(Qt::PlainText); // the GPU name the probe reports
    statusBar()->addPermanentWidget(m_gpuStatus);
    createGpu();
    createNotes();
    createExperimentTabs();
    connectPerInstruction(this, m_kernelMeasurements, m_probe);
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
    m_defaultDockState = saveState();
    installSpinBoxUndoKeys(this);
    readSettings();
    updateTitle();
    offerRecovery();
}

MainWindow::~MainWindow() = default;

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
    // Wrapped, not a floor under the window's width: on a 1366-pixel screen its one long line
    // took the room the Metrics dock needs.
    hint->setWordWrap(true);
    hint->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    tools->addWidget(hint, 1);
    warpLayout->addLayout(tools);
    warpLayout->addWidget(wrapInScrollArea(m_warpView, warpPage), 1);
    m_tabs->addTab(warpPage, tr("&Warp"));

    m_bankView = new BankView(m_document, m_highlight);
    m_tabs->addTab(wrapInScrollArea(m_bankView, m_tabs), tr("&Banks"));
    m_blockView = new BlockView(m_document, m_highlight);
    m_tabs->addTab(wrapInScrollArea(m_blockView, m_tabs), tr("B&lock"));
    m_sweepPlot = new SweepPlot(m_document, m_tabs);
    m_tabs->addTab(m_sweepPlot, tr("Swee&p"));
    // The Tile tab (found by its object name, "tilePanel"): a TMA load's layout under the access.
    // The load chosen there is saved in the session (currentSession()), so choosing one is a
    // change.
    auto* tilePanel = new TilePanel(m_document, m_highlight, m_tabs);
    m_tabs->addTab(tilePanel, tr("Tile"));
    connect(tilePanel->tileView(), &TileView::tmaLoadChanged, m_document,
            &PatternDocument::markModified);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    // Keep the checkbox and the menu action in step with the view.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { m_highlight->setHoveredLane(-1); });
}

void MainWindow::createDocks() {
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    auto* editorDock = new QDockWidget(tr("Pattern"), this);
    m_editorDock = editorDock;
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
    m_metricsDock = metricsDock;
    metricsDock->setObjectName(QStringLiteral("metricsDock"));
    m_metrics = new MetricsPanel(m_document, metricsDock);
    m_metrics->layout()->addWidget(new PerInstructionPanel(m_document, m_metrics));
    metricsDock->setWidget(m_metrics);
    addDockWidget(Qt::RightDockWidgetArea, metricsDock);

    auto* lanesDock = new QDockWidget(tr("Lanes"), this);
    m_lanesDock = lanesDock;
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

void MainWindow::showView(View view) {
    m_tabs->setCurrentIndex(static_cast<int>(view));
}

MainWindow::View MainWindow::currentView() const {
    return static_cast<View>(std::clamp(m_tabs->currentIndex(), 0, 3));
}

namespace {

/// The first four tabs' views and their kinds (views/viewkind.h names them).
constexpr std::pair<MainWindow::View, ViewKind> kTabKinds[] = {
    {MainWindow::View::Warp, ViewKind::Warp},
    {MainWindow::View::Bank, ViewKind::Bank},
    {MainWindow::View::Block, ViewKind::Block},
    {MainWindow::View::Sweep, ViewKind::Sweep},
};

} // namespace

std::optional<MainWindow::View> MainWindow::viewFromName(const QString& name) {
    const std::optional<ViewKind> kind = viewKindFromName(name);
    for (const auto& [view, tabKind] : kTabKinds) {
        if (kind == tabKind) {
            return view;
        }
    }
    return std::nullopt;
}

QString MainWindow::viewName(View view) {
    for (const auto& [tabView, kind] : kTabKinds) {
        if (tabView == view) {
            return viewKindName(kind);
        }
    }
    return viewKindName(ViewKind::Warp);
}

std::map<std::string, std::string> MainWindow::viewSettings() const {
    std::map<std::string, std::string> settings{
        {kViewKey, viewName(currentView()).toStdString()},
        {kOutlinesKey, m_warpView->showsTextbook() ? "true" : "false"}};
    addNotesSettings(settings);
    for (const ExperimentTab* tab : m_experimentTabs) {
        tab->addSettings(settings);
    }
    addTraceSettings(*this, settings);
    return settings;
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
    applyNotesSettings(settings);
    for (ExperimentTab* tab : m_experimentTabs) {
        tab->applySettings(settings);
    }
    applyTraceSettings(*this, settings);
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
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
        fitToScreen(); // a first start: no remembered size
    }
    m_fitDocksWhenShown =
        !restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
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

} // namespace warpscope::app
