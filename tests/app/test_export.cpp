// Figure export: the real `warpscope` binary run headless (no QT_QPA_PLATFORM, no DISPLAY) for
// every preset in SVG, PDF and PNG, the files read back; one golden PNG; the bad-argument
// messages and exit codes; TikZ that compiles where a TeX engine is installed. The export in
// process and from the app's menus is tested in test_export_in_process.cpp.
#include "coreexpectations.h"
#include "export/figureexport.h"
#include "export/figureexportdialog.h"
#include "export/tikzexport.h"
#include "exporthelpers.h"
#include "panels/messagebar.h"
#include "shell/commandline.h"
#include "shell/exportcommand.h"
#include "windowfixture.h"

#include <warpscope/preset.h>

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMimeData>
#include <QProcess>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <set>

namespace warpscope::app::test {
namespace {

// ---- Every preset, every vector and raster format ------------------------------------------

TEST(ExportHeadless, EveryPresetInSvgPdfAndPngReadsBack) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QDir dir(temp.path());
    const QString deck = writeAllPresetsDeck(dir);
    const QString config = dir.filePath(QStringLiteral("config"));
    const auto& presets = builtinPresets();
    ASSERT_GT(presets.size(), 10u);
    QString deckError;
    const std::optional<Deck> loadedDeck = loadDeck(deck, &deckError);
    ASSERT_TRUE(loadedDeck.has_value()) << deckError.toStdString();
    ASSERT_EQ(loadedDeck->slides.size(), presets.size());

