// Figure export: the real `warpscope` binary run headless (no QT_QPA_PLATFORM, no DISPLAY) for
// every preset in SVG, PDF and PNG, the files read back; one golden PNG; the bad-argument
// messages and exit codes; TikZ that compiles where a TeX engine is installed.
#include "coreexpectations.h"
#include "export/figureexport.h"
#include "export/figureexportdialog.h"
#include "export/tikzexport.h"
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

struct ProcessRun {
    int code = -1;
    QString out;
    QString err;
};

/// ProcessRun the warpscope binary as a script would, without a display: the export must pick the
/// offscreen platform itself. Settings go to `configHome` (tests check it stays empty).
ProcessRun runWarpscope(const QStringList& arguments, const QString& configHome = {},
                        const QString& platform = {}) {
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) {
        environment.remove(QString::fromLatin1(name));
    }
    environment.insert(QStringLiteral("QT_FONT_DPI"), QStringLiteral("96"));
    if (!platform.isEmpty()) {
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), platform);
    }
    if (!configHome.isEmpty()) {
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome);
    }
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(WARPSCOPE_APP_BINARY), arguments);
    ProcessRun run;
    if (!process.waitForFinished(170000)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("warpscope did not finish");
        return run;
    }
    run.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// A deck with every built-in preset, one slide each, default views.
QString writeAllPresetsDeck(const QDir& dir) {
    QJsonArray slides;
    for (const Preset& preset : builtinPresets()) {
        slides.append(QJsonObject{{QStringLiteral("preset"), QString::fromStdString(preset.id)}});
    }
    const QJsonObject deck{{QStringLiteral("format"), QStringLiteral("warpscope-deck")},
                           {QStringLiteral("version"), 1},
                           {QStringLiteral("title"), QStringLiteral("Every preset")},
                           {QStringLiteral("slides"), slides}};
    const QString path = dir.filePath(QStringLiteral("all-presets.json"));
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(deck).toJson());
    return path;
}

struct SvgContents {
    bool wellFormed = false;
    QString error;
    int textElements = 0;
    int imageElements = 0;
    QString widthAttribute;
    QStringList texts;
};

SvgContents readSvg(const QString& path) {
    SvgContents svg;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        svg.error = QStringLiteral("cannot open");
        return svg;
    }
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) {
            continue;
        }
        if (xml.name() == QLatin1String("svg") && svg.widthAttribute.isEmpty()) {
            svg.widthAttribute = xml.attributes().value(QLatin1String("width")).toString();
        } else if (xml.name() == QLatin1String("text")) {
            ++svg.textElements;
            svg.texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        } else if (xml.name() == QLatin1String("image")) {
            ++svg.imageElements;
        }
    }
    svg.wellFormed = !xml.hasError();
    svg.error = xml.errorString();
    return svg;
}

/// The first page's size in points, from its /MediaBox.
QSizeF pdfPageSize(const QByteArray& pdf) {
    static const QRegularExpression box(
        QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
    const QRegularExpressionMatch match = box.match(QString::fromLatin1(pdf));
    return match.hasMatch() ? QSizeF(match.captured(1).toDouble(), match.captured(2).toDouble())
                            : QSizeF();
}

/// Pages of a PDF: its /Type /Page objects (not /Pages).
int pdfPageCount(const QByteArray& pdf) {
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![s\\w])"));
    int pages = 0;
    for (auto it = page.globalMatch(QString::fromLatin1(pdf)); it.hasNext(); it.next()) {
        ++pages;
    }
    return pages;
}

/// The golden comparison, region by region: the image is cut into kTile x kTile squares and each
/// square's mean difference (of the largest channel difference per pixel, 0..255) is taken. The
/// worst square decides. A whole-image mean hides a wrong lane or digit (a few dozen pixels of a
/// 230 400-pixel image); within one 8x8 square the same change is large.
constexpr int kTile = 8;
/// The worst square may differ by this much on average. The binary's render and the golden one
/// are identical where the golden was made (worst square 0); the smallest wrong below, one digit
/// of the caption at 64 DPI, scores 13, a wrong lane 88 to 129 (measured on the development
/// container, Debian bookworm, DejaVu fonts).
constexpr double kTileTolerance = 8.0;

