// Exports of the whole-kernel views: the grid view (one SVG cell per run of equal warps, the
// histogram's counts as text) and the notes-vs-GPU chart (the rows' labels and both series'
// numbers), from FigureRenderer, from the command line (--export with --view grid or notes, and
// .tex for the notes' bar chart) and from the export dialog.
#include "document/gridcomputation.h"
#include "export/figureexport.h"
#include "export/figureexportdialog.h"
#include "export/tikzexport.h"
#include "gpu/kernelmeasurement.h"
#include "gpu/notesexperiment.h"
#include "views/gridview.h"
#include "windowfixture.h"

#include <warpscope/kernel.h>
#include <warpscope/kernel_preset.h>

#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <algorithm>
#include <map>

namespace warpscope::app::test {
namespace {

/// NaiveCol on a 100 x 100 matrix, block (16, 16): 7 x 7 blocks whose right and bottom edges
/// have inactive lanes, so the heat map has runs of several values.
Kernel ragged() {
    const KernelPreset* preset = findKernelPreset("transpose-naivecol");
    EXPECT_NE(preset, nullptr);
    Kernel kernel = preset != nullptr ? preset->kernel : Kernel{};
    for (Parameter& parameter : kernel.parameters) {
        if (parameter.name == "nx" || parameter.name == "ny") {
            parameter.value = 100;
        }
    }
    return kernel;
}

Session sessionOf(const Kernel& kernel) {
    auto pattern = patternFromKernel(kernel, 0);
    EXPECT_TRUE(pattern.ok());
    return sessionForPattern(
        {"NaiveCol 100 x 100", "", pattern.ok() ? pattern.value() : Pattern{}});
}

struct SvgRect {
    QString fill;
    double width = 0;
};

struct Svg {
    std::vector<SvgRect> rects;
    QStringList texts;
    bool wellFormed = false;
};

/// Every <rect> with the fill of the <g> it is in, and every <text>'s words.
Svg readSvg(const QByteArray& bytes) {
    Svg svg;
    QXmlStreamReader xml(bytes);
    std::vector<QString> fills{QStringLiteral("none")};
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const QString fill = xml.attributes().value(QLatin1String("fill")).toString();
            if (xml.name() == QLatin1String("rect")) {
                svg.rects.push_back(
                    {fill.isEmpty() ? fills.back() : fill,
                     xml.attributes().value(QLatin1String("width")).toString().toDouble()});
            } else if (xml.name() == QLatin1String("text")) {
                svg.texts
                    << xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
                continue;
            }
            fills.push_back(fill.isEmpty() ? fills.back() : fill);
        } else if (xml.isEndElement() && fills.size() > 1) {
            fills.pop_back();
        }
    }
    svg.wellFormed = !xml.hasError();
    return svg;
}

QString svgColour(const QColor& colour) {
    return colour.name(QColor::HexRgb).toLower();
}

