// warpLegendItems(): the legend's entries, measured and wrapped into rows.
#include "views/warplegend.h"

#include "views/warplayout.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <utility>

namespace warpscope::app {

namespace {

constexpr qreal kSwatchWidth = 22;
constexpr qreal kSwatchHeight = 14;
constexpr qreal kSwatchGap = 6; // a swatch to its text
constexpr qreal kEntryGap = 22; // one entry to the next

} // namespace

std::vector<WarpLegendItem> warpLegendItems(const WarpLayout& layout, const QFontMetricsF& font) {
    using Kind = WarpLegendItem::Kind;
    // WarpView's words (its translation context), measured here to be placed.
    const auto words = [](const char* source) {
        return QCoreApplication::translate("warpscope::app::WarpView", source);
    };
    std::vector<std::pair<Kind, QString>> entries{{Kind::Requested, words("requested")}};
    if (layout.global) {
        entries.emplace_back(Kind::FetchedUnused, words("fetched, unused"));
        entries.emplace_back(Kind::NotFetched, words("not fetched"));
        if (layout.showTextbook) {
            entries.emplace_back(Kind::Textbook, words("textbook transaction"));
        }
        entries.emplace_back(Kind::OneLine, words("one line: same colour and shape"));
    } else if (layout.constant) {
        entries.emplace_back(
            Kind::ConstantRound,
            words("constant-cache round Rn: one distinct address, served in turn"));
    }
    const qreal left = layout.legendRect.left();
    const qreal right = layout.legendRect.right();
    const qreal rowHeight = font.height() + 6;
    qreal x = left;
    qreal y = layout.legendRect.top();
    std::vector<WarpLegendItem> items;
    for (auto& [kind, text] : entries) {
        const qreal textWidth =
            font.horizontalAdvance(text); // as the text is drawn (its static text)
        const qreal entryWidth = kSwatchWidth + kSwatchGap + textWidth;
        if (x > left && x + entryWidth > right) {
            x = left; // this entry starts the next row
            y += rowHeight;
        }
        WarpLegendItem item;
        item.kind = kind;
        item.text = std::move(text);
        item.swatchRect =
            QRectF(x, y + (rowHeight - kSwatchHeight) / 2, kSwatchWidth, kSwatchHeight);
        item.textRect = QRectF(x + kSwatchWidth + kSwatchGap, y, textWidth, rowHeight);
        items.push_back(std::move(item));
        x += entryWidth + kEntryGap;
    }
    return items;
}

qreal warpLegendHeight(const WarpLayout& layout, const QFontMetricsF& font) {
    const std::vector<WarpLegendItem> items = warpLegendItems(layout, font);
    return items.empty() ? font.height() + 6
                         : items.back().textRect.bottom() - layout.legendRect.top();
}

} // namespace warpscope::app
