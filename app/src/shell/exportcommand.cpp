// The --export and --export-deck modes: argument checks with messages that say what to write
// instead, then FigureRenderer and writeFigure for each file.
#include "shell/exportcommand.h"

#include "document/sessionfile.h"
#include "gpu/notesexperiment.h"
#include "gpu/sessionmeasurement.h"
#include "panels/presetpicker.h"
#include "views/kernelsweepview.h"
#include "views/viewkind.h"

#include <warpscope/file_format.h>
#include <warpscope/kernel_preset.h>
#include <warpscope/preset.h>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <cstring>

namespace warpscope::app {

namespace {

QString trExportCommand(const char* text) {
    return QCoreApplication::translate("warpscope", text);
}

const QCommandLineOption& option(const char* name) {
    static const QList<QCommandLineOption> options = figureExportOptions();
    for (const QCommandLineOption& o : options) {
        if (o.names().front() == QLatin1String(name)) {
            return o;
        }
    }
    Q_UNREACHABLE();
}

void printError(const QString& message) {
    std::fprintf(stderr, "warpscope: %s\n", qPrintable(message));
}

/// The figure settings shared by --export and --export-deck.
struct CommonSpec {
    FigureSpec spec;
    std::optional<FigureFormat> format;
};

std::optional<QString> readCommon(const CommandLine& options, CommonSpec& out) {
    const CommandLine::ExportArguments& a = options.exportArguments;
    if (!a.size.isEmpty()) {
        const auto size = figureSizeFromName(a.size);
        if (!size) {
            return trExportCommand(
                       "--size \"%1\" is not a figure size: use slide-16x9, slide-4x3, column or "
                       "WIDTHxHEIGHT in pixels at 96 DPI (200x150 to 8192x8192).")
                .arg(a.size);
        }
        out.spec.size = *size;
    }
    if (!options.theme.isEmpty()) {
        const auto theme = figureThemeFromName(options.theme);
        if (!theme) {
            return trExportCommand(
                       "--theme \"%1\" is not a figure theme: use print, light or dark.")
                .arg(options.theme);
        }
        out.spec.theme = *theme;
    }
    if (!a.dpi.isEmpty()) {
        bool ok = false;
        const int dpi = a.dpi.toInt(&ok);
        if (!ok || dpi < kMinFigureDpi || dpi > kMaxFigureDpi) {
            return trExportCommand(
                       "--dpi \"%1\" is out of range: use a whole number from %2 to %3.")
                .arg(a.dpi)
                .arg(kMinFigureDpi)
                .arg(kMaxFigureDpi);
        }
        out.spec.dpi = dpi;
    }
    return std::nullopt;
}

std::optional<QString> readViews(const CommandLine& options, bool& composed, QStringList& views) {
    composed = false;
    views.clear();
    const QStringList known = figureViewNames();
    if (!options.view.isEmpty()) {
        if (options.view == viewKindName(ViewKind::Figure)) {
            composed = true;
        } else if (known.contains(options.view)) {
            views << options.view;
        } else {
            return trExportCommand("--view \"%1\" is not a view: use %2 or figure.")
                .arg(options.view, known.join(QStringLiteral(", ")));
        }
    }
    const QString list = options.exportArguments.views;
    if (!list.isEmpty()) {
        if (!options.view.isEmpty() && !composed) {
            return trExportCommand(
                       "--view %1 and --views both name views: give one of them (--view figure "
                       "--views warp,bank composes a figure).")
                .arg(options.view);
        }
        views.clear();
        for (const QString& name : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString view = name.trimmed();
            if (!known.contains(view)) {
                return trExportCommand(
                           "--views names \"%1\", which is not a view: use a comma-separated list "
                           "of %2.")
                    .arg(view, known.join(QStringLiteral(", ")));
            }
            views << view;
        }
        if (views.isEmpty() || views.size() > 4) {
            return trExportCommand("--views wants one to four views, such as warp,metrics.");
        }
    }
    return std::nullopt;
}

int writeOne(const FigureRenderer& renderer, const FigureSpec& spec, const QString& path) {
    if (auto error = writeFigure(renderer, spec, path)) {
        printError(*error);
        return 1;
    }
    std::printf("warpscope: wrote %s\n", qPrintable(QDir::toNativeSeparators(path)));
    return 0;
}

int exportSingle(const CommandLine& options, CommonSpec common) {
    const CommandLine::ExportArguments& a = options.exportArguments;
    const auto format = figureFormatFromName(a.output);
    if (!format || QFileInfo(a.output).suffix().isEmpty()) {
        printError(trExportCommand(
                       "--export \"%1\": cannot tell the format; end the file name in .svg, .pdf, "
                       ".png or .tex.")
                       .arg(a.output));
        return 2;
    }
    if (!a.format.isEmpty() && figureFormatFromName(a.format) != format) {
        printError(trExportCommand(
                       "--format %1 disagrees with the file name %2: drop --format (the suffix "
                       "decides) or rename the file.")
                       .arg(a.format, a.output));
        return 2;
    }
    if (!a.outputDir.isEmpty()) {
        printError(trExportCommand(
            "--output-dir belongs to --export-deck; with --export give the whole path."));
        return 2;
    }
    Session session;
    if (!options.sessionFile.isEmpty() && !options.presetId.isEmpty()) {
        printError(
            trExportCommand("--preset and --session both name a pattern: give one of them."));
        return 2;
    }
    if (!options.sessionFile.isEmpty()) {
        auto read = readSessionFile(options.sessionFile);
        if (!read) {
            printError(
                trExportCommand("--session %1: %2")
                    .arg(options.sessionFile, QString::fromStdString(read.error().describe())));
            return 2;
        }
        session = std::move(read).value();
    } else if (options.presetId.startsWith(QLatin1String(kKernelPresetPrefix))) {
        // A kernel preset: its first access, as the window shows it (the grid view draws the
        // whole launch).
        const QString id = options.presetId.mid(static_cast<int>(qstrlen(kKernelPresetPrefix)));
        const KernelPreset* preset = findKernelPreset(id.toStdString());
        auto pattern = preset != nullptr
                           ? patternFromKernel(preset->kernel, 0)
                           : Result<Pattern>(Error{ErrorCode::InvalidValue, "", 0, ""});
        if (preset == nullptr || !pattern) {
            printError(
                trExportCommand(
                    "--preset \"%1\" is not a kernel preset (e.g. kernel:transpose-naivecol).")
                    .arg(options.presetId));
            return 2;
        }
        session = sessionForPattern({preset->title + ": " + preset->kernel.accesses.front().label,
                                     preset->caption, pattern.value()});
        // The sweep view sweeps the whole kernel, as the window's sweep tab does.
        session.viewSettings[kSweepKernelPresetSetting] = id.toStdString();
    } else if (!options.presetId.isEmpty()) {
        const Preset* preset = findPreset(options.presetId.toStdString());
        if (preset == nullptr) {
            printError(trExportCommand(
                           "--preset \"%1\" is not a built-in preset; the list is in the app's "
                           "preset picker and docs/guide (e.g. readsegment-offset-11).")
                           .arg(options.presetId));
            return 2;
        }
        session = sessionForPattern({preset->title, preset->caption, preset->pattern});
    } else {
        printError(trExportCommand("--export needs a pattern: add --preset ID or --session FILE."));
        return 2;
    }

    if (options.measure) {
        if (auto why = measureSessionEntry(session, options.probeCommand)) {
            printError(trExportCommand("--measure: %1").arg(*why));
            return 1;
        }
    }

    bool composed = false;
    QStringList views;
    if (auto error = readViews(options, composed, views)) {
        printError(*error);
        return 2;
    }
    const FigureRenderer renderer(session);
    if (auto error = renderer.error()) {
        printError(trExportCommand("cannot draw the pattern: %1").arg(*error));
        return 2;
    }
    FigureSpec spec = common.spec;
    if (composed) {
        if (views.isEmpty()) {
            views = {renderer.isSharedMemory() ? viewKindName(ViewKind::Bank)
                                               : viewKindName(ViewKind::Warp),
                     viewKindName(ViewKind::Metrics)};
        }
        spec.title = a.title.isEmpty() ? renderer.patternTitle() : a.title;
        spec.caption = a.caption.isEmpty() ? renderer.patternCaption() : a.caption;
    } else {
        spec.title = a.title;
        spec.caption = a.caption;
    }
    if (!views.isEmpty()) {
        spec.views = views;
    }
    if (*format == FigureFormat::Tex && !spec.views.contains(viewKindName(ViewKind::Warp)) &&
        !spec.views.contains(viewKindName(ViewKind::Bank)) &&
        !spec.views.contains(viewKindName(ViewKind::Notes))) {
        printError(trExportCommand(
            "TikZ export draws the warp or the bank diagram, or the notes' bar chart: "
            "use --view warp, bank, notes or figure with a .tex file."));
        return 2;
    }
    return writeOne(renderer, spec, a.output);
}

int exportDeck(const CommandLine& options, CommonSpec common) {
    const CommandLine::ExportArguments& a = options.exportArguments;
    if (a.outputDir.isEmpty()) {
        printError(trExportCommand(
            "--export-deck needs --output-dir DIR: the folder the slides' files go to."));
        return 2;
    }
    FigureFormat format = FigureFormat::Pdf;
    if (!a.format.isEmpty()) {
        const auto named = figureFormatFromName(a.format);
        if (!named || a.format.contains(QLatin1Char('.'))) {
            printError(trExportCommand("--format \"%1\" is not a format: use svg, pdf, png or tex.")
                           .arg(a.format));
            return 2;
        }
        format = *named;
    }
    if (!options.view.isEmpty() || !a.views.isEmpty() || !options.presetId.isEmpty() ||
        !options.sessionFile.isEmpty()) {
        printError(trExportCommand(
            "--export-deck takes the views and patterns from the deck: drop --view, "
            "--views, --preset and --session."));
        return 2;
    }
    QString error;
    const auto deck = loadDeck(a.deck, &error);
    if (!deck) {
        printError(error);
        return 2;
    }
    if (!QDir().mkpath(a.outputDir)) {
        printError(
            trExportCommand("cannot create the folder %1: check the path and its permissions.")
                .arg(QDir::toNativeSeparators(a.outputDir)));
        return 1;
    }
    const QDir dir(a.outputDir);
    int status = 0;
    for (std::size_t i = 0; i < deck->slides.size(); ++i) {
        const DeckSlide& slide = deck->slides[i];
        Session slideSession = sessionForPattern(slide.pattern);
        if (!slide.notesExperiment.empty()) {
            slideSession.viewSettings[kNotesExperimentSetting] = slide.notesExperiment;
        }
        const FigureRenderer renderer(slideSession);
        const QString title = QString::fromStdString(slide.title);
        const QString path = dir.filePath(slideFileStem(static_cast<int>(i), title) +
                                          QLatin1Char('.') + figureFormatSuffix(format));
        if (auto problem = renderer.error()) {
            printError(trExportCommand("slide %1 (%2): %3").arg(i + 1).arg(title, *problem));
            status = 1;
            continue;
        }
        FigureSpec spec = common.spec;
        spec.title = title;
        spec.caption = QString::fromStdString(slide.caption);
        spec.views.clear();
        for (const std::string& view : slide.views) {
            spec.views << QString::fromStdString(view);
        }
        if (format == FigureFormat::Tex && !spec.views.contains(viewKindName(ViewKind::Warp)) &&
            !spec.views.contains(viewKindName(ViewKind::Bank))) {
            spec.views << viewKindName(ViewKind::Warp); // the diagram for the slide's memory space
        }
        status = std::max(status, writeOne(renderer, spec, path));
    }
    return status;
}

} // namespace

QList<QCommandLineOption> figureExportOptions() {
    return {
        QCommandLineOption(
            QStringLiteral("export"),
            trExportCommand("Write a figure to FILE (.svg, .pdf, .png or .tex for TikZ) without "
                            "a window and exit. Needs --preset or --session."),
            QStringLiteral("FILE")),
        // "session-file": runWarpscope() renames --session to it before QGuiApplication, which
        // would take "--session ID" as X11 session management and remove it.
        QCommandLineOption(QStringList{QStringLiteral("session"), QStringLiteral("session-file")},
                           trExportCommand("The session whose current pattern --export draws."),
                           QStringLiteral("FILE")),
        QCommandLineOption(QStringLiteral("views"),
                           trExportCommand("Views side by side in an export, e.g. warp,metrics."),
                           QStringLiteral("LIST")),
        QCommandLineOption(
            QStringLiteral("dpi"),
            trExportCommand("PNG resolution (default 144: a 16:9 slide is 1920x1080)."),
            QStringLiteral("N")),
        QCommandLineOption(
            QStringLiteral("title"),
            trExportCommand("Title above an exported figure (default for --view figure: the "
                            "pattern's)."),
            QStringLiteral("TEXT")),
        QCommandLineOption(
            QStringLiteral("caption"),
            trExportCommand("Caption under an exported figure (default for --view figure: the "
                            "pattern's)."),
            QStringLiteral("TEXT")),
        QCommandLineOption(
            QStringLiteral("tikz-picture"),
            trExportCommand("With .tex: only the styles and the tikzpicture, to \\input (default: "
                            "a whole document).")),
        QCommandLineOption(
            QStringLiteral("export-deck"),
            trExportCommand("Write one figure per slide of DECK (a .json deck, or \"course\" for "
                            "the shipped one) into --output-dir and exit."),
            QStringLiteral("DECK")),
        QCommandLineOption(QStringLiteral("output-dir"),
                           trExportCommand("Folder for --export-deck's files (NN-title.FORMAT)."),
                           QStringLiteral("DIR")),
        QCommandLineOption(
            QStringLiteral("format"),
            trExportCommand("--export-deck's format: svg, pdf (default), png or tex."),
            QStringLiteral("FORMAT")),
    };
}

std::optional<QString> readFigureExportArguments(const QCommandLineParser& parser,
                                                 CommandLine& out) {
    CommandLine::ExportArguments& a = out.exportArguments;
    a.output = parser.value(option("export"));
    a.deck = parser.value(option("export-deck"));
    a.outputDir = parser.value(option("output-dir"));
    a.format = parser.value(option("format"));
    a.views = parser.value(option("views"));
    a.dpi = parser.value(option("dpi"));
    a.title = parser.value(option("title"));
    a.caption = parser.value(option("caption"));
    a.tikzPicture = parser.isSet(option("tikz-picture"));
    a.size = parser.value(QStringLiteral("size"));
    out.exporting = parser.isSet(option("export")) || parser.isSet(option("export-deck"));
    if (parser.isSet(option("session"))) {
        if (!out.sessionFile.isEmpty()) {
            return trExportCommand(
                "Give the session once: either as --session FILE or as the last argument.");
        }
        out.sessionFile = parser.value(option("session"));
    }
    if (!out.exporting) {
        for (const char* name :
             {"views", "dpi", "title", "caption", "tikz-picture", "output-dir", "format"}) {
            if (parser.isSet(option(name))) {
                return trExportCommand(
                           "--%1 belongs to an export: add --export FILE or --export-deck DECK.")
                    .arg(QLatin1String(name));
            }
        }
    } else if (parser.isSet(option("export")) && parser.isSet(option("export-deck"))) {
        return trExportCommand(
            "--export and --export-deck cannot be combined: run warpscope once for each.");
    }
    return std::nullopt;
}

void protectSessionArgument(int argc, char** argv) {
    static char renamed[] = "--session-file";
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--session") == 0) {
            argv[i] = renamed;
        }
    }
}