    struct Case {
        QString format;
        QStringList extra;
    };
    const Case cases[] = {
        {QStringLiteral("svg"), {}},
        {QStringLiteral("pdf"), {QStringLiteral("--size"), QStringLiteral("slide-4x3")}},
        {QStringLiteral("png"),
         {QStringLiteral("--size"), QStringLiteral("column"), QStringLiteral("--dpi"),
          QStringLiteral("120")}},
    };
    for (const Case& c : cases) {
        const QString out = dir.filePath(c.format);
        QStringList arguments{QStringLiteral("--export-deck"), deck,
                              QStringLiteral("--output-dir"),  out,
                              QStringLiteral("--format"),      c.format};
        arguments += c.extra;
        const ProcessRun run = runWarpscope(arguments, config);
        ASSERT_EQ(run.code, 0) << c.format.toStdString() << ": " << run.err.toStdString();
        const QStringList files =
            QDir(out).entryList({QStringLiteral("*.") + c.format}, QDir::Files, QDir::Name);
        ASSERT_EQ(files.size(), static_cast<qsizetype>(presets.size())) << c.format.toStdString();

        for (std::size_t i = 0; i < presets.size(); ++i) {
            const Preset& preset = presets[i];
            const QString file = QDir(out).filePath(files[static_cast<qsizetype>(i)]);
            SCOPED_TRACE(preset.id + " -> " + file.toStdString());
            EXPECT_EQ(QFileInfo(file).fileName(),
                      slideFileStem(static_cast<int>(i), QString::fromStdString(preset.title)) +
                          QLatin1Char('.') + c.format);
            const bool shared = preset.pattern.kind.space == MemorySpace::Shared;
            if (c.format == QLatin1String("svg")) {
                const SvgContents svg = readSvg(file);
                ASSERT_TRUE(svg.wellFormed) << svg.error.toStdString();
                EXPECT_GT(svg.textElements, 20) << "text must stay text";
                EXPECT_EQ(svg.imageElements, 0) << "no embedded bitmap";
                EXPECT_EQ(svg.widthAttribute, QStringLiteral("13.3333in"));
                EXPECT_TRUE(svg.texts.contains(QStringLiteral("31"))) << "lane 31's number";
                const QString all = svg.texts.join(QLatin1Char(' '));
                EXPECT_TRUE(
                    all.contains(shared ? QStringLiteral("bank") : QStringLiteral("sector")))
                    << all.left(300).toStdString();
            } else if (c.format == QLatin1String("pdf")) {
                const QByteArray pdf = readAll(file);
                EXPECT_TRUE(pdf.startsWith("%PDF-"));
                EXPECT_EQ(pdfPageCount(pdf), 1);
                EXPECT_TRUE(pdf.contains("/Count 1"));
                EXPECT_TRUE(pdf.contains("/FontFile")) << "text is set in embedded fonts";
                EXPECT_FALSE(pdf.contains("/Subtype /Image")) << "no embedded bitmap";
                EXPECT_EQ(pdfPageSize(pdf), QSizeF(720, 540)) << "10 x 7.5 in";
            } else {
                QImage image;
                ASSERT_TRUE(image.load(file));
                EXPECT_EQ(image.size(), QSize(420, 315)) << "3.5 x 2.625 in at 120 DPI";
                EXPECT_EQ(image.dotsPerMeterX(), qRound(120 / 0.0254));
                EXPECT_EQ(image.dotsPerMeterY(), qRound(120 / 0.0254));
                // Not blank: a drawn figure has many colours, none covering nearly all of it.
                const auto [commonest, colours] = colourSpread(image);
                EXPECT_GE(colours, 32);
                EXPECT_LE(commonest, 0.95);
                // The slide's views drawn for its pattern: the same, square by square, as the
                // figure rendered here, and not the other memory space's view.
                const DeckSlide& slide = loadedDeck->slides[i];
                FigureSpec spec;
                spec.size = *figureSizeFromName(QStringLiteral("column"));
                spec.dpi = 120;
                spec.title = QString::fromStdString(slide.title);
                spec.caption = QString::fromStdString(slide.caption);
                spec.views.clear();
                for (const std::string& view : slide.views) {
                    spec.views << QString::fromStdString(view);
                }
                const FigureRenderer renderer(sessionForPattern(slide.pattern));
                const RegionDifference same = compareByRegion(image, renderer.renderImage(spec));
                EXPECT_LE(same.worstTile, kTileTolerance) << same;
                FigureSpec other = spec;
                other.views = QStringList{shared ? QStringLiteral("warp") : QStringLiteral("bank")};
                const RegionDifference wrongView =
                    compareByRegion(image, renderer.renderImage(other));
                EXPECT_GT(wrongView.worstTile, kTileTolerance) << wrongView;
            }
        }
    }
    EXPECT_FALSE(QFileInfo::exists(config)) << "exports neither read nor write settings";
}

TEST(ExportHeadless, ComposedFigureAndExplicitSizes) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QDir dir(temp.path());
    const QString pdf = dir.filePath(QStringLiteral("figure.pdf"));
    ProcessRun run =
        runWarpscope({QStringLiteral("--export"), pdf, QStringLiteral("--preset"),
                      QStringLiteral("readsegment-offset-11"), QStringLiteral("--view"),
                      QStringLiteral("figure"), QStringLiteral("--size"), QStringLiteral("column"),
                      QStringLiteral("--caption"), QStringLiteral("Offset eleven")});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("wrote"))) << run.out.toStdString();
    const QByteArray bytes = readAll(pdf);
    EXPECT_EQ(pdfPageCount(bytes), 1);
    EXPECT_EQ(pdfPageSize(bytes), QSizeF(252, 189)) << "3.5 x 2.625 in";

    const QString svg = dir.filePath(QStringLiteral("figure.svg"));
    run = runWarpscope({QStringLiteral("--export"), svg, QStringLiteral("--preset"),
                        QStringLiteral("shared-tile-column"), QStringLiteral("--view"),
                        QStringLiteral("figure"), QStringLiteral("--views"),
                        QStringLiteral("bank,metrics,sweep"), QStringLiteral("--size"),
                        QStringLiteral("1000x600"), QStringLiteral("--caption"),
                        QStringLiteral("Thirty-two-way conflict"), QStringLiteral("--theme"),
                        QStringLiteral("dark")});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    const SvgContents contents = readSvg(svg);
    ASSERT_TRUE(contents.wellFormed);
    EXPECT_EQ(contents.imageElements, 0);
    const QString all = contents.texts.join(QLatin1Char(' '));
    EXPECT_TRUE(all.contains(QStringLiteral("Thirty-two-way conflict")));
    EXPECT_TRUE(all.contains(QStringLiteral("Wavefronts"))) << "the metrics table";
    EXPECT_EQ(contents.widthAttribute, QStringLiteral("10.4167in")) << "1000 px at 96 DPI";

    const QString fromSession = dir.filePath(QStringLiteral("session.svg"));
    run = runWarpscope({QStringLiteral("--export"), fromSession, QStringLiteral("--session"),
                        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/files/good_session.json"),
                        QStringLiteral("--view"), QStringLiteral("metrics")});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    EXPECT_TRUE(readSvg(fromSession).texts.contains(QStringLiteral("Quantity")));

    const QString png = dir.filePath(QStringLiteral("slide.png"));
    run = runWarpscope(
        {QStringLiteral("--export"), png, QStringLiteral("--preset"), QStringLiteral("stride-2")});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    QImage image;
    ASSERT_TRUE(image.load(png));
    EXPECT_EQ(image.size(), QSize(1920, 1080)) << "16:9 slide at the default 144 DPI";
}

