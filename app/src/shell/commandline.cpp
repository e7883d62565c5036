// CommandLine: QCommandLineParser with warpscope's options and checks.
#include "shell/commandline.h"

#include "document/tracedocument.h"
#include "experiments/experimentregistry.h"
#include "lecture/lecturescript.h"
#include "shell/exportcommand.h"
#include "views/viewkind.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <utility>
#include <vector>

namespace warpscope::app {

QStringList CommandLine::viewNames() {
    QStringList names = viewKindNames({ViewKind::Warp, ViewKind::Bank, ViewKind::Block,
                                       ViewKind::Sweep, ViewKind::Grid, ViewKind::Notes});
    for (const AppExperiment& experiment : appExperiments()) {
        names << experiment.key();
    }
    return names;
}

QStringList CommandLine::experimentResults(const QString& key) const {
    const auto it = experimentResultsFiles.find(key);
    return it == experimentResultsFiles.end() ? QStringList() : it->second;
}

namespace {

/// One of warpscope's options: its name, its --help line (in the "warpscope" translation
/// context) and, where it takes a value, the value's name.
QCommandLineOption commandOption(const char* name, const char* help,
                                 const char* valueName = nullptr) {
    const QString description = QCoreApplication::translate("warpscope", help);
    return valueName == nullptr ? QCommandLineOption(QString::fromLatin1(name), description)
                                : QCommandLineOption(QString::fromLatin1(name), description,
                                                     QString::fromLatin1(valueName));
}

} // namespace

std::optional<QString> CommandLine::parse(const QStringList& arguments, CommandLine& out) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "warpscope", "Draws a CUDA warp's memory accesses over lines, sectors and banks."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("session"),
        QCoreApplication::translate(
            "warpscope", "A .warpscope session, a kernel file (the .json that warpscope-cli "
                         "analyze-kernel reads) or a .wstrace trace, to open."),
        QStringLiteral("[session]"));
    const QCommandLineOption preset =
        commandOption("preset", "Start with the built-in preset ID.", "ID");
    const QCommandLineOption view = commandOption(
        "view",
        "Start on a view: warp, bank, block, sweep, grid, notes or an experiment's tab "
        "(transfers, ...; exports: also metrics, figure).",
        "VIEW");
    const QCommandLineOption theme =
        commandOption("theme", "light or dark (exports: also print, the default).", "THEME");
    const QCommandLineOption screenshot =
        commandOption("screenshot", "Render the window to FILE (PNG) and exit.", "FILE");
    const QCommandLineOption geometryReport =
        commandOption("geometry-report",
                      "Write the window's layout (docks, metric tables, bank view) "
                      "as JSON to FILE and exit; with --screenshot, also a PNG.",
                      "FILE");
    const QCommandLineOption size = commandOption("size",
                                                  "Window size, WIDTHxHEIGHT; for exports "
                                                  "slide-16x9 (default), slide-4x3, column or WxH.",
                                                  "WxH");
    const QCommandLineOption benchmark =
        commandOption("benchmark", "Print redraw timings and exit.");
    const QCommandLineOption iterations =
        commandOption("iterations", "Benchmark repetitions (default 300).", "N");
    const QCommandLineOption firstFrame =
        commandOption("quit-after-first-frame", "Exit once the window has painted.");
    const QCommandLineOption noSettings =
        commandOption("no-settings", "Neither read nor write settings; no autosave.");
    const QCommandLineOption probe =
        commandOption("probe",
                      "Run this probe command for GPU measurements (default: the "
                      "warpscope-probe next to warpscope, or the one in Probe "
                      "Settings), e.g. \"ssh gpu-host warpscope-probe\".",
                      "COMMAND");
    const QCommandLineOption measure =
        commandOption("measure", "Measure the pattern on the GPU first (with --screenshot: "
                                 "the picture shows the measured overlay).");
    const QCommandLineOption benchmarkGpu =
        commandOption("benchmark-gpu", "Print the time from an edit to the measured overlay on "
                                       "screen (needs a GPU) and exit.");
    const QCommandLineOption lecture =
        commandOption("lecture", "Start in lecture mode on the course deck, or on the deck "
                                 "file given instead of a session (F11 or Esc leaves it).");
    const QCommandLineOption lectureScript =
        commandOption("lecture-script",
                      "In lecture mode, press the keys in STEPS (comma-separated, e.g. "
                      "Right,Space,capture:slide.png) and exit; implies --lecture.",
                      "STEPS");
    const QCommandLineOption kernelMeasurements = commandOption(
        "kernel-measurements",
        "Read recorded whole-kernel measurements (JSON lines of measure_kernel "
        "answers, e.g. tests/data/kernel_tables_h100.jsonl) for the notes tab; may be "
        "given more than once.",
        "FILE");
    // --transfers FILE, --streams FILE, ...: one option per experiment, from the registry.
    std::vector<std::pair<QString, QCommandLineOption>> experimentResults;
    for (const AppExperiment& experiment : appExperiments()) {
        experimentResults.emplace_back(experiment.key(),
                                       QCommandLineOption(experiment.resultsOption(),
                                                          experiment.texts().resultsOptionHelp,
                                                          QStringLiteral("FILE")));
    }
    const QCommandLineOption probeDevice =
        commandOption("probe-device",
                      "Measure on these GPUs of the probe's machine (device "
                      "indexes, comma-separated, e.g. 0,1): with --measure, on "
                      "each in turn, so that one session holds both.",
                      "LIST");
    const QCommandLineOption saveSession =
        commandOption("save-session",
                      "Save the session to FILE once measured (it opens on a "
                      "machine without a GPU).",
                      "FILE");
    parser.addOption(geometryReport);
    parser.addOptions({preset, view, theme, screenshot, size, benchmark, iterations, firstFrame,
                       noSettings, probe, measure, benchmarkGpu, lecture, lectureScript,
                       kernelMeasurements, probeDevice, saveSession});
    for (const auto& [key, option] : experimentResults) {
        parser.addOption(option);
    }
    const QCommandLineOption streamCount = commandOption(
        "stream-count", "The stream count the Streams tab draws (1 to 8; default 4).", "N");
    parser.addOption(streamCount);
    const QCommandLineOption tracePc =
        commandOption("trace-pc",
                      "With a trace: show the instruction at PC (hex 0x2a0 or "
                      "decimal) of its first launch instead of the worst one.",
                      "PC");
    parser.addOption(tracePc);
    const QList<QCommandLineOption> exportOptions = figureExportOptions();
    parser.addOptions(exportOptions);
    if (!parser.parse(arguments)) {
        return parser.errorText();
    }
    if (parser.isSet(QStringLiteral("help"))) {
        parser.showHelp(0); // prints and exits, as every command-line tool does
    }
    if (parser.isSet(QStringLiteral("version"))) {
        parser.showVersion();
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        return QCoreApplication::translate("warpscope", "Only one session file can be opened.");
    }
    out.sessionFile = positional.value(0);
    if (parser.isSet(tracePc)) {
        bool ok = false;
        const QString text = parser.value(tracePc);
        out.tracePc = text.startsWith(QLatin1String("0x")) ? text.mid(2).toLongLong(&ok, 16)
                                                           : text.toLongLong(&ok, 10);
        if (!ok || *out.tracePc < 0) {
            return QCoreApplication::translate(
                       "warpscope", "--trace-pc: \"%1\" is not a PC; write it as 0x2a0 or 672.")
                .arg(text);
        }
    }
    if (!out.sessionFile.isEmpty() && isTraceFile(out.sessionFile)) {
        out.traceFile = out.sessionFile;
        out.sessionFile.clear();
    }
    out.presetId = parser.value(preset);
    if (auto error = readFigureExportArguments(parser, out)) {
        return error;
    }
    if (parser.isSet(probe)) {
        out.probeCommand = parser.value(probe);
    }
    out.measure = parser.isSet(measure);
    for (const QString& part :
         parser.value(probeDevice).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int index = part.trimmed().toInt(&ok);
        if (!ok || index < 0) {
            return QCoreApplication::translate("warpscope",
                                               "--probe-device takes device indexes such as 0,1; "
                                               "\"%1\" is not one")
                .arg(part);
        }
        out.probeDevices.append(index);
    }
    out.saveSessionPath = parser.value(saveSession);
    out.kernelMeasurementsFiles = parser.values(kernelMeasurements);
    for (const auto& [key, option] : experimentResults) {
        if (parser.isSet(option)) {
            out.experimentResultsFiles[key] = parser.values(option);
        }
    }
    if (parser.isSet(streamCount)) {
        bool ok = false;
        out.streamCount = parser.value(streamCount).toInt(&ok);
        if (!ok || out.streamCount < 1 || out.streamCount > 8) {
            return QCoreApplication::translate("warpscope",
                                               "--stream-count must be a whole number from 1 to "
                                               "8; found \"%1\"")
                .arg(parser.value(streamCount));
        }
    }
    if (out.exporting) {
        out.view = parser.value(view);
        out.theme = parser.value(theme);
        out.noSettings = true;
        return std::nullopt; // checked by parseExportRequest()
    }
    out.view = parser.value(view);
    if (!out.view.isEmpty() && !viewNames().contains(out.view)) {
        return QCoreApplication::translate("warpscope", "Unknown view \"%1\": use %2.")
            .arg(out.view, viewNames().join(QLatin1String(", ")));
    }
    out.theme = parser.value(theme);
    if (!out.theme.isEmpty() && out.theme != QLatin1String("light") &&
        out.theme != QLatin1String("dark")) {
        return QCoreApplication::translate("warpscope", "Unknown theme \"%1\": use light or dark.")
            .arg(out.theme);
    }
    out.screenshotPath = parser.value(screenshot);
    out.geometryReportPath = parser.value(geometryReport);
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(QLatin1Char('x'));
        bool okWidth = false;
        bool okHeight = false;
        const int width = parts.value(0).toInt(&okWidth);
        const int height = parts.value(1).toInt(&okHeight);
        if (parts.size() != 2 || !okWidth || !okHeight || width < 320 || height < 240 ||
            width > 8192 || height > 8192) {
            return QCoreApplication::translate(
                       "warpscope",
                       "--size wants WIDTHxHEIGHT between 320x240 and 8192x8192, not \"%1\".")
                .arg(parser.value(size));
        }
        out.windowSize = QSize(width, height);
    }
    out.benchmark = parser.isSet(benchmark);
    if (parser.isSet(iterations)) {
        bool ok = false;
        out.benchmarkIterations = parser.value(iterations).toInt(&ok);
        if (!ok || out.benchmarkIterations < 10 || out.benchmarkIterations > 100000) {
            return QCoreApplication::translate("warpscope",
                                               "--iterations wants a number from 10 to 100000.");
        }
    }
    out.quitAfterFirstFrame = parser.isSet(firstFrame);
    out.benchmarkGpu = parser.isSet(benchmarkGpu);
    out.lectureScript = parser.value(lectureScript);
    out.lecture = parser.isSet(lecture) || parser.isSet(lectureScript);
    if (parser.isSet(lectureScript)) {
        if (const QString problem = checkLectureScript(out.lectureScript); !problem.isEmpty()) {
            return problem;
        }
    }
    if (out.lecture) {
        out.lectureDeck = out.sessionFile;
        out.sessionFile.clear();
    }
    // A geometry report is about the start the settings make (a first start with none).
    out.noSettings = parser.isSet(noSettings) || out.benchmark || out.benchmarkGpu ||
                     (!out.screenshotPath.isEmpty() && out.geometryReportPath.isEmpty()) ||
                     out.quitAfterFirstFrame || !out.lectureScript.isEmpty();
    return std::nullopt;
}

} // namespace warpscope::app
