// CommandLine: what `warpscope` accepts. A session file to open, a preset and a view to start
// with, a theme, and the non-interactive modes used by scripts: --screenshot (render the window to
// a PNG and exit), --benchmark (print redraw timings and exit) and --export / --export-deck
// (write figures without a display and exit).
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace warpscope::app {

struct CommandLine {
    QString sessionFile;
    QString presetId;
    QString view;  // warp, bank, block, sweep; empty: the remembered one
    QString theme; // light, dark; empty: the remembered one
    QString screenshotPath;
    QSize windowSize;
    bool benchmark = false;
    int benchmarkIterations = 300;
    /// Exit as soon as the first frame is painted (start-up time measurements).
    bool quitAfterFirstFrame = false;
    /// Do not read or write QSettings, no autosave (scripts and screenshots stay reproducible).
    bool noSettings = false;

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
