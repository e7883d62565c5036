// TikZ export of the tile view: the shared-memory tile as 128-byte lines by 16-byte chunks (bank
// groups), each chunk filled by the TMA box column it holds and labelled with its box row and
// column and the lanes whose access starts there, conflicted chunks framed. Written from the view's
// plain data (TileView::cells(), TileView::content()), which comes from core's TMA layout and
// modern model, not from paint calls, so a course can restyle it ("ws chunk", "ws conflict").
#pragma once

#include "export/tikzexport.h"

#include <QString>

#include <warpscope/tma_layout.h>

#include <optional>

namespace warpscope::app {

class LaneHighlight;
class PatternDocument;
class TileView;

/// The tile of `view` as laid out now.
QString tileTikz(const TileView& view, const TikzOptions& options);
/// A tile view of `document`'s pattern, as TikZ: with `load` when there is one (a session's),
/// else with the TMA load its preset comes with.
QString tileTikzFor(PatternDocument& document, LaneHighlight& highlight, const TikzOptions& options,
                    const std::optional<TmaTileLoad>& load = std::nullopt);

} // namespace warpscope::app