struct RegionDifference {
    double worstTile = 0; // mean of the worst kTile x kTile square, 0..255
    QPoint worstAt;       // its top-left corner
    int tilesOver = 0;    // squares over kTileTolerance
};

RegionDifference compareByRegion(const QImage& a, const QImage& b) {
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    RegionDifference d;
    // Squares overlap by half, so a digit that straddles a square's edge is whole in another.
    for (int top = 0; top < x.height(); top += kTile / 2) {
        for (int left = 0; left < x.width(); left += kTile / 2) {
            qint64 sum = 0;
            int pixels = 0;
            for (int row = top; row < std::min(top + kTile, x.height()); ++row) {
                const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
                const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
                for (int col = left; col < std::min(left + kTile, x.width()); ++col) {
                    sum += std::max({std::abs(qRed(p[col]) - qRed(q[col])),
                                     std::abs(qGreen(p[col]) - qGreen(q[col])),
                                     std::abs(qBlue(p[col]) - qBlue(q[col]))});
                    ++pixels;
                }
            }
            const double mean = static_cast<double>(sum) / pixels;
            d.tilesOver += mean > kTileTolerance ? 1 : 0;
            if (mean > d.worstTile) {
                d.worstTile = mean;
                d.worstAt = QPoint(left, top);
            }
        }
    }
    return d;
}

std::ostream& operator<<(std::ostream& out, const RegionDifference& d) {
    return out << "worst 8x8 square " << d.worstTile << " at (" << d.worstAt.x() << ", "
               << d.worstAt.y() << "), " << d.tilesOver << " square(s) over " << kTileTolerance;
}

/// The share (0..1) of the picture the commonest colour covers, and how many colours it has.
std::pair<double, int> colourSpread(const QImage& image) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    QHash<QRgb, int> counts;
    int largest = 0;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x) {
            largest = std::max(largest, ++counts[row[x]]);
        }
    }
    return {static_cast<double>(largest) / (rgb.width() * rgb.height()),
            static_cast<int>(counts.size())};
}

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
         {QStringLiteral("--view \"sideways\""), QStringLiteral("grid, notes or figure")}},
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

// ---- In process ----------------------------------------------------------------------------

TEST(FigureExport, SizesFormatsAndThemesByName) {
    const auto slide = figureSizeFromName(QStringLiteral("slide-16x9"));
    ASSERT_TRUE(slide);
    EXPECT_EQ(slide->pixelSize(144), QSize(1920, 1080));
    EXPECT_EQ(figureSizeFromName(QStringLiteral("slide-4x3"))->pixelSize(96), QSize(960, 720));
    EXPECT_EQ(figureSizeFromName(QStringLiteral("column"))->pixelSize(300), QSize(1050, 788));
    EXPECT_EQ(figureSizeFromName(QStringLiteral("800x600"))->pixelSize(192), QSize(1600, 1200));
    EXPECT_FALSE(figureSizeFromName(QStringLiteral("800x")));
    EXPECT_FALSE(figureSizeFromName(QStringLiteral("99999x600")));
    EXPECT_EQ(figureFormatFromName(QStringLiteral("a/b.SVG")), FigureFormat::Svg);
    EXPECT_EQ(figureFormatFromName(QStringLiteral("tex")), FigureFormat::Tex);
    EXPECT_FALSE(figureFormatFromName(QStringLiteral("x.gif")));
    EXPECT_EQ(figurePalette(FigureTheme::Print).color(QPalette::Base), QColor(Qt::white));
    EXPECT_EQ(figurePalette(FigureTheme::Print).color(QPalette::Text), QColor(Qt::black));
    EXPECT_EQ(slideFileStem(0, QStringLiteral("Row of doubles: 4- and 8-byte banks")),
              QStringLiteral("01-row-of-doubles-4-and-8-byte-banks"));
}

