// MainWindow: the warpscope window. The pattern editor, the metrics and the lane table are docks
// around a tab widget holding the warp, bank and block views and the sweep plot; a message bar
// above them reports problems without blocking. It owns the document, opens and saves sessions,
// keeps recent files, autosaves, remembers its state and carries the keyboard shortcuts.
// Its member functions live by responsibility: mainwindow.cpp (building the window, views,
// settings), mainwindow_menus.cpp (menus, actions, help), mainwindow_gpu.cpp (GPU run control),
// mainwindow_files.cpp (presets, sessions, recovery), mainwindow_lecture.cpp (lecture mode) and
// mainwindow_figures.cpp (figure export and copy).
#pragma once

#include "experiments/experimenttab.h"
#include "views/theme.h"

#include <warpscope/file_format.h>

#include <QByteArray>
#include <QMainWindow>
#include <QPointer>
#include <QSize>
#include <QString>

#include <map>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QScrollArea;
class QTabWidget;
class QTableView;

namespace warpscope::app {

class Autosaver;
class GpuRunner;
class KernelSourceDialog;
class KernelMeasurementStore;
class NotesRunner;
class NotesView;
class GridView;
class MeasurementStore;
class ProbeClient;
class BankView;
class BlockView;
class LaneHighlight;
class LaneTableModel;
class LectureWindow;
class MessageBar;
class MetricsPanel;
class PatternDocument;
class PatternEditor;
class RecentFiles;
class SweepPlot;
class TraceDocument;
class TraceLoader;
class TracePanel;
class WarpView;

struct MainWindowOptions {
    /// Read and write QSettings (geometry, dock layout, theme, recent files).
    bool useSettings = true;
    bool autosave = true;
    /// Empty: QStandardPaths::AppDataLocation.
    QString autosaveDirectory;
    int autosaveIntervalMs = 30000;
    /// Ask before closing or replacing a session with unsaved changes (a modal question: off in
    /// tests and scripts).
    bool confirmDiscard = true;
    /// The probe command (program and arguments, as typed in Probe Settings). Unset: the
    /// settings' (with useSettings) or the warpscope-probe next to the app.
    std::optional<QString> probeCommand;
    /// Restart a probe that stays silent this long with work to do; 0: the settings' (60 s).
    int probeTimeoutMs = 0;
    /// Start the probe in the background once the window runs, where a local GPU is present
    /// (GpuRunner::warmUp), so the first Run answers like later ones.
    bool warmUpGpu = true;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class View { Warp, Bank, Block, Sweep };

    explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    PatternDocument* document() const { return m_document; }
    PatternEditor* editor() const { return m_editor; }
    WarpView* warpView() const { return m_warpView; }
    BankView* bankView() const { return m_bankView; }
    BlockView* blockView() const { return m_blockView; }
    SweepPlot* sweepPlot() const { return m_sweepPlot; }
    MetricsPanel* metricsPanel() const { return m_metrics; }
    QTableView* laneTable() const { return m_laneTable; }
    LaneTableModel* laneTableModel() const { return m_laneModel; }
    MessageBar* messageBar() const { return m_messageBar; }
    LaneHighlight* laneHighlight() const { return m_highlight; }
    Autosaver* autosaver() const { return m_autosaver; }
    RecentFiles* recentFiles() const { return m_recent; }
    QTabWidget* viewTabs() const { return m_tabs; }
    ProbeClient* probeClient() const { return m_probe; }
    GpuRunner* gpuRunner() const { return m_gpu; }
    MeasurementStore* measurements() const { return m_measurements; }
    KernelSourceDialog* kernelSourceDialog() const { return m_kernelDialog; }
    QAction* autoRunAction() const { return m_autoRunAction; }
    NotesView* notesView() const { return m_notesView; }
    GridView* gridView() const { return m_gridView; }
    NotesRunner* notesRunner() const { return m_notesRunner; }
    KernelMeasurementStore* kernelMeasurements() const { return m_kernelMeasurements; }
    /// The probe experiments' tabs (Transfers, Streams, L2 persistence, ...), one per row of the
    /// app's experiment registry (experiments/experimentregistry.h), in its order.
    const std::vector<ExperimentTab*>& experimentTabs() const { return m_experimentTabs; }
    /// The tab of the experiment `key` (a key of core's table, asserted).
    ExperimentTab* experimentTab(std::string_view key) const;
    /// The tab of the experiment whose key is `key` ("transfers"), or null.
    ExperimentTab* findExperimentTab(const QString& key) const;
    /// The view of experiment `key`'s tab, as its class (TransfersView for "transfers").
    template <class View> View* experimentView(std::string_view key) const {
        return static_cast<View*>(experimentTab(key)->view());
    }

