// What keeps a slider drag within a frame (issue 18, docs/benchmarks.md): the tables tell their
// views only about the cells an edit changed (no model reset, so no re-measuring and no repaint of
// unchanged cells), and a dragged slider's moves are merged into one edit per pass of the event
// loop, while a released slider, the keyboard and setValue() still edit at once. A hover, a
// selection or a lecture reveal repaints only the parts of the warp view it changed, and the
// window then shows what a whole repaint would.
#include "windowfixture.h"

#include "panels/lanetablemodel.h"
#include "panels/metricstablemodel.h"
#include "panels/parameterpanel.h"
#include "panels/patterneditor.h"
#include "views/lanehighlight.h"
#include "views/warpview.h"

#include <QAbstractItemModelTester>
#include <QBackingStore>
#include <QImage>
#include <QPaintEvent>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QUndoStack>

#include <set>
#include <utility>

namespace warpscope::app::test {
namespace {

/// The cells named by the dataChanged signals `spy` recorded, as (row, column).
std::set<std::pair<int, int>> changedCells(const QSignalSpy& spy) {
    std::set<std::pair<int, int>> cells;
    for (const QList<QVariant>& signal : spy) {
        const auto topLeft = signal.at(0).value<QModelIndex>();
        const auto bottomRight = signal.at(1).value<QModelIndex>();
        for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
            for (int column = topLeft.column(); column <= bottomRight.column(); ++column) {
                cells.emplace(row, column);
            }
        }
    }
    return cells;
}

void setOffset(PatternDocument& document, std::int64_t value) {
    Pattern pattern = document.pattern();
    pattern.source->parameters.front().value = value;
    document.editPattern(pattern, QStringLiteral("offset"),
                         static_cast<int>(EditMerge::FirstParameter));
}

QTableView* metricsSummary(MainWindow& window) {
    return window.findChild<QTableView*>(QStringLiteral("metricsSummary"));
}

TEST_F(WindowTest, AnOffsetEditSignalsOnlyTheMetricsThatChanged) {
    loadPreset("readsegment-offset-11");
    QTableView* table = metricsSummary(*window);
    ASSERT_NE(table, nullptr);
    QAbstractItemModel* model = table->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Warning);
    QSignalSpy resets(model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(model, &QAbstractItemModel::dataChanged);
    auto* metrics = qobject_cast<MetricsTableModel*>(model);
    ASSERT_NE(metrics, nullptr);
    const QString sectorsBefore =
        metrics->text(QStringLiteral("Sectors (32 B)"), MetricsTableModel::ModernColumn);

    setOffset(document(), 0); // aligned: 4 sectors in 1 line instead of 5 in 2
    EXPECT_EQ(resets.count(), 0) << "an edit of the same kind of access reset the model";
    const QString sectorsAfter =
        metrics->text(QStringLiteral("Sectors (32 B)"), MetricsTableModel::ModernColumn);
    EXPECT_EQ(sectorsBefore, QStringLiteral("5"));
    EXPECT_EQ(sectorsAfter, QStringLiteral("4"));
    const auto cells = changedCells(changes);
    int sectorsRow = -1;
    int requestsRow = -1;
    for (int row = 0; row < model->rowCount(); ++row) {
        const QString quantity = model->index(row, 0).data().toString();
        sectorsRow = quantity == QStringLiteral("Sectors (32 B)") ? row : sectorsRow;
        requestsRow = quantity == QStringLiteral("Requests") ? row : requestsRow;
    }
    ASSERT_GE(sectorsRow, 0);
    ASSERT_GE(requestsRow, 0);
    EXPECT_TRUE(cells.count({sectorsRow, MetricsTableModel::ModernColumn}));
    // One request either way: that cell is not repainted.
    EXPECT_FALSE(cells.count({requestsRow, MetricsTableModel::ModernColumn}));
    EXPECT_LT(cells.size(), static_cast<std::size_t>(model->rowCount() * model->columnCount()));

    // Another kind of access has other rows: then a reset is the right signal.
    loadPreset("shared-tile-column-padded");
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(metrics->text(QStringLiteral("Bank conflicts"), MetricsTableModel::ModernColumn),
              QStringLiteral("0"));
}

TEST_F(WindowTest, TheLaneTableSignalsOnlyChangedCellsAndHoveredRows) {
    loadPreset("readsegment-offset-11");
    LaneTableModel* model = window->laneTableModel();
    QSignalSpy changes(model, &QAbstractItemModel::dataChanged);

    setOffset(document(), 12);
    auto cells = changedCells(changes);
    // Every lane's address moved by 4 bytes; no lane's number or thread changed.
    for (int lane = 0; lane < 32; ++lane) {
        EXPECT_TRUE(cells.count({lane, LaneTableModel::AddressColumn})) << "lane " << lane;
        EXPECT_FALSE(cells.count({lane, LaneTableModel::LaneColumn})) << "lane " << lane;
        EXPECT_FALSE(cells.count({lane, LaneTableModel::ThreadColumn})) << "lane " << lane;
    }
    EXPECT_EQ(model->index(0, LaneTableModel::AddressColumn).data().toString(),
              QStringLiteral("48 (0x30)"));

    // Hovering lane 5 restyles its row (bold, tinted) and nothing else.
    changes.clear();
    window->laneHighlight()->setHoveredLane(5);
    cells = changedCells(changes);
    ASSERT_FALSE(cells.empty());
    for (const auto& [row, column] : cells) {
        EXPECT_EQ(row, 5) << "column " << column;
    }
    EXPECT_TRUE(model->index(5, 0).data(Qt::FontRole).value<QFont>().bold());

    // The same evaluation again: nothing to repaint.
    changes.clear();
    setOffset(document(), 12);
    EXPECT_EQ(changes.count(), 0);
}

TEST_F(WindowTest, ADraggedSliderEditsOncePerPassOfTheEventLoop) {
    loadPreset("readsegment-offset-11");
    QSlider* slider = window->editor()->parameterPanel()->slider(0);
    ASSERT_NE(slider, nullptr);
    QSignalSpy evaluations(&document(), &PatternDocument::evaluationChanged);
    const int steps = document().undoStack()->count();

    slider->setSliderDown(true); // the hand holds the handle
    for (int value : {12, 13, 14, 15}) {
        slider->setSliderPosition(value); // mouse moves delivered before the next repaint
    }
    EXPECT_EQ(evaluations.count(), 0) << "a move was evaluated before the queued ones were seen";
    EXPECT_EQ(document().pattern().source->parameters.front().value, 11);
    QApplication::processEvents();
    EXPECT_EQ(evaluations.count(), 1);
    EXPECT_EQ(document().pattern().source->parameters.front().value, 15);
    EXPECT_EQ(slider->value(), 15);

    // Letting go edits the last value at once, with no event loop pass needed.
    slider->setSliderPosition(18);
    slider->setSliderDown(false);
    EXPECT_EQ(document().pattern().source->parameters.front().value, 18);
    QApplication::processEvents();
    EXPECT_EQ(evaluations.count(), 2) << "the released value was evaluated twice";
    EXPECT_EQ(document().undoStack()->count(), steps + 1) << "a drag is one undo step";

    // Not dragged (keyboard, setValue): at once, as before.
    slider->setValue(20);
    EXPECT_EQ(document().pattern().source->parameters.front().value, 20);
}

/// The regions of the paint events a widget gets.
class PaintRegions : public QObject {
public:
    explicit PaintRegions(QWidget* widget) { widget->installEventFilter(this); }
    QRegion painted() const { return m_painted; }
    void clear() { m_painted = QRegion(); }

protected:
    bool eventFilter(QObject* /*watched*/, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            m_painted += static_cast<QPaintEvent*>(event)->region();
        }
        return false;
    }

private:
    QRegion m_painted;
};