TEST(FigureExport, CommandLineKeepsExportValuesForTheExporter) {
    CommandLine options;
    const auto error = CommandLine::parse(
        {QStringLiteral("warpscope"), QStringLiteral("--export"), QStringLiteral("a.pdf"),
         QStringLiteral("--preset"), QStringLiteral("stride-2"), QStringLiteral("--view"),
         QStringLiteral("figure"), QStringLiteral("--size"), QStringLiteral("column"),
         QStringLiteral("--theme"), QStringLiteral("print"), QStringLiteral("--dpi"),
         QStringLiteral("300"), QStringLiteral("--session-file"), QStringLiteral("s.warpscope")},
        options);
    ASSERT_FALSE(error.has_value()) << error->toStdString();
    EXPECT_TRUE(options.exporting);
    EXPECT_TRUE(options.noSettings);
    EXPECT_EQ(options.view, QStringLiteral("figure")); // not refused as a window view
    EXPECT_EQ(options.theme, QStringLiteral("print"));
    EXPECT_EQ(options.exportArguments.size, QStringLiteral("column"));
    EXPECT_EQ(options.exportArguments.dpi, QStringLiteral("300"));
    EXPECT_EQ(options.sessionFile, QStringLiteral("s.warpscope"));

    CommandLine window;
    EXPECT_TRUE(CommandLine::parse({QStringLiteral("warpscope"), QStringLiteral("--view"),
                                    QStringLiteral("figure")},
                                   window)
                    .has_value())
        << "without --export, figure is no window view";
    char program[] = "warpscope";
    char session[] = "--session";
    char file[] = "x.warpscope";
    char* argv[] = {program, session, file, nullptr};
    protectSessionArgument(3, argv);
    EXPECT_STREQ(argv[1], "--session-file");
    EXPECT_FALSE(argumentsNeedNoDisplay(3, argv));
    char exportFlag[] = "--export=a.svg";
    char* exportArgv[] = {program, exportFlag, nullptr};
    EXPECT_TRUE(argumentsNeedNoDisplay(2, exportArgv));
}

/// The texts of an SVG's <text> elements, and where each is drawn.
struct SvgDrawing {
    struct Text {
        QString text;
        double x = 0;
        QString y;
        bool bold = false;
    };
    QStringList texts;
    std::vector<Text> placed;

    /// The texts drawn on (about) the same baseline and in the same weight as the first text
    /// equal to `first`, left to right: a row of lane numbers, bank numbers, conflict degrees.
    std::vector<Text> rowStartingWith(const QString& first, bool bold, double slack = 0) const {
        const auto start = std::find_if(placed.begin(), placed.end(), [&](const Text& t) {
            return t.text == first && t.bold == bold;
        });
        if (start == placed.end()) {
            return {};
        }
        std::vector<Text> row;
        std::copy_if(placed.begin(), placed.end(), std::back_inserter(row), [&](const Text& t) {
            return std::abs(t.y.toDouble() - start->y.toDouble()) <= slack && t.bold == bold;
        });
        std::sort(row.begin(), row.end(), [](const Text& a, const Text& b) { return a.x < b.x; });
        return row;
    }
    static std::string join(const std::vector<Text>& row) {
        QStringList result;
        for (const Text& t : row) {
            result << t.text;
        }
        return result.join(u' ').toStdString();
    }
};

SvgDrawing readSvgDrawing(const QByteArray& bytes) {
    SvgDrawing svg;
    QXmlStreamReader xml(bytes);
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) {
            continue;
        }
        if (xml.name() == QLatin1String("text")) {
            SvgDrawing::Text text;
            text.x = xml.attributes().value(QLatin1String("x")).toDouble();
            text.y = xml.attributes().value(QLatin1String("y")).toString();
            text.bold =
                xml.attributes().value(QLatin1String("font-weight")) == QLatin1String("700");
            text.text = xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
            svg.texts << text.text;
            svg.placed.push_back(text);
        }
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    return svg;
}