// ---- Golden figure -------------------------------------------------------------------------

const QString& goldenFigurePath() {
    static const QString path =
        QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/golden/readsegment-offset-11-warp.png");
    return path;
}

/// The golden figure's spec: the warp view, print theme, 960x540 at 64 DPI.
FigureSpec goldenFigureSpec() {
    FigureSpec spec;
    spec.views = QStringList{QStringLiteral("warp")};
    spec.size = *figureSizeFromName(QStringLiteral("960x540"));
    spec.theme = FigureTheme::Print;
    spec.dpi = 64;
    return spec;
}

NamedPattern presetPattern(const char* id) {
    const Preset& preset = requirePreset(id);
    return NamedPattern{preset.title, preset.caption, preset.pattern};
}

QImage renderInProcess(const NamedPattern& pattern) {
    const FigureRenderer renderer(sessionForPattern(pattern));
    EXPECT_FALSE(renderer.error().has_value());
    return renderer.renderImage(goldenFigureSpec());
}

// The golden figure: readsegment-offset-11's warp view, print theme, 960x540 at 64 DPI (640x360
// pixels), DejaVu fonts (scripts/setup.sh installs fonts-dejavu-core) at QT_FONT_DPI=96, rendered
// by the real binary headless. Compared region by region (compareByRegion above).
// To regenerate after an intended change of the views:
//   WARPSCOPE_UPDATE_GOLDEN=1 QT_FONT_DPI=96 build/h/tests/app/warpscope-app-tests
//       --gtest_filter=ExportHeadless.GoldenFigure   (one command)
// and commit tests/data/golden/readsegment-offset-11-warp.png after looking at it.
TEST(ExportHeadless, GoldenFigure) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QString path = QDir(temp.path()).filePath(QStringLiteral("golden.png"));
    const ProcessRun run = runWarpscope(
        {QStringLiteral("--export"), path, QStringLiteral("--preset"),
         QStringLiteral("readsegment-offset-11"), QStringLiteral("--view"), QStringLiteral("warp"),
         QStringLiteral("--size"), QStringLiteral("960x540"), QStringLiteral("--dpi"),
         QStringLiteral("64"), QStringLiteral("--theme"), QStringLiteral("print")});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    const QImage image(path);
    ASSERT_EQ(image.size(), QSize(640, 360));
    if (qEnvironmentVariableIsSet("WARPSCOPE_UPDATE_GOLDEN")) {
        ASSERT_TRUE(image.save(goldenFigurePath()));
        GTEST_SKIP() << "wrote " << goldenFigurePath().toStdString();
    }
    const QImage golden(goldenFigurePath());
    ASSERT_FALSE(golden.isNull()) << "missing " << goldenFigurePath().toStdString();
    ASSERT_EQ(golden.size(), image.size());
    const RegionDifference same = compareByRegion(image, golden);
    EXPECT_LE(same.worstTile, kTileTolerance) << same;
}