/// What the window shows of `widget` now: the visible part of it in the window's backing store
/// (an image on the offscreen platform), or a null image when there is none.
QImage shownPixels(QWidget* widget) {
    QBackingStore* store = widget->window()->backingStore();
    const auto* image =
        store != nullptr ? dynamic_cast<const QImage*>(store->paintDevice()) : nullptr;
    if (image == nullptr) {
        return {};
    }
    const QRect visible = widget->visibleRegion().boundingRect();
    const QRect inWindow(widget->mapTo(widget->window(), visible.topLeft()), visible.size());
    const qreal dpr = image->devicePixelRatio();
    return image->copy(QRect((QPointF(inWindow.topLeft()) * dpr).toPoint(),
                             (QSizeF(inWindow.size()) * dpr).toSize()));
}

void settleFrames() {
    for (int pass = 0; pass < 3; ++pass) {
        QApplication::processEvents();
    }
}

TEST_F(WindowTest, AHoverOrARevealRepaintsOnlyWhatChangedAndShowsTheWholePicture) {
    loadPreset("readsegment-offset-11");
    WarpView* view = window->warpView();
    ASSERT_NE(view, nullptr);
    settleFrames();
    ASSERT_FALSE(shownPixels(view).isNull()) << "no backing store image to compare";
    PaintRegions paints(view);
    const QRect title = view->currentLayout().titleRect.toAlignedRect();
    LaneHighlight* highlight = window->laneHighlight();

    const auto check = [&](const QString& what, auto change) {
        paints.clear();
        change();
        settleFrames();
        const QRegion painted = paints.painted();
        EXPECT_FALSE(painted.isEmpty()) << what.toStdString() << ": nothing repainted";
        EXPECT_FALSE(painted.intersects(title)) << what.toStdString() << ": the title repainted";
        const QImage partly = shownPixels(view);
        view->repaint(); // the whole view, from scratch
        EXPECT_TRUE(shownPixels(view) == partly)
            << what.toStdString() << ": the partial repaint left other pixels than a whole one";
    };
    check(QStringLiteral("hover lane 5"), [&] { highlight->setHoveredLane(5); });
    check(QStringLiteral("hover lane 6"), [&] { highlight->setHoveredLane(6); });
    check(QStringLiteral("hover lane 31"), [&] { highlight->setHoveredLane(31); });
    check(QStringLiteral("hover nothing"), [&] { highlight->setHoveredLane(-1); });
    check(QStringLiteral("select lanes 8-15"),
          [&] { highlight->setSelectedLanes(0xff00u, QStringLiteral("lanes 8–15")); });
    for (int count : {0, 1, 2, 3, -1}) {
        check(QStringLiteral("reveal %1").arg(count), [&] { view->setRevealCount(count); });
    }
    check(QStringLiteral("clear"), [&] { highlight->clear(); });

    // An edit repaints the elements it moved or changed (all of them when their number
    // changes); the window still shows the whole picture.
    for (std::int64_t offset : {12, 13, 0, 11, 40}) {
        paints.clear();
        setOffset(document(), offset);
        settleFrames();
        EXPECT_FALSE(paints.painted().isEmpty()) << "offset " << offset;
        const QImage partly = shownPixels(view);
        view->repaint();
        EXPECT_TRUE(shownPixels(view) == partly)
            << "offset " << offset << ": the partial repaint left other pixels than a whole one";
    }

    // Nothing changed: nothing repainted.
    paints.clear();
    highlight->clear();
    view->setRevealCount(-1);
    settleFrames();
    EXPECT_TRUE(paints.painted().isEmpty());
}

} // namespace
} // namespace warpscope::app::test
