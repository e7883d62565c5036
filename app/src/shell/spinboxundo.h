// Ctrl+Z and Ctrl+Shift+Z in a focused spin box of the window undo and redo the document's edits.
// A QSpinBox claims those keys for its own line edit (a ShortcutOverride it accepts), so the
// Edit menu's Undo never fired while the caret was in a parameter or a launch box, although every
// value the box shows is already an undoable edit of the document.
#pragma once

class QWidget;

namespace warpscope::app {

/// From now on, the undo and redo keys pressed in any spin box inside `window` reach the window's
/// Undo and Redo actions instead of the spin box's line edit. Removed with `window`.
void installSpinBoxUndoKeys(QWidget* window);

} // namespace warpscope::app