TEST(KernelFigures, GridSvgHasOneCellPerRunOfWarpsAndTheHistogramAsText) {
    const Kernel kernel = ragged();
    GridRequest request;
    request.kernel = kernel;
    auto computed = GridComputation::compute(request);
    ASSERT_TRUE(computed.ok()) << computed.error().describe();
    const GridResult& r = computed.value();
    ASSERT_EQ(r.totalWarps, 7 * 7 * 8);
    // The runs of equal warps along each row of blocks, counted here from the values.
    const int width = static_cast<int>(r.shownBlocksX * r.warpsPerBlock);
    std::map<int, int> runsByValue;
    int runs = 0;
    for (std::size_t i = 0; i < r.values.size(); ++i) {
        if (i % static_cast<std::size_t>(width) == 0 || r.values[i] != r.values[i - 1]) {
            ++runsByValue[r.values[i]];
            ++runs;
        }
    }
    ASSERT_GE(runsByValue.size(), 3u) << "the ragged edges give several values";

    const FigureRenderer renderer(sessionOf(kernel));
    ASSERT_FALSE(renderer.error().has_value()) << qPrintable(*renderer.error());
    FigureSpec spec;
    spec.views = {QStringLiteral("grid")};
    QString error;
    const QByteArray bytes = renderer.render(spec, FigureFormat::Svg, &error);
    ASSERT_FALSE(bytes.isEmpty()) << qPrintable(error);
    const Svg svg = readSvg(bytes);
    ASSERT_TRUE(svg.wellFormed);
    EXPECT_TRUE(svg.texts.join(u' ').contains(QStringLiteral("392 warps in 7 × 7 × 1 blocks")))
        << qPrintable(svg.texts.join(u'|'));
    // Each value's colour: one rectangle per run of it, plus its histogram bar.
    int cells = 0;
    for (const auto& [value, count] : runsByValue) {
        const QString colour = svgColour(GridView::heatColour(value, r.maxValue));
        int drawn = 0;
        for (const SvgRect& rect : svg.rects) {
            drawn += rect.fill == colour && rect.width > 0 ? 1 : 0;
        }
        const int bucket = value < 0 ? 0 : value;
        const bool bar = r.prediction.histogram[static_cast<std::size_t>(bucket)] > 0;
        EXPECT_EQ(drawn, count + (bar ? 1 : 0))
            << "value " << value << ", colour " << colour.toStdString();
        cells += count;
    }
    EXPECT_EQ(cells, runs);
    // The histogram's counts are text: the whole grid's warps per sectors-per-request.
    for (int k = 0; k < kHistogramBuckets; ++k) {
        const auto n = r.prediction.histogram[static_cast<std::size_t>(k)];
        if (n > 0) {
            EXPECT_TRUE(svg.texts.contains(QString::number(n))) << "bucket " << k << ": " << n;
        }
    }
    // PNG and PDF of the same figure.
    EXPECT_TRUE(renderer.render(spec, FigureFormat::Pdf, &error).startsWith("%PDF-"));
    const QImage image = renderer.renderImage(spec);
    EXPECT_EQ(image.size(), spec.size.pixelSize(spec.dpi));
    // A launch with more runs than kMaxVectorRuns is drawn as an image instead.
    EXPECT_GT(GridView::kMaxVectorRuns, runs);
}

/// A session holding the notes tab on Table 4-11 with the recorded H100 answers.
Session notesSession() {
    KernelMeasurementStore store;
    QFile file(QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    int points = 0;
    const auto error = store.importJsonLines(file.readAll(), {}, &points);
    EXPECT_FALSE(error.has_value()) << qPrintable(error.value_or(QString()));
    EXPECT_GT(points, 0);
    Session session = sessionOf(ragged());
    session.viewSettings[kNotesExperimentSetting] = "table-4-11";
    session.viewSettings[kKernelMeasurementsSetting] =
        QJsonDocument(store.toJson()).toJson(QJsonDocument::Compact).toStdString();
    return session;
}

TEST(KernelFigures, NotesSvgAndTikzHoldEveryBarsLabelAndNumber) {
    const FigureRenderer renderer(notesSession());
    EXPECT_EQ(renderer.notesExperiment(), "table-4-11");
    FigureSpec spec;
    spec.views = {QStringLiteral("notes")};
    QString error;
    const Svg svg = readSvg(renderer.render(spec, FigureFormat::Svg, &error));
    ASSERT_TRUE(svg.wellFormed) << qPrintable(error);
    const QString words = svg.texts.join(u' ');
    EXPECT_TRUE(words.contains(QStringLiteral("Table 4-11"))) << qPrintable(words);
    EXPECT_TRUE(words.contains(QStringLiteral("NVIDIA H100 80GB HBM3"))) << qPrintable(words);
    const NotesExperiment* experiment = findNotesExperiment("table-4-11");
    ASSERT_NE(experiment, nullptr);
    ASSERT_EQ(experiment->rows.size(), 9u);
    for (const NotesExperimentRow& row : experiment->rows) {
        EXPECT_TRUE(svg.texts.contains(row.label)) << "the bar " << row.label.toStdString();
    }

    // TikZ: each row's label, the notes' and this GPU's number, the GPUs in the legend.
    spec.tikzStandalone = true;
    const QString tex = QString::fromUtf8(renderer.render(spec, FigureFormat::Tex, &error));
    ASSERT_FALSE(tex.isEmpty()) << qPrintable(error);
    EXPECT_TRUE(tex.contains(QStringLiteral("\\begin{tikzpicture}[ws picture]")));
    EXPECT_EQ(tex.count(QStringLiteral("\\draw[ws notes bar] (6,")), 9 + 1); // 9 bars, legend
    EXPECT_EQ(tex.count(QStringLiteral("\\draw[ws gpu bar] (6,")), 9 + 1);
    EXPECT_TRUE(tex.contains(QStringLiteral("this GPU (NVIDIA H100 80GB HBM3)")));
    for (const NotesExperimentRow& row : experiment->rows) {
        EXPECT_TRUE(tex.contains(QStringLiteral("{%1};").arg(row.label)))
            << row.label.toStdString();
    }
    // The (32, 32) row's numbers: the notes' 38.1 GB/s and the recorded H100's.
    const QRegularExpression firstRow(
        QStringLiteral("\\{\\(32, 32\\)\\};.*?\\{38\\.1\\};.*?\\{([0-9.]+)\\};"),
        QRegularExpression::DotMatchesEverythingOption);
    const auto match = firstRow.match(tex);
    ASSERT_TRUE(match.hasMatch()) << tex.left(3000).toStdString();
    EXPECT_GT(match.captured(1).toDouble(), 100.0);

    // It compiles with a stock TeX where there is one (ExportTikz checks the others).
    const QString engine = QStandardPaths::findExecutable(QStringLiteral("pdflatex"));
    if (!engine.isEmpty()) {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("notes.tex")));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(tex.toUtf8());
        file.close();
        QProcess latex;
        latex.setWorkingDirectory(dir.path());
        latex.start(engine, {QStringLiteral("-interaction=nonstopmode"),
                             QStringLiteral("-halt-on-error"), QStringLiteral("notes.tex")});
        ASSERT_TRUE(latex.waitForFinished(120000));
        EXPECT_EQ(latex.exitCode(), 0) << latex.readAllStandardOutput().right(2000).toStdString();
    }
}