bool argumentsNeedNoDisplay(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        for (const char* flag : {"--export", "--export-deck", "-export", "-export-deck", "--help",
                                 "-h", "--help-all", "--version", "-v"}) {
            const std::size_t n = std::strlen(flag);
            if (std::strncmp(argv[i], flag, n) == 0 && (argv[i][n] == '\0' || argv[i][n] == '=')) {
                return true;
            }
        }
    }
    return false;
}

std::optional<Deck> loadDeck(const QString& name, QString* error) {
    const QString path =
        name == QLatin1String("course") ? QStringLiteral(":/decks/course.json") : name;
    QByteArray text;
    if (path.startsWith(QLatin1String(":/"))) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error =
                trExportCommand("this build has no shipped course deck; give a deck file instead.");
            return std::nullopt;
        }
        text = file.readAll();
    } else {
        // The one opener: no FIFO or device blocks the export, at most the size cap is read.
        auto read = readTextFile(QFile::encodeName(path).toStdString());
        if (!read) {
            *error = trExportCommand("--export-deck %1: cannot read it (%2).")
                         .arg(name, QString::fromStdString(read.error().message));
            return std::nullopt;
        }
        text = QByteArray::fromStdString(read.value());
    }
    auto deck =
        deckFromJsonText(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    if (!deck) {
        *error = trExportCommand("--export-deck %1: %2")
                     .arg(name, QString::fromStdString(deck.error().describe()));
        return std::nullopt;
    }
    return std::move(deck).value();
}

int runFigureExport(const CommandLine& options) {
    CommonSpec common;
    if (auto error = readCommon(options, common)) {
        printError(*error);
        return 2;
    }
    common.spec.tikzStandalone = !options.exportArguments.tikzPicture;
    if (!options.exportArguments.deck.isEmpty()) {
        return exportDeck(options, common);
    }
    return exportSingle(options, common);
}

} // namespace warpscope::app
