// Headless figure export from the command line:
//   warpscope --export OUT.{svg,pdf,png,tex} --preset ID | --session FILE
//             [--view warp|bank|block|sweep|metrics|figure] [--views warp,bank]
//             [--size slide-16x9|slide-4x3|column|WxH] [--theme print|light|dark] [--dpi N]
//             [--title TEXT] [--caption TEXT] [--tikz-picture]
//   warpscope --export-deck DECK.json|course --output-dir DIR [--format svg|pdf|png|tex] ...
// No window is shown and no settings are read or written; without a display the offscreen
// platform is used. Exit status 0 on success, 2 for bad arguments, 1 when a file cannot be
// written.
#pragma once

#include "export/figureexport.h"
#include "shell/commandline.h"

#include <QCommandLineOption>
#include <QList>

#include <optional>

class QCommandLineParser;

namespace warpscope::app {

/// The options CommandLine adds for exports.
QList<QCommandLineOption> figureExportOptions();
/// Fill out.exporting and out.exportArguments from a parsed `parser`; an export option without
/// --export or --export-deck is an error.
std::optional<QString> readFigureExportArguments(const QCommandLineParser& parser,
                                                 CommandLine& out);

/// True when argv asks for an export, --help or --version (checked before QApplication exists,
/// to pick the offscreen platform when QT_QPA_PLATFORM is unset).
bool argumentsNeedNoDisplay(int argc, char** argv);

/// Rename "--session" in argv to "--session-file" (the same option) before QGuiApplication
/// exists: Qt would otherwise take "--session ID" for X11 session management and drop it.
void protectSessionArgument(int argc, char** argv);

/// Check the export's arguments and write the figure(s). Messages go to stderr (errors) and
/// stdout (the files written). Returns the exit status.
int runFigureExport(const CommandLine& options);

/// The deck `name` refers to: "course" is the shipped deck (:/decks/course.json), anything else a
/// path. On error, `*error` says why.
std::optional<Deck> loadDeck(const QString& name, QString* error);

} // namespace warpscope::app
