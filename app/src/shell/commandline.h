// CommandLine: what `warpscope` accepts. A session file to open, a preset and a view to start
// with, a theme, and the non-interactive modes used by scripts: --screenshot (render the window to
// a PNG and exit), --benchmark (print redraw timings and exit), --export / --export-deck (write
// figures without a display and exit), --lecture (start in lecture mode, optionally driven by a
// --lecture-script of keys and captures), and --measure / --benchmark-gpu (the GPU probe).
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>

namespace warpscope::app {

struct CommandLine {
    QString sessionFile;
    /// The positional file when it is a trace (.wstrace, or the trace magic): opened in the
    /// Trace dock instead of as a session.
    QString traceFile;
    /// --trace-pc: the traced instruction to show (its PC in its function), else the worst one.
    std::optional<qint64> tracePc;
    QString presetId;
    QString view;  // warp, bank, block, sweep, grid, notes or an experiment's key; empty: the
                   // remembered one
    QString theme; // light, dark; empty: the remembered one
    QString screenshotPath;
    /// --geometry-report FILE: the window as a first start lays it out (settings read from the
    /// usual place, so a fresh XDG_CONFIG_HOME is a first start), its docks, tables and bank
    /// view's geometry written as JSON; with --screenshot, the window photographed too.
    QString geometryReportPath;
    QSize windowSize;
    bool benchmark = false;
    int benchmarkIterations = 300;
    /// Exit as soon as the first frame is painted (start-up time measurements).
    bool quitAfterFirstFrame = false;
    /// --probe: the probe command for this run (as in Probe Settings); unset: the settings'.
    std::optional<QString> probeCommand;
    /// --measure: run the pattern on the GPU before the screenshot (or before showing the window)
    /// and wait for the answer.
    bool measure = false;
    /// --probe-device 0,1: the GPUs of the probe's machine to measure on, in turn (with
    /// --measure, each one measures; otherwise the first is chosen).
    QList<int> probeDevices;
    /// --save-session FILE: save the session once measured (for a machine without a GPU).
    QString saveSessionPath;
    /// --kernel-measurements: recorded measure_kernel answers (JSON lines) for the notes tab.
    QStringList kernelMeasurementsFiles;
    /// --transfers FILE, --streams FILE, ...: recorded results for each experiment's tab, by the
    /// experiment's key (core's table, warpscope/experiments/experiments.h; an experiment given
    /// no file has no entry).
    std::map<QString, QStringList> experimentResultsFiles;
    /// The files given for experiment `key` (none: empty).
    QStringList experimentResults(const QString& key) const;
    int streamCount = 0; // --stream-count: the Streams tab's count; 0 unset
    /// --benchmark-gpu: time an edit to the measured overlay on screen, with the real probe.
    bool benchmarkGpu = false;
    /// Do not read or write QSettings, no autosave (scripts and screenshots stay reproducible).
    bool noSettings = false;
    /// Start in lecture mode; the positional argument is then a deck file (empty: the last deck
    /// or the course deck). A script of keys and captures runs it unattended (lecturescript.h).
    bool lecture = false;
    QString lectureDeck;
    QString lectureScript;

    /// Headless figure export (--export, --export-deck): the raw values, checked by
    /// parseExportRequest() (exportcommand.h). --view, --size and --theme mean the figure's then.
    bool exporting = false;
    struct ExportArguments {
        QString output;    // --export FILE
        QString deck;      // --export-deck DECK
        QString outputDir; // --output-dir DIR
        QString format;    // --format
        QString views;     // --views a,b
        QString size;      // --size
        QString dpi;       // --dpi
        QString title;     // --title
        QString caption;   // --caption
        bool tikzPicture = false;
    } exportArguments;

    /// Parse `arguments` (argv as strings, program name first). On an error, returns the message.
    static std::optional<QString> parse(const QStringList& arguments, CommandLine& out);
    static QStringList viewNames();
};

} // namespace warpscope::app