// The comparison catches small wrongs, not only wild ones: three renders that are each one lane
// or one number off, drawn in process from modified patterns, are each rejected, while the same
// pattern unmodified passes.
TEST(FigureExport, TheGoldenComparisonRejectsOneWrongLaneOrNumber) {
    const QImage golden(goldenFigurePath());
    ASSERT_FALSE(golden.isNull()) << "missing " << goldenFigurePath().toStdString();
    const NamedPattern right = presetPattern("readsegment-offset-11");
    ASSERT_TRUE(right.pattern.source.has_value());

    const RegionDifference same = compareByRegion(renderInProcess(right), golden);
    EXPECT_LE(same.worstTile, kTileTolerance) << "the unmodified pattern: " << same;

    // Lane 5 inactive: a crossed-out lane, a gap in one sector, "31 of 32 lanes".
    NamedPattern lane5 = right;
    lane5.pattern.source->activeExpression = "lane != 5";
    const RegionDifference inactive = compareByRegion(renderInProcess(lane5), golden);
    EXPECT_GT(inactive.worstTile, kTileTolerance) << "lane 5 inactive: " << inactive;

    // Lane 20 on lane 21's address: one byte band less, "124 B", "77.5 %".
    NamedPattern doubled = right;
    doubled.pattern.source->addressExpression = "((gid == 20 ? 21 : gid) + offset) * 4";
    const RegionDifference moved = compareByRegion(renderInProcess(doubled), golden);
    EXPECT_GT(moved.worstTile, kTileTolerance) << "lane 20 on lane 21's address: " << moved;

    // Lanes 20 and 21 swapped: every number, sector and line the same, only two ribbons cross.
    NamedPattern swapped = right;
    swapped.pattern.source->addressExpression =
        "((gid == 20 ? 21 : gid == 21 ? 20 : gid) + offset) * 4";
    const RegionDifference crossed = compareByRegion(renderInProcess(swapped), golden);
    EXPECT_GT(crossed.worstTile, kTileTolerance) << "lanes 20 and 21 swapped: " << crossed;

    // The caption with one number wrong: "80 %" for "90 %".
    NamedPattern caption = right;
    const std::size_t at = caption.caption.find("80 %");
    ASSERT_NE(at, std::string::npos) << caption.caption;
    caption.caption[at] = '9';
    const RegionDifference number = compareByRegion(renderInProcess(caption), golden);
    EXPECT_GT(number.worstTile, kTileTolerance)
        << "caption \"" << caption.caption << "\": " << number;
}

// ---- Bad arguments --------------------------------------------------------------------------

