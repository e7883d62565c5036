// windowGeometry() and writeGeometryReport(): widget geometry only, no pixels judged.
#include "harness/geometryreport.h"

#include "lecture/lecturegeometry.h"

#include "harness/screenshotrunner.h"
#include "panels/metricspanel.h"
#include "shell/mainwindow.h"
#include "views/bankview.h"

#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPixmap>
#include <QSaveFile>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>

#include <algorithm>
#include <cstdio>

namespace warpscope::app {

namespace {

/// A table: for each column the width it has and the width its longest text needs; how many rows
/// lie wholly inside the viewport; whether the scroll bars are shown.
QJsonObject tableGeometry(QTableView* table) {
    const QHeaderView* header = table->horizontalHeader();
    QJsonArray columns;
    int clipped = 0;
    int columnsWidth = 0;
    for (int column = 0; column < header->count(); ++column) {
        if (header->isSectionHidden(column)) {
            continue;
        }
        const int width = header->sectionSize(column);
        // QTableView hides sizeHintForColumn(); QAbstractItemView offers it.
        const int needed =
            std::max(static_cast<const QAbstractItemView*>(table)->sizeHintForColumn(column), 0);
        columnsWidth += width;
        clipped += width < needed ? 1 : 0;
        columns.append(QJsonObject{{QStringLiteral("title"),
                                    table->model()->headerData(column, Qt::Horizontal).toString()},
                                   {QStringLiteral("width"), width},
                                   {QStringLiteral("needed"), needed}});
    }
    const QRect viewport = table->viewport()->rect();
    int rowsVisible = 0;
    const int rows = table->model()->rowCount();
    for (int row = 0; row < rows; ++row) {
        const int top = table->rowViewportPosition(row);
        if (!table->isRowHidden(row) && top >= 0 &&
            top + table->rowHeight(row) <= viewport.height()) {
            ++rowsVisible;
        }
    }
    return QJsonObject{
        {QStringLiteral("visible"), table->isVisible()},
        {QStringLiteral("viewportWidth"), viewport.width()},
        {QStringLiteral("viewportHeight"), viewport.height()},
        {QStringLiteral("columnsWidth"), columnsWidth},
        {QStringLiteral("clippedColumns"), clipped},
        {QStringLiteral("columns"), columns},
        {QStringLiteral("rows"), rows},
        {QStringLiteral("rowsVisible"), rowsVisible},
        {QStringLiteral("horizontalScrollBar"), table->horizontalScrollBar()->isVisible()},
        {QStringLiteral("verticalScrollBar"), table->verticalScrollBar()->isVisible()}};
}

QJsonObject dockGeometry(MainWindow& window, const char* name) {
    auto* dock = window.findChild<QDockWidget*>(QString::fromLatin1(name));
    if (dock == nullptr) {
        return {};
    }
    return QJsonObject{{QStringLiteral("visible"), dock->isVisible()},
                       {QStringLiteral("floating"), dock->isFloating()},
                       {QStringLiteral("rect"), rectObject(dock->geometry())}};
}

/// The bank view's 32 headers: how many lie wholly inside its scroll area's viewport.
QJsonObject bankGeometry(MainWindow& window) {
    BankView* bank = window.bankView();
    QScrollArea* scroll = nullptr;
    for (QWidget* up = bank->parentWidget(); up != nullptr && scroll == nullptr;
         up = up->parentWidget()) {
        scroll = qobject_cast<QScrollArea*>(up);
    }
    QJsonObject out{{QStringLiteral("shown"), bank->isVisible()},
                    {QStringLiteral("cells"), bank->cellCount()}};
    if (scroll == nullptr || !bank->isVisible()) {
        return out;
    }
    QWidget* viewport = scroll->viewport();
    int banksVisible = 0;
    for (int index = 0; index < 32; ++index) {
        const QRectF header = bank->headerRect(index);
        if (header.isEmpty()) {
            continue;
        }
        const QRect inViewport(bank->mapTo(viewport, header.topLeft().toPoint()),
                               header.size().toSize());
        banksVisible += viewport->rect().contains(inViewport) ? 1 : 0;
    }
    out.insert(QStringLiteral("banksVisible"), banksVisible);
    out.insert(QStringLiteral("viewportWidth"), viewport->width());
    out.insert(QStringLiteral("viewWidth"), bank->width());
    out.insert(QStringLiteral("horizontalScrollBar"), scroll->horizontalScrollBar()->isVisible());
    return out;
}

void settleLayout() {
    for (int i = 0; i < 10; ++i) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
}

} // namespace

QJsonObject windowGeometry(MainWindow& window) {
    QScreen* screen = window.screen();
    QJsonObject out;
    if (screen != nullptr) {
        out.insert(
            QStringLiteral("screen"),
            QJsonObject{{QStringLiteral("available"), rectObject(screen->availableGeometry())},
                        {QStringLiteral("devicePixelRatio"), screen->devicePixelRatio()}});
    }
    out.insert(QStringLiteral("window"), rectObject(window.geometry()));
    out.insert(QStringLiteral("central"), rectObject(window.centralWidget()->geometry()));
    out.insert(QStringLiteral("patternDock"), dockGeometry(window, "patternDock"));
    out.insert(QStringLiteral("metricsDock"), dockGeometry(window, "metricsDock"));
    out.insert(QStringLiteral("lanesDock"), dockGeometry(window, "lanesDock"));
    out.insert(QStringLiteral("metricsSummary"),
               tableGeometry(window.metricsPanel()->summaryTable()));
    out.insert(QStringLiteral("metricsList"), tableGeometry(window.metricsPanel()->metricList()));
    out.insert(QStringLiteral("bank"), bankGeometry(window));
    return out;
}

int writeGeometryReport(MainWindow& window, const QString& reportPath,
                        const QString& screenshotPath) {
    if (!waitUntilPainted(window, 5000)) {
        std::fprintf(stderr, "warpscope: the window was not painted within 5 s\n");
        return 1;
    }
    settleLayout();
    const QJsonObject report = windowGeometry(window);
    QSaveFile file(reportPath);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(report).toJson(QJsonDocument::Indented)) < 0 || !file.commit()) {
        std::fprintf(stderr, "warpscope: cannot write the geometry report to %s: %s\n",
                     qPrintable(reportPath), qPrintable(file.errorString()));
        return 1;
    }
    if (!screenshotPath.isEmpty()) {
        const QPixmap pixmap = window.grab();
        if (pixmap.isNull() || !pixmap.save(screenshotPath, "PNG")) {
            std::fprintf(stderr, "warpscope: cannot write the screenshot to %s\n",
                         qPrintable(screenshotPath));
            return 1;
        }
    }
    std::printf("warpscope: wrote the window's geometry to %s\n", qPrintable(reportPath));
    return 0;
}

} // namespace warpscope::app