// The SVG figure of every preset, read back: its <text> elements say what core predicts (the
// modern model's numbers, every fetched sector with its bytes, every line and textbook
// transaction with its lanes, every bank with its conflict degree, every wavefront with its
// lanes), so a figure that draws a wrong lane, sector, bank or number fails.
TEST(FigureExport, EverySvgFigureSaysWhatCorePredicts) {
    FigureSpec spec;
    spec.size = *figureSizeFromName(QStringLiteral("slide-16x9"));
    for (const Preset& preset : builtinPresets()) {
        SCOPED_TRACE(preset.id);
        const NamedPattern named{preset.title, preset.caption, preset.pattern};
        const FigureRenderer renderer(sessionForPattern(named));
        ASSERT_FALSE(renderer.error().has_value());
        const CorePrediction core = predictFromCore(preset.pattern, TextbookOptions{});
        const bool shared = core.modern.shared.has_value();
        spec.views = QStringList{shared ? QStringLiteral("bank") : QStringLiteral("warp")};
        QString error;
        const SvgDrawing svg = readSvgDrawing(renderer.render(spec, FigureFormat::Svg, &error));
        ASSERT_TRUE(error.isEmpty()) << error.toStdString();
        const auto has = [&](const QString& text) {
            return svg.texts.contains(text) ? ::testing::AssertionSuccess()
                                            : ::testing::AssertionFailure()
                                                  << "no <text> \"" << text.toStdString() << "\"";
        };
        const auto hasContaining = [&](const QString& text) {
            for (const QString& t : svg.texts) {
                if (t.contains(text)) {
                    return ::testing::AssertionSuccess();
                }
            }
            return ::testing::AssertionFailure()
                   << "no <text> containing \"" << text.toStdString() << "\"";
        };
        EXPECT_TRUE(hasContaining(expectedModernSummary(core.modern)));
        EXPECT_TRUE(hasContaining(expectedAccess(core.access)));
        if (!shared) {
            const GlobalPrediction& g = *core.modern.global;
            for (const SectorUse& sector : g.sectorList) {
                const int index = static_cast<int>((sector.address % kLineBytes) / kSectorBytes);
                EXPECT_TRUE(has(QStringLiteral("S%1 · %2/32 B").arg(index).arg(sector.bytesUsed)) ||
                            has(QStringLiteral("S%1").arg(index)));
            }
            for (const LineUse& line : g.lineList) {
                EXPECT_TRUE(hasContaining(QStringLiteral("line %1: %2 sector(s)")
                                              .arg(formatAddress(line.address))
                                              .arg(std::popcount(line.sectorMask))));
                EXPECT_TRUE(hasContaining(
                    QStringLiteral("used · lanes %1").arg(laneListText(line.laneMask))));
            }
            for (std::size_t i = 0; i < core.textbook.transactions.size(); ++i) {
                const Transaction& t = core.textbook.transactions[i];
                EXPECT_TRUE(has(QStringLiteral("T%1: %2 at %3 · lanes %4")
                                    .arg(i + 1)
                                    .arg(formatBytes(t.sizeBytes))
                                    .arg(formatAddress(t.address))
                                    .arg(laneListText(t.laneMask))));
            }
            // The lanes' boxes: numbered 0 to 31 left to right on one row.
            QStringList lanes;
            for (int lane = 0; lane < kWarpSize; ++lane) {
                lanes << QString::number(lane);
            }
            // An inactive lane's number sits lower in its (crossed-out) box: the lanes drawn
            // lower are exactly those core has no address for.
            const auto laneRow = svg.rowStartingWith(QStringLiteral("0"), false, 4.0);
            EXPECT_EQ(SvgDrawing::join(laneRow), lanes.join(u' ').toStdString());
            if (laneRow.size() == static_cast<std::size_t>(kWarpSize)) {
                double top = laneRow.front().y.toDouble();
                for (const auto& t : laneRow) {
                    top = std::min(top, t.y.toDouble());
                }
                for (int lane = 0; lane < kWarpSize; ++lane) {
                    const bool lower =
                        laneRow[static_cast<std::size_t>(lane)].y.toDouble() > top + 1.0;
                    EXPECT_EQ(lower, !core.access.addresses[static_cast<std::size_t>(lane)])
                        << "lane " << lane;
                }
            }
        } else {
            const SharedPrediction& sh = *core.modern.shared;
            for (std::size_t w = 0; w < sh.wavefrontList.size(); ++w) {
                const Wavefront& wavefront = sh.wavefrontList[w];
                const auto banks =
                    std::count_if(wavefront.bankWord.begin(), wavefront.bankWord.end(),
                                  [](std::int64_t word) { return word >= 0; });
                EXPECT_TRUE(has(QStringLiteral("W%1: lanes %2 · %3 bank(s)")
                                    .arg(w + 1)
                                    .arg(laneListText(wavefront.laneMask))
                                    .arg(banks)));
            }
            // The bank columns: numbered 0 to 31 left to right, and under each the number of
            // words it serves in one phase, from core's wavefronts.
            QStringList banks;
            for (int bank = 0; bank < kBankCount; ++bank) {
                banks << QString::number(bank);
            }
            EXPECT_EQ(SvgDrawing::join(svg.rowStartingWith(QStringLiteral("0"), true)),
                      banks.join(u' ').toStdString());
            std::array<std::set<std::int64_t>, kBankCount> words;
            for (const Wavefront& wavefront : sh.wavefrontList) {
                for (int bank = 0; bank < kBankCount; ++bank) {
                    if (wavefront.bankWord[static_cast<std::size_t>(bank)] >= 0) {
                        words[static_cast<std::size_t>(bank)].insert(
                            wavefront.bankWord[static_cast<std::size_t>(bank)]);
                    }
                }
            }
            if (sh.phases.size() <= 1) { // one phase: a bank's degree is its distinct words
                QStringList degrees;
                for (const auto& bankWords : words) {
                    const auto n = static_cast<int>(bankWords.size());
                    degrees << (n > 1 ? QStringLiteral("%1×").arg(n)
                                      : (n == 1 ? QStringLiteral("1") : QStringLiteral("·")));
                }
                // The degree row: the texts on the baseline just under the bank numbers.
                const auto header = std::find_if(svg.placed.begin(), svg.placed.end(),
                                                 [](const SvgDrawing::Text& t) {
                                                     return t.text == QLatin1String("0") && t.bold;
                                                 });
                ASSERT_NE(header, svg.placed.end());
                QString degreeY;
                for (const SvgDrawing::Text& t : svg.placed) {
                    if (t.y.toDouble() > header->y.toDouble() &&
                        (degreeY.isEmpty() || t.y.toDouble() < degreeY.toDouble())) {
                        degreeY = t.y;
                    }
                }
                std::vector<SvgDrawing::Text> row;
                std::copy_if(svg.placed.begin(), svg.placed.end(), std::back_inserter(row),
                             [&](const SvgDrawing::Text& t) { return t.y == degreeY; });
                std::sort(row.begin(), row.end(),
                          [](const auto& a, const auto& b) { return a.x < b.x; });
                QStringList degreeRow;
                for (const SvgDrawing::Text& t : row) {
                    degreeRow << t.text;
                }
                EXPECT_EQ(degreeRow.join(u' ').toStdString(), degrees.join(u' ').toStdString());
            }
            if (sh.worstBankDegree > 1) {
                EXPECT_TRUE(has(QStringLiteral("%1×").arg(sh.worstBankDegree)));
            }
            EXPECT_EQ(svg.texts.count(QStringLiteral("%1×").arg(sh.worstBankDegree + 1)), 0)
                << "no bank drawn with a worse conflict than core's worst";
        }
    }
}