// The tiled transpose: the notes publish no number, so the app's chart draws the model's
// wavefronts per warp as its first series (32 for [32][32], 1 for [32][33]); the TikZ draws the
// same bars, names the model in its legend and says what the left bars are.
TEST(KernelFigures, TiledTransposeTikzDrawsTheModelsBarsAsTheChartDoes) {
    const NotesExperiment* experiment = findNotesExperiment("transpose-tiled");
    ASSERT_NE(experiment, nullptr);
    const KernelMeasurementStore empty;
    const NotesComparison comparison = compareWithNotes(*experiment, empty);
    ASSERT_EQ(comparison.notesRows, 0);
    ASSERT_EQ(comparison.rows.size(), 2u);
    ASSERT_EQ(comparison.rows[0].model, 32.0);
    ASSERT_EQ(comparison.rows[1].model, 1.0);
    const QString tex = notesTikz(comparison, TikzOptions{});
    EXPECT_EQ(tex.count(QStringLiteral("\\draw[ws notes bar] (6,")), 2 + 1) // 2 bars, legend
        << qPrintable(tex);
    EXPECT_EQ(tex.count(QStringLiteral("\\draw[ws gpu bar] (6,")), 0 + 1); // legend only
    EXPECT_FALSE(tex.contains(QStringLiteral("notes: no number")));
    EXPECT_FALSE(tex.contains(QStringLiteral("the notes ()")));
    // The bars, the longer one the full 24 units from the axis at 6, and their numbers as the
    // model counts them.
    EXPECT_TRUE(tex.contains(QStringLiteral("\\draw[ws notes bar] (6,-0.75) rectangle (30,-0.05);\n"
                                            "  \\node[ws small label, anchor=west] at (30.1,-0.4) "
                                            "{32};")))
        << qPrintable(tex);
    EXPECT_TRUE(
        tex.contains(QStringLiteral("\\draw[ws notes bar] (6,-2.95) rectangle (6.75,-2.25);\n"
                                    "  \\node[ws small label, anchor=west] at (6.85,-2.6) "
                                    "{1};")))
        << qPrintable(tex);
    EXPECT_TRUE(tex.contains(QStringLiteral("{%1};").arg(comparison.modelName)))
        << qPrintable(comparison.modelName);
    EXPECT_TRUE(tex.contains(QStringLiteral("the model per warp; this GPU: effective bandwidth")))
        << qPrintable(tex);
    // Every experiment the chart draws from the model (readOffset's sectors per request too)
    // has a bar per row with a model number in its TikZ.
    int modelOnly = 0;
    for (const NotesExperiment& each : notesExperiments()) {
        const NotesComparison c = compareWithNotes(each, empty);
        if (c.notesRows > 0 || c.modelName.isEmpty()) {
            continue;
        }
        ++modelOnly;
        const auto withModel = std::count_if(c.rows.begin(), c.rows.end(),
                                             [](const NotesComparisonRow& r) { return r.model; });
        EXPECT_EQ(notesTikz(c, TikzOptions{}).count(QStringLiteral("\\draw[ws notes bar] (6,")),
                  withModel + 1)
            << each.id;
    }
    EXPECT_GE(modelOnly, 2) << "the tiled transpose and readOffset";
}