    /// Show the notes-vs-GPU tab on the notes experiment `id` ("table-4-11"); its first row's
    /// kernel's first access becomes the current pattern, so the warp, bank and block views
    /// explain it. False, with a message, for an unknown id.
    bool showNotesExperiment(const QString& id);
    /// Show kernel preset `id`: its first access in the single-warp views, and in the notes tab
    /// the first notes experiment that measures it.
    bool showKernelPreset(const QString& id);
    /// Measure the notes tab's experiment on the GPU (F5 while that tab is shown).
    void runNotesOnGpu();
    /// Read recorded measure_kernel answers (KernelMeasurementStore::importJsonLines); false,
    /// with the reason in the message bar, when the file cannot be read.
    bool importKernelMeasurements(const QString& path, const QString& gpuName);

    /// File ▸ Open Measurements…: recorded results of any kind (measurementsKind()); false, with
    /// the reason in the message bar, when the file holds none (mainwindow_measurements.cpp).
    bool openMeasurements(const QString& path);
    void openMeasurementsWithDialog();

    /// Measure the current pattern on the GPU (GPU ▸ Run, F5).
    void runOnGpu();
    /// Run the sweep tab's sweep on the GPU (Shift+F5).
    void runSweepOnGpu();
    /// Show the generated CUDA source of the current pattern (Ctrl+K).
    void showKernelSource();

    void showView(View view);
    View currentView() const;
    static std::optional<View> viewFromName(const QString& name);
    static QString viewName(View view);

    /// Load the built-in preset `id` (an undoable edit). An unknown id is reported in the message
    /// bar and returns false.
    bool loadPresetById(const QString& id);
    /// Open a session; a file that cannot be read or is not a valid session is refused with a
    /// message in the message bar (nothing changes) and returns false.
    bool openSession(const QString& path);
    /// Save to `path` atomically; on failure the message bar says why and it returns false.
    bool saveSession(const QString& path);
    QString currentFile() const { return m_currentFile; }
    /// Open a trace (.wstrace) in the Trace dock (mainwindow_trace.cpp); its worst instruction's
    /// first traced warp becomes the current pattern. A file that cannot be read is refused with
    /// a message naming the byte offset or JSON pointer, nothing changes, and this returns
    /// false. A trace with a large header is read on a worker thread (true: reading started).
    bool openTrace(const QString& path);
    /// Show the instruction at `pc` of the trace's first launch (--trace-pc); false, with the
    /// PCs there are in the message bar, when there is none.
    bool showTracedInstruction(qint64 pc);
    TraceDocument* traceDocument() const { return m_trace; }
    TracePanel* tracePanel() const { return m_tracePanel; }
    QDockWidget* traceDock() const { return m_traceDock; }
    /// The session as it would be saved now.
    Session currentSession() const;
    /// Each experiment tab shows the results `session` holds (ExperimentTab::applyResults).
    void applyExperimentResults(const Session& session);

    void setTheme(Theme theme);
    Theme theme() const { return m_theme; }
    /// The status bar's statement about the GPU.
    QString gpuStatusText() const;
    /// Forget the undo history and treat the current state as saved (after start-up loading).
    void markStartupState();

