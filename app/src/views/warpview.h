// WarpView, the centre of the window: the warp's 32 lanes over the memory they touch, with the
// modern model's lines and sectors filled in, the textbook model's transactions outlined on the
// same bytes, and the list of both. Hover a lane to follow its path; click a sector, transaction
// or list row to light up its lanes.
#pragma once

#include "gpu/probemeasurement.h"

#include "views/steppedview.h"
#include "views/viewpainting.h"
#include "views/warplayout.h"

#include <QPixmap>
#include <QRegion>

namespace warpscope::app {

class LaneHighlight;
class PatternDocument;
struct ViewColors;

/// What the warp view shows, as plain data: every text it draws and the lane set behind every
/// lane, sector, line and transaction. The painting code draws these texts at the places
/// WarpLayout gives, so a test that compares this description (and the layout) with core's
/// predictions checks the picture itself.
struct WarpContent {
    struct Lane {
        bool active = false; // has an address
        bool inBlock = true; // false for lanes past the end of the block (drawn dashed)
        std::optional<std::int64_t> address;
        int line = -1; // index into layout.lines of the line its bytes are drawn in
        QString label; // the number in its box
    };
    /// Parallel to WarpLayout::sectors.
    struct Sector {
        std::int64_t address = 0;
        bool fetched = false;
        std::uint32_t lanes = 0;
        int bytesUsed = 0;
        QString label;      // "S1 · 20/32 B", or "not fetched"
        QString shortLabel; // "S1" where the strip is narrow; empty when not fetched
    };
    /// Parallel to WarpLayout::transactions.
    struct Transaction {
        std::int64_t address = 0;
        int sizeBytes = 0;
        std::uint32_t lanes = 0;
        QString label;      // "T1 · 128 B"
        QString shortLabel; // "T1"
    };
    /// Parallel to WarpLayout::listRows.
    struct ListRow {
        std::uint32_t lanes = 0;
        int marker = -1; // the line's group marker; -1 for a transaction's dashed box
        QString text;
    };
    QString title;   // "<pattern title> — Global load, 4 B per lane, 32 of 32 lanes active"
    QString summary; // the modern model's numbers
    QString note;    // the caption, the shared-memory hint or the error
    bool noteIsWarning = false;
    QString textbookSummary; // empty when the textbook model is hidden
    std::array<Lane, kWarpSize> lanes{};
    std::vector<QString> lineLabels; // parallel to WarpLayout::lines: "0x80", "row 0x0"
    std::vector<Sector> sectors;
    std::vector<Transaction> transactions;
    QString listHeading;
    QString transactionHeading;
    std::vector<ListRow> listRows;
};

class WarpView : public SteppedView {
    Q_OBJECT
public:
    WarpView(PatternDocument* document, LaneHighlight* highlight, QWidget* parent = nullptr);

    bool showsTextbook() const { return m_showTextbook; }
    void setShowTextbook(bool show);

    const WarpLayout& currentLayout() const { return m_layout; }
    /// What the view draws now (empty when no pattern was ever valid).
    WarpContent content() const;

    /// The reveal count (setRevealCount()) steps through the list's rows as in
    /// currentLayout().listRows: the lines, then the textbook transactions.
    std::size_t pictureKey() const override;

protected:
    QSizeF computeLayout(qreal width) override;
    void layoutApplied(bool resized) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void paintWholeView(QPainter& painter) override;
    void revealCountChanged() override;

private:
    void paintTitle(QPainter& painter, const ViewColors& colors, const WarpContent& content);
    void paintLanes(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                    const WarpContent& content, std::uint32_t emphasised);
    void paintLinks(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                    std::uint32_t emphasised);
    void paintMemory(QPainter& painter, const ViewColors& colors, const Evaluation& evaluation,
                     const WarpContent& content, std::uint32_t emphasised);
    void paintTextbook(QPainter& painter, const ViewColors& colors, const WarpContent& content,
                       std::uint32_t emphasised);
    /// What paintEvent() draws for the region in m_paintRegion.
    void paintView(QPainter& painter);
    void paintLegendAndList(QPainter& painter, const ViewColors& colors, const WarpContent& content,
                            std::uint32_t emphasised);
    /// The line group a lane's bytes fall in (for its colour and marker), or -1.
    int groupOfLane(const Evaluation& evaluation, int lane) const;
    bool isRevealed(WarpLayout::ListKind kind, int index) const;
    QString toolTipAt(const QPointF& point) const;

    /// One element of the picture (the title lines, a lane's ribbon, box or bytes, a line, a gap,
    /// a sector, a transaction, the legend, a list row): where it is drawn, with room for its
    /// outline and text, and a hash of everything it is drawn from.
    struct LookItem {
        QRectF rect;
        std::size_t key = 0;
    };
    /// Every element of the current layout, in a fixed order.
    std::vector<LookItem> lookItems() const;
    /// After an edit, a highlight or a reveal: repaint only the elements whose key or place
    /// changed (old and new place); all when their number changed.
    void updateChangedLook();
    /// Whether `rect` grown by `margin` (by `marginY` above and below, when given) meets the
    /// region being painted.
    bool needsPaint(const QRectF& rect, qreal margin = 4, qreal marginY = -1) const;

    PatternDocument* m_document;
    LaneHighlight* m_highlight;
    WarpLayout m_layout;
    StaticTextCache m_texts;
    bool m_showTextbook = true;
    std::vector<LookItem> m_look; // as last scheduled for painting
    QRegion m_paintRegion;        // the paint event's region, while painting
};

} // namespace warpscope::app
