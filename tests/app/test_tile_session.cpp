// Sessions hold the Tile tab's TMA load (issue 31): the box, element size, swizzle mode and
// shared-memory offset chosen there are saved with the session, come back when it is opened, and
// reach the figures exported from it; a session file with a hostile load is refused with a
// message naming the field.
#include "windowfixture.h"

#include "export/figureexport.h"
#include "panels/messagebar.h"
#include "views/tilepanel.h"
#include "views/tileview.h"

#include <warpscope/file_format.h>

#include <QFile>
#include <QSpinBox>
#include <QTemporaryDir>

namespace warpscope::app {
namespace {

using test::quietOptions;
using test::WindowTest;

// Not any preset's load and not the panel's defaults, so that a field dropped anywhere shows.
const TmaTileLoad kChosen{4, 8, 24, TmaSwizzle::Span32, 1408};

TileView* tileViewOf(const MainWindow& window) {
    auto* panel = window.findChild<TilePanel*>(QStringLiteral("tilePanel"));
    return panel != nullptr ? panel->tileView() : nullptr;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes) == bytes.size();
}

class TileSessionTest : public WindowTest {};

TEST_F(TileSessionTest, TheChosenTmaLoadIsSavedAndComesBackWhenTheSessionIsOpened) {
    loadPreset("ldmatrix-rowmajor"); // a preset without a load of its own
    TileView* view = tileViewOf(*window);
    ASSERT_NE(view, nullptr);
    ASSERT_FALSE(view->tmaLoad().has_value());
    document().markSaved();
    view->setTmaLoad(kChosen);
    EXPECT_TRUE(document().isModified()) << "choosing a load is a change to save";

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("tile.warpscope"));
    ASSERT_TRUE(window->saveSession(path));
    const QByteArray bytes = readAll(path);
    EXPECT_TRUE(bytes.contains("\"tmaLoad\"")) << bytes.toStdString();
    auto saved = sessionFromJsonText(bytes.toStdString());
    ASSERT_TRUE(saved.ok()) << saved.error().describe();
    ASSERT_TRUE(saved->tmaLoad.has_value());
    EXPECT_EQ(*saved->tmaLoad, kChosen);

    MainWindow other(quietOptions());
    TileView* otherView = tileViewOf(other);
    ASSERT_NE(otherView, nullptr);
    ASSERT_TRUE(other.openSession(path));
    ASSERT_TRUE(otherView->tmaLoad().has_value());
    EXPECT_EQ(*otherView->tmaLoad(), kChosen);
    EXPECT_FALSE(other.document()->isModified()) << "opening a session is not a change";
    // The tab's fields show the load too.
    auto* panel = other.findChild<TilePanel*>(QStringLiteral("tilePanel"));
    EXPECT_EQ(panel->boxRowsBox()->value(), kChosen.boxRows);
    EXPECT_EQ(panel->offsetBox()->value(), kChosen.smemOffset);
}

TEST_F(TileSessionTest, ASessionWithAHostileLoadIsRefusedNamingTheField) {
    loadPreset("ldmatrix-rowmajor");
    TileView* view = tileViewOf(*window);
    ASSERT_NE(view, nullptr);
    view->setTmaLoad(kChosen);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("hostile.warpscope"));
    ASSERT_TRUE(window->saveSession(path));
    QByteArray bytes = readAll(path);
    const QByteArray field = "\"elementBytes\": 4";
    ASSERT_TRUE(bytes.contains(field)) << bytes.toStdString();
    bytes.replace(field, "\"elementBytes\": 3");
    ASSERT_TRUE(writeAll(path, bytes));

    MainWindow other(quietOptions());
    EXPECT_FALSE(other.openSession(path));
    const QString message = other.messageBar()->text();
    EXPECT_TRUE(message.contains(QStringLiteral("/tmaLoad/elementBytes"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("1, 2, 4 or 8"))) << message.toStdString();
    EXPECT_FALSE(tileViewOf(other)->tmaLoad().has_value()) << "nothing of the file was taken";
}

TEST(TileSession, AFigureExportedFromASessionDrawsItsLoad) {
    const Preset* preset = findPreset("ldmatrix-rowmajor");
    ASSERT_NE(preset, nullptr);
    Session session =
        sessionForPattern(NamedPattern{preset->title, preset->caption, preset->pattern});
    FigureSpec spec;
    spec.views = QStringList{QStringLiteral("tile")};
    QString error;
    const QString without =
        QString::fromUtf8(FigureRenderer(session).render(spec, FigureFormat::Tex, &error));
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    EXPECT_TRUE(without.contains(QStringLiteral("No TMA load")));

    session.tmaLoad = kChosen;
    const QString with =
        QString::fromUtf8(FigureRenderer(session).render(spec, FigureFormat::Tex, &error));
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    EXPECT_FALSE(with.contains(QStringLiteral("No TMA load")));
    EXPECT_TRUE(
        with.contains(QStringLiteral("box of 4-byte elements (32 bytes a row), swizzle 32B")))
        << with.right(800).toStdString();
    // The painted figures too: chunks the load writes carry their box row and column.
    session.tmaLoad.reset();
    const QByteArray svgWithout = FigureRenderer(session).render(spec, FigureFormat::Svg, &error);
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    EXPECT_FALSE(svgWithout.contains("r0 c0"));
    session.tmaLoad = kChosen;
    const QByteArray svg = FigureRenderer(session).render(spec, FigureFormat::Svg, &error);
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    EXPECT_TRUE(svg.contains("r0 c0")) << "the SVG draws the session's load";
}

} // namespace
} // namespace warpscope::app