    /// Lecture mode on the deck file `deckPath` (empty: the deck used last, else the course deck
    /// compiled in), from the slide it was left at; full screen, or a window of `size` when that is
    /// valid. A deck that cannot be read is reported in the message bar and nothing opens.
    LectureWindow* startLecture(const QString& deckPath = {}, QSize size = {});
    LectureWindow* lectureWindow() const;
    /// The deck lecture mode opens (a file path, or the course deck's resource path).
    QString deckPath() const { return m_deckPath; }

    /// View ▸ Reset Layout: every dock back where a first start puts it, sized from its content.
    void resetLayout();
    /// Widen the Pattern and Metrics docks to their content's width where the window has the room
    /// (at most two fifths of it for the metrics), so that no metric's name or value is cut off.
    void fitDocksToContent();
    /// A first start (no remembered geometry): the window fills the screen it opens on.
    void fitToScreen();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void createCentralArea();
    void createDocks();
    void createMenus();
    void updateTitle();
    void fitLaneColumns();
    void readSettings();
    void writeSettings();
    void offerRecovery();
    bool maybeDiscard();
    void newSession();
    void openWithDialog();
    void createTrace();
    void openTraceWithDialog();
    bool save();
    bool saveAsWithDialog();
    void stepPreset(int delta);
    void openDeckWithDialog();
    void showShortcuts();
    void showAbout();
    /// Help ▸ User Guide: the guide installed with the app (or beside the build), in the
    /// desktop's viewer; where there is none, the message bar says where it lives.
    void openUserGuide();
    void exportFigureWithDialog();
    void copyFigureToClipboard();
    std::map<std::string, std::string> viewSettings() const;
    void applyViewSettings(const std::map<std::string, std::string>& settings);
    /// The probe's command, timeout and measure options from the settings (or the options).
    void configureProbe();
    void createGpu();
    void updateMeasurementMarks();
    void updateGpuStatus();
    /// Once the probe has answered that there is no GPU, every Run and Measure action and
    /// button is disabled with a tooltip saying why; enabled again when a GPU answers
    /// (mainwindow_nogpu.cpp).
    void updateGpuAvailability();
    void editProbeSettings();
    /// GPU ▸ Device: one entry per device the probe listed (mainwindow_devices.cpp).
    void createDeviceMenu(QMenu* gpu);
    void updateDeviceMenu();

public:
    /// Measure on device `index` of the probe's machine from now on, remembered for this probe
    /// command.
    void chooseGpuDevice(int index);
    QMenu* deviceMenu() const { return m_deviceMenu; }

private:
    void createNotes();
    /// The sweep tab's whole-kernel page and its runner (mainwindow_notes.cpp).
    void createKernelSweep();
    /// The notes tab's experiment and the session's kernel measurements, in the session's view
    /// settings (mainwindow_notes.cpp).
    void addNotesSettings(std::map<std::string, std::string>& settings) const;
    void applyNotesSettings(const std::map<std::string, std::string>& settings);
    /// One tab per experiment of the registry (experiments/experimenttab.h).
    void createExperimentTabs();

