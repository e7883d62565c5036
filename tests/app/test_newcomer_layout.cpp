// A newcomer's first start: the window fills the screen it opens on, the Metrics dock is as wide
// as its longest metric name and value (or scrolls, saying so), growing the window widens the
// docks before the centre, View > Reset Layout puts them back, and the bank view shows its 32
// banks at 1920x1080. Checked by widget geometry (harness/geometryreport.h, the same JSON that
// scripts/first-start-check.sh reads).
#include "harness/geometryreport.h"
#include "panels/metricspanel.h"
#include "windowfixture.h"

#include <QAction>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScreen>
#include <QTabWidget>

namespace warpscope::app::test {
namespace {

QDockWidget* dock(MainWindow& window, const char* name) {
    return window.findChild<QDockWidget*>(QString::fromLatin1(name));
}

void settle() {
    for (int i = 0; i < 5; ++i) {
        QApplication::processEvents();
        QTest::qWait(10);
    }
}

/// Every column as wide as its text; where the columns are wider than the table, a scroll bar.
void expectNothingCutOff(const QJsonObject& table, const char* which) {
    SCOPED_TRACE(which);
    EXPECT_EQ(table.value(QStringLiteral("clippedColumns")).toInt(), 0)
        << QJsonDocument(table).toJson().constData();
    if (table.value(QStringLiteral("columnsWidth")).toInt() >
        table.value(QStringLiteral("viewportWidth")).toInt()) {
        EXPECT_TRUE(table.value(QStringLiteral("horizontalScrollBar")).toBool());
    }
}

TEST(NewcomerFirstStart, TheWindowFillsTheScreenItOpensOn) {
    MainWindow window(quietOptions());
    window.fitToScreen();
    const QRect available = window.screen()->availableGeometry();
    EXPECT_EQ(window.size(), available.size());
    EXPECT_EQ(window.pos(), available.topLeft());
}

TEST_F(WindowTest, NewcomerMetricsColumnsAreNeverCutOffWithoutAScrollBar) {
    // Narrow: the dock cannot hold the names; the tables scroll rather than elide.
    window->resize(1000, 700);
    settle();
    QJsonObject geometry = windowGeometry(*window);
    expectNothingCutOff(geometry.value(QStringLiteral("metricsSummary")).toObject(), "summary");
    expectNothingCutOff(geometry.value(QStringLiteral("metricsList")).toObject(), "list");
}

TEST(NewcomerFirstStart, AtFullHdEveryMetricNameAndValueIsWhole) {
    MainWindow window(quietOptions());
    window.resize(1920, 1050);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    settle();
    const QJsonObject geometry = windowGeometry(window);
    for (const char* table : {"metricsSummary", "metricsList"}) {
        SCOPED_TRACE(table);
        const QJsonObject t = geometry.value(QString::fromLatin1(table)).toObject();
        EXPECT_EQ(t.value(QStringLiteral("clippedColumns")).toInt(), 0);
        EXPECT_LE(t.value(QStringLiteral("columnsWidth")).toInt(),
                  t.value(QStringLiteral("viewportWidth")).toInt())
            << QJsonDocument(t).toJson().constData();
    }
    const QJsonObject summary = geometry.value(QStringLiteral("metricsSummary")).toObject();
    EXPECT_EQ(summary.value(QStringLiteral("rowsVisible")).toInt(),
              summary.value(QStringLiteral("rows")).toInt());
}

TEST(NewcomerFirstStart, AtFullHdTheBankViewShowsAll32Banks) {
    MainWindow window(quietOptions());
    ASSERT_TRUE(window.loadPresetById(QStringLiteral("bank-offset-1")));
    window.resize(1920, 1050);
    window.showView(MainWindow::View::Bank);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    settle();
    const QJsonObject bank = windowGeometry(window).value(QStringLiteral("bank")).toObject();
    EXPECT_EQ(bank.value(QStringLiteral("banksVisible")).toInt(), 32)
        << QJsonDocument(bank).toJson().constData();
}

TEST(NewcomerFirstStart, GrowingTheWindowWidensTheMetricsDockFirst) {
    MainWindow window(quietOptions());
    window.resize(1000, 700);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    settle();
    QDockWidget* metrics = dock(window, "metricsDock");
    const int before = metrics->width();
    const int wanted = window.metricsPanel()->preferredWidth();
    ASSERT_LT(before, wanted) << "at 1000 px the dock should not hold its content yet";
    window.resize(1900, 1000); // as maximising does
    settle();
    EXPECT_GT(metrics->width(), before);
    EXPECT_GE(metrics->width(), std::min(wanted, 1900 * 2 / 5) - 4);
}

TEST(NewcomerFirstStart, ResetLayoutBringsTheDocksBack) {
    MainWindow window(quietOptions());
    window.resize(1600, 1000);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    settle();
    QDockWidget* metrics = dock(window, "metricsDock");
    QDockWidget* lanes = dock(window, "lanesDock");
    const int firstStart = metrics->width(); // as the first start laid it out
    ASSERT_GT(firstStart, 300);
    lanes->hide();
    window.resizeDocks({metrics}, {120}, Qt::Horizontal);
    settle();
    ASSERT_LT(metrics->width(), 200);
    auto* reset = window.findChild<QAction*>(QStringLiteral("resetLayoutAction"));
    ASSERT_NE(reset, nullptr) << "View > Reset Layout";
    reset->trigger();
    settle();
    EXPECT_TRUE(lanes->isVisible());
    EXPECT_GE(metrics->width(), firstStart - 4);
}

} // namespace
} // namespace warpscope::app::test
