// Figure export in process: sizes, formats and themes by name, every SVG figure checked against
// core's prediction, and from the app's menus (copy to the clipboard, the export dialog).
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
    EXPECT_EQ(dialog.viewBox()->count(),
              9); // warp, bank, block, sweep, metrics, grid, notes, tile, figure
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
