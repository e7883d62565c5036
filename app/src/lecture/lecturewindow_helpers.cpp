// What the lecture window's files share (lecturewindow_helpers.h).
#include "lecture/lecturewindow_helpers.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QFont>
#include <QFontMetrics>
#include <QResizeEvent>
#include <QTableView>
#include <QWidget>

#include <algorithm>

namespace warpscope::app::lecture {

void fitMetricsTable(QTableView* table) {
    QFont bold = table->font();
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    const QFontMetrics regular(table->font());
    const int padding = metrics.horizontalAdvance(QStringLiteral("M"));
    const QAbstractItemModel* model = table->model();
    int total = 0;
    for (int column = 0; column < model->columnCount(); ++column) {
        if (table->isColumnHidden(column)) {
            continue;
        }
        int width = metrics.horizontalAdvance(
            model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex index = model->index(row, column);
            const bool isBold = index.data(Qt::FontRole).value<QFont>().bold();
            width = std::max(
                width, (isBold ? metrics : regular).horizontalAdvance(index.data().toString()));
        }
        table->setColumnWidth(column, width + padding);
        total += width + padding;
    }
    table->setFixedWidth(total + 2 * table->frameWidth());
}

void sendPendingResizes(QWidget* widget) {
    if (widget->testAttribute(Qt::WA_PendingResizeEvent)) {
        widget->setAttribute(Qt::WA_PendingResizeEvent, false);
        QResizeEvent event(widget->size(), QSize());
        QCoreApplication::sendEvent(widget, &event);
    }
    for (QObject* child : widget->children()) {
        auto* childWidget = qobject_cast<QWidget*>(child);
        if (childWidget != nullptr && !childWidget->isWindow()) {
            sendPendingResizes(childWidget);
        }
    }
}

Session slideSession(const DeckSlide& slide) {
    NamedPattern pattern = slide.pattern;
    pattern.title = slide.title.empty() ? pattern.title : slide.title;
    pattern.caption.clear();
    Session session;
    session.entries.push_back(SessionEntry{pattern, {}});
    return session;
}

QString slideTitle(const DeckSlide& slide) {
    return QString::fromStdString(slide.title.empty() ? slide.pattern.title : slide.title);
}

QStringList slideViews(const DeckSlide& slide) {
    QStringList names;
    for (const std::string& view : slide.views) {
        names << QString::fromStdString(view);
    }
    return names;
}

} // namespace warpscope::app::lecture
