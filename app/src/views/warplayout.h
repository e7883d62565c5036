// WarpLayout: where the warp view puts things. The 32 lanes as a row; below them the touched
// 128-byte lines (from the modern prediction's lineList; for shared memory, the 128-byte rows the
// lanes touch), long gaps elided with their size; the sectors of each line; the textbook model's
// transactions as outlines on the same memory; and the list of lines and transactions. Pure
// geometry over an Evaluation, kept apart from painting so hit tests and tests can use it.
#pragma once

#include "document/evaluation.h"

#include <QFontMetricsF>
#include <QPainterPath>
#include <QRectF>

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace warpscope::app {

struct WarpLayout {
    /// One drawn 128-byte line of memory.
    struct Line {
        std::int64_t address = 0;
        QRectF rect;        // the byte band
        QRectF labelRect;   // its address, above the sector strip
        int group = 0;      // colour and marker index
        int lineIndex = -1; // index into modern.global->lineList, -1 if the model lists none
    };
    /// Untouched memory between two drawn lines, elided.
    struct Gap {
        std::int64_t bytes = 0;
        QRectF rect;
    };
    /// One 32-byte sector of a drawn line.
    struct Sector {
        std::int64_t address = 0;
        QRectF stripRect;     // the labelled strip above the byte band
        QRectF bandRect;      // its part of the byte band
        int group = 0;        // the line's group
        int indexInLine = 0;  // 0..3
        int sectorIndex = -1; // index into modern.global->sectorList; -1: not fetched
    };
    /// A textbook transaction drawn under the memory.
    struct TransactionBox {
        int index = 0; // into textbook.transactions
        QRectF rect;   // outline on the byte band
        QRectF labelRect;
    };
    enum class ListKind { Line, Transaction };
    struct ListRow {
        ListKind kind = ListKind::Line;
        int index = 0; // into layout.lines or textbook.transactions
        QRectF rect;
    };

    bool global = true;
    bool showTextbook = true;
    /// A constant load: the transaction boxes and rows are the constant cache's rounds, one per
    /// distinct address (drawn whether or not the textbook model is shown).
    bool constant = false;
    qreal pxPerByte = 1.0;
    qreal textHeight = 0; // the view font's line height
    QSizeF size;
    QRectF titleRect;
    QRectF textbookTitleRect;
    QRectF legendRect;
    std::array<QRectF, kWarpSize> laneRects{};
    qreal linksTop = 0;
    qreal memoryTop = 0; // top of the byte band
    qreal memoryBottom = 0;
    std::vector<Line> lines;
    std::vector<Gap> gaps;
    std::vector<Sector> sectors;
    std::vector<TransactionBox> transactions;
    qreal listTop = 0;
    /// A row of the list that did not fit the height (fitHeight) has an empty rect; listElided
    /// counts them, and listElidedRect is where the line saying so goes.
    std::vector<ListRow> listRows;
    int listElided = 0;
    QRectF listElidedRect;
    /// Each lane's ribbon from its box to exactly the bytes it touches (empty when the lane is
    /// inactive or its bytes are not drawn). Built once per layout, not on every paint.
    std::array<QPainterPath, kWarpSize> ribbons{};
    /// Each lane's rounded box, inset half a pixel so its one-pixel frame is sharp.
    std::array<QPainterPath, kWarpSize> laneBoxes{};

    /// Lay out `evaluation` for a view `width` logical pixels wide. The result may be wider when
    /// the lines need more room than that (the view then scrolls).
    /// `fitHeight` > 0 (a lecture slide, ZoomableView::setFitHeight()): the layout fits that
    /// height and its width in the same type: narrower lines and gaps where the lines would run
    /// past the width, and a list cut short (listElided) where it would run past the height.
    static WarpLayout compute(const Evaluation& evaluation, qreal width, const QFontMetricsF& font,
                              bool showTextbook, qreal fitHeight = 0);

    /// The x span of bytes [begin, end) on the band, or nothing when they are not drawn.
    std::optional<std::pair<qreal, qreal>> byteSpan(std::int64_t begin, std::int64_t end) const;
    /// The line drawn for `address`, or -1.
    int lineAt(std::int64_t address) const;

    int laneAt(const QPointF& point) const;
    /// Index into `sectors` under the point (strip or band), or -1.
    int sectorAt(const QPointF& point) const;
    /// Index into textbook.transactions under the point (its outline or label), or -1.
    int transactionAt(const QPointF& point) const;
    const ListRow* listRowAt(const QPointF& point) const;
};

} // namespace warpscope::app