TEST(ExportHeadless, BadArgumentsNameTheArgumentAndTheFix) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QString out = QDir(temp.path()).filePath(QStringLiteral("out.svg"));
    const QString preset = QStringLiteral("readsegment-offset-11");
    struct Case {
        QStringList arguments;
        int code;
        QStringList expected; // substrings of stderr
    };
    const QString unwritable = QStringLiteral("/nonexistent-folder-for-warpscope/out.pdf");
    const Case cases[] = {
        {{QStringLiteral("--export"), out, QStringLiteral("--preset"), QStringLiteral("no-such")},
         2,
         {QStringLiteral("--preset \"no-such\""), QStringLiteral("readsegment-offset-11")}},
        {{QStringLiteral("--export"), out, QStringLiteral("--preset"), preset,
          QStringLiteral("--view"), QStringLiteral("sideways")},
         2,
         {QStringLiteral("--view \"sideways\""), QStringLiteral("grid, notes, tile or figure")}},
        {{QStringLiteral("--export"), out, QStringLiteral("--preset"), preset,
          QStringLiteral("--views"), QStringLiteral("warp,nope")},
         2,
         {QStringLiteral("\"nope\"")}},
        {{QStringLiteral("--export"), out, QStringLiteral("--preset"), preset,
          QStringLiteral("--size"), QStringLiteral("huge")},
         2,
         {QStringLiteral("--size \"huge\""), QStringLiteral("slide-16x9")}},
        {{QStringLiteral("--export"), out, QStringLiteral("--preset"), preset,
          QStringLiteral("--size"), QStringLiteral("10x10")},
         2,
         {QStringLiteral("--size \"10x10\"")}},
        {{QStringLiteral("--export"), out, QStringLiteral("--preset"), preset,
          QStringLiteral("--dpi"), QStringLiteral("5")},
         2,
         {QStringLiteral("--dpi \"5\""), QStringLiteral("36 to 1200")}},
        {{QStringLiteral("--export"), out, QStringLiteral("--preset"), preset,
          QStringLiteral("--theme"), QStringLiteral("purple")},
         2,
         {QStringLiteral("--theme \"purple\""), QStringLiteral("print, light or dark")}},
        {{QStringLiteral("--export"), QDir(temp.path()).filePath(QStringLiteral("out.gif")),
          QStringLiteral("--preset"), preset},
         2,
         {QStringLiteral(".svg, .pdf, .png or .tex")}},
        {{QStringLiteral("--export"), out}, 2, {QStringLiteral("--preset ID or --session FILE")}},
        {{QStringLiteral("--export"), out, QStringLiteral("--session"),
          QDir(temp.path()).filePath(QStringLiteral("missing.warpscope"))},
         2,
         {QStringLiteral("missing.warpscope")}},
        {{QStringLiteral("--export"), unwritable, QStringLiteral("--preset"), preset},
         1,
         {unwritable}},
        {{QStringLiteral("--export-deck"),
          QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/decks/export-small.json")},
         2,
         {QStringLiteral("--output-dir")}},
        {{QStringLiteral("--export-deck"), QDir(temp.path()).filePath(QStringLiteral("no.json")),
          QStringLiteral("--output-dir"), temp.path()},
         2,
         {QStringLiteral("no.json")}},
        {{QStringLiteral("--export-deck"),
          QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/decks/export-small.json"),
          QStringLiteral("--output-dir"), temp.path(), QStringLiteral("--format"),
          QStringLiteral("gif")},
         2,
         {QStringLiteral("--format \"gif\"")}},
        {{QStringLiteral("--dpi"), QStringLiteral("300")},
         2,
         {QStringLiteral("--dpi belongs to an export")}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.arguments.join(QLatin1Char(' ')).toStdString());
        // Without --export the app starts as usual and needs a platform to report the error.
        const bool exporting =
            c.arguments.join(QLatin1Char(' ')).contains(QStringLiteral("--export"));
        const ProcessRun run =
            runWarpscope(c.arguments, {}, exporting ? QString() : QStringLiteral("offscreen"));
        EXPECT_EQ(run.code, c.code) << run.err.toStdString();
        for (const QString& expected : c.expected) {
            EXPECT_TRUE(run.err.contains(expected))
                << "stderr: " << run.err.toStdString() << "\nwanted: " << expected.toStdString();
        }
    }
    EXPECT_FALSE(QFileInfo::exists(out)) << "no file from a refused export";
}

TEST(ExportHeadless, HelpDocumentsTheExportFlags) {
    const ProcessRun run = runWarpscope({QStringLiteral("--help")});
    EXPECT_EQ(run.code, 0);
    for (const char* flag :
         {"--export <FILE>", "--export-deck <DECK>", "--output-dir <DIR>", "--format <FORMAT>",
          "--dpi <N>", "--views <LIST>", "--caption", "--tikz-picture", "slide-16x9", "print"}) {
        EXPECT_TRUE(run.out.contains(QLatin1String(flag))) << flag;
    }
}

TEST(ExportHeadless, DeckExportNamesFilesBySlide) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const ProcessRun run =
        runWarpscope({QStringLiteral("--export-deck"),
                      QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/decks/export-small.json"),
                      QStringLiteral("--output-dir"), temp.path() + QStringLiteral("/a/b"),
                      QStringLiteral("--format"), QStringLiteral("svg")});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    const QStringList files =
        QDir(temp.path() + QStringLiteral("/a/b")).entryList(QDir::Files, QDir::Name);
    EXPECT_EQ(files, (QStringList{QStringLiteral("01-readsegment-offset-11.svg"),
                                  QStringLiteral("02-shared-tile-padded-to-33-columns.svg"),
                                  QStringLiteral("03-stride-8-friends.svg")}));
    const SvgContents first = readSvg(temp.path() + QStringLiteral("/a/b/") + files.value(0));
    EXPECT_TRUE(first.texts.join(QLatin1Char(' ')).contains(QStringLiteral("five sectors")))
        << "the slide's caption";
}

// ---- TikZ ----------------------------------------------------------------------------------

