// ViewKind: the app's views by kind, and their names (the words of --view, --views, a session's
// "view" setting, a deck slide's views and the figure export) in one place. An experiment's tab is
// not a kind of its own: it is named by its key from core's experiments table
// (warpscope/experiments/experiments.h), which the app's registry reads.
#pragma once

#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

namespace warpscope::app {

enum class ViewKind {
    Warp,    // one warp's lanes over lines and sectors
    Bank,    // the shared-memory banks
    Block,   // the block's warps
    Sweep,   // the sweep plot
    Metrics, // the two models' numbers (figures and slides)
    Grid,    // every warp of the launch as a heat map
    Notes,   // the notes vs this GPU
    Tile,    // the shared-memory tile and TMA box (figures)
    Figure,  // a composed figure of several views (exports)
};

/// "warp", "bank", ...: the name scripts, sessions and decks use; stable, never renamed.
QString viewKindName(ViewKind kind);
/// The kind named `name`, or nullopt (an experiment's key, a typo).
std::optional<ViewKind> viewKindFromName(QStringView name);
/// The names of `kinds`, in that order.
QStringList viewKindNames(std::initializer_list<ViewKind> kinds);

} // namespace warpscope::app
