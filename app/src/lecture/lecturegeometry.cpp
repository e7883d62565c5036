// lectureGeometry(): widget geometry only, no pixels judged. A view is clipped when it needs more
// room than it got (a drawing larger than its scroll area's viewport, a table's columns wider than
// the table, a widget smaller than its minimum size hint), when a scroll bar shows anywhere in it,
// or when it reaches outside the slide's view area.
#include "lecture/lecturegeometry.h"

#include "lecture/lecturewindow.h"
#include "lecture/lecturewindow_helpers.h"
#include "views/gridview.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDeadlineTimer>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableView>

#include <algorithm>

namespace warpscope::app {

namespace {

/// The frame that places view `name` on the slide (the view itself, or the scroll area that holds
/// it): the lecture window marks each with lecture::kLectureFrameProperty.
QWidget* frameOf(const LectureWindow& window, const QString& name) {
    for (QWidget* widget : window.findChildren<QWidget*>()) {
        if (widget->property(lecture::kLectureFrameProperty).toString() == name &&
            widget->isVisible()) {
            return widget;
        }
    }
    return nullptr;
}

const QWidget* viewArea(const LectureWindow& window) {
    const auto* area = window.findChild<QWidget*>(QStringLiteral("lectureViewArea"));
    return area != nullptr ? area : &window;
}

/// The view in `frame`: a scroll area's widget, else the frame itself.
QWidget* viewIn(QWidget* frame) {
    auto* scroll = qobject_cast<QScrollArea*>(frame);
    return scroll != nullptr ? scroll->widget() : frame;
}

QRect rectIn(const QWidget* widget, const QWidget* ancestor) {
    return QRect(widget->mapTo(ancestor, QPoint(0, 0)), widget->size());
}

/// The scroll bars shown anywhere in `frame` (its own and those of any scroll area inside it).
int scrollBarsShown(const QWidget* frame) {
    int shown = 0;
    for (const QScrollBar* bar : frame->findChildren<QScrollBar*>()) {
        shown += bar->isVisible() && bar->maximum() > bar->minimum() ? 1 : 0;
    }
    return shown;
}

/// One view: what it needs against what it got.
QJsonObject viewGeometry(const LectureWindow& window, const QString& name, QStringList& problems) {
    QWidget* frame = frameOf(window, name);
    QWidget* view = frame != nullptr ? viewIn(frame) : nullptr;
    QJsonObject out{{QStringLiteral("name"), name}};
    if (frame == nullptr || view == nullptr) {
        problems << QStringLiteral("%1: the slide names it but shows no such view").arg(name);
        return out;
    }
    const QRect rect = rectIn(frame, &window);
    const QRect area = rectIn(viewArea(window), &window);
    out.insert(QStringLiteral("rect"), rectObject(rect));
    out.insert(QStringLiteral("visible"), frame->isVisible());
    const bool inside = area.contains(rect) && window.rect().contains(rect) && !rect.isEmpty();
    out.insert(QStringLiteral("inside"), inside);
    if (!frame->isVisible()) {
        problems << QStringLiteral("%1: not visible").arg(name);
    }
    if (!inside) {
        problems << QStringLiteral("%1: its frame (%2,%3 %4x%5) is not inside the slide's view "
                                   "area (%6,%7 %8x%9)")
                        .arg(name)
                        .arg(rect.x())
                        .arg(rect.y())
                        .arg(rect.width())
                        .arg(rect.height())
                        .arg(area.x())
                        .arg(area.y())
                        .arg(area.width())
                        .arg(area.height());
    }
    QSize needed;
    QSize got;
    if (auto* table = qobject_cast<QTableView*>(frame)) {
        // Every column as wide as its longest text, every row inside the viewport.
        const QHeaderView* header = table->horizontalHeader();
        int columnsWidth = 0;
        int neededWidth = 0;
        for (int column = 0; column < header->count(); ++column) {
            if (header->isSectionHidden(column)) {
                continue;
            }
            columnsWidth += header->sectionSize(column);
            neededWidth +=
                std::max(header->sectionSize(column),
                         static_cast<const QAbstractItemView*>(table)->sizeHintForColumn(column));
        }
        int rowsHeight = 0;
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            rowsHeight += table->isRowHidden(row) ? 0 : table->rowHeight(row);
        }
        needed = QSize(neededWidth, rowsHeight);
        got = table->viewport()->size();
        out.insert(QStringLiteral("columnsWidth"), columnsWidth);
    } else if (auto* scroll = qobject_cast<QScrollArea*>(frame)) {
        QWidget* content = scroll->widget();
        got = scroll->viewport()->size();
        if (scroll->widgetResizable()) {
            needed = content->minimumSizeHint().expandedTo(content->minimumSize());
        } else {
            needed = content->size();
        }
    } else {
        needed = frame->minimumSizeHint().expandedTo(frame->minimumSize());
        got = frame->size();
    }
    out.insert(QStringLiteral("needed"), sizeObject(needed));
    out.insert(QStringLiteral("got"), sizeObject(got));
    const int bars = scrollBarsShown(frame);
    out.insert(QStringLiteral("scrollBarsShown"), bars);
    if (needed.width() > got.width() || needed.height() > got.height()) {
        problems << QStringLiteral("%1: needs %2x%3 but got %4x%5")
                        .arg(name)
                        .arg(needed.width())
                        .arg(needed.height())
                        .arg(got.width())
                        .arg(got.height());
    }
    if (bars > 0) {
        problems << QStringLiteral("%1: shows %2 scroll bar(s)").arg(name).arg(bars);
    }
    return out;
}

/// A text of the slide: the height its wrapped lines need against the height it got.
QJsonObject textGeometry(const LectureWindow& window, const QString& name, QStringList& problems) {
    auto* label = window.findChild<QLabel*>(name);
    QJsonObject out{{QStringLiteral("name"), name}};
    if (label == nullptr || !label->isVisible() || label->text().isEmpty()) {
        out.insert(QStringLiteral("visible"), false);
        return out;
    }
    const QRect rect = rectIn(label, &window);
    const int needed = label->hasHeightForWidth() ? label->heightForWidth(label->width())
                                                  : label->sizeHint().height();
    out.insert(QStringLiteral("visible"), true);
    out.insert(QStringLiteral("rect"), rectObject(rect));
    out.insert(QStringLiteral("neededHeight"), needed);
    if (needed > label->height()) {
        problems << QStringLiteral("%1 text: needs %2 px of height but got %3")
                        .arg(name)
                        .arg(needed)
                        .arg(label->height());
    }
    if (!window.rect().contains(rect)) {
        problems << QStringLiteral("%1 text: outside the window").arg(name);
    }
    return out;
}

} // namespace

