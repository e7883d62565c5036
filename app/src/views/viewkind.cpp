// The names of the app's view kinds (viewkind.h).
#include "views/viewkind.h"

#include <array>
#include <utility>

namespace warpscope::app {

namespace {

constexpr std::array<std::pair<ViewKind, const char*>, 9> kNames{{
    {ViewKind::Warp, "warp"},
    {ViewKind::Bank, "bank"},
    {ViewKind::Block, "block"},
    {ViewKind::Sweep, "sweep"},
    {ViewKind::Metrics, "metrics"},
    {ViewKind::Grid, "grid"},
    {ViewKind::Notes, "notes"},
    {ViewKind::Tile, "tile"},
    {ViewKind::Figure, "figure"},
}};

} // namespace

QString viewKindName(ViewKind kind) {
    for (const auto& [row, name] : kNames) {
        if (row == kind) {
            return QString::fromLatin1(name);
        }
    }
    return QStringLiteral("warp");
}

std::optional<ViewKind> viewKindFromName(QStringView name) {
    for (const auto& [kind, text] : kNames) {
        if (name == QLatin1String(text)) {
            return kind;
        }
    }
    return std::nullopt;
}

QStringList viewKindNames(std::initializer_list<ViewKind> kinds) {
    QStringList names;
    for (const ViewKind kind : kinds) {
        names << viewKindName(kind);
    }
    return names;
}

} // namespace warpscope::app