int runApp(const QStringList& arguments, QString* errors) {
    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(WARPSCOPE_APP_BINARY), arguments);
    if (!app.waitForFinished(120000)) {
        return -1;
    }
    *errors = QString::fromUtf8(app.readAllStandardError());
    return app.exitCode();
}

TEST(KernelFigures, HeadlessExportsOfTheGridAndTheNotesChart) {
    QTemporaryDir dir;
    QString errors;
    const QString grid = dir.filePath(QStringLiteral("grid.svg"));
    ASSERT_EQ(runApp({QStringLiteral("--export"), grid, QStringLiteral("--preset"),
                      QStringLiteral("kernel:transpose-naivecol"), QStringLiteral("--view"),
                      QStringLiteral("grid")},
                     &errors),
              0)
        << qPrintable(errors);
    QFile file(grid);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const Svg svg = readSvg(file.readAll());
    ASSERT_TRUE(svg.wellFormed);
    // 2048 x 2048 NaiveCol: 131072 warps, every one 16 sectors: one run per row of blocks.
    EXPECT_TRUE(svg.texts.contains(QStringLiteral("131072")));
    int cells = 0;
    const QString colour = svgColour(GridView::heatColour(16, 16));
    for (const SvgRect& rect : svg.rects) {
        cells += rect.fill == colour && rect.width > 0 ? 1 : 0;
    }
    EXPECT_EQ(cells, 128 + 1); // 128 rows of blocks and the histogram's bar
    for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("pdf")}) {
        const QString path = dir.filePath(QStringLiteral("grid.") + suffix);
        EXPECT_EQ(runApp({QStringLiteral("--export"), path, QStringLiteral("--preset"),
                          QStringLiteral("kernel:transpose-tiled"), QStringLiteral("--view"),
                          QStringLiteral("grid")},
                         &errors),
                  0)
            << qPrintable(errors);
        EXPECT_GT(QFileInfo(path).size(), 1000);
    }
    // The notes' chart as TikZ from the command line.
    const QString tex = dir.filePath(QStringLiteral("t411.tex"));
    ASSERT_EQ(runApp({QStringLiteral("--preset"), QStringLiteral("notes:table-4-11"),
                      QStringLiteral("--kernel-measurements"),
                      QStringLiteral(WARPSCOPE_TEST_DATA_DIR "/kernel_tables_h100.jsonl"),
                      QStringLiteral("--export"), tex},
                     &errors),
              0)
        << qPrintable(errors);
    QFile texFile(tex);
    ASSERT_TRUE(texFile.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(texFile.readAll());
    EXPECT_TRUE(text.contains(QStringLiteral("{(8, 32)};")));
    EXPECT_TRUE(text.contains(QStringLiteral("NVIDIA H100 80GB HBM3")));
    // A kernel preset that does not exist names itself.
    EXPECT_EQ(runApp({QStringLiteral("--export"), grid, QStringLiteral("--preset"),
                      QStringLiteral("kernel:no-such-kernel"), QStringLiteral("--view"),
                      QStringLiteral("grid")},
                     &errors),
              2);
    EXPECT_TRUE(errors.contains(QStringLiteral("kernel:no-such-kernel"))) << qPrintable(errors);
}

class KernelFiguresInApp : public WindowTest {};

TEST_F(KernelFiguresInApp, TheDialogStartsOnTheGridOrNotesTabShown) {
    ASSERT_TRUE(window->showNotesExperiment(QStringLiteral("table-4-11")));
    FigureExportDialog grid(window->currentSession(), QStringLiteral("grid"), false);
    EXPECT_EQ(grid.viewBox()->currentData().toString(), QStringLiteral("grid"));
    EXPECT_EQ(grid.spec().views, QStringList{QStringLiteral("grid")});
    FigureExportDialog notes(window->currentSession(), QStringLiteral("notes"), false);
    EXPECT_EQ(notes.spec().views, QStringList{QStringLiteral("notes")});
    // The session's notes tab travels with it into the figure.
    const FigureRenderer renderer(window->currentSession());
    EXPECT_EQ(renderer.notesExperiment(), "table-4-11");
}

} // namespace
} // namespace warpscope::app::test