QJsonObject rectObject(const QRect& rect) {
    return QJsonObject{{QStringLiteral("x"), rect.x()},
                       {QStringLiteral("y"), rect.y()},
                       {QStringLiteral("width"), rect.width()},
                       {QStringLiteral("height"), rect.height()}};
}

QJsonObject sizeObject(const QSize& size) {
    return QJsonObject{{QStringLiteral("width"), size.width()},
                       {QStringLiteral("height"), size.height()}};
}

QJsonObject lectureGeometry(const LectureWindow& window) {
    QStringList problems;
    QJsonArray views;
    for (const QString& name : window.shownViews()) {
        views.append(viewGeometry(window, name, problems));
    }
    QJsonArray texts;
    for (const QString& name : {QStringLiteral("lectureTitle"), QStringLiteral("lectureCaption"),
                                QStringLiteral("lectureStep")}) {
        texts.append(textGeometry(window, name, problems));
    }
    return QJsonObject{{QStringLiteral("slide"), window.slideIndex() + 1},
                       {QStringLiteral("slides"), window.slideCount()},
                       {QStringLiteral("title"), window.titleText()},
                       {QStringLiteral("window"), rectObject(window.rect())},
                       {QStringLiteral("devicePixelRatio"), window.devicePixelRatioF()},
                       {QStringLiteral("viewArea"), rectObject(rectIn(viewArea(window), &window))},
                       {QStringLiteral("views"), views},
                       {QStringLiteral("texts"), texts},
                       {QStringLiteral("problems"), QJsonArray::fromStringList(problems)}};
}

QStringList lectureGeometryProblems(const QJsonObject& report) {
    QStringList problems;
    for (const QJsonValue& problem : report.value(QStringLiteral("problems")).toArray()) {
        problems << problem.toString();
    }
    return problems;
}

void waitForSlideViews(const LectureWindow& window, int milliseconds) {
    const QDeadlineTimer deadline(milliseconds);
    const auto busy = [&window] {
        const GridView* grid = window.gridView();
        return grid != nullptr && grid->isComputing();
    };
    while (busy() && !deadline.hasExpired()) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
}

} // namespace warpscope::app