    MainWindowOptions m_options;
    PatternDocument* m_document;
    LaneHighlight* m_highlight;
    MessageBar* m_messageBar = nullptr;
    QTabWidget* m_tabs = nullptr;
    WarpView* m_warpView = nullptr;
    BankView* m_bankView = nullptr;
    BlockView* m_blockView = nullptr;
    SweepPlot* m_sweepPlot = nullptr;
    PatternEditor* m_editor = nullptr;
    MetricsPanel* m_metrics = nullptr;
    QTableView* m_laneTable = nullptr;
    LaneTableModel* m_laneModel = nullptr;
    QLabel* m_gpuStatus = nullptr;
    QMenu* m_deviceMenu = nullptr;
    RecentFiles* m_recent;
    Autosaver* m_autosaver = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_textbookOutlines = nullptr;
    QAction* m_lightTheme = nullptr;
    QAction* m_darkTheme = nullptr;
    QList<QAction*> m_shortcutActions;
    QString m_currentFile;
    Theme m_theme = Theme::Light;
    ProbeClient* m_probe = nullptr;
    MeasurementStore* m_measurements = nullptr;
    GpuRunner* m_gpu = nullptr;
    KernelSourceDialog* m_kernelDialog = nullptr;
    QAction* m_autoRunAction = nullptr;
    KernelMeasurementStore* m_kernelMeasurements = nullptr;
    NotesRunner* m_notesRunner = nullptr;
    NotesView* m_notesView = nullptr;
    GridView* m_gridView = nullptr;
    std::vector<ExperimentTab*> m_experimentTabs; // in the registry's order
    QPointer<QWidget> m_lecture;                  // a LectureWindow, while one is open
    QString m_deckPath;
    QDockWidget* m_editorDock = nullptr;
    QDockWidget* m_metricsDock = nullptr;
    QDockWidget* m_lanesDock = nullptr;
    /// The docks' arrangement as built, before any remembered one (View ▸ Reset Layout).
    QByteArray m_defaultDockState;
    /// No remembered dock layout: size the docks from their content once shown.
    bool m_fitDocksWhenShown = true;
    /// What updateGpuAvailability() disabled, with the tooltip each had.
    QList<QPair<QPointer<QObject>, QString>> m_disabledForNoGpu;
    TraceDocument* m_trace = nullptr;
    TraceLoader* m_traceLoader = nullptr;
    TracePanel* m_tracePanel = nullptr;
    QDockWidget* m_traceDock = nullptr;
};

/// --measure: run the window's current pattern on the GPU and wait (up to two minutes) for its
/// measurement; false, with the reason in the message bar, when none came.
bool measureAndWait(MainWindow& window);
/// --measure on the notes tab: measure its experiment and wait (up to five minutes); false, with
/// the reason in the message bar, when no row was measured.
bool measureNotesAndWait(MainWindow& window);
/// The same for the sweep tab's whole-kernel sweep (its model computed too); true when every
/// point was measured.
bool measureKernelSweepAndWait(MainWindow& window);

/// What a recorded measurements file holds, from its name and its keys.
enum class MeasurementsKind { Unknown, Experiment, KernelTables, Session };
/// For an experiment's results, `*experiment` (when not null) is set to its registry row.
MeasurementsKind measurementsKind(const QString& path, const AppExperiment** experiment = nullptr);
/// The user guide's first page (docs/guide/index.md) as installed (share/doc/warpscope/guide) or
/// in the source tree above the build's app; empty when neither is there.
QString userGuidePath();
/// Where File ▸ Open Measurements… starts: the recorded ones the package installs, if present.
QString recordedMeasurementsFolder();

struct CommandLine;
/// `--export FILE --preset notes:ID [--kernel-measurements F]... [--measure] [--size WxH]`: the
/// notes-vs-GPU chart of that table as a figure (SVG, PDF or PNG), without a window. Returns
/// the process's exit status (0; 1 when the figure cannot be written; 2 for bad arguments).
/// The window size a headless chart export (notes, transfers) renders at: --size as WxH,
/// slide-16x9 (the default) or slide-4x3; prints what is wrong and gives nothing for a missing
/// output file or a bad size.
std::optional<QSize> chartExportSize(const CommandLine& options);
/// A window for a headless chart export: no settings, no autosave, no questions.
MainWindowOptions headlessChartWindowOptions(const CommandLine& options);
int runNotesExport(const CommandLine& options);
/// `--export FILE --preset KEY [--KEY F]... [--measure] [--size WxH]` (or `--view KEY`): the
/// chart of `experiment`'s tab as a figure (shell/experimentexport.cpp); the same exit statuses
/// as runNotesExport.
int runExperimentExport(const CommandLine& options, const AppExperiment& experiment);
/// What the command line asks of one experiment's view (--stream-count: the Streams tab's count).
void applyExperimentViewOptions(const CommandLine& options, MainWindow& window);

} // namespace warpscope::app