TEST(ExportTikz, TwoPresetsCompileWithAStockTeX) {
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const QDir dir(temp.path());
    const QStringList presets = {QStringLiteral("readsegment-offset-11"),
                                 QStringLiteral("shared-tile-column")};
    QStringList documents;
    for (const QString& preset : presets) {
        const QString tex = dir.filePath(preset + QStringLiteral(".tex"));
        const ProcessRun run =
            runWarpscope({QStringLiteral("--export"), tex, QStringLiteral("--preset"), preset,
                          QStringLiteral("--view"), QStringLiteral("figure")});
        ASSERT_EQ(run.code, 0) << run.err.toStdString();
        const QString text = QString::fromUtf8(readAll(tex));
        EXPECT_TRUE(text.contains(QStringLiteral("\\documentclass{article}")));
        EXPECT_TRUE(text.contains(QStringLiteral("\\begin{tikzpicture}[ws picture]")));
        for (const char* style : {"ws lane/.style", "ws sector/.style", "ws word/.style",
                                  "ws conflict/.style", "ws link/.style"}) {
            EXPECT_TRUE(text.contains(QLatin1String(style))) << style;
        }
        documents << tex;
    }
    // From the Evaluation: the column read conflicts 32 ways in bank 0; offset 11 touches 2 lines.
    const QString bank = QString::fromUtf8(readAll(documents[1]));
    EXPECT_TRUE(bank.contains(QStringLiteral("{32$\\times$}"))) << "bank 0's 32-way conflict";
    EXPECT_EQ(bank.count(QStringLiteral("ws word=")), 32);
    const QString warp = QString::fromUtf8(readAll(documents[0]));
    EXPECT_TRUE(warp.contains(QStringLiteral("{line 0x0}")));
    EXPECT_TRUE(warp.contains(QStringLiteral("{line 0x80}")));
    EXPECT_EQ(warp.count(QStringLiteral("ws link=")), 32);

    // The picture alone, \input into a course's document.
    const QString picture = dir.filePath(QStringLiteral("picture.tex"));
    ProcessRun run = runWarpscope({QStringLiteral("--export"), picture, QStringLiteral("--preset"),
                                   presets[0], QStringLiteral("--tikz-picture")});
    ASSERT_EQ(run.code, 0) << run.err.toStdString();
    EXPECT_FALSE(readAll(picture).contains("\\documentclass"));
    const QString course = dir.filePath(QStringLiteral("course.tex"));
    {
        QFile file(course);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(
            "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n"
            "\\tikzset{ws lane/.append style={fill=yellow}}\n"
            "\\noindent\\resizebox{\\linewidth}{!}{\\input{picture.tex}}\n\\end{document}\n");
    }
    documents << course;

    QString engine = QStandardPaths::findExecutable(QStringLiteral("pdflatex"));
    if (engine.isEmpty()) {
        engine = QStandardPaths::findExecutable(QStringLiteral("lualatex"));
    }
    if (engine.isEmpty()) {
        // In CI (CI=true) scripts/setup.sh installs the TeX this needs: missing there, it fails.
        const bool ci = qEnvironmentVariable("CI") == QLatin1String("true");
        if (ci) {
            FAIL() << "no pdflatex or lualatex on PATH in CI: scripts/setup.sh installs "
                      "texlive-latex-base and texlive-pictures";
        }
        GTEST_SKIP() << "no pdflatex or lualatex on PATH: the TikZ files were written and "
                        "checked but not compiled (Debian: apt-get install texlive-latex-base "
                        "texlive-pictures, as scripts/setup.sh does)";
    }
    for (const QString& document : documents) {
        SCOPED_TRACE(document.toStdString());
        QProcess tex;
        tex.setWorkingDirectory(dir.path());
        tex.start(engine, {QStringLiteral("-interaction=nonstopmode"),
                           QStringLiteral("-halt-on-error"), QFileInfo(document).fileName()});
        ASSERT_TRUE(tex.waitForFinished(120000));
        const QString log = QString::fromUtf8(tex.readAllStandardOutput());
        EXPECT_EQ(tex.exitCode(), 0) << log.right(2000).toStdString();
        const QString pdf =
            dir.filePath(QFileInfo(document).completeBaseName() + QStringLiteral(".pdf"));
        EXPECT_TRUE(readAll(pdf).startsWith("%PDF-"));
        EXPECT_FALSE(log.contains(QStringLiteral("Overfull \\hbox")))
            << "the diagram fits the page";
    }
}

} // namespace
} // namespace warpscope::app::test