TEST(FigureExport, RendererRefusesAnEmptySession) {
    const FigureRenderer renderer{Session{}};
    ASSERT_TRUE(renderer.error().has_value());
    QString error;
    EXPECT_TRUE(renderer.render(FigureSpec{}, FigureFormat::Svg, &error).isEmpty());
    EXPECT_FALSE(error.isEmpty());
}

} // namespace
} // namespace warpscope::app::test

// ---- In the app ----------------------------------------------------------------------------

namespace warpscope::app::test {
namespace {

QAction* menuAction(MainWindow& window, const QString& text) {
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == text) {
            return action;
        }
    }
    return nullptr;
}

class ExportInApp : public WindowTest {};

TEST_F(ExportInApp, CopyFigurePutsPngAndSvgOnTheClipboard) {
    loadPreset("shared-tile-column-padded");
    window->showView(MainWindow::View::Bank);
    QAction* copy = menuAction(*window, QStringLiteral("Copy &Figure"));
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(copy->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    QGuiApplication::clipboard()->clear();
    copy->trigger();
    const QMimeData* data = QGuiApplication::clipboard()->mimeData();
    ASSERT_NE(data, nullptr);
    ASSERT_TRUE(data->hasImage());
    EXPECT_EQ(qvariant_cast<QImage>(data->imageData()).size(), QSize(1920, 1080));
    const QByteArray svg = data->data(QStringLiteral("image/svg+xml"));
    EXPECT_TRUE(svg.contains("<svg"));
    EXPECT_TRUE(svg.contains("bank")) << "the bank view, the one shown";
    EXPECT_TRUE(window->messageBar()->text().contains(QStringLiteral("Copied")));
    EXPECT_TRUE(recordedQtWarnings().isEmpty()) << recordedQtWarnings().join(u'\n').toStdString();
}

TEST_F(ExportInApp, DialogOffersEveryChoiceAndPreviews) {
    loadPreset("readsegment-offset-11");
    QAction* exportAction = menuAction(*window, QStringLiteral("&Export Figure…"));
    ASSERT_NE(exportAction, nullptr);
    EXPECT_EQ(exportAction->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+E")));

    FigureExportDialog dialog(window->currentSession(), QStringLiteral("warp"), false);
    dialog.resize(720, 820);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    EXPECT_EQ(dialog.viewBox()->count(), 8);
    EXPECT_EQ(dialog.formatBox()->count(), 4);
    EXPECT_EQ(dialog.sizeBox()->count(), 4);
    EXPECT_EQ(dialog.themeBox()->count(), 3);
    // A preview is drawn: the figure, not an empty label (many colours, none on 95 % of it).
    const auto [commonest, colours] = colourSpread(dialog.preview()->pixmap().toImage());
    EXPECT_GE(colours, 32);
    EXPECT_LE(commonest, 0.95);
    EXPECT_EQ(dialog.spec().views, QStringList{QStringLiteral("warp")});

    dialog.viewBox()->setCurrentIndex(dialog.viewBox()->findData(QStringLiteral("figure")));
    dialog.formatBox()->setCurrentIndex(dialog.formatBox()->findData(QStringLiteral("png")));
    dialog.sizeBox()->setCurrentIndex(dialog.sizeBox()->findData(QStringLiteral("slide-4x3")));
    dialog.dpiBox()->setValue(200);
    const FigureSpec spec = dialog.spec();
    EXPECT_EQ(spec.views, (QStringList{QStringLiteral("warp"), QStringLiteral("metrics")}));
    EXPECT_EQ(spec.title, QStringLiteral("readSegment, offset 11"));
    EXPECT_EQ(spec.size.name, QStringLiteral("slide-4x3"));
    EXPECT_EQ(spec.dpi, 200);
    EXPECT_EQ(dialog.format(), FigureFormat::Png);
    EXPECT_TRUE(dialog.dpiBox()->isEnabled());
    QApplication::processEvents();
    // For looking at: build/<preset>/tests/app/export-dialog.png.
    dialog.grab().save(QCoreApplication::applicationDirPath() +
                       QStringLiteral("/export-dialog.png"));
    EXPECT_TRUE(recordedQtWarnings().isEmpty()) << recordedQtWarnings().join(u'\n').toStdString();
}

} // namespace
} // namespace warpscope::app::test
